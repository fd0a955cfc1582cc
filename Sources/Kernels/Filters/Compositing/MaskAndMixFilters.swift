import GraphEngine

/// Small utilities of Core Image's catalogue: a mask made alpha (CIMaskToAlpha), a two-picture
/// mix (CIMix), the colour difference (CIColorAbsoluteDifference) and the rectangle clamp
/// (CIClamp). Apple describes each in a sentence; the formulas below follow those sentences.
enum MaskAndMixFilters {
    static let all: [FilterDescriptor] = [maskToAlpha, mix, absoluteDifference, clamp]

    /// A grey mask as white masked by its tone: `a = luma(rgb)` of the premultiplied colour
    /// (Rec. 709 weights 0.2125, 0.7154, 0.0721; transparent stays transparent), `out = (a, a, a, a)`.
    static let maskToAlpha = FilterDescriptor(
        name: "CIMaskToAlpha",
        categories: ["CICategoryColorEffect", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels", "CICategoryStillImage"],
        summary: "A mask made alpha: a = luma of the premultiplied colour (Rec. 709), out = (a, a, a, a), white masked by the tone.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in try maskToAlphaKernel.apply([.image(try args.image("inputImage"))]) }

    static let maskToAlphaKernel = CatalogueKernel("""
        kernel vec4 CIMaskToAlpha(__sample s) {
            float a = dot(s.rgb, vec3(0.2125, 0.7154, 0.0721));
            return vec4(a, a, a, a);
        }
        """)

    /// `out = background + amount·(image − background)` (premultiplied; Apple: "uses amount to
    /// interpolate between the image and the background"); extent the union.
    static let mix = FilterDescriptor(
        name: "CIMix", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "out = background + amount·(image − background), premultiplied; extent the union of both.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputBackgroundImage", .image, "The image mixed with the input."),
                 FilterInput("inputAmount", .number, default: .number(1), slider: 0...1, "How much of the input: 1 all, 0 none.")]
    ) { args in
        try mixKernel.apply([.image(try args.image("inputImage")), .image(try args.image("inputBackgroundImage")),
                             .number(try args.number("inputAmount"))])
    }

    static let mixKernel = CatalogueKernel("""
        kernel vec4 CIMix(__sample s, __sample background, float amount) {
            return background + amount * (s - background);
        }
        """)

    /// Apple: "the absolute value of the colour difference … the alpha channel of the result will
    /// be the product of the two images' alpha": `rgb = |rgb₁ − rgb₂|` on unpremultiplied colour,
    /// `a = a₁·a₂`, premultiplied; extent the intersection (the alpha is 0 elsewhere).
    static let absoluteDifference = FilterDescriptor(
        name: "CIColorAbsoluteDifference",
        categories: ["CICategoryColorAdjustment", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels",
                     "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "rgb = |rgb1 − rgb2| (unpremultiplied), a = a1·a2, premultiplied; extent the intersection.",
        inputs: [ColorAdjustmentFilters.imageInput, FilterInput("inputImage2", .image, "The image subtracted.")]
    ) { args in
        let a = try args.image("inputImage"), b = try args.image("inputImage2")
        return try absoluteDifferenceKernel.apply([.image(a), .image(b)], extent: a.extent.intersection(b.extent))
    }

    static let absoluteDifferenceKernel = CatalogueKernel("""
        kernel vec4 CIColorAbsoluteDifference(__sample s, __sample t) {
            float a = s.a * t.a;
            return vec4(abs(unpremultiply(s).rgb - unpremultiply(t).rgb) * a, a);
        }
        """)

    /// The picture inside `inputExtent` kept and its edge pixels repeated outwards (Apple's
    /// description): `image.cropped(to: extent).clampedToExtent()`, infinite extent. Ours: Core
    /// Image's default, the empty rectangle, clamps at the image's own extent.
    static let clamp = FilterDescriptor(
        name: "CIClamp", categories: ["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "The picture inside the rectangle with its edge pixels repeated outwards (crop, then clamp to extent); "
            + "the empty default rectangle means the image's extent; infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 0, height: 0)),
                             "The rectangle kept; empty: the image's extent.")]
    ) { args in
        let image = try args.image("inputImage"), rect = try args.rect("inputExtent")
        let kept = rect.isEmpty ? image : image.cropped(to: rect)
        guard !kept.extent.isInfinite, !kept.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputExtent",
                                              reason: "the rectangle kept must be finite and meet the image, got \(kept.extent)")
        }
        return kept.clampedToExtent()
    }
}
