import GraphEngine

/// Preset looks and vignettes (CICategoryColorEffect).
enum LookFilters {
    static let categories = ColorEffectFilters.categories
    static let imageInput = ColorAdjustmentFilters.imageInput
    static let all: [FilterDescriptor] = photoEffects.map(photoEffect) + [vignette, vignetteEffect]

    // MARK: Photo effects

    /// One photo-effect preset: a colour-controls matrix on sRGB-encoded colour,
    /// `rgb' = contrast·mix(L, gains·rgb, saturation) + 0.5·(1 − contrast) + lift` (L the luma of
    /// `gains·rgb`, Apple's weights), clamped to 0…1 when `clamps`.
    struct PhotoEffect {
        let name: String
        let summary: String
        let saturation: Double, contrast: Double, lift: Double
        var gains: [Double] = [1, 1, 1]
        var clamps = false

        /// The preset's matrix (row-major 3×3) and bias.
        var matrix: (rgb: [Double], bias: [Double]) {
            let w = ColorAdjustmentFilters.luma
            var m: [Double] = []
            for row in 0..<3 {
                for column in 0..<3 {
                    let saturated = (row == column ? saturation : 0) + (1 - saturation) * w[column]
                    m.append(contrast * saturated * gains[column])
                }
            }
            let offset = 0.5 * (1 - contrast) + lift
            return (m, [offset, offset, offset])
        }
    }

    /// Apple's presets are not public (believed to be baked lookup tables); these are ours,
    /// following Apple's descriptions of each look.
    static let photoEffects: [PhotoEffect] = [
        PhotoEffect(name: "CIPhotoEffectMono", summary: "Black-and-white film with low contrast",
                    saturation: 0, contrast: 0.8, lift: 0.03),
        PhotoEffect(name: "CIPhotoEffectNoir", summary: "Black-and-white film with exaggerated contrast",
                    saturation: 0, contrast: 1.6, lift: 0, clamps: true),
        PhotoEffect(name: "CIPhotoEffectTonal", summary: "Black-and-white film without a change of contrast",
                    saturation: 0, contrast: 1, lift: 0),
        PhotoEffect(name: "CIPhotoEffectChrome", summary: "Vintage film with exaggerated colour",
                    saturation: 1.3, contrast: 1.1, lift: 0),
        PhotoEffect(name: "CIPhotoEffectFade", summary: "Vintage film with diminished colour",
                    saturation: 0.6, contrast: 0.85, lift: 0.06),
        PhotoEffect(name: "CIPhotoEffectInstant", summary: "Vintage instant film with distorted colour",
                    saturation: 0.85, contrast: 0.95, lift: 0.04, gains: [1.06, 1, 0.9]),
        PhotoEffect(name: "CIPhotoEffectProcess", summary: "Vintage film emphasising cool colours",
                    saturation: 0.9, contrast: 1.1, lift: 0, gains: [0.94, 1, 1.08]),
        PhotoEffect(name: "CIPhotoEffectTransfer", summary: "Vintage film emphasising warm colours",
                    saturation: 1.1, contrast: 1.05, lift: 0.02, gains: [1.08, 1.02, 0.88]),
    ]

    /// Ours: a colour matrix on sRGB-encoded colour (the image is matched from the working space to
    /// sRGB and back; with colour management off the stored values are taken as sRGB-encoded), so
    /// it folds with neighbouring matrices. See ``PhotoEffect`` and each preset's numbers.
    static func photoEffect(_ effect: PhotoEffect) -> FilterDescriptor {
        let (rgb, bias) = effect.matrix
        let numbers = "saturation \(effect.saturation), contrast \(effect.contrast), lift \(effect.lift)"
            + (effect.gains == [1, 1, 1] ? "" : ", gains \(effect.gains)") + (effect.clamps ? ", clamped to 0…1" : "")
        return FilterDescriptor(
            name: effect.name, categories: categories + ["CICategoryXMPSerializable"],
            summary: "\(effect.summary) (ours, on sRGB-encoded colour: \(numbers)).",
            inputs: [imageInput]
        ) { args in
            try args.image("inputImage").applyingInSpace(.sRGB) { encoded in
                let looked = encoded.applyingColorMatrix(ColorMatrix(rgb: rgb, bias: bias, sourceName: effect.name))
                return effect.clamps ? looked.applying(ColorClampOperation(minimum: [0, 0, 0, 0], maximum: [1, 1, 1, 1])) : looked
            }
        }
    }

    // MARK: Vignettes

    /// Ours (Apple's falloff is not public): with the extent's centre `c` and
    /// `R = radius·½·|extent size|` (half the diagonal at radius 1), `d = |p − c|/R`,
    /// `rgb' = rgb·(1 − intensity·smoothstep(0.5, 1, d))`: the corners darken (brighten for a
    /// negative intensity). Needs a finite extent.
    static let vignette = FilterDescriptor(
        name: "CIVignette", categories: categories,
        summary: "Darkens the image towards its corners.",
        inputs: [imageInput,
                 FilterInput("inputIntensity", .number, default: .number(0), minimum: -1, maximum: 1, slider: -1...1,
                             "How much the corners darken (negative: brighten)."),
                 FilterInput("inputRadius", .number, default: .number(1), minimum: 0, maximum: 2, slider: 0...2,
                             "The size, in half diagonals of the extent.")]
    ) { args in
        let image = try args.image("inputImage")
        let intensity = try args.number("inputIntensity")
        if intensity == 0 { return image }
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw GraphError.invalidParameter(filter: "CIVignette", key: "inputImage",
                                              reason: "a vignette needs a finite extent (crop the image first)")
        }
        let r = try args.number("inputRadius") * 0.5 * (e.width * e.width + e.height * e.height).squareRoot()
        return try vignetteKernel.apply([.image(image), .vector([e.x + e.width / 2, e.y + e.height / 2]), .number(r > 0 ? 1 / r : 1e30),
                                         .number(0.5), .number(1), .number(intensity)])
    }

    /// Ours: `t = smoothstep(radius·(1 − falloff), radius·(1 + falloff), |p − center|)`,
    /// `rgb' = rgb·(1 − intensity·t)` (the two edges kept at least 0.001 apart).
    static let vignetteEffect = FilterDescriptor(
        name: "CIVignetteEffect", categories: categories,
        summary: "Darkens the image outside a circle.",
        inputs: [imageInput,
                 FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2, "The circle's centre."),
                 FilterInput("inputRadius", .number, default: .number(150), minimum: 0, slider: 0...2000, "The circle's radius."),
                 FilterInput("inputIntensity", .number, default: .number(1), minimum: -1, maximum: 1, slider: -1...1,
                             "How much the outside darkens (negative: brightens)."),
                 FilterInput("inputFalloff", .number, default: .number(0.5), minimum: 0, maximum: 1, slider: 0...1,
                             "The width of the transition, as a fraction of the radius either side.")]
    ) { args in
        let image = try args.image("inputImage")
        let radius = try args.number("inputRadius"), falloff = try args.number("inputFalloff")
        let inner = radius * (1 - falloff), outer = max(radius * (1 + falloff), inner + 0.001)
        return try vignetteKernel.apply([.image(image), .vector(try args.vector("inputCenter")), .number(1),
                                         .number(inner), .number(outer), .number(try args.number("inputIntensity"))])
    }

    static let vignetteKernel = CatalogueKernel("""
        kernel vec4 vignette(__sample s, vec2 center, float scale, float inner, float outer, float intensity) {
            float t = smoothstep(inner, outer, distance(destCoord(), center) * scale);
            return vec4(s.rgb * (1.0 - intensity * t), s.a);
        }
        """)
}
