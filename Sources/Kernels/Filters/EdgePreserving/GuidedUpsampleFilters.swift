import GraphEngine

/// Edge-aware filters guided by a second image (depth maps refined or upsampled by the photo).
enum GuidedUpsampleFilters {
    static let all: [FilterDescriptor] = [edgePreserveUpsample, guidedFilter, guidedUpsample]

    /// Joint bilateral upsampling (Kopf et al. 2007) of inputSmallImage to inputImage's extent,
    /// guided by inputImage's luma `G = encode_sRGB(0.2125 r + 0.7154 g + 0.0721 b)` (Apple encodes
    /// the guide with the sRGB curve first). `out(p) = Σ_q w·v(q) / Σ_q w` over small-image samples q
    /// with `w = exp(−|q − q(p)|²/(2σ_s²))·exp(−(G(p) − g(q))²/(2σ_l²))`, distances in small-image
    /// pixels (5×5 samples), g the guide's luma at the small image's resolution (a Gaussian of
    /// σ = 0.4·scale, as Apple blurs it, of the guide with its edge repeated; for a small image under
    /// a sixteenth of the guide's size, g itself repeats its edge beyond the small image). Computed as a bilateral grid: the small samples are splatted
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
        try GuideMapRatio.check(map: s, guide: g, filter: "CIEdgePreserveUpsampleFilter", key: "inputSmallImage", guideKey: "inputImage")
        let stepX = g.width / s.width, stepY = g.height / s.height
        let lowLuma = guide.clampedToExtent().applying(GuideLumaResample(Resample(
            kernel: .gaussian(sigma: 0.4 * (stepX + stepY) / 2),
            x: .init(step: stepX, offset: g.minX - s.minX * stepX), y: .init(step: stepY, offset: g.minY - s.minY * stepY),
            filterName: "CIEdgePreserveUpsampleFilter_guide")))
        let upsample = JointBilateralUpsample(guideExtent: g, smallExtent: s, spatialSigma: try args.number("inputSpatialSigma"),
                                              lumaSigma: try args.number("inputLumaSigma"), filterName: "CIEdgePreserveUpsampleFilter")
        // A work unit reads the low guide 2–4 small pixels around its own, each spanning `step` photo
        // pixels. For a map under a sixteenth of the photo's size those margins outgrow the unit
        // (an 8×6 map on a 12 MP photo had each of 48 units read the whole photo): the guide is
        // computed once, whole, over the map's pixels, and repeats its edge beyond them (computed
        // there too, from the photo's edge repeated that many photo pixels out, it took 180 MB).
        // A larger map's guide is computed in the units, which lets the photo's rows stream through them.
        let guideSource = max(stepX, stepY) <= Self.guideInUnitsUpTo ? lowLuma
            : lowLuma.cropped(to: s).insertingIntermediate(named: "CIEdgePreserveUpsampleFilter_guide_whole").clampedToExtent()
        return guide.applying(upsample, with: [small.clampedToExtent(), guideSource])
    }

    /// The largest photo-to-map step (photo pixels per map pixel) whose low guide
    /// CIEdgePreserveUpsampleFilter computes in the work units rather than once, whole.
    static let guideInUnitsUpTo = 16.0

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

    /// The guided filter (He et al. 2010) as a guided upsampler (He and Sun 2015's fast guided
    /// filter): a small mask brought to the guide's size along the guide's edges, with the guide's
    /// sRGB-encoded luma `G = encode_sRGB(0.2125 r + 0.7154 g + 0.0721 b)` (as CIEdgePreserveUpsampleFilter's,
    /// so one ε separates dark edges as well as light ones). p is inputImage's red channel on its own
    /// pixel grid; its extent e is mapped onto the guide's g, t = g.width/e.width guide pixels per
    /// mask pixel (t_y likewise), mask pixel (X, Y) centred on guide position
    /// `(g.minX + t·(X − e.minX + ½), g.minY + t_y·(Y − e.minY + ½))`. `Ĩ` is G resampled there by a tent
    /// (`Σ w·G/Σ w`, `w = max(1 − |Δ|/max(t, 1), 0)` per axis, Δ in guide pixels; edges repeated). Over
    /// (2r + 1)² boxes of mask pixels (running sums, partial end taps for a fractional r; p and Ĩ with
    /// edges repeated; NaN holes of p are no samples) `a = (mean(Ĩ·p) − mean(Ĩ)·mean(p))/(var(Ĩ) + ε)`
    /// and `b = mean(p) − a·mean(Ĩ)`, in Double (``GuidedCoefficients``);
    /// `Ā`, `B̄` are their box means, enlarged to the guide by the tent of half-width one mask pixel
    /// (bilinear, edges repeated), and `out = Ā·G + B̄` at every guide pixel, as a grey (out, out, out, 1).
    /// Only the last step runs at the guide's size. Extent: the guide's. Not a Core Image filter.
    static let guidedUpsample = FilterDescriptor(
        name: "GEGuidedUpsample", categories: ["CICategoryGeometryAdjustment", "CICategoryStillImage", "CICategoryVideo"],
        summary: "A small mask brought to the guide's size along its edges (the guided filter at the mask's resolution, guide G the sRGB-encoded luma): a = cov(G, p)/(var G + ε), b = mean p − a·mean G over boxes of r mask pixels, out = Ā·G + B̄ (Ā, B̄ enlarged bilinearly).",
        inputs: [FilterInput("inputImage", .image, "The mask (its red channel), at its own resolution: its extent is mapped onto the guide's."),
                 FilterInput("inputGuideImage", .image, "The guide (the photo)."),
                 FilterInput("inputRadius", .number, default: .number(1.5), minimum: 0, maximum: 1000, slider: 0...16,
                             "The box radius in mask pixels."),
                 FilterInput("inputEpsilon", .number, default: .number(0.001), minimum: 0, slider: 0...0.1,
                             "The regularisation: larger smooths more.")]
    ) { args in
        let name = "GEGuidedUpsample"
        let image = try args.image("inputImage"), guide = try args.image("inputGuideImage")
        for (key, value) in [("inputImage", image), ("inputGuideImage", guide)] where value.extent.isInfinite || value.extent.isEmpty {
            throw GraphError.invalidParameter(filter: name, key: key, reason: "the image must have a finite, non-empty extent")
        }
        let g = guide.extent, e = image.extent
        try GuideMapRatio.check(map: e, guide: g, filter: name, key: "inputImage", guideKey: "inputGuideImage")
        let tx = g.width / e.width, ty = g.height / e.height
        let i = guide.clampedToExtent().applying(GuideLumaResample(Resample(
            kernel: .linear, x: .init(step: tx, offset: g.minX - tx * e.minX), y: .init(step: ty, offset: g.minY - ty * e.minY),
            filterName: name + "_guide")))
        // The coefficients in Double at the mask's size (``GuidedCoefficients``: half-float moments
        // cancel in var Ĩ), enlarged to the guide's.
        let coefficients = image.applying(GuidedCoefficients(maskExtent: e, radius: try args.number("inputRadius"),
                                                             epsilon: try args.number("inputEpsilon"), filterName: name), with: [i])
        let enlarged = coefficients.clampedToExtent().applying(Resample(kernel: .linear, x: .init(step: 1 / tx, offset: e.minX - g.minX / tx),
                                                                        y: .init(step: 1 / ty, offset: e.minY - g.minY / ty), filterName: name + "_enlarge"))
        return enlarged.applying(AreaCombineOperation(.guidedMaskResult), with: [guide], extent: g)
    }
}
