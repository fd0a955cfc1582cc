import GraphEngine

/// Scaling with proper resampling kernels (CICategoryGeometryAdjustment). The image is scaled about
/// the origin by `inputScale·inputAspectRatio` horizontally and `inputScale` vertically; output pixel
/// X reads input position `(X + ½)/scale` through the kernel, widened by `1/scale` when shrinking
/// (antialiasing), weights normalised to 1 over all the taps. Separable: one vertical and one
/// horizontal pass.
///
/// Core Image's edges: outside a finite input's extent the input is transparent (0 in premultiplied
/// RGBA), so the taps that fall outside weigh zeros and the border pixels come out partly
/// transparent; the output extent is the scaled extent rounded out to whole pixels,
/// `integral(x·sx, y·sy, w·sx, h·sy)` (the kernel's reach beyond it is cut). An infinite input
/// (`clampedToExtent()`) gives an infinite output, and a crop of it reads only the input pixels the
/// crop's taps reach (the region of interest maps the output rectangle back through the scale, plus
/// the kernel's support): clamp, scale, crop for edges repeated. When the input is a JPEG file
/// (directly or clamped) shrunk by 4 or more, it is decoded at 1/2, 1/4 or 1/8 (DCT scaling) leaving
/// the kernel a shrink of at least 2.
enum ResamplingFilters {
    static let categories = ["CICategoryGeometryAdjustment", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [lanczos, bicubic, scaleToImage]

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
        summary: "Scales by (scale·aspect, scale): Σ w·in / Σ w with w = L((i + ½ − u)/max(1/s, 1)), u = (X + ½)/s, L(x) = sinc(x)·sinc(x/3), |x| < 3; "
            + "in = 0 outside a finite extent (clamp first for repeated edges); extent: the scaled extent, integral.",
        inputs: scaleInputs
    ) { args in try scale(args, kernel: .lanczos3, name: "CILanczosScaleTransform") }

    /// Mitchell–Netravali cubic (B, C): `((12−9B−6C)|x|³ + (−18+12B+6C)|x|² + (6−2B))/6` for |x| < 1,
    /// `((−B−6C)|x|³ + (6B+30C)|x|² + (−12B−48C)|x| + (8B+24C))/6` for 1 ≤ |x| < 2. B = 1/3, C = 1/3 is
    /// Mitchell; B = 0, C = 0.5 Catmull-Rom.
    static let bicubic = FilterDescriptor(
        name: "CIBicubicScaleTransform", categories: categories,
        summary: "Scales by (scale·aspect, scale) with the Mitchell-Netravali cubic (B, C), widened by 1/s when shrinking, weights normalised; "
            + "0 outside a finite extent (clamp first for repeated edges); extent: the scaled extent, integral.",
        inputs: scaleInputs + [
            FilterInput("inputB", .number, default: .number(0), minimum: 0, maximum: 1, "The cubic's B."),
            FilterInput("inputC", .number, default: .number(0.75), minimum: 0, maximum: 1, "The cubic's C."),
        ]
    ) { args in
        try scale(args, kernel: .cubic(b: try args.number("inputB"), c: try args.number("inputC")), name: "CIBicubicScaleTransform")
    }

    /// The input stretched onto another image's extent, bilinearly (the tent `1 − |x|` when
    /// enlarging, widened by the shrink when shrinking): input extent e onto target extent g,
    /// output pixel X reads `u = e.minX + (X + ½ − g.minX)·e.width/g.width` (y likewise), edges
    /// repeated. Extent: the target's. A mask computed on a depth map's grid is brought to its
    /// video frame's size this way (`graph video`'s Backdrop), whatever the two sizes are, with no
    /// scale factor written in the recipe. Not a Core Image filter.
    static let scaleToImage = FilterDescriptor(
        name: "GEScaleToImage", categories: categories,
        summary: "Stretches inputImage's extent onto inputTargetImage's, bilinearly (widened when shrinking), edges repeated; extent: the target's.",
        inputs: [
            ColorAdjustmentFilters.imageInput,
            FilterInput("inputTargetImage", .image, "The image whose extent the output takes (only its extent is read)."),
        ]
    ) { args in
        let name = "GEScaleToImage"
        let image = try args.image("inputImage"), target = try args.image("inputTargetImage")
        for (key, value) in [("inputImage", image), ("inputTargetImage", target)] where value.extent.isInfinite || value.extent.isEmpty {
            throw GraphError.invalidParameter(filter: name, key: key, reason: "the image must have a finite, non-empty extent")
        }
        let e = image.extent, g = target.extent
        if e == g { return image }
        let stepX = e.width / g.width, stepY = e.height / g.height
        let resample = Resample(kernel: .linear, x: .init(step: stepX, offset: e.minX - stepX * g.minX),
                                y: .init(step: stepY, offset: e.minY - stepY * g.minY), filterName: name)
        return image.clampedToExtent().applying(resample).cropped(to: g)
    }

    static func scale(_ args: FilterArguments, kernel: Resample.Kernel, name: String) throws -> Image {
        let image = try args.image("inputImage")
        let sy = try args.number("inputScale"), sx = sy * (try args.number("inputAspectRatio"))
        if sx == 1 && sy == 1 { return image }
        return scaledTransparentOutside(image, sx: sx, sy: sy, kernel: kernel, name: name)
    }

    /// Core Image's semantics (the public filters): `image` scaled about the origin with `kernel`,
    /// reading 0 outside a finite extent, cropped to the scaled extent rounded out; an infinite
    /// image stays infinite.
    static func scaledTransparentOutside(_ image: Image, sx: Double, sy: Double, kernel: Resample.Kernel, name: String) -> Image {
        let resample = Resample(kernel: kernel, x: .init(step: 1 / sx, offset: 0), y: .init(step: 1 / sy, offset: 0), filterName: name)
        let e = image.extent
        if e.isInfinite { return image.applying(resample) }
        return image.applying(resample).cropped(to: scaledExtent(e, sx: sx, sy: sy))
    }

    /// The output extent of a scale of a finite extent: the scaled rectangle rounded out.
    static func scaledExtent(_ e: Rect, sx: Double, sy: Double) -> Rect {
        Rect(x: e.minX * sx, y: e.minY * sy, width: e.width * sx, height: e.height * sy).integral
    }

    /// For the engine's own uses (the depth effects' working scale): a finite image scaled about
    /// the origin with `kernel`, edges repeated (clamped to its extent first), cropped to the scaled
    /// extent rounded out. Not Core Image's edges: see ``scaledTransparentOutside(_:sx:sy:kernel:name:)``.
    static func scaled(_ image: Image, sx: Double, sy: Double, kernel: Resample.Kernel, name: String) -> Image {
        let resample = Resample(kernel: kernel, x: .init(step: 1 / sx, offset: 0), y: .init(step: 1 / sy, offset: 0), filterName: name)
        return image.clampedToExtent().applying(resample).cropped(to: scaledExtent(image.extent, sx: sx, sy: sy))
    }
}
