import GraphEngine

/// The maximum or minimum of each channel over a rectangle, as one pass per axis:
/// `out(x) = max_{|k|≤n} in(x+k)` (or min). O(1) per pixel whatever n, by van Herk / Gil-Werman:
/// the input is cut into blocks of 2n + 1; a forward running extremum `g` inside each block and a
/// backward one `h` give every window as `max(h[start], g[end])` (three comparisons per pixel).
///
/// Extrema are exact, NaN is ignored (maxNum/minNum: a NaN hole never wins against a number) and
/// −0 is stored as +0, so the result does not depend on where blocks or tiles start.
package struct RectangleMorphology: AreaOperation {
    package enum Operation: String, Hashable, Sendable { case maximum, minimum }

    package let axis: Convolution.Axis
    package let radius: Int
    package let operation: Operation
    package let filterName: String

    package init(axis: Convolution.Axis, radius: Int, operation: Operation, filterName: String) {
        self.axis = axis
        self.radius = max(radius, 0)
        self.operation = operation
        self.filterName = filterName
    }

    package var name: String { "\(filterName)_\(axis == .horizontal ? "h" : "v")" }
    package var summary: String {
        "van Herk \(operation.rawValue) \(axis.rawValue) width=\(2 * radius + 1)"
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { regionOfInterest(input: 0, for: inputExtents[0]) }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let r = Double(radius)
        return axis == .horizontal ? rect.outset(dx: r, dy: 0) : rect.outset(dx: 0, dy: r)
    }

    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }
    /// Each channel is filtered alone: a grey input gives a grey result (one channel computed).
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var result = SIMD4<Float>(repeating: .nan)
        for k in -radius...radius {
            let v = axis == .horizontal ? try input(0, x + k, y) : try input(0, x, y + k)
            for c in 0..<4 {
                result[c] = operation == .maximum ? maximumNumber(result[c], v[c]) : minimumNumber(result[c], v[c])
            }
        }
        return result
    }
}

extension RectangleMorphology: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        switch operation {
        case .maximum: run(tile, maximumNumber)
        case .minimum: run(tile, minimumNumber)
        }
    }

    @inline(__always)
    private func run(_ tile: AreaTile, _ pick: (Float, Float) -> Float) {
        let input = tile.inputs[0], output = tile.output
        if axis == .vertical {
            for channel in 0..<tile.channels {
                scan(lanes: output.width, length: input.height, scratch: tile.scratch, pick,
                     input: { UnsafePointer(input.row(channel, $0)) }) { y, values in
                    output.store(channel: channel, row: y, from: values)
                }
            }
            return
        }
        // Rows side by side: index i of lane j is input column i of row j of the block.
        let length = input.width
        let block = tile.scratch.floats(0, count: length * RowBlocks.lanes)
        let results = tile.scratch.floats(1, count: output.width * RowBlocks.lanes)
        let row = tile.scratch.floats(2, count: output.width)
        for channel in 0..<tile.channels {
            var first = 0
            while first < output.height {
                let count = min(RowBlocks.lanes, output.height - first)
                RowBlocks.transpose(count: count, length: length, into: block) { UnsafePointer(input.row(channel, first + $0)) }
                scan(lanes: count, length: length, scratch: tile.scratch, pick,
                     input: { UnsafePointer(block + $0 * count) }) { x, values in
                    (results + x * count).update(from: values, count: count)
                }
                for j in 0..<count {
                    RowBlocks.extract(row: j, count: count, length: output.width, from: results, into: row)
                    output.store(channel: channel, row: first + j, from: row)
                }
                first += count
            }
        }
    }

    /// Van Herk over `length` input positions, `lanes` values at a time: `input(i)` is the lane
    /// vector at input index i; output index o (window i = o … o + 2n) goes to `emit(o, values)`.
    @inline(__always)
    private func scan(lanes width: Int, length: Int, scratch: AreaScratch, _ pick: (Float, Float) -> Float,
                      input: (Int) -> UnsafePointer<Float>, emit: (Int, UnsafePointer<Float>) -> Void) {
        let window = 2 * radius + 1
        let forward = scratch.floats(3, count: length * width)
        let backward = scratch.floats(4, count: length * width)
        let values = scratch.floats(5, count: width)
        var start = 0
        while start < length {
            let end = min(start + window, length)
            (forward + start * width).update(from: input(start), count: width)
            if start + 1 < end {
                for r in (start + 1)..<end {
                    let previous = forward + (r - 1) * width, current = forward + r * width, source = input(r)
                    for i in 0..<width { current[i] = pick(previous[i], source[i]) }
                }
            }
            (backward + (end - 1) * width).update(from: input(end - 1), count: width)
            var r = end - 2
            while r >= start {
                let next = backward + (r + 1) * width, current = backward + r * width, source = input(r)
                for i in 0..<width { current[i] = pick(next[i], source[i]) }
                r -= 1
            }
            start = end
        }
        for o in 0..<(length - 2 * radius) {
            let h = backward + o * width, g = forward + (o + window - 1) * width
            // + 0 makes −0 and +0 one value (which of them an extremum keeps depends on the order).
            for i in 0..<width { values[i] = pick(h[i], g[i]) + 0 }
            emit(o, values)
        }
    }
}
