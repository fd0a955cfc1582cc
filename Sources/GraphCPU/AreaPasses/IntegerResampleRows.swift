import CRowKernels

/// An ``IntegerResample`` on the CPU: per channel and output row, the vertical pass over the input
/// codes' rows into one row of 8.6 fixed point (`graph_weighted_rows_to_int16`), then the
/// horizontal pass along it to floats (`graph_resample_codes_row`), stored.
extension IntegerResample: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let width = output.width
        // Horizontal: each output column's first tap (from the tile's first input column) and its
        // weights two to an Int32, `pairCount` rows of `width` (zero past a column's last tap).
        var columnTaps = 1, rowTaps = 1
        for o in 0..<width { columnTaps = max(columnTaps, resample.taps(resample.x, output.x + o).count) }
        for r in 0..<output.height { rowTaps = max(rowTaps, resample.taps(resample.y, output.y + r).count) }
        let pairCount = (columnTaps + 1) / 2
        let floatWeights = tile.scratch.floats(3, count: max(2 * pairCount, rowTaps))
        let firsts = tile.scratch.int32s(0, count: width)
        let pairs = tile.scratch.int32s(1, count: pairCount * width)
        let column = Self.int16s(tile.scratch, slot: 4, count: 2 * pairCount)
        for o in 0..<width {
            column.update(repeating: 0, count: 2 * pairCount)
            let (first, _) = integerWeights(resample.x, output.x + o, shift: shiftX, scratch: floatWeights, into: column)
            firsts[o] = Int32(first - input.x)
            for p in 0..<pairCount {
                let lo = UInt32(UInt16(bitPattern: column[2 * p])), hi = UInt32(UInt16(bitPattern: column[2 * p + 1]))
                pairs[p * width + o] = Int32(bitPattern: lo | hi << 16)
            }
        }
        // Vertical: each output row's first tap row, tap count and weights (`rowTaps` apart).
        let rowFirsts = tile.scratch.int32s(2, count: output.height)
        let rowCounts = tile.scratch.int32s(3, count: output.height)
        let rowWeights = Self.int16s(tile.scratch, slot: 5, count: rowTaps * output.height)
        for r in 0..<output.height {
            let (first, count) = integerWeights(resample.y, output.y + r, shift: shiftY, scratch: floatWeights,
                                                into: rowWeights + rowTaps * r)
            rowFirsts[r] = Int32(first - input.y)
            rowCounts[r] = Int32(count)
        }
        // Scratch: one row of the vertical pass (zeros past its end, for the reads of the last
        // columns: see `graph_resample_codes_row`), one output row, and a channel's codes when the
        // input came as floats (grey).
        let padded = input.width + max(2 * pairCount, 64)
        let middle = Self.int16s(tile.scratch, slot: 0, count: padded)
        (middle + input.width).update(repeating: 0, count: padded - input.width)
        let results = tile.scratch.floats(1, count: width)
        let scale = Float(1 / (255 * Double(1 << (shiftX + 6))))
        for channel in 0..<min(tile.channels, 3) {
            let plane: UnsafePointer<Int16>
            if let codes = input.codes {
                plane = UnsafePointer(codes + channel * input.planeStride)
            } else {
                // A grey input (one channel, loaded as floats): code / 255 back to its code.
                let converted = Self.int16s(tile.scratch, slot: 2, count: max(input.planeStride, 1))
                for y in 0..<input.height {
                    graph_float_to_code16(input.row(channel, y), Int32(input.width), converted + y * input.width)
                }
                plane = UnsafePointer(converted)
            }
            for r in 0..<output.height {
                graph_weighted_rows_to_int16(plane + Int(rowFirsts[r]) * input.width, input.width, rowWeights + rowTaps * r,
                                             rowCounts[r], Int32(input.width), Int32(shiftY - 6), middle)
                graph_resample_codes_row(middle, firsts, pairs, width, Int32(pairCount), Int32(width), scale, results)
                output.store(channel: channel, row: r, from: results)
            }
        }
        // Alpha, were it asked for (the input is opaque).
        if tile.channels == 4 {
            results.update(repeating: 1, count: width)
            for y in 0..<output.height { output.store(channel: 3, row: y, from: results) }
        }
    }

    /// Float scratch slot `slot` used as `count` Int16 values.
    private static func int16s(_ scratch: AreaScratch, slot: Int, count: Int) -> UnsafeMutablePointer<Int16> {
        UnsafeMutableRawPointer(scratch.floats(slot, count: (count + 1) / 2)).bindMemory(to: Int16.self, capacity: count)
    }
}
