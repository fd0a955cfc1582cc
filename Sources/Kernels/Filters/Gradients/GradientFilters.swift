import GraphEngine

/// Gradients and patterns (CICategoryGradient, CICategoryGenerator): infinite images mixing two
/// colours, which are premultiplied colours in the working space (sRGB inputs converted, as Core
/// Image converts a `CIColor`), so `mix` interpolates premultiplied linear colour.
enum GradientFilters {
    static let categories = ["CICategoryGradient", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [linear, smoothLinear, radial, gaussian, checkerboard, stripes]

    static func color(_ key: String, _ value: [Double], _ summary: String) -> FilterInput {
        FilterInput(key, .color, default: .color(value), summary + " (sRGB unless given linear).")
    }
    static func point(_ key: String, _ value: [Double], _ summary: String) -> FilterInput {
        FilterInput(key, .vector, default: .vector(value), count: 2, summary)
    }
    static func colors(_ args: FilterArguments) throws -> [KernelArgument] {
        [.image(try args.colorImage("inputColor0")), .image(try args.colorImage("inputColor1"))]
    }

    static let linearInputs = [point("inputPoint0", [0, 0], "Where color0 is."), point("inputPoint1", [200, 200], "Where color1 is."),
                               color("inputColor0", [1, 1, 1, 1], "The first colour"), color("inputColor1", [0, 0, 0, 1], "The second colour")]

    /// `t = clamp(dot(p − p0, p1 − p0)/|p1 − p0|², 0, 1)`, `out = mix(color0, color1, t)` (color0
    /// everywhere when the points coincide).
    static let linear = FilterDescriptor(
        name: "CILinearGradient", categories: categories, summary: "A gradient from one point and colour to another.",
        inputs: linearInputs
    ) { args in
        try linearKernel.apply(try colors(args) + linearParameters(args), extent: .infinite)
    }

    /// CILinearGradient with `t` eased by `smoothstep(0, 1, t) = t²(3 − 2t)`.
    static let smoothLinear = FilterDescriptor(
        name: "CISmoothLinearGradient", categories: categories,
        summary: "A gradient from one point and colour to another, eased at both ends.", inputs: linearInputs
    ) { args in
        try smoothLinearKernel.apply(try colors(args) + linearParameters(args), extent: .infinite)
    }

    /// `p0` and the direction `(p1 − p0)/|p1 − p0|²` (zero when the points coincide).
    static func linearParameters(_ args: FilterArguments) throws -> [KernelArgument] {
        let p0 = try args.vector("inputPoint0"), p1 = try args.vector("inputPoint1")
        let d = [p1[0] - p0[0], p1[1] - p0[1]]
        let length2 = d[0] * d[0] + d[1] * d[1]
        return [.vector(p0), .vector(length2 > 0 ? d.map { $0 / length2 } : [0, 0])]
    }

    static let linearKernel = CatalogueKernel("""
        kernel vec4 CILinearGradient(__sample color0, __sample color1, vec2 p0, vec2 direction) {
            float t = clamp(dot(destCoord() - p0, direction), 0.0, 1.0);
            return mix(color0, color1, t);
        }
        """)
    static let smoothLinearKernel = CatalogueKernel("""
        kernel vec4 CISmoothLinearGradient(__sample color0, __sample color1, vec2 p0, vec2 direction) {
            float t = clamp(dot(destCoord() - p0, direction), 0.0, 1.0);
            return mix(color0, color1, t * t * (3.0 - 2.0 * t));
        }
        """)

    /// `t = clamp((|p − center| − r0)/(r1 − r0), 0, 1)`, `out = mix(color0, color1, t)` (a step at
    /// r0 when the radii are equal).
    static let radial = FilterDescriptor(
        name: "CIRadialGradient", categories: categories, summary: "A gradient between two circles.",
        inputs: [point("inputCenter", [150, 150], "The centre."),
                 FilterInput("inputRadius0", .number, default: .number(5), minimum: 0, slider: 0...800, "Where color0 ends."),
                 FilterInput("inputRadius1", .number, default: .number(100), minimum: 0, slider: 0...800, "Where color1 starts."),
                 color("inputColor0", [1, 1, 1, 1], "The inner colour"), color("inputColor1", [0, 0, 0, 1], "The outer colour")]
    ) { args in
        let r0 = try args.number("inputRadius0"), r1 = try args.number("inputRadius1")
        let inverseSpan = r1 != r0 ? 1 / (r1 - r0) : 1e30
        return try radialKernel.apply(try colors(args) + [.vector(try args.vector("inputCenter")), .number(r0), .number(inverseSpan)],
                                      extent: .infinite)
    }

    static let radialKernel = CatalogueKernel("""
        kernel vec4 CIRadialGradient(__sample color0, __sample color1, vec2 center, float r0, float inverseSpan) {
            float t = clamp((distance(destCoord(), center) - r0) * inverseSpan, 0.0, 1.0);
            return mix(color0, color1, t);
        }
        """)

    /// Ours (Apple's falloff is not public): `t = exp(−d²/(2σ²))` with `σ = radius/3` and `d` the
    /// distance to the centre, `out = mix(color1, color0, t)`: color0 at the centre, color1 from
    /// about the radius out.
    static let gaussian = FilterDescriptor(
        name: "CIGaussianGradient", categories: categories, summary: "A Gaussian falloff from one colour to another.",
        inputs: [point("inputCenter", [150, 150], "The centre."),
                 color("inputColor0", [1, 1, 1, 1], "The centre colour"), color("inputColor1", [0, 0, 0, 0], "The outer colour"),
                 FilterInput("inputRadius", .number, default: .number(300), minimum: 0, slider: 0...800, "Three standard deviations.")]
    ) { args in
        let sigma = try args.number("inputRadius") / 3
        let k = sigma > 1e-6 ? 1 / (2 * sigma * sigma) : 1e30
        return try gaussianKernel.apply(try colors(args) + [.vector(try args.vector("inputCenter")), .number(k)], extent: .infinite)
    }

    static let gaussianKernel = CatalogueKernel("""
        kernel vec4 CIGaussianGradient(__sample color0, __sample color1, vec2 center, float k) {
            vec2 d = destCoord() - center;
            return mix(color1, color0, exp(-dot(d, d) * k));
        }
        """)

    static let patternInputs = [point("inputCenter", [150, 150], "A corner of a cell."),
                                color("inputColor0", [1, 1, 1, 1], "The first colour"), color("inputColor1", [0, 0, 0, 1], "The second colour"),
                                FilterInput("inputWidth", .number, default: .number(80), minimum: 0, slider: 0...800, "The cell width in pixels."),
                                FilterInput("inputSharpness", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0...1,
                                            "1 is a hard edge; lower values blend across (1 − sharpness)·width.")]

    /// The smoothed square wave both patterns use: `u` in cells, alternate cells of sign ±1; the
    /// signed distance to the nearest edge `e` (in cells) gives `clamp(e·width/h, −1, 1)` with
    /// `h = max((1 − sharpness)·width/2, 10⁻⁴)` pixels of half transition.
    static let waveSource = """
        float wave(float u, float scale) {
            float v = fract(u * 0.5) * 2.0;
            float e = v < 1.0 ? min(v, 1.0 - v) : -min(v - 1.0, 2.0 - v);
            return clamp(e * scale, -1.0, 1.0);
        }

        """

    /// Ours (Apple's edge profile is not public): with `u = (p − center)/width` and `wave` above,
    /// `k = 0.5 − 0.5·wave(u.x)·wave(u.y)`, `out = mix(color0, color1, k)`: color0 on the cell up and
    /// right of the centre.
    static let checkerboard = FilterDescriptor(
        name: "CICheckerboardGenerator", categories: ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage"],
        summary: "A checkerboard of two colours.", inputs: patternInputs
    ) { args in
        try checkerboardKernel.apply(try colors(args) + patternParameters(args), extent: .infinite)
    }

    /// Vertical stripes, as CICheckerboardGenerator along x only: `k = 0.5 − 0.5·wave(u.x)`.
    static let stripes = FilterDescriptor(
        name: "CIStripesGenerator", categories: ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage"],
        summary: "Vertical stripes of two colours.", inputs: patternInputs
    ) { args in
        try stripesKernel.apply(try colors(args) + patternParameters(args), extent: .infinite)
    }

    /// The centre, 1/width, and width/h (see ``waveSource``).
    static func patternParameters(_ args: FilterArguments) throws -> [KernelArgument] {
        let width = try args.number("inputWidth")
        guard width > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputWidth", reason: "the width must be above 0")
        }
        let halfTransition = max((1 - (try args.number("inputSharpness"))) * width / 2, 1e-4)
        return [.vector(try args.vector("inputCenter")), .number(1 / width), .number(width / halfTransition)]
    }

    static let checkerboardKernel = CatalogueKernel(waveSource + """
        kernel vec4 CICheckerboardGenerator(__sample color0, __sample color1, vec2 center, float inverseWidth, float scale) {
            vec2 u = (destCoord() - center) * inverseWidth;
            return mix(color0, color1, 0.5 - 0.5 * wave(u.x, scale) * wave(u.y, scale));
        }
        """)
    static let stripesKernel = CatalogueKernel(waveSource + """
        kernel vec4 CIStripesGenerator(__sample color0, __sample color1, vec2 center, float inverseWidth, float scale) {
            float u = (destCoord().x - center.x) * inverseWidth;
            return mix(color0, color1, 0.5 - 0.5 * wave(u, scale));
        }
        """)
}
