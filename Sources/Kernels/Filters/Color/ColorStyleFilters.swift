import Foundation
import GraphEngine

/// Per-pixel looks that Apple does not define: false-colour maps (CIThermal, CIXRay), colour
/// replacement (CISpotColor) and a spotlight on the flat picture (CISpotLight). Each is a colour
/// kernel on unpremultiplied colour, premultiplied again with the input's alpha; the extent is the
/// input's. The formulas are ours, after Apple's pictures. `L` is luma with Rec. 709 weights
/// (0.2125, 0.7154, 0.0721), clamped to 0…1.
enum ColorStyleFilters {
    static let all: [FilterDescriptor] = [thermal, xRay, spotColor, spotLight]

    static let mapCategories = ["CICategoryColorEffect", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels",
                                "CICategoryStillImage"]

    /// Ours: a thermal camera's palette, `L` through the piecewise-linear ramp blue (0) → cyan (¼)
    /// → green (½) → yellow (¾) → red (1).
    static let thermal = FilterDescriptor(
        name: "CIThermal", categories: mapCategories,
        summary: "A thermal camera's palette: L = luma through the linear ramp blue (0), cyan (1/4), green (1/2), yellow (3/4), "
            + "red (1); alpha kept.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in try thermalKernel.apply([.image(try args.image("inputImage"))]) }

    static let thermalKernel = CatalogueKernel("""
        kernel vec4 CIThermal(__sample s) {
            float l = 4.0 * clamp(dot(unpremultiply(s).rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
            vec3 c = mix(vec3(0.0, 0.0, 1.0), vec3(0.0, 1.0, 1.0), clamp(l, 0.0, 1.0));
            c = mix(c, vec3(0.0, 1.0, 0.0), clamp(l - 1.0, 0.0, 1.0));
            c = mix(c, vec3(1.0, 1.0, 0.0), clamp(l - 2.0, 0.0, 1.0));
            c = mix(c, vec3(1.0, 0.0, 0.0), clamp(l - 3.0, 0.0, 1.0));
            return vec4(c * s.a, s.a);
        }
        """)

    /// Ours: an X-ray film, the tone inverted and tinted cold: `rgb = (1 − L)·(0.88, 0.96, 1)`.
    static let xRay = FilterDescriptor(
        name: "CIXRay", categories: mapCategories,
        summary: "An X-ray film: rgb = (1 − L)·(0.88, 0.96, 1), L = luma; alpha kept.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in try xRayKernel.apply([.image(try args.image("inputImage"))]) }

    static let xRayKernel = CatalogueKernel("""
        kernel vec4 CIXRay(__sample s) {
            float v = 1.0 - clamp(dot(unpremultiply(s).rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
            return vec4(v * vec3(0.88, 0.96, 1.0) * s.a, s.a);
        }
        """)

    static func colorInput(_ key: String, _ value: [Double], _ summary: String) -> FilterInput {
        FilterInput(key, .color, default: .color(value), summary + " (sRGB unless given linear).")
    }

    static let spotInputs: [FilterInput] = [ColorAdjustmentFilters.imageInput] + [
        ([0.0784, 0.0627, 0.0706, 1], [0.4392, 0.1922, 0.1961, 1], 0.22, 0.98),
        ([0.5255, 0.3059, 0.3451, 1], [0.9137, 0.5608, 0.5059, 1], 0.15, 0.98),
        ([0.9216, 0.4549, 0.3333, 1], [0.9098, 0.7529, 0.6078, 1], 0.5, 0.99),
    ].enumerated().flatMap { i, spot -> [FilterInput] in
        let n = i + 1
        return [colorInput("inputCenterColor\(n)", spot.0, "The centre of colour range \(n)"),
                colorInput("inputReplacementColor\(n)", spot.1, "The spot colour replacing colour range \(n)"),
                FilterInput("inputCloseness\(n)", .number, default: .number(spot.2), minimum: 0, slider: 0...0.5,
                            "How far (RGB distance) colour range \(n) reaches from its centre."),
                FilterInput("inputContrast\(n)", .number, default: .number(spot.3), minimum: 0, slider: 0...1,
                            "How sharp the edge of colour range \(n) is: 1 hard, 0 a ramp from the centre.")]
    }

    /// Ours: each of three colour ranges, the colours within `closeness` (RGB distance) of its
    /// centre, is replaced by its spot colour, the edge a ramp of `closeness·(1 − contrast)`:
    /// `w_i = clamp((closeness_i − |rgb − centre_i|) / max(closeness_i·(1 − contrast_i), 1e−4), 0, 1)`,
    /// applied in turn, `c ← mix(c, replacement_i, w_i)` (weights from the original colour).
    static let spotColor = FilterDescriptor(
        name: "CISpotColor", categories: ["CICategoryStillImage", "CICategoryVideo", "CICategoryHighDynamicRange", "CICategoryStylize"],
        summary: "Three colour ranges replaced by spot colours: w_i = clamp((closeness_i − |rgb − centre_i|) / "
            + "max(closeness_i(1 − contrast_i), 1e-4), 0, 1), c ← mix(c, replacement_i, w_i) for i = 1, 2, 3; alpha kept.",
        inputs: spotInputs
    ) { args in
        var arguments: [KernelArgument] = [.image(try args.image("inputImage"))]
        for n in 1...3 {
            arguments += [.image(try args.colorImage("inputCenterColor\(n)")), .image(try args.colorImage("inputReplacementColor\(n)")),
                          .vector([try args.number("inputCloseness\(n)"), try args.number("inputContrast\(n)")])]
        }
        return try spotColorKernel.apply(arguments, extent: try args.image("inputImage").extent)
    }

    static let spotColorKernel = CatalogueKernel("""
        float spotWeight(vec3 c, vec4 center, vec2 range) {
            float d = length(c - unpremultiply(center).rgb);
            return clamp((range.x - d) / max(range.x * (1.0 - range.y), 0.0001), 0.0, 1.0);
        }
        kernel vec4 CISpotColor(__sample s, __sample center1, __sample replacement1, vec2 range1,
                                __sample center2, __sample replacement2, vec2 range2,
                                __sample center3, __sample replacement3, vec2 range3) {
            vec3 original = unpremultiply(s).rgb;
            vec3 c = original;
            c = mix(c, unpremultiply(replacement1).rgb, spotWeight(original, center1, range1));
            c = mix(c, unpremultiply(replacement2).rgb, spotWeight(original, center2, range2));
            c = mix(c, unpremultiply(replacement3).rgb, spotWeight(original, center3, range3));
            return vec4(c * s.a, s.a);
        }
        """)

    /// Ours (a Phong spotlight on the flat picture, normal `(0, 0, 1)`): at `q = (x, y, 0)`, the
    /// light's direction `l = normalize(position − q)`, the spot's axis
    /// `a = normalize(pointsAt − position)`, the intensity
    /// `I = brightness · max(−l·a, 0)^(100·concentration) · max(l.z, 0)`, and
    /// `rgb = rgb_in · colour · I`.
    static let spotLight = FilterDescriptor(
        name: "CISpotLight", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "A spotlight on the flat picture: l = normalize(position − (x, y, 0)), a = normalize(pointsAt − position), "
            + "I = brightness·max(−l·a, 0)^(100·concentration)·max(l.z, 0), rgb = rgb_in·colour·I; alpha kept.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputLightPosition", .vector, default: .vector([400, 600, 150]), count: 3,
                             "The light's position (x, y, height above the picture) in pixels."),
                 FilterInput("inputLightPointsAt", .vector, default: .vector([200, 200, 0]), count: 3, "The point the light aims at."),
                 FilterInput("inputBrightness", .number, default: .number(3), minimum: 0, slider: 0...10, "The light's brightness."),
                 FilterInput("inputConcentration", .number, default: .number(0.1), minimum: 0.001, slider: 0.001...1.5,
                             "How tightly the spot is focused (the cosine's exponent is 100 times it)."),
                 colorInput("inputColor", [1, 1, 1, 1], "The light's colour")]
    ) { args in
        let position = try args.vector("inputLightPosition"), target = try args.vector("inputLightPointsAt")
        let axis = zip(target, position).map { $0 - $1 }, length = (axis.map { $0 * $0 }.reduce(0, +)).squareRoot()
        guard length > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputLightPointsAt", reason: "the light must point away from itself")
        }
        let image = try args.image("inputImage")
        return try spotLightKernel.apply([.image(image), .image(try args.colorImage("inputColor")), .vector(position),
                                          .vector(axis.map { $0 / length }),
                                          .vector([try args.number("inputBrightness"), 100 * (try args.number("inputConcentration"))])],
                                         extent: image.extent)
    }

    static let spotLightKernel = CatalogueKernel("""
        kernel vec4 CISpotLight(__sample s, __sample color, vec3 position, vec3 axis, vec2 light) {
            vec3 l = normalize(position - vec3(destCoord(), 0.0));
            float intensity = light.x * pow(max(-dot(l, axis), 0.0), light.y) * max(l.z, 0.0);
            vec3 c = unpremultiply(s).rgb * unpremultiply(color).rgb * intensity;
            return vec4(c * s.a, s.a);
        }
        """)
}
