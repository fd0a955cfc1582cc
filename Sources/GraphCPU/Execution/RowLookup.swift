import CRowKernels

/// A render that is one channel lookup (``ChannelTable``) over the whole of one windowed 8-bit RGB
/// source, written as RGB8: output row r is source row r with each byte through its channel's
/// table. A streamed encode can then take the source's rows straight from its decoder, look them
/// up in place and encode them, without the render's buffer, workers and hand-offs (a gamma on
/// a JPEG, what `vips gamma` does). The bytes are the ones the render writes: the tables are the
/// codes its RGB8 store gives for the program's results.
package struct RowLookup: Sendable {
    /// The source the rows come from (a windowed decode the render would read).
    package let source: ImageBuffer
    /// Red, green and blue output codes for the 256 source codes of each channel.
    let codes: [UInt8]

    /// Looks `rows` packed RGB8 rows of `width` pixels at `base` up in place.
    package func apply(_ base: UnsafeMutableRawPointer, width: Int, rows: Int) {
        codes.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return }
            let pixels = base.assumingMemoryBound(to: UInt8.self)
            for row in 0..<rows {
                let line = pixels + row * width * 3
                graph_lookup8_rgb_row(line, 3, 0, 2, table, Int32(width), line)  // CRowKernels
            }
        }
    }
}

extension Executor {
    /// The ``RowLookup`` this render is, when its plan is one program stage taking the lookup path
    /// over a windowed (streamed) RGB8 buffer, rendered over exactly that buffer's pixels to RGB8
    /// bytes, with fusion on (the unfused baseline always renders); nil for every other plan.
    package func rowLookup(area: PixelRect) throws -> RowLookup? {
        guard context.options.fusion, plan.stages.count == 1, let stage = plan.stages.first, stage.looksUpChannels,
              stage.rowKernel == nil, case .program(_, let uniforms, _, let slots, _) = stage.work, slots.count == 1,
              case .buffer(let buffer) = slots[0].source, buffer.rowProgress?.isWindowed == true, buffer.format == .rgb8,
              area == PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height),
              let executable = executables()[0] else { return nil }
        let table = try ChannelTable(executable, uniforms: uniforms,
                                     decodeTable: slots[0].decode.flatMap(TransferTables.byteDecode(for:)), filter: slots[0].filter)
        // The sink says how the render stores RGB8 (nothing is written through it).
        let codes = withUnsafeTemporaryAllocation(of: UInt16.self, capacity: SpanInterpreter.spanWidth) { half -> [UInt8]? in
            guard let scratch = half.baseAddress else { return nil }
            var sink = BufferSink(base: UnsafeMutableRawPointer(scratch), rowBytes: 3, format: .rgb8,
                                  rect: PixelRect(x: 0, y: 0, width: 1, height: 1), halfScratch: scratch)
            sink.encodeSRGB = plan.encodesSRGBInStore
            return table.codes(for: sink)
        }
        return codes.map { RowLookup(source: buffer, codes: $0) }
    }
}
