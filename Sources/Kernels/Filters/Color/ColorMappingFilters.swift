import GraphEngine

/// Colour effects that remap colours: tints, ramps, posterize, thresholds, dither
/// (CICategoryColorEffect). Luma weights are Apple's 0.2125, 0.7154, 0.0721.
enum ColorMappingFilters {
    static let categories = ColorEffectFilters.categories
    static let imageInput = ColorAdjustmentFilters.imageInput
    static let all: [FilterDescriptor] = [
        monochrome, posterize, falseColor, colorMap, maximumComponent, minimumComponent, threshold, thresholdOtsu, dither,
    ]

    /// Ours (Apple's kernel is not public), the GPUImage monochrome filter's form: with
    /// `L = luma(c)` and tone `t`, `toned = L < 0.5 ? 2·L·t : 1 − 2·(1 − L)·(1 − t)` (an overlay of
    /// the tone on the grey), `rgb' = mix(rgb, toned, intensity)` on unpremultiplied colour.
    static let monochrome = FilterDescriptor(
        name: "CIColorMonochrome", categories: categories,
        summary: "Remaps colours to shades of one colour.",
        inputs: [imageInput,
                 FilterInput("inputColor", .color, default: .color([0.6, 0.45, 0.3, 1]), "The tone (sRGB unless given linear)."),
                 FilterInput("inputIntensity", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0...1,
                             "0 is the original, 1 fully toned.")]
    ) { args in
        let image = try args.image("inputImage")
        let intensity = try args.number("inputIntensity")
        if intensity == 0 { return image }
        return try monochromeKernel.apply([.image(image), .image(try args.colorImage("inputColor")), .number(intensity)],
                                          extent: image.extent)
    }

    static let monochromeKernel = CatalogueKernel("""
        kernel vec4 CIColorMonochrome(__sample s, __sample tone, float intensity) {
            vec4 c = unpremultiply(s);
            vec3 t = unpremultiply(tone).rgb;
            float luma = dot(c.rgb, vec3(0.2125, 0.7154, 0.0721));
            vec3 toned = luma < 0.5 ? 2.0 * luma * t : 1.0 - 2.0 * (1.0 - luma) * (1.0 - t);
            c.rgb = mix(c.rgb, toned, intensity);
            return premultiply(c);
        }
        """)

    /// `c' = floor(c·(n − 1) + 0.5)/(n − 1)` per colour channel on unpremultiplied colour: exactly
    /// `n` = inputLevels values from 0 to 1 (Apple: "remaps … to the number of brightness values
    /// you specify"; the rounding is ours).
    static let posterize = FilterDescriptor(
        name: "CIColorPosterize", categories: categories,
        summary: "Reduces each colour channel to a number of levels.",
        inputs: [imageInput, FilterInput("inputLevels", .number, default: .number(6), minimum: 2, maximum: 256, slider: 2...30,
                                         "Levels per channel.")]
    ) { args in
        try posterizeKernel.apply([.image(try args.image("inputImage")), .number(try args.number("inputLevels") - 1)])
    }

    static let posterizeKernel = CatalogueKernel("""
        kernel vec4 CIColorPosterize(__sample s, float steps) {
            vec4 c = unpremultiply(s);
            c.rgb = floor(c.rgb * steps + 0.5) / steps;
            return premultiply(c);
        }
        """)

    /// `out = mix(color0, color1, clamp(L, 0, 1))` (unpremultiplied RGBA ramp), its alpha times the
    /// source alpha: luma mapped onto a two-colour ramp.
    static let falseColor = FilterDescriptor(
        name: "CIFalseColor", categories: categories,
        summary: "Maps luma to a ramp between two colours.",
        inputs: [imageInput,
                 FilterInput("inputColor0", .color, default: .color([0.3, 0, 0, 1]), "The colour for black."),
                 FilterInput("inputColor1", .color, default: .color([1, 0.9, 0.8, 1]), "The colour for white.")]
    ) { args in
        let image = try args.image("inputImage")
        return try falseColorKernel.apply([.image(image), .image(try args.colorImage("inputColor0")),
                                           .image(try args.colorImage("inputColor1"))], extent: image.extent)
    }

    static let falseColorKernel = CatalogueKernel("""
        kernel vec4 CIFalseColor(__sample s, __sample color0, __sample color1) {
            vec4 c = unpremultiply(s);
            float luma = clamp(dot(c.rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
            vec4 ramp = mix(unpremultiply(color0), unpremultiply(color1), luma);
            return premultiply(vec4(ramp.rgb, ramp.a * c.a));
        }
        """)

