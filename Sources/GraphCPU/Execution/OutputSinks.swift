import CHalf
import CRowKernels

/// Stores spans into a materialised intermediate (the channels it has planes for).
struct PlaneSink: OutputSink {
    let planes: PlaneSet

    func store(x0: Int, y: Int, count: Int, from c: InputView.Channels) {
        let row = y - planes.rect.y, column = x0 - planes.rect.x
        planes.write(channel: 0, row: row, column: column, count: count, from: c.0)
        planes.write(channel: 1, row: row, column: column, count: count, from: c.1)
        planes.write(channel: 2, row: row, column: column, count: count, from: c.2)
        planes.write(channel: 3, row: row, column: column, count: count, from: c.3)
    }
}

/// Stores spans into caller memory: interleaved, top row first, in any ``PixelFormat``.
///
/// Memory row 0 holds the top row of `rect` (working-space row `rect.maxY − 1`). Integer formats are
/// clamped to 0...1; float formats keep extended range. Grey formats take the red channel.
struct BufferSink: OutputSink, @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let rowBytes: Int
    let format: PixelFormat
    let rect: PixelRect
    /// Scratch for half-float conversion, one span wide (owned by the worker).
    let halfScratch: UnsafeMutablePointer<UInt16>
    /// The values are linear and the output is sRGB: encode while quantising to 8 bits (the last
    /// step of the output colour conversion, fused into the store; see ``FuseOutputEncode``).
    var encodeSRGB = false

    /// Copies `rect` of `source` byte for byte, as `load → store` would write it, and returns
    /// true; returns false (having written nothing) unless that is exact: the same format, no
    /// transfer function, alpha already premultiplied or absent, `rect` inside the buffer.
    func copyRows(from source: ImageBuffer, rect: PixelRect) -> Bool {
        guard RowKernel.copiesBytes(of: source, into: format), !encodeSRGB,
              rect.x >= 0, rect.y >= 0, rect.maxX <= source.width, rect.maxY <= source.height else { return false }
        let bytesPerPixel = format.bytesPerPixel
        for y in rect.y..<rect.maxY {
            let sourceRow = source.height - 1 - y
            // A streaming decode that failed: the render reports it; the rows are not used.
            if let progress = source.rowProgress, !progress.wait(forRow: sourceRow) { return true }
            let from = UnsafeRawPointer(source.storage + sourceRow * source.rowBytes + rect.x * bytesPerPixel)
            let to = base + (self.rect.maxY - 1 - y) * rowBytes + (rect.x - self.rect.x) * bytesPerPixel
            to.copyMemory(from: from, byteCount: rect.width * bytesPerPixel)
        }
        return true
    }

    func store(x0: Int, y: Int, count: Int, from c: InputView.Channels) {
        let row = base + (rect.maxY - 1 - y) * rowBytes
        let column = x0 - rect.x
        let (r, g, b, a) = c
        if encodeSRGB && format.component == .uint8 {
            return TransferTables.encode8.withUnsafeBufferPointer { table in
                storeEncoding(row + column * format.channels, count: count, c, table: table)
            }
        }
        switch format {
        case .rgba8, .bgra8:
            // One 32-bit store per pixel (bytes R, G, B, A or B, G, R, A in memory order) so the
            // loop vectorises. (Unaligned stores are allowed: callers' rows need not be 4-byte aligned.)
            let p = row + column * 4
            let (red, blue) = format.redAndBlueIndices
            let redShift = UInt32(8 * red), blueShift = UInt32(8 * blue)
            for i in 0..<count {
                let packed = UInt32(PixelIO.unorm8(r[i])) << redShift | UInt32(PixelIO.unorm8(g[i])) << 8
                    | UInt32(PixelIO.unorm8(b[i])) << blueShift | UInt32(PixelIO.unorm8(a[i])) << 24
                p.storeBytes(of: packed.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
            }
        case .rgb8:
            // CRowKernels: AVX2 eight pixels at a time (the stride-3 stores do not vectorise).
            graph_pack8_rgb_row(r, g, b, Int32(count), (row + column * 3).assumingMemoryBound(to: UInt8.self))
        case .grayAlpha8:
            let p = (row + column * 2).assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                p[2 * i] = PixelIO.unorm8(r[i])
                p[2 * i + 1] = PixelIO.unorm8(a[i])
            }
        case .gray8:
            let p = (row + column).assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { p[i] = PixelIO.unorm8(r[i]) }
        case .rgba16, .rgb16, .grayAlpha16, .gray16:
            let p = (row + column * format.bytesPerPixel).assumingMemoryBound(to: UInt16.self)
            let channels = format.channels
            for i in 0..<count {
                let values = pick(channels, r[i], g[i], b[i], a[i])
                for k in 0..<channels { p[channels * i + k] = PixelIO.unorm16(values[k]) }
            }
        case .rgbaf:
            let p = (row + column * 16).assumingMemoryBound(to: Float.self)
            for i in 0..<count {
                p[4 * i] = r[i]; p[4 * i + 1] = g[i]; p[4 * i + 2] = b[i]; p[4 * i + 3] = a[i]
            }
        case .rgbf:
            let p = (row + column * 12).assumingMemoryBound(to: Float.self)
            for i in 0..<count {
                p[3 * i] = r[i]; p[3 * i + 1] = g[i]; p[3 * i + 2] = b[i]
            }
        case .grayf:
            (row + column * 4).assumingMemoryBound(to: Float.self).update(from: r, count: count)
        case .rgbah:
            let p = (row + column * 8).assumingMemoryBound(to: UInt16.self)
            for (k, channel) in [r, g, b, a].enumerated() {
                graph_float_to_half(channel, halfScratch, count)
                for i in 0..<count { p[4 * i + k] = halfScratch[i] }
            }
        case .grayh:
            graph_float_to_half(r, (row + column * 2).assumingMemoryBound(to: UInt16.self), count)
        }
    }

    /// 8-bit stores of sRGB-encoded colour: opaque pixels through the code table; others are
    /// unpremultiplied, encoded exactly and premultiplied again.
    private func storeEncoding(_ p: UnsafeMutableRawPointer, count: Int, _ c: InputView.Channels,
                               table: UnsafeBufferPointer<UInt8>) {
        guard let table = table.baseAddress else { return }
        let (red, blue) = format.channels >= 3 ? format.redAndBlueIndices : (0, 0)
        graph_encode8_row(c.0, c.1, c.2, c.3, Int32(count), Int32(format.channels), Int32(red), Int32(blue), table,
                          p.assumingMemoryBound(to: UInt8.self))
    }

    @inline(__always)
    private func pick(_ channels: Int, _ r: Float, _ g: Float, _ b: Float, _ a: Float) -> (SIMD4<Float>) {
        switch channels {
        case 1: return SIMD4(r, 0, 0, 0)
        case 2: return SIMD4(r, a, 0, 0)
        case 3: return SIMD4(r, g, b, 0)
        default: return SIMD4(r, g, b, a)
        }
    }
}
