import GraphEngine

/// Stylize (CICategoryStylize): cell effects, each a warp that samples the input once at the centre
/// of the cell holding the pixel, so it concatenates with its neighbours into one program. Core
/// Image's kernels are not public; the cell grids, extents and regions of interest follow its
/// decompiled filters (`-[CIPixellate outputImage]`, `-[CIHexagonalPixellate outputImage]`,
/// `-[CICrystallize outputImage]`).
enum StylizeFilters {
    static let categories = ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [pixellate, hexagonalPixellate, crystallize]

    static let centerInput = FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2,
                                         "A cell centre: where the grid is anchored.")
    static let scaleInput = FilterInput("inputScale", .number, default: .number(8), minimum: 1, slider: 1...100,
                                        "The cell size in pixels.")

    /// Square cells of side `s` centred on `c + s·k`: `out(p) = bilinear(in, c + s·floor((p − c)/s + ½))`.
    /// Extent: the input's, grown by `floor(s/2)` and rounded out (cells centred inside reach out);
    /// cells centred outside the input are transparent, as in Core Image.
    static let pixellate = FilterDescriptor(
        name: "CIPixellate", categories: categories,
        summary: "Square cells of side s centred on c + s·k: out(p) = bilinear(in, c + s·floor((p − c)/s + 1/2)); "
            + "extent grown by floor(s/2).",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, scaleInput]
    ) { args in
        let image = try args.image("inputImage")
        let center = try args.vector("inputCenter"), scale = try args.number("inputScale")
        let grow = (scale / 2).rounded(.down)
        return image.applying(PixellateWarp(center: (center[0], center[1]), scale: scale),
                              extent: image.extent.outset(dx: grow, dy: grow).integral)
    }

    /// Hexagonal cells: the Voronoi cells of a triangular lattice of spacing `s` anchored at `c`,
    /// rows `h = s·1.7321/2` apart (Core Image's constant for √3), every other row shifted by `s/2`.
    /// The lattice is two rectangular ones, `A = c + (s·i, 2h·j)` and `B = A + (s/2, h)`; the nearer
    /// of each one's nearest point (`A` on a tie) is sampled: `out(p) = bilinear(in, nearest)`.
    /// Extent: the input's grown by `s`.
    static let hexagonalPixellate = FilterDescriptor(
        name: "CIHexagonalPixellate", categories: categories,
        summary: "Hexagonal cells: out(p) = bilinear(in, the nearest point of the triangular lattice c + (s·i, 2h·j), "
            + "c + (s·(i + 1/2), 2h·j + h)), h = s·1.7321/2 (Core Image's √3/2); extent grown by s.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, scaleInput]
    ) { args in
        let image = try args.image("inputImage")
        let center = try args.vector("inputCenter"), scale = try args.number("inputScale")
        return image.applying(HexagonalPixellateWarp(center: (center[0], center[1]), scale: scale),
                              extent: image.extent.outset(dx: scale, dy: scale))
    }
}

extension StylizeFilters {
    /// Voronoi cells of jittered points. After Core Image: cell size `d = 2·round(r/2)`, grid
    /// anchored at `round(c)`, points within `0.325·d` of their cell's centre, extent grown by
    /// `1.5·d`. Core Image jitters with its random-noise image; ours is a hash of the cell:
    /// cell `k = floor((p − a)/d)`, point `a + d·(k + ½ + 0.65·(hash(k) − ½))`, `hash` =
    /// ``CrystallizeWarp/hash`` (Hoskins' "hash without sine"). `out(p) = bilinear(in, the
    /// nearest point of the 3×3 cells around p's)`.
    static let crystallize = FilterDescriptor(
        name: "CICrystallize", categories: categories,
        summary: "Voronoi cells of jittered points: out(p) = bilinear(in, the nearest of the points a + d·(k + 1/2 + "
            + "0.65·(hash(k) − 1/2)) of the 3×3 cells k around p's), d = 2·round(r/2), a = round(c); extent grown by 1.5·d.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(20), minimum: 1, slider: 1...100,
                             "The cell size in pixels (rounded to an even number)."),
                 centerInput]
    ) { args in
        let image = try args.image("inputImage")
        let radius = try args.number("inputRadius"), center = try args.vector("inputCenter")
        let size = 2 * (radius / 2).rounded()
        return image.applying(CrystallizeWarp(anchor: (center[0].rounded(), center[1].rounded()), size: size),
                              extent: image.extent.outset(dx: 1.5 * size, dy: 1.5 * size))
    }
}

