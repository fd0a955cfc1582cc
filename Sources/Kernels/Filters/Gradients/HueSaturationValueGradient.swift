import Foundation
import GraphEngine

/// CIHueSaturationValueGradient (CICategoryGradient): a colour wheel of every hue and saturation at
/// one value. Apple documents the wheel, not its maths; ours is the standard HSV wheel centred on
/// the origin: with `r = |p|`, hue `h = atan2(p.y, p.x)/2π` (red along +x, counter-clockwise),
/// saturation `s = min(r/R, 1)` and the value `v`, `rgb = hsv(h, s, v)` in its usual closed form
/// `v·mix(1, clamp(|mod(6h + (0, 4, 2), 6) − 3| − 1, 0, 1), s)`, computed in the colour space
/// (sRGB unless given) and converted to the working space. The rim is softened over
/// `e = 0.1·softness·R`: alpha `clamp((R − r)/e, 0, 1)` (hard when softness is 0). Dither adds
/// `dither/255·(n − ½)` to the encoded colour, `n` CIRandomGenerator's noise at the pixel.
/// Extent: `[−R, −R, 2R, 2R]`.
enum HueSaturationValueGradient {
    static let filter = FilterDescriptor(
        name: "CIHueSaturationValueGradient", categories: GradientFilters.categories,
        summary: "An HSV colour wheel of radius R at the origin: h = atan2(y, x)/2π, s = r/R, rgb = v·mix(1, clamp(|mod(6h + (0, 4, 2), 6) − 3| − 1, 0, 1), s) "
            + "in the colour space, alpha clamp((R − r)/(0.1·softness·R), 0, 1), plus dither/255 of noise; extent [−R, −R, 2R, 2R].",
        inputs: [FilterInput("inputValue", .number, default: .number(1), minimum: 0, slider: 0...1, "The value (brightness) of every colour."),
                 FilterInput("inputRadius", .number, default: .number(300), minimum: 0, slider: 0...800, "The radius of the wheel in pixels."),
                 FilterInput("inputSoftness", .number, default: .number(1), minimum: 0, slider: 0...1, "How soft the wheel's rim is."),
                 FilterInput("inputDither", .number, default: .number(1), minimum: 0, slider: 0...3,
                             "The noise added against banding, in 1/255 steps of the encoded colour."),
                 FilterInput("inputColorSpace", .colorSpace,
                             "The space the wheel's colours are in (\"sRGB\", \"displayP3\", \"linearSRGB\"); default sRGB.")]
    ) { args in
        let radius = try args.number("inputRadius")
        guard radius > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputRadius", reason: "the wheel's radius must be above 0, got \(radius)")
        }
        let space = try args.colorSpace("inputColorSpace") ?? .sRGB
        let edge = max(0.1 * (try args.number("inputSoftness")) * radius, 1e-4)
        let wheel = try kernel.apply([.vector([try args.number("inputValue"), radius, edge, (try args.number("inputDither")) / 255])],
                                     extent: Rect(x: -radius, y: -radius, width: 2 * radius, height: 2 * radius))
        return wheel.matchedToWorkingSpace(from: space)
    }

    static let kernel = CatalogueKernel(GeneratorFilters.randomSource + """
        kernel vec4 CIHueSaturationValueGradient(vec4 wheel) {
            vec2 p = destCoord();
            float r = length(p);
            float h = atan(p.y, p.x) / 6.283185307179586;
            float s = min(r / wheel.y, 1.0);
            vec3 k = clamp(abs(mod(6.0 * h + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
            vec3 rgb = wheel.x * mix(vec3(1.0), k, s) + wheel.w * (random4(floor(p)).rgb - 0.5);
            float a = clamp((wheel.y - r) / wheel.z, 0.0, 1.0);
            return vec4(rgb * a, a);
        }
        """)
}
