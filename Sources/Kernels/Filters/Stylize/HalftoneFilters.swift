import Foundation
import GraphEngine

/// Halftones (CICategoryHalftoneEffect): the picture's tone printed as a screen of dots, lines or
/// rings. Apple's kernels are not public; ours threshold the tone against a spot function, as a
/// printer's screen does. With the screen frame `u = rot(−angle)·(p − c)/w` (as the tiles'), the
/// tone `L = clamp(luma(unpremultiply(in(p))), 0, 1)` (Rec. 709 weights 0.2125, 0.7154, 0.0721)
/// and a spot function `σ(p)` in 0…1 (1 where the ink starts), the paper shows where `L > σ`:
/// `v = clamp((L − σ)/e + ½, 0, 1)`, `e = 1 − sharpness + 1/w` (sharpness 1: a pixel's ramp), and
/// `out = (v, v, v, 1)·a` with `a` the input's alpha. Each is a colour kernel (fuses with its
/// neighbours); the extent is the input's.
enum HalftoneFilters {
    static let categories = ["CICategoryHalftoneEffect", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [dotScreen, lineScreen, hatchedScreen, circularScreen, cmykHalftone]

    static let centerInput = FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2,
                                         "The centre of the screen as x and y pixel coordinates.")
    static let angleInput = FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                                        "The angle in radians of the screen.")
    static let widthInput = FilterInput("inputWidth", .number, default: .number(6), minimum: 1, slider: 2...50,
                                        "The distance in pixels between the screen's dots or lines.")
    static let sharpnessInput = FilterInput("inputSharpness", .number, default: .number(0.7), minimum: 0, maximum: 1, slider: 0...1,
                                            "The sharpness of the screen's edges: 1 hard, 0 soft.")

    /// The screen's shared arguments: centre, (cos, sin) of the angle, width and edge `e`; throws
    /// unless the width is above 0.
    static func screen(_ args: FilterArguments, angle: Bool = true) throws -> [KernelArgument] {
        let c = try args.vector("inputCenter"), w = try args.number("inputWidth"), sharpness = try args.number("inputSharpness")
        guard w > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputWidth", reason: "the screen's width must be above 0, got \(w)")
        }
        let theta = angle ? try args.number("inputAngle") : 0
        return [.vector(c), .vector([cos(theta), sin(theta)]), .number(w), .number(1 - sharpness + 1 / w)]
    }

    static let source = """
        vec2 toScreen(vec2 center, vec2 rotation, float width) {
            vec2 v = (destCoord() - center) / width;
            return vec2(rotation.x * v.x + rotation.y * v.y, rotation.x * v.y - rotation.y * v.x);
        }
        float tone(vec4 s) {
            return clamp(dot(unpremultiply(s).rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
        }
        float paper(float level, float spot, float edge) {
            return clamp((level - spot) / edge + 0.5, 0.0, 1.0);
        }
        float dotSpot(vec2 u) {
            return 0.5 + 0.25 * (cos(6.283185307179586 * u.x) + cos(6.283185307179586 * u.y));
        }
        float lineSpot(float t) {
            return 0.5 + 0.5 * cos(6.283185307179586 * t);
        }

        """

    static func apply(_ kernel: CatalogueKernel, _ args: FilterArguments, angle: Bool = true) throws -> Image {
        let image = try args.image("inputImage")
        return try kernel.apply([.image(image)] + screen(args, angle: angle), extent: image.extent)
    }

    /// A round-dot screen, the spot `σ = ½ + ¼·(cos 2πu.x + cos 2πu.y)`: black dots in light tones
    /// that merge into a chequer at mid-grey and leave white dots in dark ones.
    static let dotScreen = FilterDescriptor(
        name: "CIDotScreen", categories: categories,
        summary: "A dot screen: u = rot(−angle)(p − c)/w, σ = 1/2 + (cos 2πu.x + cos 2πu.y)/4, L = luma, "
            + "v = clamp((L − σ)/e + 1/2, 0, 1), e = 1 − sharpness + 1/w, out = (v, v, v, 1)·a.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, angleInput, widthInput, sharpnessInput]
    ) { args in try apply(dotScreenKernel, args) }

    static let dotScreenKernel = CatalogueKernel(source + """
        kernel vec4 CIDotScreen(__sample s, vec2 center, vec2 rotation, float width, float edge) {
            float v = paper(tone(s), dotSpot(toScreen(center, rotation, width)), edge);
            return vec4(v, v, v, 1.0) * s.a;
        }
        """)

    /// A line screen, lines along the angle: `σ = ½ + ½·cos 2πu.y`.
    static let lineScreen = FilterDescriptor(
        name: "CILineScreen", categories: categories,
        summary: "A line screen: u = rot(−angle)(p − c)/w, σ = 1/2 + cos(2πu.y)/2, v = clamp((L − σ)/e + 1/2, 0, 1), "
            + "e = 1 − sharpness + 1/w, out = (v, v, v, 1)·a.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, angleInput, widthInput, sharpnessInput]
    ) { args in try apply(lineScreenKernel, args) }

    static let lineScreenKernel = CatalogueKernel(source + """
        kernel vec4 CILineScreen(__sample s, vec2 center, vec2 rotation, float width, float edge) {
            float v = paper(tone(s), lineSpot(toScreen(center, rotation, width).y), edge);
            return vec4(v, v, v, 1.0) * s.a;
        }
        """)

    /// Ours: hatching, lines along the angle in every tone and crossing lines in tones darker than
    /// ½: `σ = max(½ + ½·cos 2πu.y, cos(2πu.x)/2)`.
    static let hatchedScreen = FilterDescriptor(
        name: "CIHatchedScreen", categories: categories,
        summary: "A hatched screen: u = rot(−angle)(p − c)/w, σ = max(1/2 + cos(2πu.y)/2, cos(2πu.x)/2) (cross-hatching below "
            + "mid-grey), v = clamp((L − σ)/e + 1/2, 0, 1), e = 1 − sharpness + 1/w, out = (v, v, v, 1)·a.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, angleInput, widthInput, sharpnessInput]
    ) { args in try apply(hatchedScreenKernel, args) }

    static let hatchedScreenKernel = CatalogueKernel(source + """
        kernel vec4 CIHatchedScreen(__sample s, vec2 center, vec2 rotation, float width, float edge) {
            vec2 u = toScreen(center, rotation, width);
            float spot = max(lineSpot(u.y), lineSpot(u.x) - 0.5);
            float v = paper(tone(s), spot, edge);
            return vec4(v, v, v, 1.0) * s.a;
        }
        """)

    /// Concentric rings about the centre: `σ = ½ + ½·cos(2π·|p − c|/w)`.
    static let circularScreen = FilterDescriptor(
        name: "CICircularScreen", categories: categories,
        summary: "A circular screen: σ = 1/2 + cos(2π|p − c|/w)/2, v = clamp((L − σ)/e + 1/2, 0, 1), e = 1 − sharpness + 1/w, "
            + "out = (v, v, v, 1)·a.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, widthInput, sharpnessInput]
    ) { args in try apply(circularScreenKernel, args, angle: false) }

    static let circularScreenKernel = CatalogueKernel(source + """
        kernel vec4 CICircularScreen(__sample s, vec2 center, vec2 rotation, float width, float edge) {
            float v = paper(tone(s), lineSpot(length(toScreen(center, rotation, width))), edge);
            return vec4(v, v, v, 1.0) * s.a;
        }
        """)

    /// Four dot screens, one per ink, at the printer's angles: cyan `angle + 15°`, magenta `+ 75°`,
    /// yellow `+ 0°`, black `+ 45°`. Ours (the separation): with the unpremultiplied colour
    /// clamped to 0…1, `c = 1 − r`, `m = 1 − g`, `y = 1 − b`, `k = min(c, m, y)`, black
    /// `K = gcr·k` (grey component replacement) and `C = c − ucr·K` (under-colour removal; `M`,
    /// `Y` alike, at least 0). Each ink covers `1 − clamp(((1 − I) − σ_I)/e + ½, 0, 1)` of the
    /// paper, and `out = ((1 − C')(1 − K'), (1 − M')(1 − K'), (1 − Y')(1 − K'), 1)·a`.
    static let cmykHalftone = FilterDescriptor(
        name: "CICMYKHalftone", categories: categories,
        summary: "Four dot screens, C at angle + 15°, M + 75°, Y + 0°, K + 45°: k = min(1 − rgb), K = gcr·k, C = max(1 − r − ucr·K, 0) "
            + "(M, Y alike), ink I' = 1 − clamp(((1 − I) − σ_I)/e + 1/2, 0, 1), out = ((1 − C')(1 − K'), (1 − M')(1 − K'), "
            + "(1 − Y')(1 − K'), 1)·a.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput,
                 FilterInput("inputWidth", .number, default: .number(6), minimum: -2, slider: 2...100,
                             "The distance in pixels between the dots (above 0)."),
                 angleInput, sharpnessInput,
                 FilterInput("inputGCR", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0...1,
                             "Grey component replacement: how much of the common grey black ink prints."),
                 FilterInput("inputUCR", .number, default: .number(0.5), minimum: 0, maximum: 1, slider: 0...1,
                             "Under-colour removal: how much of the black is taken out of the colour inks.")]
    ) { args in
        let image = try args.image("inputImage")
        let removal: [KernelArgument] = [.vector([try args.number("inputGCR"), try args.number("inputUCR")])]
        return try cmykKernel.apply([.image(image)] + screen(args) + removal, extent: image.extent)
    }

    static let cmykKernel = CatalogueKernel(source + """
        float ink(float level, vec2 center, vec2 rotation, float width, float edge, float turn) {
            vec2 r = vec2(rotation.x * cos(turn) - rotation.y * sin(turn), rotation.y * cos(turn) + rotation.x * sin(turn));
            return 1.0 - paper(1.0 - level, dotSpot(toScreen(center, r, width)), edge);
        }
        kernel vec4 CICMYKHalftone(__sample s, vec2 center, vec2 rotation, float width, float edge, vec2 removal) {
            vec3 cmy = vec3(1.0) - clamp(unpremultiply(s).rgb, vec3(0.0), vec3(1.0));
            float k = removal.x * min(cmy.r, min(cmy.g, cmy.b));
            cmy = max(cmy - vec3(removal.y * k), vec3(0.0));
            float black = 1.0 - ink(k, center, rotation, width, edge, 0.7853981633974483);
            float c = 1.0 - ink(cmy.r, center, rotation, width, edge, 0.2617993877991494);
            float m = 1.0 - ink(cmy.g, center, rotation, width, edge, 1.3089969389957472);
            float y = 1.0 - ink(cmy.b, center, rotation, width, edge, 0.0);
            return vec4(c * black, m * black, y * black, 1.0) * s.a;
        }
        """)
}
