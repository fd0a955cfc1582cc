import GraphEngine

/// Edge-aware filters guided by a second image (depth maps refined or upsampled by the photo).
enum GuidedUpsampleFilters {
    static let all: [FilterDescriptor] = [edgePreserveUpsample, guidedFilter]

    /// Joint bilateral upsampling (Kopf et al. 2007) of inputSmallImage to inputImage's extent,
    /// guided by inputImage's luma `G = encode_sRGB(0.2125 r + 0.7154 g + 0.0721 b)` (Apple encodes
    /// the guide with the sRGB curve first). `out(p) = Σ_q w·v(q) / Σ_q w` over small-image samples q
    /// with `w = exp(−|q − q(p)|²/(2σ_s²))·exp(−(G(p) − g(q))²/(2σ_l²))`, distances in small-image
    /// pixels (5×5 samples), g the guide's luma at the small image's resolution (a Gaussian of
    /// σ = 0.4·scale, as Apple blurs it). Computed as a bilateral grid: the small samples are splatted
    /// into luma levels once, and each output pixel interpolates trilinearly (see
    /// ``GraphEngine/JointBilateralUpsample``); both passes compute G from the guide's rows
    /// (``GraphEngine/GuideLumaResample``), and a grey small image (a depth map) is upsampled as one
    /// channel. The step from Apple's parameters to the weights is not public; this is ours.
    static let edgePreserveUpsample = FilterDescriptor(
        name: "CIEdgePreserveUpsampleFilter", categories: ["CICategoryGeometryAdjustment", "CICategoryStillImage", "CICategoryVideo"],
        summary: "Upsamples the small image along the image's edges: Σ w·v/Σ w, w = exp(−|Δq|²/2σs²)·exp(−(G(p) − g(q))²/2σl²), G the sRGB-encoded luma (bilateral grid).",
        inputs: [FilterInput("inputImage", .image, "The full-size guide (the photo)."),
                 FilterInput("inputSmallImage", .image, "The small image to upsample."),
                 FilterInput("inputSpatialSigma", .number, default: .number(3), minimum: 0, maximum: 5, slider: 0...5,
                             "Spatial standard deviation in small-image pixels."),
                 FilterInput("inputLumaSigma", .number, default: .number(0.15), minimum: 0, maximum: 1, slider: 0...1,
                             "Luma standard deviation (luma 0…1).")]
    ) { args in
        let guide = try args.image("inputImage"), small = try args.image("inputSmallImage")
        for (key, image) in [("inputImage", guide), ("inputSmallImage", small)] where image.extent.isInfinite || image.extent.isEmpty {
            throw GraphError.invalidParameter(filter: "CIEdgePreserveUpsampleFilter", key: key,
                                              reason: "the image must have a finite, non-empty extent")
        }
        let g = guide.extent, s = small.extent
        let stepX = g.width / s.width, stepY = g.height / s.height
        let lowLuma = guide.clampedToExtent().applying(GuideLumaResample(Resample(
            kernel: .gaussian(sigma: 0.4 * (stepX + stepY) / 2),
            x: .init(step: stepX, offset: g.minX - s.minX * stepX), y: .init(step: stepY, offset: g.minY - s.minY * stepY),
            filterName: "CIEdgePreserveUpsampleFilter_guide")))
        let upsample = JointBilateralUpsample(guideExtent: g, smallExtent: s, spatialSigma: try args.number("inputSpatialSigma"),
                                              lumaSigma: try args.number("inputLumaSigma"), filterName: "CIEdgePreserveUpsampleFilter")
        return guide.applying(upsample, with: [small.clampedToExtent(), lowLuma])
    }

    /// The guided filter (He et al. 2010) with the guide's luma `I` (0.2125 r + 0.7154 g + 0.0721 b)
    /// as guide: inputImage, scaled bilinearly to the guide's extent, is p; with means over
    /// (2r+1)² boxes (running sums, edges repeated), `a = (mean(I·p) − mean(I)·mean(p))/(var(I) + ε)`,
    /// `b = mean(p) − a·mean(I)` and `out = mean(a)·I + mean(b)`, per channel. Extent: the guide's.
    static let guidedFilter = FilterDescriptor(
        name: "CIGuidedFilter", categories: ["CICategoryGeometryAdjustment", "CICategoryStillImage", "CICategoryVideo"],
        summary: "Filters p along the guide luma I: a = cov(I, p)/(var I + ε), b = mean p − a·mean I over (2r+1)² boxes, out = mean a·I + mean b.",
        inputs: [FilterInput("inputImage", .image, "The image to filter (scaled to the guide's size)."),
                 FilterInput("inputGuideImage", .image, "The guide."),
                 FilterInput("inputRadius", .number, default: .number(1), minimum: 0, maximum: 1000, slider: 0...20,
                             "The box radius in pixels."),
                 FilterInput("inputEpsilon", .number, default: .number(0.0001), minimum: 0, slider: 0...0.1,
                             "The regularisation: larger smooths more.")]
    ) { args in
        let image = try args.image("inputImage"), guide = try args.image("inputGuideImage")
        for (key, value) in [("inputImage", image), ("inputGuideImage", guide)] where value.extent.isInfinite || value.extent.isEmpty {
            throw GraphError.invalidParameter(filter: "CIGuidedFilter", key: key, reason: "the image must have a finite, non-empty extent")
        }
        let g = guide.extent, e = image.extent
        let scale = AffineTransform(translationX: -e.minX, y: -e.minY)
            .concatenating(AffineTransform(scaleX: g.width / e.width, y: g.height / e.height))
            .concatenating(AffineTransform(translationX: g.minX, y: g.minY))
        let p = image.transformed(by: scale).clampedToExtent(), i = guide.clampedToExtent()
        let radius = try args.number("inputRadius"), epsilon = Float(try args.number("inputEpsilon"))
        func mean(_ x: Image) -> Image {
            guard radius > 0 else { return x }
            return x.applying(BoxMean(axis: .horizontal, radius: radius, filterName: "CIGuidedFilter"))
                .applying(BoxMean(axis: .vertical, radius: radius, filterName: "CIGuidedFilter"))
        }
        let meanP = mean(p)
        let meanIP = mean(p.applying(AreaCombineOperation(.guideProduct), with: [i]))
        let moments = mean(i.applying(AreaCombineOperation(.guideMoments)))
        let a = meanP.applying(AreaCombineOperation(.guidedSlope, [epsilon]), with: [meanIP, moments])
        let b = meanP.applying(AreaCombineOperation(.guidedOffset, [epsilon]), with: [meanIP, moments])
        return mean(a).applying(AreaCombineOperation(.guidedResult), with: [mean(b), i], extent: g)
    }
}
