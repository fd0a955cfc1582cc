import CRowKernels

/// An ``IntegerSeparableBlur`` on the CPU: per channel, each input row's codes through the
/// horizontal int16 pass into the middle rows, then the vertical pass over them to floats
/// (`graph_symmetric_convolve_to_int16`, `graph_symmetric_convolve_columns_to_float`).
extension IntegerSeparableBlur: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let width = output.width, taps = integerWeights.count
        // Scratch: one row of codes, the horizontal pass's rows (8.6 fixed point), the output rows.
        // The middle rows sit an odd number of 64-byte lines apart, so the vertical taps of a column
        // block fall in different L1 cache sets (at 1024 bytes apart, 61 rows share 8 sets).
        let lines = (width + 31) / 32
        let middleStride = (lines | 1) * 32
        let codes = Self.int16s(tile.scratch, slot: 0, count: input.width)
        let middle = Self.int16s(tile.scratch, slot: 1, count: middleStride * input.height)
        let rows = tile.scratch.floats(2, count: width * output.height)
        let scale = Float(1 / (255 * Double(1 << (shift + 6))))
        integerWeights.withUnsafeBufferPointer { w in
            guard let weights = w.baseAddress else { return }
            for channel in 0..<min(tile.channels, 3) {
                for y in 0..<input.height {
                    var rowCodes = codes
                    if let loaded = input.codes {
                        rowCodes = loaded + channel * input.planeStride + y * input.width
                    } else {
                        // A grey input (one channel, loaded as floats): code / 255 back to its code.
                        graph_float_to_code16(input.row(channel, y), Int32(input.width), codes)
                    }
                    graph_symmetric_convolve_to_int16(rowCodes, 1, weights, Int32(taps), Int32(width), Int32(shift - 6),
                                                      middle + y * middleStride)
                }
                graph_symmetric_convolve_columns_to_float(middle, middleStride, weights, Int32(taps), Int32(width), Int32(output.height),
                                                          scale, rows, width)
                for y in 0..<output.height { output.store(channel: channel, row: y, from: rows + y * width) }
            }
        }
        // Alpha, were it asked for (the input is opaque).
        if tile.channels == 4 {
            rows.update(repeating: 1, count: width)
            for y in 0..<output.height { output.store(channel: 3, row: y, from: rows) }
        }
    }

    /// Float scratch slot `slot` used as `count` Int16 values.
    private static func int16s(_ scratch: AreaScratch, slot: Int, count: Int) -> UnsafeMutablePointer<Int16> {
        UnsafeMutableRawPointer(scratch.floats(slot, count: (count + 1) / 2)).bindMemory(to: Int16.self, capacity: count)
    }
}