/// The nearest jittered cell point among the 3×3 cells around the pixel's (see
/// ``StylizeFilters/crystallize``). A pixel's own point is within `(½ + 0.325)·√2·d ≈ 1.17·d`; any
/// point two cells away is at least `1.175·d` off, so nine cells suffice.
struct CrystallizeWarp: WarpOperation {
    let anchor: (x: Double, y: Double)
    let size: Double
    var name: String { "CICrystallize" }
    var structureKey: String { "CICrystallize" }
    var uniformValues: [Float] { [Float(anchor.x), Float(anchor.y), Float(size)] }
    var argumentSummary: String { "anchor=[\(anchor.x) \(anchor.y)] size=\(size)" }

    /// Two values in [0, 1) for cell (i, j), Hoskins' `hash22` without sine, every step in Float32
    /// in this order: `(x, y, z) = fract((i·.1031, j·.1030, i·.0973))`, `t = z·(x + 33.33) +
    /// (y·(z + 33.33) + x·(y + 33.33))`, `q = (x + t, y + t, z + t)`,
    /// `hash = (fract((q.x + q.y)·q.z), fract((q.x + q.z)·q.y))`.
    static func hash(_ i: Operand, _ j: Operand, _ b: inout ProgramBuilder) -> (Operand, Operand) {
        let x = b.unary(.fract, b.binary(.multiply, i, .constant(0.1031)))
        let y = b.unary(.fract, b.binary(.multiply, j, .constant(0.1030)))
        let z = b.unary(.fract, b.binary(.multiply, i, .constant(0.0973)))
        let dot = b.ternary(.multiplyAdd, z, b.binary(.add, x, .constant(33.33)),
                            b.ternary(.multiplyAdd, y, b.binary(.add, z, .constant(33.33)),
                                      b.binary(.multiply, x, b.binary(.add, y, .constant(33.33)))))
        let (qx, qy, qz) = (b.binary(.add, x, dot), b.binary(.add, y, dot), b.binary(.add, z, dot))
        return (b.unary(.fract, b.binary(.multiply, b.binary(.add, qx, qy), qz)),
                b.unary(.fract, b.binary(.multiply, b.binary(.add, qx, qz), qy)))
    }

    /// The nearest point is within `1.17·d` of the pixel.
    func regionOfInterest(for rect: Rect) -> Rect { rect.outset(dx: 1.5 * size, dy: 1.5 * size) }
}

extension CrystallizeWarp: WarpLowering {
    func emit(uniforms u: [Operand], destination p: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> (x: Operand, y: Operand) {
        // Offsets from the anchor in cell units, and the pixel's cell.
        let gx = b.binary(.divide, b.binary(.subtract, p.x, u[0]), u[2])
        let gy = b.binary(.divide, b.binary(.subtract, p.y, u[1]), u[2])
        let cx = b.unary(.floor, gx), cy = b.unary(.floor, gy)
        var best: (x: Operand, y: Operand, distance: Operand)?
        for dj in -1...1 {
            for di in -1...1 {
                let i = b.binary(.add, cx, .constant(Float(di))), j = b.binary(.add, cy, .constant(Float(dj)))
                let (hx, hy) = Self.hash(i, j, &b)
                // The point in cell units: k + ½ + 0.65·(h − ½) = k + 0.175 + 0.65·h.
                let fx = b.ternary(.multiplyAdd, hx, .constant(0.65), b.binary(.add, i, .constant(0.175)))
                let fy = b.ternary(.multiplyAdd, hy, .constant(0.65), b.binary(.add, j, .constant(0.175)))
                let ex = b.binary(.subtract, gx, fx), ey = b.binary(.subtract, gy, fy)
                let distance = b.ternary(.multiplyAdd, ex, ex, b.binary(.multiply, ey, ey))
                if let current = best {
                    let nearer = b.binary(.lessThan, distance, current.distance)
                    best = (b.ternary(.select, nearer, fx, current.x), b.ternary(.select, nearer, fy, current.y),
                            b.binary(.minimum, distance, current.distance))
                } else {
                    best = (fx, fy, distance)
                }
            }
        }
        guard let nearest = best else { return p }
        return (b.ternary(.multiplyAdd, nearest.x, u[2], u[0]), b.ternary(.multiplyAdd, nearest.y, u[2], u[1]))
    }
}

/// `c + s·floor((p − c)/s + ½)` per axis.
struct PixellateWarp: WarpOperation {
    let center: (x: Double, y: Double)
    let scale: Double
    var name: String { "CIPixellate" }
    var structureKey: String { "CIPixellate" }
    var uniformValues: [Float] { [Float(center.x), Float(center.y), Float(scale)] }
    var argumentSummary: String { "center=[\(center.x) \(center.y)] scale=\(scale)" }

