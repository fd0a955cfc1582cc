import Foundation
import GraphEngine

/// CIStarShineGenerator, CISunbeamsGenerator and CILenticularHaloGenerator (CICategoryGenerator): a
/// colour times an intensity about a centre `c`, with `d = p − c`, `r = |d|`. Apple's maths is not
/// public; ours are drawn after Apple's documentation pictures (a bright disc with thin spikes; a
/// sun with rays; a ring of colours) and stated per filter. Extent: infinite (the spikes, rays and
/// rings fade but the spikes and rays never reach 0).
enum GlowGenerators {
    static let categories = ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [starShine, sunbeams, lenticularHalo]

    /// Ours: `disc = 1 − smoothstep(0, R, r)`; with `(u, v)` = `d` turned by −crossAngle, a spike
    /// `s(a, b) = exp(−|b|/w − |a|/L)` of width `w` and length `L = crossScale·R·e^epsilon`, the cross
    /// `s(u, v) + s(v, u)` weighted by `e^crossOpacity`: `out = color·clamp(disc + e^opacity·cross, 0, 1)`.
    static let starShine = FilterDescriptor(
        name: "CIStarShineGenerator", categories: categories,
        summary: "A star (ours): color·clamp(1 − smoothstep(0, R, r) + e^crossOpacity·(s(u, v) + s(v, u)), 0, 1), "
            + "s(a, b) = exp(−|b|/crossWidth − |a|/L), L = crossScale·R·e^epsilon, (u, v) turned by −crossAngle; infinite extent.",
        inputs: [GradientFilters.point("inputCenter", [150, 150], "The centre."),
                 FilterInput("inputColor", .color, default: .color([1, 0.8, 0.6, 1]), "The star's colour (sRGB unless given linear)."),
                 FilterInput("inputRadius", .number, default: .number(50), minimum: 0, slider: 0...300, "The radius of the star's disc."),
                 FilterInput("inputCrossScale", .number, default: .number(15), minimum: 0, slider: 0...100,
                             "The spikes' length in radii (times e^epsilon)."),
                 FilterInput("inputCrossAngle", .number, default: .number(0.6), slider: -Double.pi...Double.pi, "The angle of the cross in radians."),
                 FilterInput("inputCrossOpacity", .number, default: .number(-2), minimum: -8, slider: -8...0,
                             "The natural log of the cross's weight."),
                 FilterInput("inputCrossWidth", .number, default: .number(2.5), minimum: 0, slider: 0.5...10, "The spikes' width in pixels."),
                 FilterInput("inputEpsilon", .number, default: .number(-2), minimum: -8, slider: -8...0,
                             "The natural log of the spikes' length factor.")]
    ) { args in
        let radius = max(try args.number("inputRadius"), 1e-4), angle = try args.number("inputCrossAngle")
        let length = max((try args.number("inputCrossScale")) * radius * exp(try args.number("inputEpsilon")), 1e-4)
        let shape = [radius, max(try args.number("inputCrossWidth"), 1e-4), length, exp(try args.number("inputCrossOpacity"))]
        return try starKernel.apply([.image(try args.colorImage("inputColor")), .vector(try args.vector("inputCenter")),
                                     .vector(shape), .vector([cos(angle), sin(angle)])], extent: .infinite)
    }

    /// Ours: the sun `disc = clamp(R − r + ½, 0, 1)` (anti-aliased), rays by angle
    /// `n(θ) = ½ + ½·sin(13θ + 2πt)·sin(29θ − 2πt)` (`θ = atan2(d)`, `t` the time), falling off past
    /// the sun over `maxStriationRadius·R`: `beams = strength·n^contrast·exp(−max(r − R, 0)/(maxStriationRadius·R))`,
    /// `out = color·clamp(disc + beams, 0, 1)`.
    static let sunbeams = FilterDescriptor(
        name: "CISunbeamsGenerator", categories: categories,
        summary: "A sun with rays (ours): color·clamp(clamp(R − r + ½, 0, 1) + strength·n^contrast·exp(−max(r − R, 0)/(maxStriationRadius·R)), 0, 1), "
            + "n = ½ + ½·sin(13θ + 2πt)·sin(29θ − 2πt); infinite extent.",
        inputs: [GradientFilters.point("inputCenter", [150, 150], "The centre."),
                 FilterInput("inputColor", .color, default: .color([1, 0.5, 0, 1]), "The sun's colour (sRGB unless given linear)."),
                 FilterInput("inputSunRadius", .number, default: .number(40), minimum: 0, slider: 0...800, "The sun's radius in pixels."),
                 FilterInput("inputMaxStriationRadius", .number, default: .number(2.58), minimum: 0, slider: 0...10,
                             "How far the rays reach, in sun radii (their falloff length)."),
                 FilterInput("inputStriationStrength", .number, default: .number(0.5), minimum: 0, slider: 0...3, "The rays' intensity."),
                 FilterInput("inputStriationContrast", .number, default: .number(1.375), minimum: 0, slider: 0...5,
                             "The exponent sharpening the rays against the gaps."),
                 FilterInput("inputTime", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...1, "Turns the rays' pattern.")]
    ) { args in
        let radius = try args.number("inputSunRadius")
        let falloff = max((try args.number("inputMaxStriationRadius")) * radius, 1e-4)
        let sun = [radius, falloff, try args.number("inputStriationStrength"), try args.number("inputStriationContrast")]
        return try sunKernel.apply([.image(try args.colorImage("inputColor")), .vector(try args.vector("inputCenter")), .vector(sun),
                                    .number(2 * Double.pi * (try args.number("inputTime")))], extent: .infinite)
    }

