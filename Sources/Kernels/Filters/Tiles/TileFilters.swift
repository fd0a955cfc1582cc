import Foundation
import GraphEngine

/// Tiles (CICategoryTileEffect): a piece of the input repeated over the plane by a wallpaper group.
/// Apple's kernels are not public; the groups follow the filters' names and Apple's pictures, and
/// where the tile sits is ours: the tile frame is centred on `c`, turned by `angle`, `w` pixels to a
/// unit, `u = rot(−angle)·(p − c)/w`, and `out(p) = bilinear(in, c + w·rot(angle)·u')` with `u'` the
/// point of the fundamental tile `u` is equivalent to. The extent is infinite, as Core Image's; the
/// region of interest is the fundamental tile's bounding box, however large the output.
enum TileFilters {
    static let categories = ["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [affine, perspective, fourfoldTranslated, fourfoldReflected, parallelogram,
                                          fourfoldRotated, eightfoldReflected, glideReflected, op] + HexagonalTileFilters.all

    static let centerInput = DistortionFilters.centerInput
    static let angleInput = FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                                        "The angle in radians of the tile pattern.")
    static let widthInput = FilterInput("inputWidth", .number, default: .number(100), minimum: 0, slider: 1...200,
                                        "The width of a tile in pixels.")
    static let acuteAngleInput = FilterInput("inputAcuteAngle", .number, default: .number(Double.pi / 2),
                                             slider: -Double.pi...Double.pi,
                                             "The angle in radians between the tile's sides (π/2: a square).")

    /// The tile frame and the reflecting fold both families share: `fold(x)` is `x` on −½…½ and
    /// mirrors at every half-integer (period 2).
    static let frameSource = """
        vec2 toTile(vec2 center, vec2 rotation, float width) {
            vec2 v = (destCoord() - center) / width;
            return vec2(rotation.x * v.x + rotation.y * v.y, rotation.x * v.y - rotation.y * v.x);
        }
        vec2 fromTile(vec2 u, vec2 center, vec2 rotation, float width) {
            return center + width * vec2(rotation.x * u.x - rotation.y * u.y, rotation.y * u.x + rotation.x * u.y);
        }
        float fold(float x) {
            return 0.5 - abs(mod(x + 0.5, 2.0) - 1.0);
        }

        """

    /// The frame arguments (centre, (cos, sin) of the angle, width), checking the width.
    static func frame(_ args: FilterArguments) throws -> (center: [Double], arguments: [KernelArgument], width: Double) {
        let c = try args.vector("inputCenter"), angle = try args.number("inputAngle"), width = try args.number("inputWidth")
        guard width > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputWidth", reason: "the tile width must be above 0")
        }
        return (c, [.vector(c), .vector([cos(angle), sin(angle)]), .number(width)], width)
    }

    /// The input tiled by `kernel` (a warp taking the frame arguments, then `extra`): what every
    /// tile filter of the square and triangle grids does, reading the fundamental tile's box
    /// (`radius` tile units about the centre, 1 by default).
    static func tiled(_ kernel: CatalogueKernel, _ args: FilterArguments, extra: [KernelArgument] = [],
                      radius: Double = 1) throws -> Image {
        let f = try frame(args)
        return try kernel.apply([.image(try args.image("inputImage"))] + f.arguments + extra,
                                extent: .infinite, regionOfInterest: tileRegion(f.center, radius * f.width))
    }

    /// The box of the disc of `radius` tile units about the centre, a pixel more for the bilinear
    /// footprint: what a tiling reads, whatever the output rectangle.
    static func tileRegion(_ c: [Double], _ radius: Double) -> KernelRegionOfInterest {
        let box = DistortionFilters.discBox(c, radius).outset(dx: 1, dy: 1)
        return .callback { _, _ in box }
    }

    /// The parallelogram basis `a = (1, 0)`, `b = (cos α, sin α)`: `(cos α, 1/sin α)`.
    static func skew(_ args: FilterArguments) throws -> KernelArgument {
        let acute = try args.number("inputAcuteAngle")
        guard abs(sin(acute)) > 1e-3 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputAcuteAngle",
                                              reason: "the sides are parallel (the angle is a multiple of π): no tile")
        }
        return .vector([cos(acute), 1 / sin(acute)])
    }

    static let skewedInputs = [ColorAdjustmentFilters.imageInput, centerInput, angleInput, widthInput, acuteAngleInput]

    /// A parallelogram tile, sides `w` along `a = (1, 0)` and `b = (cos α, sin α)` in the tile frame:
    /// with `u = s·a + t·b`, `u' = (s − round(s))·a + (t − round(t))·b`, translated copies.
    static let fourfoldTranslated = FilterDescriptor(
        name: "CIFourfoldTranslatedTile", categories: categories,
        summary: "Translated copies of a parallelogram tile: u = rot(−angle)(p − c)/w = s·a + t·b, a = (1, 0), b = (cos α, sin α); "
            + "out(p) = bilinear(in, c + w·rot(angle)·((s − round s)·a + (t − round t)·b)); infinite extent.",
        inputs: skewedInputs
    ) { args in
        try tiled(fourfoldTranslatedKernel, args, extra: [try skew(args)])
    }

    static let skewSource = frameSource + """
        vec2 skewed(vec2 u, vec2 skew) {
            float t = u.y * skew.y;
            return vec2(u.x - t * skew.x, t);
        }
        vec2 unskewed(vec2 st, vec2 skew) {
            return vec2(st.x + st.y * skew.x, st.y / skew.y);
        }

        """

    static let fourfoldTranslatedKernel = CatalogueKernel(skewSource + """
        kernel vec2 CIFourfoldTranslatedTile(vec2 center, vec2 rotation, float width, vec2 skew) {
            vec2 st = skewed(toTile(center, rotation, width), skew);
            return fromTile(unskewed(st - floor(st + 0.5), skew), center, rotation, width);
        }
        """)

    /// Ours: the parallelogram tile mirrored across both pairs of its sides (period two tiles):
    /// `u' = fold(s)·a + fold(t)·b`, `fold` the mirror onto −½…½.
    static let fourfoldReflected = FilterDescriptor(
        name: "CIFourfoldReflectedTile", categories: categories,
        summary: "A parallelogram tile mirrored across both pairs of sides: u = s·a + t·b as CIFourfoldTranslatedTile, "
            + "out(p) = bilinear(in, c + w·rot(angle)·(fold(s)·a + fold(t)·b)), fold(x) = 1/2 − |mod(x + 1/2, 2) − 1|; infinite extent.",
        inputs: skewedInputs
    ) { args in
        try tiled(fourfoldReflectedKernel, args, extra: [try skew(args)])
    }

    static let fourfoldReflectedKernel = CatalogueKernel(skewSource + """
        kernel vec2 CIFourfoldReflectedTile(vec2 center, vec2 rotation, float width, vec2 skew) {
            vec2 st = skewed(toTile(center, rotation, width), skew);
            return fromTile(unskewed(vec2(fold(st.x), fold(st.y)), skew), center, rotation, width);
        }
        """)

    /// Ours (a guess at "reflecting it in a parallelogram"): mirrored across the sides along `b`,
    /// translated along `b`: `u' = fold(s)·a + (t − round(t))·b`.
    static let parallelogram = FilterDescriptor(
        name: "CIParallelogramTile", categories: categories,
        summary: "A parallelogram tile mirrored across one pair of sides and translated along the other: u = s·a + t·b, "
            + "out(p) = bilinear(in, c + w·rot(angle)·(fold(s)·a + (t − round t)·b)); infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, angleInput, acuteAngleInput, widthInput]
    ) { args in
        try tiled(parallelogramKernel, args, extra: [try skew(args)])
    }

    static let parallelogramKernel = CatalogueKernel(skewSource + """
        kernel vec2 CIParallelogramTile(vec2 center, vec2 rotation, float width, vec2 skew) {
            vec2 st = skewed(toTile(center, rotation, width), skew);
            return fromTile(unskewed(vec2(fold(st.x), st.y - floor(st.y + 0.5)), skew), center, rotation, width);
        }
        """)

    static let squareInputs = [ColorAdjustmentFilters.imageInput, centerInput, angleInput, widthInput]

    /// The square tile turned by quarter turns about its corners (p4): in blocks of 2×2 tiles about
    /// the corner `(½, ½)`, `v = mod(u + ½, 2) − 1`; the quadrant's quarter turn brings `v` into
    /// `[−1, 0)²` and `u' = v + ½`.
    static let fourfoldRotated = FilterDescriptor(
        name: "CIFourfoldRotatedTile", categories: categories,
        summary: "A square tile turned by quarter turns about its corners: v = mod(u + 1/2, 2) − 1, turned by the quarter turn "
            + "that brings it into [−1, 0)², u' = v + 1/2, out(p) = bilinear(in, c + w·rot(angle)·u'); infinite extent.",
        inputs: squareInputs
    ) { args in
        try tiled(fourfoldRotatedKernel, args)
    }

    static let fourfoldRotatedKernel = CatalogueKernel(frameSource + """
        kernel vec2 CIFourfoldRotatedTile(vec2 center, vec2 rotation, float width) {
            vec2 u = toTile(center, rotation, width);
            vec2 v = mod(u + 0.5, 2.0) - 1.0;
            vec2 r = v;
            if (v.x >= 0.0 && v.y < 0.0) { r = vec2(v.y, -v.x); }
            if (v.x >= 0.0 && v.y >= 0.0) { r = -v; }
            if (v.x < 0.0 && v.y >= 0.0) { r = vec2(-v.y, v.x); }
            return fromTile(r + 0.5, center, rotation, width);
        }
        """)

    /// The square tile's eighth (p4m): mirrored across the tile's sides, its middle lines and its
    /// diagonals: `g = |fold(u)|` per axis, sorted so `g.y ≤ g.x`, `u' = g`.
    static let eightfoldReflected = FilterDescriptor(
        name: "CIEightfoldReflectedTile", categories: categories,
        summary: "An eighth of the square tile mirrored 8 ways: g = (|fold(u.x)|, |fold(u.y)|) sorted so g.y ≤ g.x, "
            + "out(p) = bilinear(in, c + w·rot(angle)·g); infinite extent.",
        inputs: squareInputs
    ) { args in
        try tiled(eightfoldReflectedKernel, args)
    }

    static let eightfoldReflectedKernel = CatalogueKernel(frameSource + """
        kernel vec2 CIEightfoldReflectedTile(vec2 center, vec2 rotation, float width) {
            vec2 u = toTile(center, rotation, width);
            vec2 g = abs(vec2(fold(u.x), fold(u.y)));
            return fromTile(vec2(max(g.x, g.y), min(g.x, g.y)), center, rotation, width);
        }
        """)

    /// Ours (pg): rows of square tiles, every other row mirrored left–right and shifted half a tile:
    /// row `j = round(u.y)`, `x = u.x + ½·(j mod 2)`, `u' = (±(x − round x), u.y − j)` with the sign
    /// negative on odd rows.
    static let glideReflected = FilterDescriptor(
        name: "CIGlideReflectedTile", categories: categories,
        summary: "Square tiles, every other row mirrored and shifted half a tile (a glide reflection): j = round(u.y), "
            + "x = u.x + (j mod 2)/2, u' = (±(x − round x), u.y − j), − on odd rows; out(p) = bilinear(in, c + w·rot(angle)·u'); "
            + "infinite extent.",
        inputs: squareInputs
    ) { args in
        try tiled(glideReflectedKernel, args)
    }

    static let glideReflectedKernel = CatalogueKernel(frameSource + """
        kernel vec2 CIGlideReflectedTile(vec2 center, vec2 rotation, float width) {
            vec2 u = toTile(center, rotation, width);
            float j = floor(u.y + 0.5);
            float odd = mod(j, 2.0);
            float x = u.x + 0.5 * odd;
            x = x - floor(x + 0.5);
            return fromTile(vec2(odd > 0.5 ? -x : x, u.y - j), center, rotation, width);
        }
        """)

    /// Ours (op art): square cells of side `w`, each showing its own neighbourhood scaled by `scale`
    /// about the cell's centre `k`: `u' = k + scale·(u − k)`, `k = round(u)`; scale > 1 shrinks the
    /// picture in each cell. Extent: infinite; the region of interest is the output grown by
    /// `w·|scale − 1|/√2`.
    static let op = FilterDescriptor(
        name: "CIOpTile", categories: categories,
        summary: "Op art: square cells each showing its neighbourhood scaled about the cell centre k = round(u): "
            + "out(p) = bilinear(in, c + w·rot(angle)·(k + scale·(u − k))); infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput,
                 FilterInput("inputScale", .number, default: .number(2.8), minimum: 0, slider: 0.1...10,
                             "How much of the picture each cell shows (1: the picture unchanged)."),
                 angleInput,
                 FilterInput("inputWidth", .number, default: .number(65), minimum: 0, slider: 1...1000, "The width of a cell in pixels.")]
    ) { args in
        let f = try frame(args)
        let scale = try args.number("inputScale")
        return try opKernel.apply([.image(try args.image("inputImage"))] + f.arguments + [.number(scale)],
                                  extent: .infinite, regionOfInterest: .radius(f.width * abs(scale - 1) * 0.7072 + 1))
    }

    static let opKernel = CatalogueKernel(frameSource + """
        kernel vec2 CIOpTile(vec2 center, vec2 rotation, float width, float scale) {
            vec2 u = toTile(center, rotation, width);
            vec2 k = floor(u + 0.5);
            return fromTile(k + scale * (u - k), center, rotation, width);
        }
        """)

    /// The input's extent `e`, which tiles must have finite and non-empty.
    static func finiteExtent(_ image: Image, _ args: FilterArguments) throws -> Rect {
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "needs an image with a finite, non-empty extent (crop it first): the extent is the tile")
        }
        return e
    }

    /// The input's extent `e` transformed and repeated: `q = T⁻¹·p`, `out(p) = bilinear(clamped(in),
    /// e.origin + mod(q − e.origin, e.size))` (the input clamped to its extent, so the seams read the
    /// edge pixels, not transparency). Extent: infinite.
    static let affine = FilterDescriptor(
        name: "CIAffineTile", categories: categories,
        summary: "The image transformed by T and repeated: out(p) = bilinear(in, e.origin + mod(T⁻¹·p − e.origin, e.size)), "
            + "e the input's extent (edge pixels extended at the seams); infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputTransform", .transform, default: .transform(.identity), "The transform of the tile.")]
    ) { args in
        let image = try args.image("inputImage")
        let e = try finiteExtent(image, args)
        let t = try args.transform("inputTransform")
        let det = t.a * t.d - t.b * t.c
        guard det != 0, det.isFinite else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputTransform", reason: "the transform \(t) is not invertible")
        }
        // p = (a·x + c·y + tx, b·x + d·y + ty) inverted.
        let row0 = [t.d / det, -t.c / det, (t.c * t.ty - t.d * t.tx) / det]
        let row1 = [-t.b / det, t.a / det, (t.b * t.tx - t.a * t.ty) / det]
        let box = e.outset(dx: 1, dy: 1)
        return try affineKernel.apply([.image(image.clampedToExtent()), .vector(row0), .vector(row1), .vector([e.x, e.y, e.width, e.height])],
                                      extent: .infinite, regionOfInterest: .callback { _, _ in box })
    }

    static let affineKernel = CatalogueKernel("""
        kernel vec2 CIAffineTile(vec3 row0, vec3 row1, vec4 extent) {
            vec3 p = vec3(destCoord(), 1.0);
            vec2 q = vec2(dot(row0, p), dot(row1, p));
            return extent.xy + mod(q - extent.xy, extent.zw);
        }
        """)

    /// The input's extent mapped onto the quadrilateral of the four points (as
    /// CIPerspectiveTransform), and the plane of that projection tiled with it: `(s, t) = H⁻¹(p)`,
    /// `out(p) = bilinear(clamped(in), e.origin + e.size·fract(s, t))`, transparent beyond the
    /// horizon (`w ≤ 0`). Extent: infinite.
    static let perspective = FilterDescriptor(
        name: "CIPerspectiveTile", categories: categories,
        summary: "The image mapped onto the quadrilateral and its plane tiled: out(p) = bilinear(in, e.origin + e.size·fract(H⁻¹(p))), "
            + "H the unit square → quadrilateral homography, 0 beyond the horizon; infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput] + PerspectiveFilters.cornerInputs
    ) { args in
        let image = try args.image("inputImage")
        let e = try finiteExtent(image, args)
        guard let inverse = try PerspectiveFilters.quadrilateral(args).inverted else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputTopLeft", reason: "the corners are degenerate")
        }
        let m = inverse.m
        let largest = m.map(abs).max() ?? 1
        let rows = (0..<3).map { row in KernelArgument.vector((0..<3).map { m[row * 3 + $0] / largest }) }
        let box = e.outset(dx: 1, dy: 1)
        return try perspectiveKernel.apply([.image(image.clampedToExtent())] + rows + [.vector([e.x, e.y, e.width, e.height])],
                                           extent: .infinite, regionOfInterest: .callback { _, _ in box })
    }

    static let perspectiveKernel = CatalogueKernel("""
        kernel vec4 CIPerspectiveTile(sampler image, vec3 row0, vec3 row1, vec3 row2, vec4 extent) {
            vec3 p = vec3(destCoord(), 1.0);
            float w = dot(row2, p);
            vec2 st = vec2(dot(row0, p), dot(row1, p)) / (w > 0.0 ? w : 1.0);
            return w > 0.0 ? sample(image, extent.xy + extent.zw * fract(st)) : vec4(0.0);
        }
        """)
}
