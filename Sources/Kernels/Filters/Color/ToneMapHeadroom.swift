import Foundation
import GraphEngine

/// CIToneMapHeadroom (CICategoryColorAdjustment): brings colours from a source headroom `Hs` (the
/// brightest value, 1 = SDR white) down to a target headroom `Ht`. Apple's curve is not public;
/// ours is the rational curve `f(x) = x/(1 + k·x)` with `k = (Hs − Ht)/(Hs·Ht)`: `f(0) = 0`,
/// `f′(0) = 1` (dark tones unchanged), monotone, `f(Hs) = Ht`, the identity when `Hs = Ht`. It acts
/// on `m = max(r, g, b)` of the unpremultiplied colour and scales the colour by `f(m)/m`, so hues
/// and saturation are kept; colours with `m ≤ 0` pass unchanged. When `Ht ≥ Hs` nothing needs
/// compressing and the input is returned. The engine's images carry no headroom property, so
/// without inputSourceHeadroom the input is returned unchanged.
enum ToneMapHeadroom {
    static let filter = FilterDescriptor(
        name: "CIToneMapHeadroom", categories: ["CICategoryColorAdjustment", "CICategoryVideo", "CICategoryInterlaced", "CICategoryHighDynamicRange",
                                                   "CICategoryNonSquarePixels", "CICategoryStillImage"],
        summary: "Tone-maps from headroom Hs to Ht (ours): rgb·f(m)/m, m = max(r, g, b), f(x) = x/(1 + k·x), k = (Hs − Ht)/(Hs·Ht), "
            + "so f(Hs) = Ht and f′(0) = 1.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputSourceHeadroom", .number, minimum: 1, maximum: 32, slider: 1...8,
                             "The input's headroom (its brightest value, 1 = SDR white); without it the input is returned."),
                 FilterInput("inputTargetHeadroom", .number, default: .number(1), minimum: 1, maximum: 32, slider: 1...8,
                             "The output's headroom.")]
    ) { args in
        let image = try args.image("inputImage")
        guard args.values["inputSourceHeadroom"] != nil else { return image }
        let source = try args.number("inputSourceHeadroom"), target = try args.number("inputTargetHeadroom")
        guard target < source else { return image }
        return try kernel.apply([.image(image), .number((source - target) / (source * target))])
    }

    static let kernel = CatalogueKernel("""
        kernel vec4 CIToneMapHeadroom(__sample s, float k) {
            vec4 c = unpremultiply(s);
            float m = max(c.r, max(c.g, c.b));
            float gain = m > 0.0 ? 1.0 / (1.0 + k * m) : 1.0;
            return premultiply(vec4(c.rgb * gain, c.a));
        }
        """)
}
