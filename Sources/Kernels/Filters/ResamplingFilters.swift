import GraphEngine

/// Scaling with proper resampling kernels (CICategoryGeometryAdjustment). The image is scaled about
/// the origin by `inputScale·inputAspectRatio` horizontally and `inputScale` vertically; output pixel
/// X reads input position `(X + ½)/scale` through the kernel, widened by `1/scale` when shrinking
/// (antialiasing), weights normalised to 1, edge pixels repeated. Separable: one vertical and one
/// horizontal pass. The output extent is the scaled extent, rounded out to whole pixels. When the
/// input is a JPEG file shrunk by 4 or more, it is decoded at 1/2, 1/4 or 1/8 (DCT scaling) leaving
/// the kernel a shrink of at least 2.
enum ResamplingFilters {
    static let categories = ["CICategoryGeometryAdjustment", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [lanczos, bicubic]

    static let scaleInputs = [
        ColorAdjustmentFilters.imageInput,
        FilterInput("inputScale", .number, default: .number(1), minimum: 0.001, maximum: 100, slider: 0.05...1.5,
                    "The vertical scale factor."),
        FilterInput("inputAspectRatio", .number, default: .number(1), minimum: 0.001, maximum: 100, slider: 0.05...2,
                    "The horizontal scale relative to the vertical one."),
    ]

    /// Lanczos-3: `L(x) = sinc(x)·sinc(x/3)` for |x| < 3.
    static let lanczos = FilterDescriptor(
        name: "CILanczosScaleTransform", categories: categories,
        summary: "Scales by (scale·aspect, scale): Σ w·in / Σ w with w = L((i + ½ − u)/max(1/s, 1)), u = (X + ½)/s, L(x) = sinc(x)·sinc(x/3), |x| < 3.",
        inputs: scaleInputs
    ) { args in try scale(args, kernel: .lanczos3, name: "CILanczosScaleTransform") }

    /// Mitchell–Netravali cubic (B, C): `((12−9B−6C)|x|³ + (−18+12B+6C)|x|² + (6−2B))/6` for |x| < 1,
    /// `((−B−6C)|x|³ + (6B+30C)|x|² + (−12B−48C)|x| + (8B+24C))/6` for 1 ≤ |x| < 2. B = 1/3, C = 1/3 is
    /// Mitchell; B = 0, C = 0.5 Catmull-Rom.
    static let bicubic = FilterDescriptor(
        name: "CIBicubicScaleTransform", categories: categories,
        summary: "Scales by (scale·aspect, scale) with the Mitchell-Netravali cubic (B, C), widened by 1/s when shrinking, weights normalised.",
        inputs: scaleInputs + [
            FilterInput("inputB", .number, default: .number(0), minimum: 0, maximum: 1, "The cubic's B."),
            FilterInput("inputC", .number, default: .number(0.75), minimum: 0, maximum: 1, "The cubic's C."),
        ]
    ) { args in
        try scale(args, kernel: .cubic(b: try args.number("inputB"), c: try args.number("inputC")), name: "CIBicubicScaleTransform")
    }

    static func scale(_ args: FilterArguments, kernel: Resample.Kernel, name: String) throws -> Image {
        let image = try args.image("inputImage")
        let sy = try args.number("inputScale"), sx = sy * (try args.number("inputAspectRatio"))
        if sx == 1 && sy == 1 { return image }
        if image.extent.isInfinite {
            throw GraphError.invalidParameter(filter: name, key: "inputImage", reason: "the image is infinite: crop it first")
        }
        return scaled(image, sx: sx, sy: sy, kernel: kernel, name: name)
    }

    /// A finite image scaled about the origin with `kernel`, edges repeated, cropped to the scaled
    /// extent rounded out.
    static func scaled(_ image: Image, sx: Double, sy: Double, kernel: Resample.Kernel, name: String) -> Image {
        let e = image.extent
        let resample = Resample(kernel: kernel, x: .init(step: 1 / sx, offset: 0), y: .init(step: 1 / sy, offset: 0), filterName: name)
        return image.clampedToExtent().applying(resample)
            .cropped(to: Rect(x: e.minX * sx, y: e.minY * sy, width: e.width * sx, height: e.height * sy).integral)
    }
}
