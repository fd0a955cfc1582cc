import CRowKernels
import GraphEngine

/// A small 2-D convolution (Core Image's CIConvolution3X3 … 9X9 and their 1-D and RGB variants):
/// `out(x, y) = bias + Σ_i Σ_j w[i·columns + j] · in(x + j − cx, y + cy − i)` with `cx = (columns − 1)/2`,
/// `cy = (rows − 1)/2`: weights are listed row by row from the top row, as Core Image lists them
/// (working-space y is up, so row i reads `cy − i` rows up).
///
/// Each output row sums the kernel rows top first, each kernel row's taps left first (the
/// `CRowKernels` row convolution, AVX behind a run-time check and bit-identical to its portable
/// loop), so the order of arithmetic is fixed. With `colorOnly` (the RGB variants) alpha is the
/// centre pixel's, unfiltered, and the bias is added to R, G and B only.
package struct SmallConvolution: AreaOperation {
    package let columns: Int, rows: Int
    package let weights: [Float]
    package let bias: Float
    package let colorOnly: Bool
    package let filterName: String

    /// `weights.count == columns · rows`, both odd.
    package init(columns: Int, rows: Int, weights: [Float], bias: Float, colorOnly: Bool, filterName: String) {
        precondition(columns % 2 == 1 && rows % 2 == 1 && weights.count == columns * rows, "odd kernel with one weight per tap")
        self.columns = columns
        self.rows = rows
        self.weights = weights
        self.bias = bias
        self.colorOnly = colorOnly
        self.filterName = filterName
    }

    var cx: Int { (columns - 1) / 2 }
    var cy: Int { (rows - 1) / 2 }

    package var name: String { filterName }
    package var summary: String {
        "convolution \(columns)x\(rows) weights=[" + weights.map { formatFloat(Double($0)) }.joined(separator: " ") + "]"
            + (bias != 0 ? " bias=\(formatFloat(Double(bias)))" : "") + (colorOnly ? " rgb" : "")
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { regionOfInterest(input: 0, for: inputExtents[0]) }

    /// An opaque result (a sharpen of an opaque photo) goes straight into an 8-bit destination's rows.
    package var writesCodes: Bool { true }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        rect.outset(dx: Double(cx), dy: Double(cy))
    }

    /// Opaque when every tap reads alpha 1 (a clamped opaque input) and, except for the RGB variants
    /// (which keep the centre's alpha), the pass turns ones into exactly 1 summing in its own order.
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool {
        guard inputs[0].isOpaqueEverywhere else { return false }
        if colorOnly { return true }
        var sum: Float = 0
        for i in 0..<rows {
            var part: Float = 0
            for j in 0..<columns { part = part + weights[i * columns + j] }
            sum = i == 0 ? part : sum + part
        }
        return sum + bias == 1
    }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var sum = SIMD4<Double>.zero
        for i in 0..<rows {
            for j in 0..<columns {
                sum += Double(weights[i * columns + j]) * SIMD4<Double>(try input(0, x + j - cx, y + cy - i))
            }
        }
        sum += Double(bias)
        if colorOnly { sum[3] = Double(try input(0, x, y)[3]) }
        return SIMD4<Float>(sum)
    }
}

extension SmallConvolution: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let width = output.width
        let part = tile.scratch.floats(0, count: width)
        weights.withUnsafeBufferPointer { w in
            guard let taps = w.baseAddress else { return }
            /// Output row `y` of `channel` into `sum`.
            func convolve(_ channel: Int, row y: Int, into sum: UnsafeMutablePointer<Float>) {
                // Kernel row i reads input row y + cy − i (relative to output row y; the input starts cy lower).
                for i in 0..<rows {
                    let source = input.row(channel, y + 2 * cy - i)
                    graph_convolve_row(source, 1, taps + i * columns, Int32(columns), Int32(width), i == 0 ? sum : part)
                    if i > 0 { for x in 0..<width { sum[x] += part[x] } }
                }
                for x in 0..<width { sum[x] += bias }
            }
            if let codes = output.codes {
                // Opaque RGB (``writesCodes``): a row's three channels, then their codes.
                let rgb = tile.scratch.floats(1, count: 3 * width)
                for y in 0..<output.height {
                    for channel in 0..<3 { convolve(channel, row: y, into: rgb + channel * width) }
                    codes.store(x: output.x, y: output.y + y, red: rgb, green: rgb + width, blue: rgb + 2 * width, count: width)
                }
                return
            }
            let sum = tile.scratch.floats(1, count: width)
            for channel in 0..<(colorOnly ? min(tile.channels, 3) : tile.channels) {
                for y in 0..<output.height {
                    convolve(channel, row: y, into: sum)
                    output.store(channel: channel, row: y, from: sum)
                }
            }
            if colorOnly && tile.channels == 4 {
                for y in 0..<output.height { output.store(channel: 3, row: y, from: input.row(3, y + cy) + cx) }
            }
        }
    }
}
