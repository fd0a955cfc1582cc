/// The maximum or minimum of each channel over a rectangle, as one pass per axis:
/// `out(x) = max_{|k|≤n} in(x+k)` (or min). O(1) per pixel whatever n, by van Herk / Gil-Werman:
/// the input is cut into blocks of 2n + 1; a forward running extremum `g` inside each block and a
/// backward one `h` give every window as `max(h[start], g[end])` (three comparisons per pixel).
///
/// Extrema are exact and NaN is ignored (IEEE maxNum/minNum: a NaN hole never wins against a
/// number), so the result does not depend on where blocks or tiles start.
public struct RectangleMorphology: AreaOperation {
    public enum Operation: String, Hashable, Sendable { case maximum, minimum }

    public let axis: Convolution.Axis
    public let radius: Int
    public let operation: Operation
    public let filterName: String

    public init(axis: Convolution.Axis, radius: Int, operation: Operation, filterName: String) {
        self.axis = axis
        self.radius = max(radius, 0)
        self.operation = operation
        self.filterName = filterName
    }

    public var name: String { "\(filterName)_\(axis == .horizontal ? "h" : "v")" }
    public var summary: String {
        "van Herk \(operation.rawValue) \(axis.rawValue) width=\(2 * radius + 1)"
    }

    public func outputExtent(inputExtents: [Rect]) -> Rect { regionOfInterest(input: 0, for: inputExtents[0]) }

    public func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let r = Double(radius)
        return axis == .horizontal ? rect.outset(dx: r, dy: 0) : rect.outset(dx: 0, dy: r)
    }

    public func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }

    public func run(_ tile: AreaTile) {
        switch (operation, axis) {
        case (.maximum, .horizontal): runHorizontal(tile, Float.maximum)
        case (.minimum, .horizontal): runHorizontal(tile, Float.minimum)
        case (.maximum, .vertical): runVertical(tile, Float.maximum)
        case (.minimum, .vertical): runVertical(tile, Float.minimum)
        }
    }

    @inline(__always)
    private func runHorizontal(_ tile: AreaTile, _ pick: (Float, Float) -> Float) {
        let input = tile.inputs[0], output = tile.output
        let window = 2 * radius + 1, length = input.width
        let forward = tile.scratch.floats(0, count: length)
        let backward = tile.scratch.floats(1, count: length)
        let row = tile.scratch.floats(2, count: output.width)
        for channel in 0..<tile.channels {
            for y in 0..<output.height {
                let source = input.row(channel, y)
                var start = 0
                while start < length {
                    let end = min(start + window, length)
                    forward[start] = source[start]
                    if start + 1 < end { for i in (start + 1)..<end { forward[i] = pick(forward[i - 1], source[i]) } }
                    backward[end - 1] = source[end - 1]
                    var i = end - 2
                    while i >= start {
                        backward[i] = pick(backward[i + 1], source[i])
                        i -= 1
                    }
                    start = end
                }
                // Output x reads the input window starting at index x (the input starts n left of it).
                for x in 0..<output.width { row[x] = pick(backward[x], forward[x + window - 1]) }
                output.store(channel: channel, row: y, from: row)
            }
        }
    }

    @inline(__always)
    private func runVertical(_ tile: AreaTile, _ pick: (Float, Float) -> Float) {
        let input = tile.inputs[0], output = tile.output
        let window = 2 * radius + 1, rows = input.height, width = output.width
        let forward = tile.scratch.floats(0, count: rows * width)
        let backward = tile.scratch.floats(1, count: rows * width)
        let row = tile.scratch.floats(2, count: width)
        for channel in 0..<tile.channels {
            var start = 0
            while start < rows {
                let end = min(start + window, rows)
                forward.advanced(by: start * width).update(from: input.row(channel, start), count: width)
                if start + 1 < end {
                    for r in (start + 1)..<end {
                        let previous = forward + (r - 1) * width, current = forward + r * width, source = input.row(channel, r)
                        for i in 0..<width { current[i] = pick(previous[i], source[i]) }
                    }
                }
                backward.advanced(by: (end - 1) * width).update(from: input.row(channel, end - 1), count: width)
                var r = end - 2
                while r >= start {
                    let next = backward + (r + 1) * width, current = backward + r * width, source = input.row(channel, r)
                    for i in 0..<width { current[i] = pick(next[i], source[i]) }
                    r -= 1
                }
                start = end
            }
            for y in 0..<output.height {
                let h = backward + y * width, g = forward + (y + window - 1) * width
                for i in 0..<width { row[i] = pick(h[i], g[i]) }
                output.store(channel: channel, row: y, from: row)
            }
        }
    }

    public func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var result = SIMD4<Float>(repeating: .nan)
        for k in -radius...radius {
            let v = axis == .horizontal ? try input(0, x + k, y) : try input(0, x, y + k)
            for c in 0..<4 {
                result[c] = operation == .maximum ? Float.maximum(result[c], v[c]) : Float.minimum(result[c], v[c])
            }
        }
        return result
    }
}
