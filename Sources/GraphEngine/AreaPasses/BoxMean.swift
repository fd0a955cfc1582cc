/// One axis of a box blur, by running sums: `out(x) = (Σ_{|k|≤n} in(x+k) + f·(in(x−n−1) + in(x+n+1))) / (2r+1)`
/// with `n = ⌊r⌋`, `f = r − n` (a box of width 2r + 1 whose end taps are partial, so the blur grows
/// continuously with r). O(1) per pixel whatever the radius.
///
/// A running sum restarts at anchors every `B` pixels of absolute position (B = max(32, n)): the
/// anchor's window is summed plainly in ascending order, then each step adds the entering pixel
/// and subtracts the leaving one. So every pixel's value depends on its position only, never on
/// where a tile starts (the tile is computed from the anchor at or before its first pixel).
public struct BoxMean: AreaOperation {
    public let axis: Convolution.Axis
    public let radius: Double
    public let filterName: String

    /// `radius` ≥ 0.
    public init(axis: Convolution.Axis, radius: Double, filterName: String) {
        self.axis = axis
        self.radius = max(radius, 0)
        self.filterName = filterName
    }

    var whole: Int { Int(radius.rounded(.down)) }
    var fraction: Float { Float(radius - radius.rounded(.down)) }
    /// How far a tap reaches: n, or n + 1 with partial end taps.
    var reach: Int { fraction > 0 ? whole + 1 : whole }
    var anchorSpacing: Int { max(32, whole) }

    public var name: String { "\(filterName)_\(axis == .horizontal ? "h" : "v")" }
    public var summary: String {
        "running-sum box \(axis.rawValue) radius=\(formatFloat(radius)) (width \(formatFloat(2 * radius + 1)))"
    }

    /// The first anchor at or before `position`.
    func anchor(_ position: Int) -> Int {
        let b = anchorSpacing
        return (position >= 0 ? position / b : -((-position + b - 1) / b)) * b
    }

    public func outputExtent(inputExtents: [Rect]) -> Rect {
        let r = Double(reach)
        return axis == .horizontal ? inputExtents[0].outset(dx: r, dy: 0) : inputExtents[0].outset(dx: 0, dy: r)
    }

    public func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let r = Double(reach)
        if axis == .horizontal {
            let start = Double(anchor(Int(rect.minX))) - r
            return Rect(x: start, y: rect.y, width: rect.maxX + r - start, height: rect.height)
        }
        let start = Double(anchor(Int(rect.minY))) - r
        return Rect(x: rect.x, y: start, width: rect.width, height: rect.maxY + r - start)
    }

    public func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }

    public func run(_ tile: AreaTile) {
        if axis == .horizontal { runHorizontal(tile) } else { runVertical(tile) }
    }

    private func runHorizontal(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let n = whole, f = fraction, reach = self.reach, spacing = anchorSpacing
        let scale = Float(1 / (2 * radius + 1))
        let row = tile.scratch.floats(0, count: output.width)
        let first = anchor(output.x)
        for channel in 0..<tile.channels {
            for y in 0..<output.height {
                // in[i] is the pixel at absolute column i.
                let inRow = input.row(channel, y) - input.x
                let out = row - output.x
                var block = first
                while block < output.x + output.width {
                    let end = min(block + spacing, output.x + output.width)
                    var sum: Float = 0
                    for k in (block - n)...(block + n) { sum += inRow[k] }
                    for x in block..<end {
                        if x >= output.x {
                            let edges = reach > n ? f * (inRow[x - n - 1] + inRow[x + n + 1]) : 0
                            out[x] = (sum + edges) * scale
                        }
                        if x + 1 < end { sum = (sum + inRow[x + n + 1]) - inRow[x - n] }
                    }
                    block = end
                }
                output.store(channel: channel, row: y, from: row)
            }
        }
    }

    private func runVertical(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let n = whole, f = fraction, reach = self.reach, spacing = anchorSpacing
        let width = output.width
        let scale = Float(1 / (2 * radius + 1))
        let sum = tile.scratch.floats(0, count: width)
        let row = tile.scratch.floats(1, count: width)
        let first = anchor(output.y)
        for channel in 0..<tile.channels {
            // Row i (absolute) of the input channel.
            func inRow(_ i: Int) -> UnsafeMutablePointer<Float> { input.row(channel, i - input.y) }
            var block = first
            while block < output.y + output.height {
                let end = min(block + spacing, output.y + output.height)
                sum.update(from: inRow(block - n), count: width)
                if n > 0 {
                    for k in (block - n + 1)...(block + n) {
                        let r = inRow(k)
                        for i in 0..<width { sum[i] += r[i] }
                    }
                }
                for y in block..<end {
                    if y >= output.y {
                        if reach > n {
                            let below = inRow(y - n - 1), above = inRow(y + n + 1)
                            for i in 0..<width { row[i] = (sum[i] + f * (below[i] + above[i])) * scale }
                        } else {
                            for i in 0..<width { row[i] = sum[i] * scale }
                        }
                        output.store(channel: channel, row: y - output.y, from: row)
                    }
                    if y + 1 < end {
                        let entering = inRow(y + n + 1), leaving = inRow(y - n)
                        for i in 0..<width { sum[i] = (sum[i] + entering[i]) - leaving[i] }
                    }
                }
                block = end
            }
        }
    }

    public func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        func at(_ k: Int) throws -> SIMD4<Double> {
            SIMD4<Double>(axis == .horizontal ? try input(0, x + k, y) : try input(0, x, y + k))
        }
        var sum = SIMD4<Double>.zero
        for k in -whole...whole { sum += try at(k) }
        let f = radius - radius.rounded(.down)
        if f > 0 { sum += f * (try at(-whole - 1) + at(whole + 1)) }
        return SIMD4<Float>(sum / (2 * radius + 1))
    }
}
