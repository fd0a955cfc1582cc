import Foundation
import GraphEngine

/// CIRippleTransition (CICategoryTransition): a circular wave expands from the centre, the target
/// in its wake. Apple's kernel is not public; ours: `D` is the distance from the centre `c` to the
/// extent's farthest corner, the ring's middle is at `ρ = −w/2 + t·(D + w)` (no ring at time 0, past
/// every corner at 1), `r = |p − c|`, `n = (p − c)/r`. Behind the ring (`r < ρ − w/2`) the target,
/// ahead (`r > ρ + w/2`) the input; in it, with `v = 2π(r − ρ)/w`, both are displaced along the
/// radius, `q = p − scale·sin(v)·n`, the target inside the middle and the input outside, and the
/// shading image's middle row, read left to right as `½ + ½·cos v` goes 0 → 1, is added with
/// weight `½ − ½·cos v` (a highlight on the crest). Extent: the union of the two pictures'.
enum RippleTransition {
    static let filter = FilterDescriptor(
        name: "CIRippleTransition", categories: TransitionFilters.categories,
        summary: "A ring w wide expanding from c, middle at ρ = −w/2 + t(D + w) (D: c to the farthest extent corner): target behind, "
            + "input ahead; inside, v = 2π(r − ρ)/w, both read at p − scale·sin(v)·n (target inside the middle) plus the shading's "
            + "middle row at (1 + cos v)/2 weighted (1 − cos v)/2.",
        inputs: [TransitionFilters.imageInput, TransitionFilters.targetInput,
                 FilterInput("inputShadingImage", .image, "The wave's highlight: its middle row, left (trough) to right (crest)."),
                 FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2, "The centre of the ripple."),
                 TransitionFilters.extentInput, TransitionFilters.timeInput,
                 FilterInput("inputWidth", .number, default: .number(100), minimum: 1, slider: 10...300, "The width of the wave in pixels."),
                 FilterInput("inputScale", .number, default: .number(50), minimum: -50, slider: -50...50,
                             "How far in pixels the wave displaces the pictures.")]
    ) { args in
        let shading = try args.image("inputShadingImage")
        guard !shading.extent.isInfinite, !shading.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputShadingImage",
                                              reason: "the shading needs a finite extent (crop it), got \(shading.extent)")
        }
        let w = try args.number("inputWidth"), scale = try args.number("inputScale"), t = try args.number("inputTime")
        guard w > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputWidth", reason: "the wave's width must be above 0, got \(w)")
        }
        let c = try args.vector("inputCenter"), rect = try args.rect("inputExtent")
        let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)]
        let reach = corners.map { hypot($0.0 - c[0], $0.1 - c[1]) }.max() ?? 0
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        let margin = abs(scale) + 1, shadingRegion = shading.extent
        return try kernel.apply(try TransitionFilters.pictures(args) + [.image(shading), .vector(c),
                                                                       .vector([-w / 2 + t * (reach + w), w, scale])],
                                extent: extent,
                                regionOfInterest: .callback { index, rect in index == 2 ? shadingRegion : rect.outset(dx: margin, dy: margin) })
    }

    static let kernel = CatalogueKernel("""
        kernel vec4 CIRippleTransition(sampler image, sampler target, sampler shading, vec2 center, vec3 wave) {
            vec2 p = destCoord();
            vec2 v = p - center;
            float r = length(v);
            vec2 n = r > 0.000001 ? v / r : vec2(0.0, 0.0);
            float d = r - wave.x;
            float phase = 6.283185307179586 * d / wave.y;
            vec2 q = p - wave.z * sin(phase) * n;
            vec4 e = samplerExtent(shading);
            vec4 shade = sample(shading, vec2(e.x + 0.5 + (e.z - 1.0) * (0.5 + 0.5 * cos(phase)), e.y + 0.5 * e.w));
            vec4 inRing = (d < 0.0 ? sample(target, q) : sample(image, q)) + (0.5 - 0.5 * cos(phase)) * shade;
            return d < -0.5 * wave.y ? sample(target, p) : (d > 0.5 * wave.y ? sample(image, p) : inRing);
        }
        """)
}
