import Foundation
import GraphEngine

/// Blurs (CICategoryBlur).
enum BlurFilters {
    static let all: [FilterDescriptor] = [gaussian]

    /// Separable Gaussian with σ = inputRadius (Core Image's radius is the standard deviation). Taps
    /// reach ⌈3σ⌉; each weight is the Gaussian's mass over its pixel,
    /// `0.5·(erf((k+0.5)/(√2σ)) − erf((k−0.5)/(√2σ)))`, normalised to sum 1. The extent grows by the
    /// tap radius (transparent pixels blur in; clamp to extent first to avoid dark edges).
    static let gaussian = FilterDescriptor(
        name: "CIGaussianBlur", categories: ["CICategoryBlur", "CICategoryStillImage", "CICategoryVideo"],
        summary: "Blurs with a Gaussian of standard deviation inputRadius.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(10), minimum: 0, maximum: 1000, slider: 0...100,
                             "The standard deviation in pixels.")]
    ) { args in
        let sigma = try args.number("inputRadius")
        let image = try args.image("inputImage")
        let weights = gaussianWeights(sigma: sigma)
        if weights.count == 1 { return image }
        return image.applying(Convolution(axis: .horizontal, weights: weights, filterName: "CIGaussianBlur"))
            .applying(Convolution(axis: .vertical, weights: weights, filterName: "CIGaussianBlur"))
    }

    /// Normalised pixel-integrated Gaussian weights out to ⌈3σ⌉ (a single 1 when σ is negligible).
    static func gaussianWeights(sigma: Double) -> [Float] {
        guard sigma > 0.01 else { return [1] }
        let radius = Int((3 * sigma).rounded(.up))
        let scale = 1 / (sqrt(2) * sigma)
        var weights = (-radius...radius).map { k -> Double in
            0.5 * (erf((Double(k) + 0.5) * scale) - erf((Double(k) - 0.5) * scale))
        }
        let sum = weights.reduce(0, +)
        weights = weights.map { $0 / sum }
        return weights.map { Float($0) }
    }
}
