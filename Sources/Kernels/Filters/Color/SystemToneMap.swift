import GraphEngine

/// CISystemToneMap (CICategoryColorAdjustment, macOS 26 / iOS 26): brings an image's colours from
/// its content headroom `Hs` down to a target headroom `Ht` chosen by the preferred dynamic range.
/// Apple publishes neither its curve nor how it weighs the average light level, so ours:
/// - `Hs`: Core Image reads the image's content-headroom property, which this engine's images do
///   not carry; it is measured instead, `Hs = max(1, largest m over the extent)` with
///   `m = max(r, g, b)` of the unpremultiplied colour (a fusion barrier, like the area reductions).
/// - `Ht` from `inputPreferredDynamicRange`: standard `1` (SDR), high (and not given) the display's
///   headroom `H`, constrained high `√H` (ours: Apple gives no number; half the display's headroom
///   in stops).
/// - The curve is CIToneMapHeadroom's (``ToneMapHeadroom``), `rgb·f(m)/m` with `f(x) = x/(1 + k·x)`,
///   `k = (Hs − Ht)/(Hs·Ht)`: Apple describes both filters as a global tone curve from one headroom
///   to another, so the same curve keeps them consistent; `f(Hs) = Ht`, `f′(0) = 1`, hues kept.
///   When `Ht ≥ Hs` the colours pass unchanged.
enum SystemToneMap {
    /// The accepted dynamic-range names: Core Image's constants and their short forms.
    static let ranges: [String: Range] = [
        "kCIDynamicRangeStandard": .standard, "standard": .standard,
        "kCIDynamicRangeConstrainedHigh": .constrainedHigh, "constrainedHigh": .constrainedHigh,
        "kCIDynamicRangeHigh": .high, "high": .high,
    ]

    /// The preferred dynamic range.
    enum Range { case standard, constrainedHigh, high }

    static let filter = FilterDescriptor(
        name: "CISystemToneMap", categories: ToneMapHeadroom.filter.categories,
        summary: "Tone-maps from the image's measured headroom Hs = max(1, max over the extent of max(r, g, b)) to Ht (standard 1, "
            + "constrained high √H, high H = display headroom) with CIToneMapHeadroom's curve rgb·f(m)/m, f(x) = x/(1 + k·x), "
            + "k = (Hs − Ht)/(Hs·Ht).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputDisplayHeadroom", .number, default: .number(1), minimum: 1, maximum: 32, slider: 1...8,
                             "The headroom of the display the image is for (its brightest value, 1 = SDR white)."),
                 FilterInput("inputPreferredDynamicRange", .string,
                             "kCIDynamicRangeStandard, kCIDynamicRangeConstrainedHigh or kCIDynamicRangeHigh (the default).")]
    ) { args in
        let image = try args.image("inputImage")
        let display = try args.number("inputDisplayHeadroom")
        var range = Range.high
        if case .string(let name)? = args.values["inputPreferredDynamicRange"] {
            guard let named = ranges[name] else {
                throw GraphError.invalidParameter(filter: args.filter, key: "inputPreferredDynamicRange",
                                                  reason: "expected kCIDynamicRangeStandard, kCIDynamicRangeConstrainedHigh or "
                                                    + "kCIDynamicRangeHigh, got \"\(name)\"")
            }
            range = named
        }
        let target = switch range {
        case .standard: 1.0
        case .constrainedHigh: display.squareRoot()
        case .high: display
        }
        let area = image.extent.integral
        guard !area.isInfinite, !area.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "the image's headroom is measured over its extent, which is \(area): crop it first")
        }
        let peak = try largestComponentKernel.apply([.image(image)])
            .applying(AreaReduction(name: "CISystemToneMap", kind: .maximum, area: area))
        let peakExtent = peak.extent
        return try kernel.apply([.image(image), .image(peak), .number(target)], extent: image.extent,
                                regionOfInterest: .callback { index, rect in index == 1 ? peakExtent : rect })
    }

    static let largestComponentKernel = CatalogueKernel("""
        kernel vec4 CISystemToneMapLargestComponent(__sample s) {
            vec4 c = unpremultiply(s);
            float m = max(c.r, max(c.g, c.b));
            return vec4(m, m, m, 1.0);
        }
        """)

    static let kernel = CatalogueKernel("""
        kernel vec4 CISystemToneMap(sampler image, sampler peak, float target) {
            vec4 s = sample(image, destCoord());
            vec4 e = samplerExtent(peak);
            float source = max(sample(peak, vec2(e.x + 0.5, e.y + 0.5)).r, 1.0);
            if (target >= source) {
                return s;
            }
            float k = (source - target) / (source * target);
            vec4 c = unpremultiply(s);
            float m = max(c.r, max(c.g, c.b));
            float gain = m > 0.0 ? 1.0 / (1.0 + k * m) : 1.0;
            return premultiply(vec4(c.rgb * gain, c.a));
        }
        """)
}
