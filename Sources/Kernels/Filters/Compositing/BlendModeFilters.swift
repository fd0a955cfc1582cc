import GraphEngine

/// Blend modes (CICategoryCompositeOperation), by the W3C Compositing and Blending Level 1
/// definitions (the PDF blend modes; Apple documents only each mode's intent). With `S` the
/// premultiplied input image, `B` the premultiplied background, `cs`/`cb` their unpremultiplied
/// colours and `f(cb, cs)` the mode's function:
///
///     rgb = S.rgb·(1 − B.a) + B.rgb·(1 − S.a) + S.a·B.a·f(cb, cs)
///     a   = S.a + B.a − S.a·B.a
///
/// Results are not clamped (extended range), except where the mode's definition clamps. Each mode
/// is a colour kernel of two inputs (it fuses); the extent is the union of the two.
enum BlendModeFilters {
    static let categories = ["CICategoryCompositeOperation", "CICategoryVideo", "CICategoryStillImage", "CICategoryInterlaced",
                             "CICategoryNonSquarePixels"]

    /// One blend mode: its Core Image name, what it does, and `f(cb, cs)` (as a function body over
    /// `vec3 cb, vec3 cs` in the kernel language, with the helpers of ``helpers``).
    struct Mode {
        let name: String
        let summary: String
        let body: String
    }

    static let modes: [Mode] = [
        Mode(name: "CIMultiplyBlendMode", summary: "f = cb·cs.", body: "return cb * cs;"),
        Mode(name: "CIScreenBlendMode", summary: "f = cb + cs − cb·cs.", body: "return cb + cs - cb * cs;"),
        Mode(name: "CIOverlayBlendMode", summary: "f = hardLight(cs, cb): multiply or screen by the background.",
             body: perChannel("hardLight", "cs", "cb")),
        Mode(name: "CISoftLightBlendMode",
             summary: "f = cs ≤ ½ ? cb − (1 − 2cs)·cb·(1 − cb) : cb + (2cs − 1)·(D(cb) − cb), D(cb) = cb ≤ ¼ ? ((16cb − 12)cb + 4)cb : √cb.",
             body: perChannel("softLight")),
        Mode(name: "CIHardLightBlendMode", summary: "f = cs ≤ ½ ? 2·cb·cs : 1 − 2·(1 − cb)·(1 − cs).",
             body: perChannel("hardLight")),
        Mode(name: "CIDarkenBlendMode", summary: "f = min(cb, cs).", body: "return min(cb, cs);"),
        Mode(name: "CILightenBlendMode", summary: "f = max(cb, cs).", body: "return max(cb, cs);"),
        Mode(name: "CIColorDodgeBlendMode", summary: "f = cb = 0 ? 0 : cs ≥ 1 ? 1 : min(1, cb/(1 − cs)).",
             body: perChannel("colorDodge")),
        Mode(name: "CIColorBurnBlendMode", summary: "f = cb ≥ 1 ? 1 : cs ≤ 0 ? 0 : 1 − min(1, (1 − cb)/cs).",
             body: perChannel("colorBurn")),
        Mode(name: "CIDifferenceBlendMode", summary: "f = |cb − cs|.", body: "return abs(cb - cs);"),
        Mode(name: "CIExclusionBlendMode", summary: "f = cb + cs − 2·cb·cs.", body: "return cb + cs - 2.0 * cb * cs;"),
        Mode(name: "CIHueBlendMode", summary: "f = SetLum(SetSat(cs, Sat(cb)), Lum(cb)): the input's hue.",
             body: "return setLum(setSat(cs, sat(cb)), lum(cb));"),
        Mode(name: "CISaturationBlendMode", summary: "f = SetLum(SetSat(cb, Sat(cs)), Lum(cb)): the input's saturation.",
             body: "return setLum(setSat(cb, sat(cs)), lum(cb));"),
        Mode(name: "CIColorBlendMode", summary: "f = SetLum(cs, Lum(cb)): the input's hue and saturation.",
             body: "return setLum(cs, lum(cb));"),
        Mode(name: "CILuminosityBlendMode", summary: "f = SetLum(cb, Lum(cs)): the input's luminosity.",
             body: "return setLum(cb, lum(cs));"),
        Mode(name: "CISubtractBlendMode",
             summary: "f = cb − cs: the input subtracted from the background (Photoshop's Subtract; not clamped).",
             body: "return cb - cs;"),
        Mode(name: "CIDivideBlendMode",
             summary: "f = cs ≠ 0 ? cb/cs : (cb > 0 ? 1 : 0): the background divided by the input (Photoshop's Divide).",
             body: perChannel("divide")),
        Mode(name: "CILinearDodgeBlendMode", summary: "f = cb + cs.", body: "return cb + cs;"),
        Mode(name: "CILinearBurnBlendMode", summary: "f = cb + cs − 1.", body: "return cb + cs - 1.0;"),
        Mode(name: "CIPinLightBlendMode", summary: "f = cs ≤ ½ ? min(cb, 2cs) : max(cb, 2cs − 1).",
             body: perChannel("pinLight")),
        Mode(name: "CIVividLightBlendMode", summary: "f = cs ≤ ½ ? colorBurn(cb, 2cs) : colorDodge(cb, 2cs − 1).",
             body: perChannel("vividLight")),
        Mode(name: "CILinearLightBlendMode", summary: "f = cb + 2cs − 1.", body: "return cb + 2.0 * cs - 1.0;"),
    ]

