import Foundation
import GraphEngine

/// CIDroste (CICategoryDistortionEffect): the picture repeated inside itself in a spiral, after
/// Escher's "Print Gallery" as Lenstra and de Smit explained it and Tom Beddard's Droste filter (on
/// which Apple's is said to be based; Apple's kernel is not public, so the arrangement below is ours).
enum DrosteFilter {
    /// Ours. The inset rectangle (the two points' box, centre `m`, half-size `h`) is where the picture
    /// recurs; the picture's frame is the inset scaled about `m` by `s`, the largest scale whose
    /// rectangle stays inside the input's extent. With `z = p − m` in log-polar form `w = ln(|z|/r₀)
    /// − ln(zoom) + i·(arg z + rotation)`, `r₀ = s·√(h.x·h.y)` (the frame's size, where the spiral
    /// leaves the picture upright), the source is `w_s = k·w`, `k = P − i·S·ln(s)/2π` (P the
    /// periodicity, S the strands, both rounded to integers, so a turn of the output is P turns and
    /// S frames of the picture), `z_s = r₀·exp(w_s)` brought into the frame ring by `s^−n`, `n =
    /// floor(log_s N(z_s))`, `N(z) = max(|x|/h.x, |y|/h.y)`: `out(p) = bilinear(in, m + z_s·s^−n)`.
    /// Extent: infinite; it reads only the frame.
    static let droste = FilterDescriptor(
        name: "CIDroste", categories: DistortionFilters.categories,
        summary: "The picture recurring in its inset rectangle, in a spiral: w = ln(|p − m|/r₀) − ln zoom + i(arg(p − m) + rotation), "
            + "z_s = r₀·exp((P − i·S·ln s/2π)·w), r₀ = s·√(h.x·h.y), scaled by s^−n into the ring between the inset (centre m) and the inset scaled by s "
            + "(the largest inside the input), out(p) = bilinear(in, m + z_s·s^−n); infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputInsetPoint0", .vector, default: .vector([200, 200]), count: 2, "One corner of the inset rectangle."),
                 FilterInput("inputInsetPoint1", .vector, default: .vector([400, 400]), count: 2, "The opposite corner of the inset rectangle."),
                 FilterInput("inputStrands", .number, default: .number(1), minimum: -10, maximum: 10, slider: -2...2,
                             "How many times a turn of the spiral steps into the inset (rounded to an integer)."),
                 FilterInput("inputPeriodicity", .number, default: .number(1), minimum: 1, slider: 1...5,
                             "How many copies of the picture a turn shows (rounded to an integer)."),
                 FilterInput("inputRotation", .number, default: .number(0), slider: 0...(2 * Double.pi), "A rotation in radians."),
                 FilterInput("inputZoom", .number, default: .number(1), minimum: 0.01, slider: 0.01...5, "A zoom into the spiral.")]
    ) { args in
        let image = try args.image("inputImage")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "needs an image with a finite, non-empty extent (its edge is the picture's frame)")
        }
        let p0 = try args.vector("inputInsetPoint0"), p1 = try args.vector("inputInsetPoint1")
        let m = [(p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2], h = [abs(p1[0] - p0[0]) / 2, abs(p1[1] - p0[1]) / 2]
        guard h[0] > 0, h[1] > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputInsetPoint1", reason: "the inset rectangle has no area")
        }
        let scale = min((e.maxX - m[0]) / h[0], (m[0] - e.minX) / h[0], (e.maxY - m[1]) / h[1], (m[1] - e.minY) / h[1])
        guard scale > 1.001 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputInsetPoint0",
                                              reason: "the inset rectangle must lie inside the image, smaller than it")
        }
        let logScale = log(scale)
        let periodicity = (try args.number("inputPeriodicity")).rounded(), strands = (try args.number("inputStrands")).rounded()
        let k = [periodicity, -strands * logScale / (2 * Double.pi)]
        let frame = Rect(x: m[0] - scale * h[0], y: m[1] - scale * h[1], width: 2 * scale * h[0], height: 2 * scale * h[1])
            .outset(dx: 1, dy: 1)
        let logR0 = log(scale * (h[0] * h[1]).squareRoot())
        return try kernel.apply([.image(image), .vector(m), .vector(h.map { 1 / $0 }), .number(logScale), .vector(k),
                                 .number(log(try args.number("inputZoom")) + logR0), .number(logR0),
                                 .number(try args.number("inputRotation"))],
                                extent: .infinite, regionOfInterest: .callback { _, _ in frame })
    }

    static let kernel = CatalogueKernel("""
        kernel vec2 CIDroste(vec2 center, vec2 inverseHalfSize, float logScale, vec2 k, float logZoom, float logR0, float rotation) {
            vec2 z = destCoord() - center;
            float rho = log(max(length(z), 1e-6)) - logZoom;
            float theta = atan(z.y, z.x) + rotation;
            float rs = k.x * rho - k.y * theta + logR0;
            float ts = k.x * theta + k.y * rho;
            vec2 direction = vec2(cos(ts), sin(ts));
            float norm = max(abs(direction.x) * inverseHalfSize.x, abs(direction.y) * inverseHalfSize.y);
            float level = floor((rs + log(norm)) / logScale);
            return center + exp(rs - level * logScale) * direction;
        }
        """)
}
