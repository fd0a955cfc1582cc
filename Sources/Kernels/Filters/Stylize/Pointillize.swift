import Foundation
import GraphEngine

/// CIPointillize (CICategoryStylize): the picture as round dots of colour on white paper. Apple's
/// kernel is not public; ours, after CICrystallize's jittered grid: cells of side `d = 1.6·r`
/// anchored at the centre `c`, cell `k` holding the point `P_k = c + d·(k + ½ + 0.6·(j(k) − ½))`
/// with the jitter `j(k) = fract(k.x·0.7548776662 + k.y·0.5698402910, k.x·0.5698402910 +
/// k.y·0.7548776662)` (a plastic-number lattice: low discrepancy, and exact enough in Float32 for
/// moderate `k`). Each point is a round dot of radius `r` and colour `bilinear(in, P)`; where dots
/// overlap, the one with the larger `j(k).x` lies on top; a pixel no dot of the 3×3 cells around
/// its own covers is white `(1, 1, 1, 1)`. Extent: the input's grown by `d`, rounded out.
enum Pointillize {
    static let filter = FilterDescriptor(
        name: "CIPointillize", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Dots of radius r on white: points P_k = c + d(k + 1/2 + 0.6(j(k) − 1/2)), d = 1.6r, j a plastic-number jitter; "
            + "round dots of colour bilinear(in, P), the larger j(k).x on top, white where none covers; extent grown by d.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(20), minimum: 1, slider: 1...100, "The radius of a dot in pixels."),
                 FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2, "Where the grid of dots is anchored.")]
    ) { args in
        let image = try args.image("inputImage"), r = try args.number("inputRadius"), c = try args.vector("inputCenter")
        guard r > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputRadius", reason: "the dots' radius must be above 0, got \(r)")
        }
        let d = 1.6 * r
        return try kernel.apply([.image(image), .vector(c), .vector([d, r])], extent: image.extent.outset(dx: d, dy: d).integral,
                                regionOfInterest: .callback { _, rect in rect.outset(dx: 2 * d, dy: 2 * d) })
    }

    static let kernel = CatalogueKernel("""
        vec3 candidate(vec2 p, vec2 anchor, vec2 size, vec2 k) {
            vec2 jitter = fract(vec2(k.x * 0.7548776662 + k.y * 0.5698402910, k.x * 0.5698402910 + k.y * 0.7548776662));
            vec2 q = anchor + size.x * (k + 0.5 + 0.6 * (jitter - 0.5));
            return vec3(q, distance(p, q) <= size.y ? jitter.x : -1.0);
        }
        vec3 nearer(vec3 a, vec3 b) {
            return b.z > a.z ? b : a;
        }
        kernel vec4 CIPointillize(sampler image, vec2 anchor, vec2 size) {
            vec2 p = destCoord();
            vec2 cell = floor((p - anchor) / size.x);
            vec3 best = candidate(p, anchor, size, cell);
            best = nearer(best, candidate(p, anchor, size, cell + vec2(-1.0, -1.0)));
            best = nearer(best, candidate(p, anchor, size, cell + vec2(0.0, -1.0)));
            best = nearer(best, candidate(p, anchor, size, cell + vec2(1.0, -1.0)));
            best = nearer(best, candidate(p, anchor, size, cell + vec2(-1.0, 0.0)));
            best = nearer(best, candidate(p, anchor, size, cell + vec2(1.0, 0.0)));
            best = nearer(best, candidate(p, anchor, size, cell + vec2(-1.0, 1.0)));
            best = nearer(best, candidate(p, anchor, size, cell + vec2(0.0, 1.0)));
            best = nearer(best, candidate(p, anchor, size, cell + vec2(1.0, 1.0)));
            return best.z >= 0.0 ? sample(image, best.xy) : vec4(1.0);
        }
        """)
}
