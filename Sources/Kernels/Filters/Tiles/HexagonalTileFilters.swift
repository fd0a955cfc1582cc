import Foundation
import GraphEngine

/// Tiles on the triangle grid and kaleidoscopes (CICategoryTileEffect), in ``TileFilters``' frame:
/// the grid's triangles have side `w` (one tile unit) and one vertex at `c`; hexagons of six triangles
/// (circumradius 1) sit on the triangular lattice of spacing √3 through `c`, their vertices at
/// 30° + k·60°. With `v` the point relative to its nearest hexagon centre, `φ = atan2(v.y, v.x)`:
/// the fundamental triangle is the wedge 30°…90° of the hexagon about `c`. Apple's kernels are not
/// public; the wallpaper groups follow the names and Apple's pictures.
enum HexagonalTileFilters {
    static let categories = TileFilters.categories
    static let all: [FilterDescriptor] = [sixfoldRotated, sixfoldReflected, twelvefoldReflected, triangle, kaleidoscope, triangleKaleidoscope]

    /// `hexVector(u)`: `u` relative to the nearest point of the triangular lattice of spacing √3 (the
    /// nearest of the four corners of its lattice rhombus, which holds two equilateral triangles).
    static let hexSource = TileFilters.frameSource + """
        vec2 latticeOffset(vec2 w, vec2 corner) {
            return w - vec2(corner.x + 0.5 * corner.y, 0.8660254 * corner.y);
        }
        vec2 nearer(vec2 a, vec2 b) {
            return dot(b, b) < dot(a, a) ? b : a;
        }
        vec2 hexVector(vec2 u) {
            vec2 w = u * 0.57735027;
            float b = w.y * 1.15470054;
            vec2 f = floor(vec2(w.x - 0.5 * b, b));
            vec2 best = nearer(latticeOffset(w, f), latticeOffset(w, f + vec2(1.0, 0.0)));
            best = nearer(best, latticeOffset(w, f + vec2(0.0, 1.0)));
            best = nearer(best, latticeOffset(w, f + vec2(1.0, 1.0)));
            return best * 1.7320508;
        }
        vec2 polar(float r, float angle) {
            return r * vec2(cos(angle), sin(angle));
        }

        """

    /// Ours (p6): each hexagon is six copies of the fundamental triangle turned by k·60° about its
    /// centre: `k = floor((φ − 30°)/60°)`, `u' = rot(−k·60°)·v`.
    static let sixfoldRotated = FilterDescriptor(
        name: "CISixfoldRotatedTile", categories: categories,
        summary: "Six copies of a triangle turned by 60° about each hexagon's centre: v = u − nearest hexagon centre, "
            + "k = floor((φ − 30°)/60°), out(p) = bilinear(in, c + w·rot(angle)·rot(−60°k)·v); infinite extent.",
        inputs: TileFilters.squareInputs
    ) { args in
        try TileFilters.tiled(sixfoldRotatedKernel, args)
    }

    static let sixfoldRotatedKernel = CatalogueKernel(hexSource + """
        kernel vec2 CISixfoldRotatedTile(vec2 center, vec2 rotation, float width) {
            vec2 v = hexVector(toTile(center, rotation, width));
            float phi = atan(v.y, v.x);
            float k = floor((phi - 0.52359878) / 1.04719755);
            return fromTile(polar(length(v), phi - k * 1.04719755), center, rotation, width);
        }
        """)

    /// Ours (p3m1): the triangle grid's triangles mirror each other across every edge: `φ` folded by
    /// reflection onto 30°…90°: `x = (φ − 30°)/60°`, `φ' = 30° + 60°·(1 − |mod(x, 2) − 1|)`,
    /// `u' = |v|·(cos φ', sin φ')`.
    static let sixfoldReflected = FilterDescriptor(
        name: "CISixfoldReflectedTile", categories: categories,
        summary: "A triangle mirrored across the triangle grid's edges (six to a hexagon): x = (φ − 30°)/60°, "
            + "φ' = 30° + 60°·(1 − |mod(x, 2) − 1|), out(p) = bilinear(in, c + w·rot(angle)·|v|(cos φ', sin φ')); infinite extent.",
        inputs: TileFilters.squareInputs
    ) { args in
        try TileFilters.tiled(sixfoldReflectedKernel, args)
    }