    /// Ours: a ring from `R` to `R + W` split into red, green and blue rings (a lens's chromatic
    /// halo) centred at `ρ = R + W/2 + (−1, 0, 1)·(1 − overlap)·W/2`, each with the profile
    /// `ring = max(0, 1 − ((r − ρ)/(W/2))²)`, striated like CISunbeamsGenerator's rays:
    /// `I = clamp(ring·(½ + strength·n^contrast), 0, 1)` per channel, `out = (color.rgb·I, color.a·max(I))`.
    static let lenticularHalo = FilterDescriptor(
        name: "CILenticularHaloGenerator", categories: categories,
        summary: "A chromatic halo (ours): per channel I = clamp(max(0, 1 − ((r − ρ)/(W/2))²)·(½ + strength·n^contrast), 0, 1), "
            + "ρ = R + W/2 + (−1, 0, 1)(1 − overlap)W/2, n CISunbeamsGenerator's rays; out = (color.rgb·I, color.a·max I); infinite extent.",
        inputs: [GradientFilters.point("inputCenter", [150, 150], "The centre."),
                 FilterInput("inputColor", .color, default: .color([1, 0.9, 0.8, 1]), "The halo's colour (sRGB unless given linear)."),
                 FilterInput("inputHaloRadius", .number, default: .number(70), minimum: 0, slider: 0...1000, "The halo's inner radius."),
                 FilterInput("inputHaloWidth", .number, default: .number(87), minimum: 0, slider: 0...300, "From the inner to the outer radius."),
                 FilterInput("inputHaloOverlap", .number, default: .number(0.77), minimum: 0, slider: 0...1,
                             "1 puts the red, green and blue rings on one another; less spreads them apart."),
                 FilterInput("inputStriationStrength", .number, default: .number(0.5), minimum: 0, slider: 0...3, "The striations' intensity."),
                 FilterInput("inputStriationContrast", .number, default: .number(1), minimum: 0, slider: 0...5, "The striations' exponent."),
                 FilterInput("inputTime", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...1, "Turns the striations.")]
    ) { args in
        let radius = try args.number("inputHaloRadius"), width = max(try args.number("inputHaloWidth"), 1e-4)
        let spread = (1 - (try args.number("inputHaloOverlap"))) * width / 2
        let halo = [radius + width / 2, spread, width / 2, 0]
        let striation = [try args.number("inputStriationStrength"), try args.number("inputStriationContrast")]
        return try haloKernel.apply([.image(try args.colorImage("inputColor")), .vector(try args.vector("inputCenter")), .vector(halo),
                                     .vector(striation), .number(2 * Double.pi * (try args.number("inputTime")))], extent: .infinite)
    }

    static let haloKernel = CatalogueKernel("""
        kernel vec4 CILenticularHaloGenerator(__sample color, vec2 center, vec4 halo, vec2 striation, float phase) {
            vec2 d = destCoord() - center;
            float r = length(d);
            float a = atan(d.y, d.x);
            float n = 0.5 + 0.5 * sin(13.0 * a + phase) * sin(29.0 * a - phase);
            vec3 t = (r - (halo.x + vec3(-1.0, 0.0, 1.0) * halo.y)) / halo.z;
            vec3 ring = max(1.0 - t * t, 0.0);
            vec3 i = clamp(ring * (0.5 + striation.x * pow(n, striation.y)), 0.0, 1.0);
            return vec4(color.rgb * i, color.a * max(i.r, max(i.g, i.b)));
        }
        """)

    static let starKernel = CatalogueKernel("""
        kernel vec4 CIStarShineGenerator(__sample color, vec2 center, vec4 shape, vec2 rotation) {
            vec2 d = destCoord() - center;
            float u = abs(rotation.x * d.x + rotation.y * d.y);
            float v = abs(rotation.x * d.y - rotation.y * d.x);
            float disc = 1.0 - smoothstep(0.0, shape.x, length(d));
            float cross = exp(-v / shape.y - u / shape.z) + exp(-u / shape.y - v / shape.z);
            return color * clamp(disc + shape.w * cross, 0.0, 1.0);
        }
        """)
    static let sunKernel = CatalogueKernel("""
        kernel vec4 CISunbeamsGenerator(__sample color, vec2 center, vec4 sun, float phase) {
            vec2 d = destCoord() - center;
            float r = length(d);
            float a = atan(d.y, d.x);
            float n = 0.5 + 0.5 * sin(13.0 * a + phase) * sin(29.0 * a - phase);
            float beams = sun.z * pow(n, sun.w) * exp(-max(r - sun.x, 0.0) / sun.y);
            return color * clamp(clamp(sun.x - r + 0.5, 0.0, 1.0) + beams, 0.0, 1.0);
        }
        """)
}
