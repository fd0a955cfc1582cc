import GraphEngine

/// Generators (no input image; infinite extent).
enum GeneratorFilters {
    static let all: [FilterDescriptor] = [constantColor, random]

    /// The colour everywhere: unpremultiplied RGBA in its colour space (sRGB unless given linear),
    /// converted into the working space like Core Image's `CIColor`.
    static let constantColor = FilterDescriptor(
        name: "CIConstantColorGenerator", categories: ["CICategoryGenerator", "CICategoryStillImage"],
        summary: "An infinite image of one colour (unpremultiplied RGBA, sRGB unless given in another space).",
        inputs: [FilterInput("inputColor", .color, default: .color([1, 0, 0, 1]), "The colour (r g b a).")]
    ) { args in
        try args.colorImage("inputColor")
    }

    /// Four independent uniform values in [0, 1) per pixel, a function of the pixel's integer
    /// position only (deterministic, the same on every tile and thread): Dave Hoskins' "Hash without
    /// Sine" `hash42` (2014, MIT licence), pure float arithmetic, `q = fract(p.xyxy·k)`,
    /// `q += dot(q, q.wzxy + 33.33)`, `out = fract((q.xxyz + q.yzzw)·q.zywx)` with
    /// `k = (0.1031, 0.1030, 0.0973, 0.1099)` and `p = floor(destCoord)`. Data: never colour-matched.
    static let random = FilterDescriptor(
        name: "CIRandomGenerator", categories: ["CICategoryGenerator", "CICategoryStillImage"],
        summary: "An infinite image of random values (deterministic in position).",
        inputs: []
    ) { _ in
        try randomKernel.apply([], extent: .infinite)
    }

    /// `random4(p)`, shared with CIDither.
    static let randomSource = """
        vec4 random4(vec2 p) {
            vec4 q = fract(vec4(p.x, p.y, p.x, p.y) * vec4(0.1031, 0.1030, 0.0973, 0.1099));
            q += dot(q, q.wzxy + 33.33);
            return fract((q.xxyz + q.yzzw) * q.zywx);
        }

        """
    static let randomKernel = CatalogueKernel(randomSource + """
        kernel vec4 CIRandomGenerator() {
            return random4(floor(destCoord()));
        }
        """)
}