    static let sixfoldReflectedKernel = CatalogueKernel(hexSource + """
        kernel vec2 CISixfoldReflectedTile(vec2 center, vec2 rotation, float width) {
            vec2 v = hexVector(toTile(center, rotation, width));
            float x = (atan(v.y, v.x) - 0.52359878) / 1.04719755;
            float phi = 0.52359878 + 1.04719755 * (1.0 - abs(mod(x, 2.0) - 1.0));
            return fromTile(polar(length(v), phi), center, rotation, width);
        }
        """)

    /// Ours (p6m): each hexagon is twelve mirrored copies of the half-triangle 30°…60°: `x = (φ −
    /// 30°)/30°`, `φ' = 30° + 30°·(1 − |mod(x, 2) − 1|)`, `u' = |v|·(cos φ', sin φ')`.
    static let twelvefoldReflected = FilterDescriptor(
        name: "CITwelvefoldReflectedTile", categories: categories,
        summary: "A half-triangle mirrored twelve ways about each hexagon's centre: x = (φ − 30°)/30°, "
            + "φ' = 30° + 30°·(1 − |mod(x, 2) − 1|), out(p) = bilinear(in, c + w·rot(angle)·|v|(cos φ', sin φ')); infinite extent.",
        inputs: TileFilters.squareInputs
    ) { args in
        try TileFilters.tiled(twelvefoldReflectedKernel, args)
    }

    static let twelvefoldReflectedKernel = CatalogueKernel(hexSource + """
        kernel vec2 CITwelvefoldReflectedTile(vec2 center, vec2 rotation, float width) {
            vec2 v = hexVector(toTile(center, rotation, width));
            float x = (atan(v.y, v.x) - 0.52359878) / 0.52359878;
            float phi = 0.52359878 + 0.52359878 * (1.0 - abs(mod(x, 2.0) - 1.0));
            return fromTile(polar(length(v), phi), center, rotation, width);
        }
        """)

