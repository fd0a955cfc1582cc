import GraphEngine

/// Sharpening and noise reduction (CICategorySharpen), each a Gaussian blur of the image clamped to
/// its extent combined with the image by one colour operation. Extent: the input's.
enum SharpenFilters {
    static let categories = ["CICategorySharpen", "CICategoryStillImage", "CICategoryVideo"]
    static let all: [FilterDescriptor] = [unsharpMask, sharpenLuminance, noiseReduction]

    /// `rgb + intensity·(rgb − blur(rgb))`, blur a Gaussian of σ = inputRadius; alpha kept.
    static let unsharpMask = FilterDescriptor(
        name: "CIUnsharpMask", categories: categories,
        summary: "Sharpens: rgb + intensity·(rgb − blur(rgb)), blur a Gaussian of σ = inputRadius (edges repeated); alpha kept.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(2.5), minimum: 0, maximum: 1000, slider: 0...100,
                             "The blur's standard deviation."),
                 FilterInput("inputIntensity", .number, default: .number(0.5), minimum: 0, slider: 0...1, "The amount added.")]
    ) { args in
        let image = try args.image("inputImage"), intensity = try args.number("inputIntensity")
        let radius = try args.number("inputRadius")
        if intensity == 0 || BlurFilters.gaussianWeights(sigma: radius).count == 1 { return image }
        let blurred = NeighbourhoodBlurFilters.clampedBlur(image, sigma: radius, name: "CIUnsharpMask")
        return image.applying(AreaCombineOperation(.unsharp, [Float(intensity)]), with: [blurred], extent: image.extent)
    }

    /// `rgb + sharpness·(L(s) − L(blur(s)))` with L = 0.2125 r + 0.7154 g + 0.0721 b and blur a
    /// Gaussian of σ = inputRadius: the same delta on R, G and B sharpens luma and leaves chroma.
    /// Apple's kernel is not public; this is ours.
    static let sharpenLuminance = FilterDescriptor(
        name: "CISharpenLuminance", categories: categories,
        summary: "Sharpens luma only: rgb + sharpness·(L(s) − L(blur(s))), L = 0.2125 r + 0.7154 g + 0.0721 b, blur a Gaussian of σ = inputRadius.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputSharpness", .number, default: .number(0.4), minimum: 0, slider: 0...2, "The amount."),
                 FilterInput("inputRadius", .number, default: .number(1.69), minimum: 0, maximum: 1000, slider: 0...20,
                             "The blur's standard deviation.")]
    ) { args in
        let image = try args.image("inputImage"), sharpness = try args.number("inputSharpness")
        let radius = try args.number("inputRadius")
        if sharpness == 0 || BlurFilters.gaussianWeights(sigma: radius).count == 1 { return image }
        let blurred = NeighbourhoodBlurFilters.clampedBlur(image, sigma: radius, name: "CISharpenLuminance")
        return image.applying(AreaCombineOperation(.sharpenLuminance, [Float(sharpness)]), with: [blurred], extent: image.extent)
    }

    /// With `b` a Gaussian blur of σ = 1 and `d = s − b`: `t = smoothstep(n, 2n, |L(d)|)` and
    /// `rgb = b + (1 + sharpness)·t·d` (alpha kept). Detail below the noise level n is smoothed
    /// away; detail above it is kept and sharpened. Apple's method is not public; this is ours.
    static let noiseReduction = FilterDescriptor(
        name: "CINoiseReduction", categories: ["CICategoryBlur", "CICategoryStillImage", "CICategoryVideo"],
        summary: "Reduces noise: d = s − b (b a Gaussian of σ 1), t = smoothstep(n, 2n, |L(d)|), rgb = b + (1 + sharpness)·t·d.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputNoiseLevel", .number, default: .number(0.02), minimum: 0, slider: 0...0.1,
                             "Luma differences below this are noise."),
                 FilterInput("inputSharpness", .number, default: .number(0.4), minimum: 0, slider: 0...2,
                             "How much the kept detail is sharpened.")]
    ) { args in
        let image = try args.image("inputImage")
        let level = max(try args.number("inputNoiseLevel"), 1e-6), sharpness = try args.number("inputSharpness")
        let blurred = NeighbourhoodBlurFilters.clampedBlur(image, sigma: 1, name: "CINoiseReduction")
        return image.applying(AreaCombineOperation(.noiseReduction, [Float(level), Float(sharpness)]), with: [blurred],
                              extent: image.extent)
    }
}