    /// The gradient image's bottom row as a table indexed by luma: with `L = clamp(luma(c), 0, 1)`
    /// and the gradient's extent `[x y w h]`, `out = G(x + 0.5 + L·(w − 1), y + 0.5)·a` (sampled
    /// bilinearly, so the table is interpolated linearly; premultiplied, times the source alpha).
    /// Ours: Apple documents only "a nonlinear transformation of source colour values using mapping
    /// values provided in a table".
    static let colorMap = FilterDescriptor(
        name: "CIColorMap", categories: categories,
        summary: "Maps luma through a table given as an image (its bottom row).",
        inputs: [imageInput, FilterInput("inputGradientImage", .image, "The table, left (luma 0) to right (luma 1).")]
    ) { args in
        let image = try args.image("inputImage"), gradient = try args.image("inputGradientImage")
        guard !gradient.extent.isInfinite, !gradient.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: "CIColorMap", key: "inputGradientImage",
                                              reason: "the table needs a finite extent (crop the gradient), got \(gradient.extent)")
        }
        let row = Rect(x: gradient.extent.x, y: gradient.extent.y, width: gradient.extent.width, height: 1)
        return try colorMapKernel.apply([.image(image), .image(gradient)], extent: image.extent,
                                        regionOfInterest: .callback { index, rect in index == 0 ? rect : row })
    }

    static let colorMapKernel = CatalogueKernel("""
        kernel vec4 CIColorMap(sampler image, sampler gradient) {
            vec4 s = sample(image, samplerCoord(image));
            vec4 c = unpremultiply(s);
            float luma = clamp(dot(c.rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
            vec4 e = samplerExtent(gradient);
            return sample(gradient, vec2(e.x + 0.5 + luma * (e.z - 1.0), e.y + 0.5)) * s.a;
        }
        """)

    /// `rgb' = max(r, g, b)` (grey), alpha kept; on premultiplied colour it is the same.
    static let maximumComponent = FilterDescriptor(
        name: "CIMaximumComponent", categories: categories, summary: "Grey from the largest colour component.",
        inputs: [imageInput]
    ) { args in
        try maximumComponentKernel.apply([.image(try args.image("inputImage"))])
    }

    static let maximumComponentKernel = CatalogueKernel("""
        kernel vec4 CIMaximumComponent(__sample s) {
            float m = max(s.r, max(s.g, s.b));
            return vec4(m, m, m, s.a);
        }
        """)

    /// `rgb' = min(r, g, b)` (grey), alpha kept.
    static let minimumComponent = FilterDescriptor(
        name: "CIMinimumComponent", categories: categories, summary: "Grey from the smallest colour component.",
        inputs: [imageInput]
    ) { args in
        try minimumComponentKernel.apply([.image(try args.image("inputImage"))])
    }

    static let minimumComponentKernel = CatalogueKernel("""
        kernel vec4 CIMinimumComponent(__sample s) {
            float m = min(s.r, min(s.g, s.b));
            return vec4(m, m, m, s.a);
        }
        """)

    /// `c' = c > threshold ? 1 : 0` per colour channel on unpremultiplied colour, alpha kept (Apple:
    /// "one if its value is greater than the threshold and zero otherwise").
    static let threshold = FilterDescriptor(
        name: "CIColorThreshold", categories: categories, summary: "Sets each colour channel to 0 or 1 by a threshold.",
        inputs: [imageInput, FilterInput("inputThreshold", .number, default: .number(0.5), slider: 0...1, "The threshold.")]
    ) { args in
        try thresholdKernel.apply([.image(try args.image("inputImage")), .number(try args.number("inputThreshold"))])
    }

    static let thresholdKernel = CatalogueKernel("""
        kernel vec4 CIColorThreshold(__sample s, float t) {
            vec4 c = unpremultiply(s);
            return premultiply(vec4(c.r > t ? 1.0 : 0.0, c.g > t ? 1.0 : 0.0, c.b > t ? 1.0 : 0.0, c.a));
        }
        """)

    /// CIColorThreshold with the threshold found by Otsu's method (the split of a histogram that
    /// maximises the between-class variance): a 256-bin histogram of the luma of the unpremultiplied
    /// colour (clamped to 0…1) over the image's finite extent; the threshold is the upper edge of
    /// the last bin of the dark class, `(k + 1)/256`. Ours: Apple does not say what the histogram is
    /// taken of. The threshold is a reduction (``AreaReduction``), a 1×1 image read clamped to its
    /// extent (a constant), so the comparison is a colour kernel that fuses with what follows.
    static let thresholdOtsu = FilterDescriptor(
        name: "CIColorThresholdOtsu", categories: categories,
        summary: "Sets each colour channel to 0 or 1 by the threshold Otsu's method finds.",
        inputs: [imageInput]
    ) { args in
        let image = try args.image("inputImage")
        guard !image.extent.isInfinite else {
            throw GraphError.invalidParameter(filter: "CIColorThresholdOtsu", key: "inputImage",
                                              reason: "the histogram needs a finite extent (crop the image first)")
        }
        let threshold = image.applying(AreaReduction(name: "CIColorThresholdOtsu", kind: .otsuThreshold, area: image.extent.integral))
        return try thresholdImageKernel.apply([.image(image), .image(threshold.clampedToExtent())], extent: image.extent)
    }

    static let thresholdImageKernel = CatalogueKernel("""
        kernel vec4 CIColorThresholdOtsu(__sample s, __sample threshold) {
            vec4 c = unpremultiply(s);
            float t = threshold.r;
            return premultiply(vec4(c.r > t ? 1.0 : 0.0, c.g > t ? 1.0 : 0.0, c.b > t ? 1.0 : 0.0, c.a));
        }
        """)

    /// Ours (Apple: "applies randomized noise to produce a processed look", usually in a perceptual
    /// space): in sRGB-encoded colour, `rgb' = rgb + intensity·(n − 0.5)` with `n` three channels
    /// of CIRandomGenerator's noise at the pixel (deterministic), on unpremultiplied colour.
    static let dither = FilterDescriptor(
        name: "CIDither", categories: categories, summary: "Adds noise, in sRGB-encoded colour.",
        inputs: [imageInput, FilterInput("inputIntensity", .number, default: .number(0.1), minimum: 0, maximum: 5, slider: 0...5,
                                         "The noise's peak-to-peak amplitude in sRGB-encoded units.")]
    ) { args in
        let image = try args.image("inputImage")
        let intensity = try args.number("inputIntensity")
        if intensity == 0 { return image }
        return try image.applyingInSpace(.sRGB) { try ditherKernel.apply([.image($0), .number(intensity)]) }
    }

    static let ditherKernel = CatalogueKernel(GeneratorFilters.randomSource + """
        kernel vec4 CIDither(__sample s, float intensity) {
            vec4 c = unpremultiply(s);
            c.rgb += intensity * (random4(floor(destCoord())).rgb - 0.5);
            return premultiply(c);
        }
        """)
}
