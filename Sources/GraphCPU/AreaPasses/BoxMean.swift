/// One axis of a box blur, by running sums: `out(x) = (Σ_{|k|≤n} in(x+k) + f·(in(x−n−1) + in(x+n+1))) / (2r+1)`
/// with `n = ⌊r⌋`, `f = r − n` (a box of width 2r + 1 whose end taps are partial, so the blur grows
/// continuously with r). O(1) per pixel whatever the radius.
///
/// A running sum restarts at anchors every `B` pixels of absolute position (B = max(32, n)): the
/// anchor's window is summed plainly in ascending order, then each step adds the entering pixel
/// and subtracts the leaving one. So every pixel's value depends on its position only, never on
/// where a tile starts (the tile is computed from the anchor at or before its first pixel).
package struct BoxMean: AreaOperation {
    package let axis: Convolution.Axis
    package let radius: Double
    package let filterName: String

    /// `radius` ≥ 0.
    package init(axis: Convolution.Axis, radius: Double, filterName: String) {
        self.axis = axis
        self.radius = max(radius, 0)
        self.filterName = filterName
    }

    var whole: Int { Int(radius.rounded(.down)) }
    var fraction: Float { Float(radius - radius.rounded(.down)) }
    /// How far a tap reaches: n, or n + 1 with partial end taps.
    var reach: Int { fraction > 0 ? whole + 1 : whole }
    var anchorSpacing: Int { max(32, whole) }

    package var name: String { "\(filterName)_\(axis == .horizontal ? "h" : "v")" }
    package var summary: String {
        "running-sum box \(axis.rawValue) radius=\(formatFloat(radius)) (width \(formatFloat(2 * radius + 1)))"
    }

    /// The first anchor at or before `position`.
    func anchor(_ position: Int) -> Int {
        let b = anchorSpacing
        return (position >= 0 ? position / b : -((-position + b - 1) / b)) * b
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect {
        let r = Double(reach)
        return axis == .horizontal ? inputExtents[0].outset(dx: r, dy: 0) : inputExtents[0].outset(dx: 0, dy: r)
    }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let r = Double(reach)
        if axis == .horizontal {
            let start = Double(anchor(Int(rect.minX))) - r
            return Rect(x: start, y: rect.y, width: rect.maxX + r - start, height: rect.height)
        }
        let start = Double(anchor(Int(rect.minY))) - r
        return Rect(x: rect.x, y: start, width: rect.width, height: rect.maxY + r - start)
    }

    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }
    /// Each channel is filtered alone: a grey input gives a grey result (one channel computed).
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
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

extension BoxMean: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        if axis == .vertical {
            for channel in 0..<tile.channels {
                scan(lanes: output.width, from: output.y, to: output.y + output.height, scratch: tile.scratch,
                     input: { UnsafePointer(input.row(channel, $0 - input.y)) }) { y, values in
                    output.store(channel: channel, row: y - output.y, from: values)
                }
            }
            return
        }
        // Rows side by side: position i of lane j is column i of row j of the block.
        let length = input.width
        let block = tile.scratch.floats(0, count: length * RowBlocks.lanes)
        let results = tile.scratch.floats(1, count: output.width * RowBlocks.lanes)
        let row = tile.scratch.floats(2, count: output.width)
        for channel in 0..<tile.channels {
            var first = 0
            while first < output.height {
                let count = min(RowBlocks.lanes, output.height - first)
                RowBlocks.transpose(count: count, length: length, into: block) { UnsafePointer(input.row(channel, first + $0)) }
                scan(lanes: count, from: output.x, to: output.x + output.width, scratch: tile.scratch,
                     input: { UnsafePointer(block + ($0 - input.x) * count) }) { x, values in
                    (results + (x - output.x) * count).update(from: values, count: count)
                }
                for j in 0..<count {
                    RowBlocks.extract(row: j, count: count, length: output.width, from: results, into: row)
                    output.store(channel: channel, row: first + j, from: row)
                }
                first += count
            }
        }
    }

    /// The means at positions `start ..< end` along the scanned axis, `lanes` values at a time:
    /// `input(i)` is the lane vector at absolute position i, `emit(p, values)` receives position p's.
    @inline(__always)
    private func scan(lanes width: Int, from start: Int, to end: Int, scratch: AreaScratch,
                      input: (Int) -> UnsafePointer<Float>, emit: (Int, UnsafePointer<Float>) -> Void) {
        let n = whole, f = fraction, reach = self.reach, spacing = anchorSpacing
        let scale = Float(1 / (2 * radius + 1))
        let sum = scratch.floats(3, count: width)
        let values = scratch.floats(4, count: width)
        var block = anchor(start)
        while block < end {
            let blockEnd = min(block + spacing, end)
            // The anchor's window, summed plainly in ascending order.
            sum.update(from: input(block - n), count: width)
            if n > 0 {
                for k in (block - n + 1)...(block + n) {
                    let r = input(k)
                    for i in 0..<width { sum[i] += r[i] }
                }
            }
            for p in block..<blockEnd {
                if p >= start {
                    if reach > n {
                        let below = input(p - n - 1), above = input(p + n + 1)
                        for i in 0..<width { values[i] = (sum[i] + f * (below[i] + above[i])) * scale }
                    } else {
                        for i in 0..<width { values[i] = sum[i] * scale }
                    }
                    emit(p, values)
                }
                if p + 1 < blockEnd {
                    let entering = input(p + n + 1), leaving = input(p - n)
                    for i in 0..<width { sum[i] = (sum[i] + entering[i]) - leaving[i] }
                }
            }
            block = blockEnd
        }
    }
}