    /// Ours (a guess at Apple's arrangement): the triangle of side `w` centred on `c` (pointing up in
    /// the tile frame) repeated over the triangle grid, the downward triangles it turned by 180°:
    /// in grid coordinates `u = (α + β/2, β·√3/2)`, `(α, β)` reduced to `fract`, `(1 − α, 1 − β)`
    /// when `α + β > 1`, `u' = (α + β/2, β·√3/2) − (½, √3/6)`.
    static let triangle = FilterDescriptor(
        name: "CITriangleTile", categories: categories,
        summary: "A triangle of side w about c repeated over the triangle grid, the downward ones turned by 180°: "
            + "(α, β) = fract(grid coordinates of u), (1 − α, 1 − β) when α + β > 1, "
            + "out(p) = bilinear(in, c + w·rot(angle)·((α + β/2, β√3/2) − (1/2, √3/6))); infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput, TileFilters.centerInput, TileFilters.angleInput,
                 FilterInput("inputWidth", .number, default: .number(100), minimum: 0, slider: 1...200, "The side of a triangle in pixels.")]
    ) { args in
        try TileFilters.tiled(triangleKernel, args, radius: 0.6)
    }

    static let triangleKernel = CatalogueKernel(TileFilters.frameSource + """
        kernel vec2 CITriangleTile(vec2 center, vec2 rotation, float width) {
            vec2 u = toTile(center, rotation, width) + vec2(0.5, 0.28867513);
            float b = u.y * 1.15470054;
            vec2 g = fract(vec2(u.x - 0.5 * b, b));
            g = g.x + g.y > 1.0 ? 1.0 - g : g;
            return fromTile(vec2(g.x + 0.5 * g.y, 0.8660254 * g.y) - vec2(0.5, 0.28867513), center, rotation, width);
        }
        """)

    /// Ours: `2·count` mirrored wedges about `c`, the first from `angle` to `angle + π/count`:
    /// `x = (φ − angle)/(π/count)`, `φ' = angle + (π/count)·(1 − |mod(x, 2) − 1|)`, `out(p) =
    /// bilinear(in, c + |p − c|·(cos φ', sin φ'))`. Extent: infinite; it reads the disc out to the
    /// output's farthest point.
    static let kaleidoscope = FilterDescriptor(
        name: "CIKaleidoscope", categories: categories,
        summary: "2·count mirrored wedges about c: x = (φ − angle)·count/π, φ' = angle + (π/count)(1 − |mod(x, 2) − 1|), "
            + "out(p) = bilinear(in, c + |p − c|·(cos φ', sin φ')), φ the angle of p − c; infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputCount", .number, default: .number(6), minimum: 1, slider: 1...64, "The number of mirrored pairs of wedges."),
                 TileFilters.centerInput,
                 FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                             "The angle in radians of the first wedge's edge.")]
    ) { args in
        let image = try args.image("inputImage")
        let count = try args.number("inputCount"), c = try args.vector("inputCenter"), angle = try args.number("inputAngle")
        let roi = KernelRegionOfInterest.callback { _, rect in
            guard !rect.isInfinite else { return .infinite }
            let far = hypot(max(abs(rect.minX - c[0]), abs(rect.maxX - c[0])), max(abs(rect.minY - c[1]), abs(rect.maxY - c[1])))
            return DistortionFilters.discBox(c, far).outset(dx: 1, dy: 1)
        }
        return try kaleidoscopeKernel.apply([.image(image), .vector(c), .number(angle), .number(Double.pi / count)],
                                            extent: .infinite, regionOfInterest: roi)
    }

    static let kaleidoscopeKernel = CatalogueKernel("""
        kernel vec2 CIKaleidoscope(vec2 center, float angle, float wedge) {
            vec2 v = destCoord() - center;
            float x = (atan(v.y, v.x) - angle) / wedge;
            float phi = angle + wedge * (1.0 - abs(mod(x, 2.0) - 1.0));
            return center + length(v) * vec2(cos(phi), sin(phi));
        }
        """)

    /// Ours: CISixfoldReflectedTile's mirrored triangle grid with triangles of side `size`, turned by
    /// `rotation`, the central triangle's centroid on `inputPoint` (the hexagon centre `a = point −
    /// size·rot(rotation)·(√3/6, ½)`), faded by `decay^(|p − point|/size)` away from it.
    static let triangleKaleidoscope = FilterDescriptor(
        name: "CITriangleKaleidoscope", categories: categories,
        summary: "The triangle of side size about the point mirrored across the triangle grid, faded by decay^(|p − point|/size): "
            + "CISixfoldReflectedTile with w = size, angle = rotation, centred so the central triangle's centroid is the point; "
            + "infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputPoint", .vector, default: .vector([150, 150]), count: 2, "The centre of the triangle."),
                 FilterInput("inputSize", .number, default: .number(700), slider: 0...1000, "The side of the triangle in pixels."),
                 FilterInput("inputRotation", .number, default: .number(5.924285296593801), slider: 0...(2 * Double.pi),
                             "The triangle's rotation in radians."),
                 FilterInput("inputDecay", .number, default: .number(0.85), slider: 0...1,
                             "The fade per triangle size of distance from the centre (1: none).")]
    ) { args in
        let image = try args.image("inputImage")
        let point = try args.vector("inputPoint"), size = try args.number("inputSize")
        let rotation = try args.number("inputRotation"), decay = try args.number("inputDecay")
        guard size > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputSize", reason: "the triangle's size must be above 0")
        }
        guard decay >= 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputDecay", reason: "the decay must not be negative")
        }
        let cr = cos(rotation), sr = sin(rotation)
        let ox = 0.28867513459481287 * size, oy = 0.5 * size
        let a = [point[0] - (cr * ox - sr * oy), point[1] - (sr * ox + cr * oy)]
        return try triangleKaleidoscopeKernel.apply(
            [.image(image), .vector(a), .vector([cr, sr]), .number(size), .vector(point), .number(log(max(decay, 1e-30)) / size)],
            extent: .infinite, regionOfInterest: TileFilters.tileRegion(a, size))
    }

    static let triangleKaleidoscopeKernel = CatalogueKernel(hexSource + """
        kernel vec4 CITriangleKaleidoscope(sampler image, vec2 center, vec2 rotation, float width, vec2 point, float logDecay) {
            vec2 v = hexVector(toTile(center, rotation, width));
            float x = (atan(v.y, v.x) - 0.52359878) / 1.04719755;
            float phi = 0.52359878 + 1.04719755 * (1.0 - abs(mod(x, 2.0) - 1.0));
            return sample(image, fromTile(polar(length(v), phi), center, rotation, width)) * exp(logDecay * distance(destCoord(), point));
        }
        """)
}
