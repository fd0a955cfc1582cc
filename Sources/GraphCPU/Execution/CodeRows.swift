import CRowKernels
/// Interleaved 8-bit rows an area pass writes its codes into instead of its planes: the
/// destination of a render whose output stage only stores that pass (``RowKernel/areaCodes(stage:)``).
package struct CodeRows {
    /// Memory row 0 holds the top row of `rect` (working-space row `rect.maxY − 1`).
    let base: UnsafeMutableRawPointer
    let rowBytes: Int
    let rect: PixelRect
    /// 3 (RGB), or 4 (alpha written 255).
    package let channels: Int
    /// Where red and blue sit in a pixel (green at 1).
    package let redIndex: Int, blueIndex: Int

    /// The rows of `sink` when it writes RGB8, RGBA8 or BGRA8 without an encode; nil otherwise.
    init?(_ sink: BufferSink) {
        guard [.rgb8, .rgba8, .bgra8].contains(sink.format), !sink.encodeSRGB else { return nil }
        base = sink.base
        rowBytes = sink.rowBytes
        rect = sink.rect
        channels = sink.format.channels
        (redIndex, blueIndex) = sink.format.redAndBlueIndices
    }

    /// The first byte of the pixel at working-space (`x`, `y`) (y up), inside `rect`.
    package func pixel(x: Int, y: Int) -> UnsafeMutablePointer<UInt8> {
        (base + (rect.maxY - 1 - y) * rowBytes + (x - rect.x) * channels).assumingMemoryBound(to: UInt8.self)
    }

    /// Writes `count` pixels from (`x`, `y`) on, the nearest codes of opaque values given as red,
    /// green and blue rows (the codes an 8-bit store of those Float32 values writes: ``PixelIO/unorm8(_:)``).
    package func store(x: Int, y: Int, red: UnsafePointer<Float>, green: UnsafePointer<Float>, blue: UnsafePointer<Float>,
                       count: Int) {
        let p = pixel(x: x, y: y)
        guard channels == 4 else { return graph_pack8_rgb_row(red, green, blue, Int32(count), p) }
        for i in 0..<count {
            p[4 * i + redIndex] = PixelIO.unorm8(red[i])
            p[4 * i + 1] = PixelIO.unorm8(green[i])
            p[4 * i + blueIndex] = PixelIO.unorm8(blue[i])
            p[4 * i + 3] = 255
        }
    }
}
