import CRowKernels
import GraphEngine

/// The last step of a variable blur (CIMaskedVariableBlur): each pixel blends the two blur levels
/// that bracket its own blur size. Input 0 is the sharp image (σ = 0), input 1 the mask, inputs
/// 2… the levels in ascending σ, each a Gaussian of σ_j sampled every `d_j` pixels (level pixel i is
/// the blur at full-resolution pixel d_j·i; see ``Resample``).
///
/// `σ(p) = radius · clamp(L(mask(p)), 0, 1)` with `L = 0.2125 r + 0.7154 g + 0.0721 b`; for
/// `σ_j ≤ σ ≤ σ_{j+1}` the pixel is `(1 − t)·B_j(p) + t·B_{j+1}(p)`, `t = (σ − σ_j)/(σ_{j+1} − σ_j)`
/// (σ beyond the last level takes it alone), where `B_j(p)` is level j interpolated bilinearly
/// between its samples. So the work per pixel is two bilinear reads, whatever the radius.
package struct VariableBlurBlend: AreaOperation {
    package struct Level: Hashable, Sendable {
        package let sigma: Double
        package let decimation: Int
        package init(sigma: Double, decimation: Int) {
            self.sigma = sigma
            self.decimation = max(decimation, 1)
        }
    }

    package let radius: Double
    package let levels: [Level]
    /// How far the blurred image reaches past the sharp image's extent.
    package let growth: Double
    package let filterName: String

    package init(radius: Double, levels: [Level], growth: Double, filterName: String) {
        self.radius = radius
        self.levels = levels
        self.growth = growth
        self.filterName = filterName
    }

    package var name: String { filterName }

    /// The sharp image and the mask map to themselves; level j's pixel i lies at full-resolution
    /// pixel `d_j·i`, so its coordinates scale by `d_j` about the first pixel centre.
    package func geometry(input index: Int) -> AffineTransform? {
        guard index >= 2 else { return .identity }
        let d = Double(levels[index - 2].decimation)
        return AffineTransform(a: d, b: 0, c: 0, d: d, tx: 0.5 - d / 2, ty: 0.5 - d / 2)
    }
    package var summary: String {
        "blend of blur levels by mask, radius=\(formatFloat(radius)) levels=[" + levels.map {
            "σ\(formatFloat($0.sigma))/\($0.decimation)"
        }.joined(separator: " ") + "]"
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0].outset(dx: growth, dy: growth).integral }

    /// Grid samples `floor(p/d) … floor(p/d) + 1` of a level for pixels `[lower, upper)`.
    static func gridRange(_ lower: Int, _ upper: Int, _ d: Int) -> (Int, Int) {
        (floorDivide(lower, d), floorDivide(upper - 1, d) + 2)
    }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        guard index >= 2 else { return rect }
        let d = levels[index - 2].decimation
        let (x0, x1) = VariableBlurBlend.gridRange(Int(rect.minX), Int(rect.maxX), d)
        let (y0, y1) = VariableBlurBlend.gridRange(Int(rect.minY), Int(rect.maxY), d)
        return Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
    }

    package func inputChannels(_ index: Int) -> Int { index == 1 ? 3 : 4 }

    /// The mask loads as its luma `L` alone.
    package func reduction(input index: Int) -> AreaInputReduction? {
        guard index == 1 else { return nil }
        return { r, g, b, _, count, out in
            for x in 0..<count { out[x] = 0.2125 * r[x] + 0.7154 * g[x] + 0.0721 * b[x] }
        }
    }

    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs.indices.allSatisfy { $0 == 1 || inputs[$0].isOpaqueEverywhere } }

    /// The level index j and blend t for blur size σ (levels: σ_0 = 0, then ``levels``).
    @inline(__always)
    static func bracket(_ sigma: Float, _ sigmas: UnsafeMutablePointer<Float>, _ count: Int) -> (Int, Float) {
        var j = 0
        while j + 1 < count && sigmas[j + 1] <= sigma { j += 1 }
        if j + 1 >= count { return (count - 2, 1) }
        return (j, (sigma - sigmas[j]) / (sigmas[j + 1] - sigmas[j]))
    }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let m = SIMD4<Double>(try input(1, x, y))
        let sigma = radius * min(max(0.2125 * m[0] + 0.7154 * m[1] + 0.0721 * m[2], 0), 1)
        let sigmas = [0] + levels.map(\.sigma)
        func level(_ index: Int) throws -> SIMD4<Double> {
            if index == 0 { return SIMD4<Double>(try input(0, x, y)) }
            let d = levels[index - 1].decimation
            let gx = Double(x) / Double(d), gy = Double(y) / Double(d)
            let i = Int(gx.rounded(.down)), j = Int(gy.rounded(.down))
            let fx = gx - Double(i), fy = gy - Double(j)
            func g(_ a: Int, _ b: Int) throws -> SIMD4<Double> { SIMD4<Double>(try input(1 + index, a, b)) }
            return (1 - fy) * ((1 - fx) * (try g(i, j)) + fx * (try g(i + 1, j)))
                + fy * ((1 - fx) * (try g(i, j + 1)) + fx * (try g(i + 1, j + 1)))
        }
        guard let last = sigmas.last, sigma < last else { return SIMD4<Float>(try level(sigmas.count - 1)) }
        var j = 0
        while sigmas[j + 1] <= sigma { j += 1 }
        let t = (sigma - sigmas[j]) / (sigmas[j + 1] - sigmas[j])
        return SIMD4<Float>((1 - t) * (try level(j)) + t * (try level(j + 1)))
    }
}

