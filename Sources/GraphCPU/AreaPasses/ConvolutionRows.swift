import CRowKernels

/// A ``Convolution`` pass on the CPU: each output row (four at a time for a vertical pass, each
/// input row loaded once for all four) sums its taps in `graph_convolve_rows` (`CRowKernels`).
extension Convolution: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        // A vertical pass computes four rows at a time (each input row loaded once for all four).
        let batch = axis == .horizontal ? 1 : 4
        let rows = tile.scratch.floats(0, count: output.width * batch)
        let tapStride = axis == .horizontal ? 1 : input.width
        weights.withUnsafeBufferPointer { w in
            guard let taps = w.baseAddress else { return }
            for channel in 0..<tile.channels {
                for y in stride(from: 0, to: output.height, by: batch) {
                    let count = min(batch, output.height - y)
                    // The first tap of output (x, y) is input (x − r, y) or (x, y − r): the input's origin.
                    graph_convolve_rows(input.row(channel, y), tapStride, taps, Int32(w.count), Int32(output.width), Int32(count),
                                        rows, output.width)
                    for r in 0..<count { output.store(channel: channel, row: y + r, from: rows + r * output.width) }
                }
            }
        }
    }
}
