import CRowKernels

/// An ``IntegerSeparableBlur`` on the CPU: per channel, each input row's codes through the
/// horizontal int16 pass into the middle rows, then the vertical pass over them to floats
/// (`graph_symmetric_convolve_to_int16`, `graph_symmetric_convolve_columns_to_float`), or to codes
/// interleaved into the destination's rows when the render asks for them (``AreaOutput/codes``).
extension IntegerSeparableBlur: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let width = output.width, taps = integerWeights.count
        // Column strips of 256 outputs (a last one under 32 joins the one before): a strip's middle
        // rows stay in the L2 cache from the horizontal pass to the vertical one.
        var strips = stride(from: 0, to: width, by: Self.stripWidth).map { ($0, min(Self.stripWidth, width - $0)) }
        if strips.count > 1, let last = strips.last, last.1 < 32 {
            strips.removeLast()
            strips[strips.count - 1].1 += last.1
        }
        let widest = strips.map(\.1).max() ?? width
        // Scratch: one row of codes, the horizontal pass's rows (8.6 fixed point), the output rows.
        // The middle rows sit an odd number of 64-byte lines apart, so the vertical taps of a column
        // block fall in different L1 cache sets (at 1024 bytes apart, 61 rows share 8 sets).
        let lines = (widest + 31) / 32
        let middleStride = (lines | 1) * 32
        let codes = Self.int16s(tile.scratch, slot: 0, count: widest + taps)
        let middle = Self.int16s(tile.scratch, slot: 1, count: middleStride * input.height)
        let rows = tile.scratch.floats(2, count: output.codes == nil ? width * output.height : 1)
        // Codes: red, green and blue planes of the output rectangle, then interleaved into the rows.
        let codePlanes = output.codes.map { _ in
            UnsafeMutableRawPointer(tile.scratch.floats(3, count: (3 * width * output.height + 3) / 4))
                .bindMemory(to: UInt8.self, capacity: 3 * width * output.height)
        }
        // Transposed strips: columns (input rows) an odd number of 64-byte lines apart.
        let transposedStride = (((input.height + 31) / 32) | 1) * 32
        let scale = Float(1 / (255 * Double(1 << (shift + 6))))
        integerWeights.withUnsafeBufferPointer { w in
            guard let weights = w.baseAddress else { return }
            for channel in 0..<min(tile.channels, 3) {
                for (x0, stripWidth) in strips {
                    if let loaded = input.codes, radius >= Self.transposedRadius {
                        // Wide kernels: the strip's codes transposed, so the horizontal pass runs down
                        // columns (four outputs share each load), and its result transposed back.
                        let columns = stripWidth + taps - 1
                        let across = Self.int16s(tile.scratch, slot: 4, count: columns * transposedStride)
                        let blurred = Self.int16s(tile.scratch, slot: 5, count: stripWidth * transposedStride)
                        graph_transpose16(loaded + channel * input.planeStride + x0, input.width, Int32(input.height), Int32(columns),
                                          across, transposedStride)
                        graph_symmetric_convolve_columns_to_int16(across, transposedStride, weights, Int32(taps), Int32(input.height),
                                                                  Int32(stripWidth), Int32(shift - 6), blurred, transposedStride)
                        graph_transpose16(blurred, transposedStride, Int32(stripWidth), Int32(input.height), middle, middleStride)
                    } else {
                        for y in 0..<input.height {
                            var rowCodes = codes
                            if let loaded = input.codes {
                                rowCodes = loaded + channel * input.planeStride + y * input.width + x0
                            } else {
                                // A grey input (one channel, loaded as floats): code / 255 back to its code.
                                graph_float_to_code16(input.row(channel, y) + x0, Int32(stripWidth + taps - 1), codes)
                            }
                            graph_symmetric_convolve_to_int16(rowCodes, 1, weights, Int32(taps), Int32(stripWidth), Int32(shift - 6),
                                                              middle + y * middleStride)
                        }
                    }
                    if let planes = codePlanes {
                        graph_symmetric_convolve_columns_to_codes(middle, middleStride, weights, Int32(taps), Int32(stripWidth),
                                                                  Int32(output.height), Int32(shift + 6),
                                                                  planes + channel * output.height * width + x0, width)
                    } else {
                        graph_symmetric_convolve_columns_to_float(middle, middleStride, weights, Int32(taps), Int32(stripWidth),
                                                                  Int32(output.height), scale, rows + x0, width)
                    }
                }
                if codePlanes == nil {
                    for y in 0..<output.height { output.store(channel: channel, row: y, from: rows + y * width) }
                }
            }
        }
        if let codes = output.codes, let planes = codePlanes {
            let plane = output.height * width
            for y in 0..<output.height {
                let row = planes + y * width
                graph_interleave8_row(row, row + plane, row + 2 * plane, Int32(width), Int32(codes.channels), Int32(codes.redIndex),
                                      Int32(codes.blueIndex), codes.pixel(x: output.x, y: output.y + y))
            }
            return
        }
        // Alpha, were it asked for (the input is opaque).
        if tile.channels == 4 {
            rows.update(repeating: 1, count: width)
            for y in 0..<output.height { output.store(channel: 3, row: y, from: rows) }
        }
    }

    /// The width of the column strips a tile is blurred in.
    static let stripWidth = 256
    /// From this radius on, the horizontal pass runs on the transposed strip: measured on a 256×293
    /// strip, 0.79 against 1.02 ns per output at radius 30, even at 16, slower below.
    static let transposedRadius = 18

    /// Float scratch slot `slot` used as `count` Int16 values.
    private static func int16s(_ scratch: AreaScratch, slot: Int, count: Int) -> UnsafeMutablePointer<Int16> {
        UnsafeMutableRawPointer(scratch.floats(slot, count: (count + 1) / 2)).bindMemory(to: Int16.self, capacity: count)
    }
}
