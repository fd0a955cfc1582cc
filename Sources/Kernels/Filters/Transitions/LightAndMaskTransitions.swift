import Foundation
import GraphEngine

/// Transitions with light or a mask (CICategoryTransition): CIDisintegrateWithMaskTransition,
/// CICopyMachineTransition, CIFlashTransition. Apple's kernels are not public; ours follow the
/// descriptions and pictures, each formula in its doc comment. The extent is the union of the two
/// pictures', as ``TransitionFilters``.
enum LightAndMaskTransitions {
    static let all: [FilterDescriptor] = [disintegrate, copyMachine, flash]
    static let categories = TransitionFilters.categories

    /// The width of the disintegration's ramp in mask units.
    static let ramp = 1.0 / 32

    /// Ours: the target shows where the mask is below the time. With `m = clamp(luma(mask), 0, 1)`
    /// (0 outside the mask) and `δ = 1/32`, the source's remaining cover is
    /// `c = 1 − clamp(((1 + δ)t − m)/δ, 0, 1)` (all source at 0, all target at 1). The remaining
    /// source casts a shadow on the target: `S = density·G_σ[c](p − offset)`, the Gaussian blur
    /// (σ = shadow radius) of the cover over the mask's extent, moved by the offset;
    /// `out = source·c + target·(1 − S)·(1 − c)`.
    static let disintegrate = FilterDescriptor(
        name: "CIDisintegrateWithMaskTransition", categories: categories,
        summary: "The target shows where the mask is below the time: m = clamp(luma(mask), 0, 1), c = 1 − clamp(((1 + δ)t − m)/δ, 0, 1), "
            + "δ = 1/32; S = density·(Gaussian blur σ = radius of c)(p − offset); out = in·c + target·(1 − S)(1 − c).",
        inputs: [TransitionFilters.imageInput, TransitionFilters.targetInput,
                 FilterInput("inputMaskImage", .image, "The mask: the target shows first where it is dark."),
                 TransitionFilters.timeInput,
                 FilterInput("inputShadowRadius", .number, default: .number(8), minimum: 0, slider: 0...50,
                             "The blur (σ in pixels) of the shadow the remaining picture casts."),
                 FilterInput("inputShadowDensity", .number, default: .number(0.65), minimum: 0, maximum: 1, slider: 0...1,
                             "How dark the shadow is."),
                 FilterInput("inputShadowOffset", .vector, default: .vector([0, -10]), count: 2, "How far in pixels the shadow falls.")]
    ) { args in
        let mask = try args.image("inputMaskImage"), t = try args.number("inputTime"), offset = try args.vector("inputShadowOffset")
        let parameters: KernelArgument = .vector([t, ramp, try args.number("inputShadowDensity")])
        let cover = try coverKernel.apply([.image(mask), parameters], extent: mask.extent)
            .transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: offset[0], ty: offset[1]))
        let shadow = try FilterRegistry.standard.apply("CIGaussianBlur", parameters: ["inputImage": .image(cover),
                                                                                     "inputRadius": .number(try args.number("inputShadowRadius"))])
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        return try disintegrateKernel.apply(try TransitionFilters.pictures(args) + [.image(mask), .image(shadow), parameters], extent: extent)
    }

    static let coverSource = """
        float cover(vec4 mask, vec3 parameters) {
            float m = clamp(dot(mask.rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
            return 1.0 - clamp(((1.0 + parameters.y) * parameters.x - m) / parameters.y, 0.0, 1.0);
        }

        """

    static let coverKernel = CatalogueKernel(coverSource + """
        kernel vec4 CIDisintegrateCover(__sample mask, vec3 parameters) {
            float c = cover(mask, parameters);
            return vec4(c, c, c, c);
        }
        """)

    static let disintegrateKernel = CatalogueKernel(coverSource + """
        kernel vec4 CIDisintegrateWithMaskTransition(__sample s, __sample target, __sample mask, __sample shadow, vec3 parameters) {
            float c = cover(mask, parameters);
            return s * c + target * (1.0 - parameters.z * shadow.a) * (1.0 - c);
        }
        """)

    /// Ours: a copier's light bar `w` wide sweeps the extent along `d = (cos angle, sin angle)` as
    /// CISwipeTransition's band (`s = (p − m)·d`, front `f = −R − w/2 + t(2R + w)`), the pictures
    /// cross-fading under it, `img = mix(target, in, clamp((s − f)/w + ½, 0, 1))`, and the light
    /// laid over with a parabolic profile: `g = max(1 − (2(s − f)/w)², 0)`,
    /// `out = mix(img, colour, clamp(opacity·g, 0, 1))`.
    static let copyMachine = FilterDescriptor(
        name: "CICopyMachineTransition", categories: categories,
        summary: "A copier's light bar sweeping the extent: s = (p − m)·d, f = −R − w/2 + t(2R + w), img = mix(target, in, "
            + "clamp((s − f)/w + 1/2, 0, 1)), g = max(1 − (2(s − f)/w)², 0), out = mix(img, colour, clamp(opacity·g, 0, 1)).",
        inputs: [TransitionFilters.imageInput, TransitionFilters.targetInput, TransitionFilters.extentInput,
                 FilterInput("inputColor", .color, default: .color([0.6, 1, 0.8, 1]), "The colour of the copier's light."),
                 TransitionFilters.timeInput,
                 FilterInput("inputAngle", .number, default: .number(0), minimum: 0, slider: 0...(2 * Double.pi),
                             "The direction in radians the light moves in."),
                 FilterInput("inputWidth", .number, default: .number(200), minimum: 0.1, slider: 0.1...500, "The width of the light bar."),
                 FilterInput("inputOpacity", .number, default: .number(1.3), minimum: 0, slider: 0...3,
                             "The light's opacity at its middle (above 1 widens the saturated core).")]
    ) { args in
        let angle = try args.number("inputAngle"), w = try args.number("inputWidth"), t = try args.number("inputTime")
        guard w > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputWidth", reason: "the light's width must be above 0, got \(w)")
        }
        let (m, radius) = TransitionFilters.span(try args.rect("inputExtent"), angle: angle)
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        return try copyMachineKernel.apply(try TransitionFilters.pictures(args) + [
            .image(try args.colorImage("inputColor")), .vector(m), .vector([cos(angle), sin(angle)]),
            .vector([-radius - w / 2 + t * (2 * radius + w), w, try args.number("inputOpacity")])], extent: extent)
    }

    static let copyMachineKernel = CatalogueKernel("""
        kernel vec4 CICopyMachineTransition(__sample s, __sample target, __sample color, vec2 center, vec2 direction, vec3 light) {
            float d = dot(destCoord() - center, direction) - light.x;
            vec4 picture = mix(target, s, clamp(d / light.y + 0.5, 0.0, 1.0));
            float u = 2.0 * d / light.y;
            return mix(picture, color, clamp(light.z * max(1.0 - u * u, 0.0), 0.0, 1.0));
        }
        """)

    /// Ours: a flash of rays from the centre covers the picture and fades to the target. With
    /// `f = 1 − |2t − 1|` (0 at the ends, 1 halfway), `g = clamp(f/fadeThreshold, 0, 1)`, `D` the
    /// distance from the centre to the extent's farthest corner, `r = |p − c|/D`, `φ` the angle
    /// about the centre, rays `ρ = (½ + ½·cos 16φ)^contrast`, their reach
    /// `q = g·(1 + maxStriationRadius·strength·ρ)` and the light
    /// `I = g·clamp(1 − (r − q)/0.1, 0, 1)`: `out = mix(t < ½ ? in : target, colour, I)`.
    static let flash = FilterDescriptor(
        name: "CIFlashTransition", categories: categories,
        summary: "A flash of rays: f = 1 − |2t − 1|, g = clamp(f/fadeThreshold, 0, 1), r = |p − c|/D (D: centre to farthest extent corner), "
            + "ρ = (1/2 + cos(16φ)/2)^contrast, q = g(1 + maxStriationRadius·strength·ρ), I = g·clamp(1 − (r − q)/0.1, 0, 1), "
            + "out = mix(t < 1/2 ? in : target, colour, I).",
        inputs: [TransitionFilters.imageInput, TransitionFilters.targetInput,
                 FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2, "Where the flash starts."),
                 TransitionFilters.extentInput,
                 FilterInput("inputColor", .color, default: .color([1, 0.8, 0.6, 1]), "The colour of the flash."),
                 TransitionFilters.timeInput,
                 FilterInput("inputMaxStriationRadius", .number, default: .number(2.58), minimum: 0, slider: 0...10,
                             "How far the rays reach beyond the flash, in units of its size."),
                 FilterInput("inputStriationStrength", .number, default: .number(0.5), minimum: 0, slider: 0...3, "The strength of the rays."),
                 FilterInput("inputStriationContrast", .number, default: .number(1.375), minimum: 0, slider: 0...5,
                             "The contrast of the rays (the exponent on their profile)."),
                 FilterInput("inputFadeThreshold", .number, default: .number(0.85), minimum: 0, maximum: 1, slider: 0...1,
                             "The flash's strength at which it covers the whole extent.")]
    ) { args in
        let c = try args.vector("inputCenter"), rect = try args.rect("inputExtent"), t = try args.number("inputTime")
        let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)]
        let reach = max(corners.map { hypot($0.0 - c[0], $0.1 - c[1]) }.max() ?? 1, 1e-6)
        let g = min((1 - abs(2 * t - 1)) / max(try args.number("inputFadeThreshold"), 1e-6), 1)
        let rays = try args.number("inputMaxStriationRadius") * (try args.number("inputStriationStrength"))
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        return try flashKernel.apply([.image(try args.image(t < 0.5 ? "inputImage" : "inputTargetImage")),
                                      .image(try args.colorImage("inputColor")), .vector(c),
                                      .vector([reach, g, rays, try args.number("inputStriationContrast")])], extent: extent)
    }

    static let flashKernel = CatalogueKernel("""
        kernel vec4 CIFlashTransition(__sample picture, __sample color, vec2 center, vec4 flash) {
            vec2 v = destCoord() - center;
            float r = length(v) / flash.x;
            float rays = pow(0.5 + 0.5 * cos(16.0 * atan(v.y, v.x)), flash.w);
            float reach = flash.y * (1.0 + flash.z * rays);
            return mix(picture, color, flash.y * clamp(1.0 - (r - reach) / 0.1, 0.0, 1.0));
        }
        """)
}