extension VariableBlurBlend: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let output = tile.output, image = tile.inputs[0], mask = tile.inputs[1]
        let width = output.width, levelCount = levels.count + 1
        let sigmas = tile.scratch.floats(0, count: levelCount)
        sigmas[0] = 0
        for (j, level) in levels.enumerated() { sigmas[j + 1] = Float(level.sigma) }
        // Every decimated level's two grid rows around the output row, blended vertically, one after
        // another (level l, channel c at offset starts[l] + c·widths[l]); a full-resolution level
        // (d = 1) is read where it is.
        let starts = tile.scratch.integers(0, count: levels.count), widths = tile.scratch.integers(1, count: levels.count)
        var total = 0
        for j in levels.indices {
            starts[j] = total
            widths[j] = tile.inputs[2 + j].width
            total += 4 * widths[j]
        }
        let gridRows = tile.scratch.floats(1, count: max(total, 1))
        // Per level and output column: its left sample relative to the level's row start, and the weight.
        let columns = tile.scratch.integers(2, count: levels.count * width)
        let fractions = tile.scratch.floats(2, count: levels.count * width)
        for (j, level) in levels.enumerated() {
            let d = level.decimation, gridX = tile.inputs[2 + j].x
            for x in 0..<width {
                let px = output.x + x, i = floorDivide(px, d)
                columns[j * width + x] = i - gridX
                fractions[j * width + x] = Float(px - i * d) / Float(d)
            }
        }
        let chosen = tile.scratch.integers(3, count: width)
        let blend = tile.scratch.floats(3, count: width)
        let result = tile.scratch.floats(4, count: width)
        // Level j's row of channel c for the current output row: rows[j·4 + c] (on the stack).
        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: 4 * max(levels.count, 1)) { rowPointers in
            guard let rows = rowPointers.baseAddress else { return }
            let scale = Float(radius)
            for y in 0..<output.height {
                let py = output.y + y
                let m = mask.row(0, y)
                for x in 0..<width {
                    (chosen[x], blend[x]) = VariableBlurBlend.bracket(scale * min(max(m[x], 0), 1), sigmas, levelCount)
                }
                for (j, level) in levels.enumerated() {
                    let grid = tile.inputs[2 + j], d = level.decimation
                    let row = floorDivide(py, d), fy = Float(py - row * d) / Float(d)
                    for c in 0..<tile.channels {
                        let lower = grid.row(c, row - grid.y), upper = grid.row(c, row + 1 - grid.y)
                        if d == 1 {
                            rows[j * 4 + c] = UnsafePointer(lower)
                            continue
                        }
                        let target = gridRows + starts[j] + c * widths[j]
                        for i in 0..<grid.width { target[i] = lower[i] + fy * (upper[i] - lower[i]) }
                        rows[j * 4 + c] = UnsafePointer(target)
                    }
                }
                for c in 0..<tile.channels {
                    // Level l ≥ 1 at column x read bilinearly, mixed with the one below.
                    chosen.withMemoryRebound(to: Int64.self, capacity: width) { chosen in
                        columns.withMemoryRebound(to: Int64.self, capacity: levels.count * width) { columns in
                            graph_variable_blend_row(image.row(c, y), UnsafePointer(rows + c), 4, columns, fractions, chosen, blend,
                                                     Int32(width), result)
                        }
                    }
                    output.store(channel: c, row: y, from: result)
                }
            }
        }
    }
}

/// ⌊a / b⌋ for b > 0.
@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? a / b : -((-a + b - 1) / b)
}