    /// The per-channel (`f(b, s)` of one channel) and non-separable functions the modes use.
    /// `return vec3(f(b.r, s.r), f(b.g, s.g), f(b.b, s.b));` for a per-channel helper `f`.
    static func perChannel(_ f: String, _ b: String = "cb", _ s: String = "cs") -> String {
        "return vec3(\(f)(\(b).r, \(s).r), \(f)(\(b).g, \(s).g), \(f)(\(b).b, \(s).b));"
    }

    static let helpers = """
        float hardLight(float b, float s) { return s <= 0.5 ? 2.0 * b * s : 1.0 - 2.0 * (1.0 - b) * (1.0 - s); }
        float softLight(float b, float s) {
            float d = b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
            return s <= 0.5 ? b - (1.0 - 2.0 * s) * b * (1.0 - b) : b + (2.0 * s - 1.0) * (d - b);
        }
        float colorDodge(float b, float s) { return b == 0.0 ? 0.0 : (s >= 1.0 ? 1.0 : min(1.0, b / (1.0 - s))); }
        float colorBurn(float b, float s) { return b >= 1.0 ? 1.0 : (s <= 0.0 ? 0.0 : 1.0 - min(1.0, (1.0 - b) / s)); }
        float divide(float b, float s) { return s != 0.0 ? b / s : (b > 0.0 ? 1.0 : 0.0); }
        float pinLight(float b, float s) { return s <= 0.5 ? min(b, 2.0 * s) : max(b, 2.0 * s - 1.0); }
        float vividLight(float b, float s) { return s <= 0.5 ? colorBurn(b, 2.0 * s) : colorDodge(b, 2.0 * s - 1.0); }
        float lum(vec3 c) { return dot(c, vec3(0.3, 0.59, 0.11)); }
        vec3 clipColor(vec3 c) {
            float l = lum(c);
            float n = min(c.r, min(c.g, c.b));
            float x = max(c.r, max(c.g, c.b));
            vec3 result = c;
            if (n < 0.0) { result = l + (result - l) * l / (l - n); }
            if (x > 1.0) { result = l + (result - l) * (1.0 - l) / (x - l); }
            return result;
        }
        vec3 setLum(vec3 c, float l) { return clipColor(c + (l - lum(c))); }
        float sat(vec3 c) { return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)); }
        vec3 setSat(vec3 c, float s) {
            float n = min(c.r, min(c.g, c.b));
            float x = max(c.r, max(c.g, c.b));
            return x > n ? (c - n) * s / (x - n) : vec3(0.0);
        }

        """

    static func kernel(_ mode: Mode) -> CatalogueKernel {
        CatalogueKernel(helpers + """
            vec3 blended(vec3 cb, vec3 cs) { \(mode.body) }
            kernel vec4 \(mode.name)(__sample s, __sample b) {
                vec3 cs = unpremultiply(s).rgb;
                vec3 cb = unpremultiply(b).rgb;
                return vec4(s.rgb * (1.0 - b.a) + b.rgb * (1.0 - s.a) + s.a * b.a * blended(cb, cs), s.a + b.a - s.a * b.a);
            }
            """)
    }

    static let kernels: [String: CatalogueKernel] = Dictionary(uniqueKeysWithValues: modes.map { ($0.name, kernel($0)) })

    static let all: [FilterDescriptor] = modes.map { mode in
        FilterDescriptor(
            name: mode.name, categories: categories,
            summary: "Blends the image over the background: \(mode.summary) (W3C blend mode on premultiplied colour.)",
            inputs: [FilterInput("inputImage", .image, "The image blended in (the source, cs)."),
                     FilterInput("inputBackgroundImage", .image, "The background (the backdrop, cb).")]
        ) { args in
            guard let kernel = kernels[mode.name] else { throw GraphError.unknownFilter(mode.name) }
            return try kernel.apply([.image(try args.image("inputImage")), .image(try args.image("inputBackgroundImage"))])
        }
    }
}
