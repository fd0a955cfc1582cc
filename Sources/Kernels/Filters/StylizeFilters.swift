import GraphEngine

/// Stylize (CICategoryStylize): cell effects, each a warp that samples the input once at the centre
/// of the cell holding the pixel, so it concatenates with its neighbours into one program. Core
/// Image's kernels are not public; the cell grids, extents and regions of interest follow its
/// decompiled filters (`-[CIPixellate outputImage]`, `-[CIHexagonalPixellate outputImage]`).
enum StylizeFilters {
    static let categories = ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [pixellate, hexagonalPixellate]

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

/// `c + s·floor((p − c)/s + ½)` per axis.
struct PixellateWarp: WarpOperation {
    let center: (x: Double, y: Double)
    let scale: Double
    var name: String { "CIPixellate" }
    var structureKey: String { "CIPixellate" }
    var uniformValues: [Float] { [Float(center.x), Float(center.y), Float(scale)] }
    var argumentSummary: String { "center=[\(center.x) \(center.y)] scale=\(scale)" }

    func lower(uniforms u: [Operand], destination p: (x: Operand, y: Operand),
               builder b: inout ProgramBuilder) throws -> (x: Operand, y: Operand) {
        func cellCentre(_ coordinate: Operand, _ c: Operand) -> Operand {
            let cell = b.unary(.floor, b.binary(.add, b.binary(.divide, b.binary(.subtract, coordinate, c), u[2]), .constant(0.5)))
            return b.ternary(.multiplyAdd, cell, u[2], c)
        }
        return (cellCentre(p.x, u[0]), cellCentre(p.y, u[1]))
    }

    /// Every point of a cell is within `s/2` of its centre on each axis.
    func regionOfInterest(for rect: Rect) -> Rect { rect.outset(dx: scale / 2, dy: scale / 2) }
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

    func lower(uniforms u: [Operand], destination p: (x: Operand, y: Operand),
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

    /// A point is within the circumradius `s/√3` of its cell's centre.
    func regionOfInterest(for rect: Rect) -> Rect { rect.outset(dx: scale, dy: scale) }
}
