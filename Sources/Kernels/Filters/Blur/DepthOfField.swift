import Foundation
import GraphEngine

/// CIDepthOfField (CICategoryStylize): Core Image's tilt-shift miniature, not a depth-map blur. The
/// line through inputPoint0 and inputPoint1 stays sharp and the picture blurs away from it, built
/// from this catalogue's filters (Apple's graph and its falloff are not public; this one is ours):
///
/// - `s` = CIColorControls with saturation inputSaturation (toy-like colour);
/// - `sharp` = CIUnsharpMask of `s` with inputUnsharpMaskRadius and inputUnsharpMaskIntensity;
/// - `blurred` = CIGaussianBlur of σ = inputRadius of `s` clamped to its extent;
/// - with `n` the unit normal of the line and `D = |p1 − p0|/2`, `t = clamp(|(p − p0)·n|/D, 0, 1)`
///   at pixel centre p and `m = t²(3 − 2t)`: `out = mix(sharp, blurred, m)`, sharp on the line,
///   fully blurred D pixels from it.
///
/// Extent the input's.
enum DepthOfField {
    static let filter: FilterDescriptor = FilterDescriptor(
        name: "CIDepthOfField", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage"],
        summary: "Tilt-shift (ours in detail): saturation, then mix(unsharp-masked, Gaussian-blurred, smoothstep(|distance to the line "
            + "p0 p1|/(|p1 − p0|/2))); extent the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputPoint0", .vector, default: .vector([0, 300]), count: 2, "A point of the line kept in focus."),
                 FilterInput("inputPoint1", .vector, default: .vector([300, 300]), count: 2,
                             "Another point of the line; the blur is full at half their distance from the line."),
                 FilterInput("inputSaturation", .number, default: .number(1.5), minimum: 0, slider: 0...10, "The saturation (1 unchanged)."),
                 FilterInput("inputUnsharpMaskRadius", .number, default: .number(2.5), minimum: 0, slider: 0...10,
                             "The σ in pixels of the unsharp mask sharpening the focused part."),
                 FilterInput("inputUnsharpMaskIntensity", .number, default: .number(0.5), minimum: 0, slider: 0...10,
                             "The unsharp mask's amount."),
                 FilterInput("inputRadius", .number, default: .number(6), minimum: 0, slider: 0...30,
                             "The σ in pixels of the blur away from the line.")]
    ) { args in
        let image = try args.image("inputImage")
        let p0 = try args.vector("inputPoint0"), p1 = try args.vector("inputPoint1")
        let dx = p1[0] - p0[0], dy = p1[1] - p0[1], length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else {
            throw GraphError.invalidParameter(filter: "CIDepthOfField", key: "inputPoint1", reason: "the two points must differ to make a line")
        }
        let radius = try args.number("inputRadius"), unsharpRadius = try args.number("inputUnsharpMaskRadius")
        for (key, value) in [("inputRadius", radius), ("inputUnsharpMaskRadius", unsharpRadius)] where value > 1000 {
            throw GraphError.invalidParameter(filter: "CIDepthOfField", key: key, reason: "\(value) is above 1000 pixels")
        }
        let registry = FilterRegistry.standard
        let saturated = try registry.apply("CIColorControls", parameters: [
            "inputImage": .image(image), "inputSaturation": .number(try args.number("inputSaturation"))])
        let sharp = try registry.apply("CIUnsharpMask", parameters: [
            "inputImage": .image(saturated), "inputRadius": .number(unsharpRadius),
            "inputIntensity": .number(try args.number("inputUnsharpMaskIntensity"))])
        let blurred = NeighbourhoodBlurFilters.clampedBlur(saturated, sigma: radius, name: "CIDepthOfField_blur")
        return try kernel.apply([.image(sharp), .image(blurred), .vector(p0), .vector([-dy / length, dx / length]), .number(2 / length)],
                                extent: image.extent)
    }

    static let kernel = CatalogueKernel("""
        kernel vec4 CIDepthOfField(__sample sharp, __sample blurred, vec2 p0, vec2 normal, float inverseReach) {
            float t = clamp(abs(dot(destCoord() - p0, normal)) * inverseReach, 0.0, 1.0);
            return mix(sharp, blurred, t * t * (3.0 - 2.0 * t));
        }
        """)
}