    /// Every point of a cell is within `s/2` of its centre on each axis.
    func regionOfInterest(for rect: Rect) -> Rect { rect.outset(dx: scale / 2, dy: scale / 2) }
}

extension PixellateWarp: WarpLowering {
    func emit(uniforms u: [Operand], destination p: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> (x: Operand, y: Operand) {
        func cellCentre(_ coordinate: Operand, _ c: Operand) -> Operand {
            let cell = b.unary(.floor, b.binary(.add, b.binary(.divide, b.binary(.subtract, coordinate, c), u[2]), .constant(0.5)))
            return b.ternary(.multiplyAdd, cell, u[2], c)
        }
        return (cellCentre(p.x, u[0]), cellCentre(p.y, u[1]))
    }
}

/// The nearer of the nearest points of lattices `A = c + (s·i, 2h·j)` and `B = A + (s/2, h)`.
struct HexagonalPixellateWarp: WarpOperation {
    let center: (x: Double, y: Double)
    let scale: Double
    /// Row spacing `h = s·1.7321/2`.
    var rowSpacing: Double { scale * 1.7321 / 2 }
    var name: String { "CIHexagonalPixellate" }
    var structureKey: String { "CIHexagonalPixellate" }
    var uniformValues: [Float] { [Float(center.x), Float(center.y), Float(scale), Float(2 * rowSpacing)] }
    var argumentSummary: String { "center=[\(center.x) \(center.y)] scale=\(scale)" }

    /// A point is within the circumradius `s/√3` of its cell's centre.
    func regionOfInterest(for rect: Rect) -> Rect { rect.outset(dx: scale, dy: scale) }
}

extension HexagonalPixellateWarp: WarpLowering {
    func emit(uniforms u: [Operand], destination p: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> (x: Operand, y: Operand) {
        // Offsets from the anchor, in lattice units along each axis.
        let dx = b.binary(.subtract, p.x, u[0]), dy = b.binary(.subtract, p.y, u[1])
        let gx = b.binary(.divide, dx, u[2]), gy = b.binary(.divide, dy, u[3])
        // Nearest point of A (round) and of B (floor + ½), as offsets from the anchor.
        let ax = b.binary(.multiply, b.unary(.floor, b.binary(.add, gx, .constant(0.5))), u[2])
        let ay = b.binary(.multiply, b.unary(.floor, b.binary(.add, gy, .constant(0.5))), u[3])
        let bx = b.binary(.multiply, b.binary(.add, b.unary(.floor, gx), .constant(0.5)), u[2])
        let by = b.binary(.multiply, b.binary(.add, b.unary(.floor, gy), .constant(0.5)), u[3])
        func squaredDistance(_ x: Operand, _ y: Operand) -> Operand {
            let ex = b.binary(.subtract, dx, x), ey = b.binary(.subtract, dy, y)
            return b.ternary(.multiplyAdd, ex, ex, b.binary(.multiply, ey, ey))
        }
        let useB = b.binary(.lessThan, squaredDistance(bx, by), squaredDistance(ax, ay))
        return (b.binary(.add, b.ternary(.select, useB, bx, ax), u[0]), b.binary(.add, b.ternary(.select, useB, by, ay), u[1]))
    }
}
