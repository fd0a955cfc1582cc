import CRowKernels

/// The tables of a stage the plan has look its channels up (``ChannelLookup``): the program's
/// results for the 256 codes of its one 8-bit input, computed once per render by running the
/// program itself over them, so every pixel is three table reads instead of the program's
/// instructions. The tables hold the program's own results, so the bytes are the same as without.
struct ChannelTable {
    /// Red, green, blue and alpha results for codes 0...255, 256 floats each.
    let values: [Float]

    /// Runs `executable` over a row of the 256 grey codes read as its input reads its bytes (through
    /// `decodeTable`, if any), giving every channel's result for every code.
    init(_ executable: SpanInterpreter.Executable, uniforms: [Float], decodeTable: [Float]?, filter: SamplingFilter) throws {
        precondition(SpanInterpreter.spanWidth >= 256, "a span holds the 256 codes")
        let codes = try ImageBuffer(width: 256, height: 1, format: .rgb8, alphaMode: .opaque, colorSpace: nil)
        let bytes = codes.storage.assumingMemoryBound(to: UInt8.self)
        for code in 0..<256 { for channel in 0..<3 { bytes[3 * code + channel] = UInt8(code) } }
        let sink = TableSink()
        SpanInterpreter.run(executable, uniforms: uniforms,
                            inputs: [InputView(buffer: codes, edge: .zero, filter: filter, decodeTable: decodeTable)],
                            rect: PixelRect(x: 0, y: 0, width: 256, height: 1), registers: SpanInterpreter.RegisterFile(),
                            sink: sink, table: nil)
        values = sink.values
    }

    /// The codes an interleaved RGB8 `sink` writes for every entry (red, green, blue: 256 each, from
    /// the sink's own conversion), so rows go from source bytes to output bytes; nil for other sinks.
    func codes(for sink: BufferSink) -> [UInt8]? {
        guard sink.format == .rgb8 else { return nil }
        var pixels = [UInt8](repeating: 0, count: 3 * 256)
        pixels.withUnsafeMutableBytes { raw in
            values.withUnsafeBufferPointer { table in
                guard let base = raw.baseAddress, let t = table.baseAddress else { return }
                let probe = BufferSink(base: base, rowBytes: 3 * 256, format: .rgb8, rect: PixelRect(x: 0, y: 0, width: 256, height: 1),
                                       halfScratch: sink.halfScratch, encodeSRGB: sink.encodeSRGB)
                let p = UnsafeMutablePointer(mutating: t)
                probe.store(x0: 0, y: 0, count: 256, from: (p, p + 256, p + 512, p + 768))
            }
        }
        return (0..<3).flatMap { channel in (0..<256).map { pixels[3 * $0 + channel] } }
    }

    /// Writes `count` RGB8 pixels to `out` from source row `row` starting at `column` through
    /// ``codes(for:)``'s `codes`.
    static func lookUp(codes: UnsafePointer<UInt8>, _ buffer: ImageBuffer, row: Int, column: Int, count: Int,
                       into out: UnsafeMutablePointer<UInt8>) {
        let channels = buffer.format.channels
        let (red, blue) = channels >= 3 ? buffer.format.redAndBlueIndices : (0, 0)
        let p = UnsafePointer((buffer.storage + row * buffer.rowBytes).assumingMemoryBound(to: UInt8.self)) + column * channels
        graph_lookup8_rgb_row(p, Int32(channels), Int32(red), Int32(blue), codes, Int32(count), out)  // CRowKernels
    }

    /// Fills `count` pixels of the four registers from source row `row` starting at `column` (inside
    /// the buffer): each colour channel through its table, alpha the constant result.
    func lookUp(_ buffer: ImageBuffer, row: Int, column: Int, count: Int, into out: InputView.Channels) {
        let channels = buffer.format.channels
        let (red, blue) = channels >= 3 ? buffer.format.redAndBlueIndices : (0, 0)
        let green = channels >= 3 ? 1 : 0
        let p = UnsafePointer((buffer.storage + row * buffer.rowBytes).assumingMemoryBound(to: UInt8.self)) + column * channels
        values.withUnsafeBufferPointer { table in
            guard let t = table.baseAddress else { return }
            let (r, g, b, a) = out
            for i in 0..<count {
                let pixel = p + i * channels
                r[i] = t[Int(pixel[red])]
                g[i] = t[256 + Int(pixel[green])]
                b[i] = t[512 + Int(pixel[blue])]
            }
            a.update(repeating: t[768], count: count)
        }
    }
}

/// Collects the one 256-pixel span a ``ChannelTable`` is computed from.
private final class TableSink: OutputSink {
    var values = [Float](repeating: 0, count: 4 * 256)

    func store(x0: Int, y: Int, count: Int, from c: InputView.Channels) {
        for (index, channel) in [c.0, c.1, c.2, c.3].enumerated() {
            for i in 0..<count where x0 + i < 256 { values[256 * index + x0 + i] = channel[i] }
        }
    }
}
