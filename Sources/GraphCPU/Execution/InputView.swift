import CHalf
import CRowKernels

/// How a program reads one of its inputs: a materialised intermediate or a source buffer, with the
/// edge mode and sampling filter of the slot.
struct InputView {
    enum Storage {
        case planes(PlaneSet)
        case buffer(ImageBuffer)
        case yuv(YUVFrame, scratch: UnsafeMutablePointer<Float>)
    }

    let storage: Storage
    /// Where data exists; outside it reads are 0 (``EdgeMode/zero``) or the nearest edge pixel
    /// (``EdgeMode/clamp``).
    let valid: PixelRect
    let edge: EdgeMode
    let filter: SamplingFilter
    /// The linear value of each 8-bit code, decoding a transfer function while reading (8-bit
    /// buffers only; see ``Plan/Slot``), or nil.
    let decodeTable: [Float]?
    /// A 3×3 matrix (row-major) that ``load(x0:y:count:into:)`` applies to the colour it reads (the
    /// primaries change of a photo an area pass reads from its bytes), or nil.
    var primaries: [Float]?

    init(planes: PlaneSet, edge: EdgeMode, filter: SamplingFilter) {
        decodeTable = nil
        storage = .planes(planes)
        valid = planes.rect
        self.edge = edge
        self.filter = filter
    }

    init(buffer: ImageBuffer, edge: EdgeMode, filter: SamplingFilter, decodeTable: [Float]? = nil) {
        self.decodeTable = decodeTable
        storage = .buffer(buffer)
        valid = PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        self.edge = edge
        self.filter = filter
    }

    /// `scratch`: ``YUVReader/chromaScratchCount`` floats owned by the worker.
    init(yuv frame: YUVFrame, scratch: UnsafeMutablePointer<Float>) {
        storage = .yuv(frame, scratch: scratch)
        valid = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        edge = .zero
        filter = .linear
        decodeTable = nil
    }

    /// The view reads a YUV frame (whose loads go through one span of chroma scratch).
    var isYUV: Bool {
        if case .yuv = storage { return true }
        return false
    }

    typealias Channels = (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                          UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)

    // MARK: Load (same position)

    /// Reads pixels `x0 ..< x0 + count` of row `y`.
    func load(x0: Int, y: Int, count: Int, into out: Channels) {
        loadStored(x0: x0, y: y, count: count, into: out)
        if let m = primaries, m.count == 9 {
            let (r, g, b, _) = out
            let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            for i in 0..<count {
                let (x, y, z) = (r[i], g[i], b[i])
                r[i] = m0 * x + m1 * y + m2 * z
                g[i] = m3 * x + m4 * y + m5 * z
                b[i] = m6 * x + m7 * y + m8 * z
            }
        }
    }

    private func loadStored(x0: Int, y: Int, count: Int, into out: Channels) {
        guard !valid.isEmpty else { return zero(out, 0, count) }
        var row = y
        if edge == .clamp {
            row = min(max(y, valid.y), valid.maxY - 1)
        } else if y < valid.y || y >= valid.maxY {
            return zero(out, 0, count)
        }
        // The columns that fall inside, and the parts to the left and right.
        let first = min(max(valid.x - x0, 0), count)
        let last = max(min(valid.maxX - x0, count), first)
        if last > first { copy(row: row, column: x0 + first, count: last - first, into: out, offset: first) }
        if edge == .clamp {
            if first > 0 { fillWithPixel(row: row, column: valid.x, out, 0, first) }
            if last < count { fillWithPixel(row: row, column: valid.maxX - 1, out, last, count) }
        } else {
            if first > 0 { zero(out, 0, first) }
            if last < count { zero(out, last, count) }
        }
    }

    private func zero(_ out: Channels, _ from: Int, _ to: Int) {
        guard to > from else { return }
        (out.0 + from).update(repeating: 0, count: to - from)
        (out.1 + from).update(repeating: 0, count: to - from)
        (out.2 + from).update(repeating: 0, count: to - from)
        (out.3 + from).update(repeating: 0, count: to - from)
    }

    private func fillWithPixel(row: Int, column: Int, _ out: Channels, _ from: Int, _ to: Int) {
        let (r, g, b, a) = fetch(column: column, row: row)
        (out.0 + from).update(repeating: r, count: to - from)
        (out.1 + from).update(repeating: g, count: to - from)
        (out.2 + from).update(repeating: b, count: to - from)
        (out.3 + from).update(repeating: a, count: to - from)
    }

    /// Copies `count` in-range pixels starting at working-space column `column`.
    private func copy(row: Int, column: Int, count: Int, into out: Channels, offset: Int) {
        switch storage {
        case .planes(let planes):
            let r = row - planes.rect.y, c = column - planes.rect.x
            planes.read(channel: 0, row: r, column: c, count: count, into: out.0 + offset)
            if planes.channels == 1 {
                // One grey plane: converted once, copied to green and blue.
                (out.1 + offset).update(from: out.0 + offset, count: count)
                (out.2 + offset).update(from: out.0 + offset, count: count)
            } else {
                planes.read(channel: 1, row: r, column: c, count: count, into: out.1 + offset)
                planes.read(channel: 2, row: r, column: c, count: count, into: out.2 + offset)
            }
            planes.read(channel: 3, row: r, column: c, count: count, into: out.3 + offset)
        case .buffer(let buffer):
            let memoryRow = buffer.height - 1 - row
            if let progress = buffer.rowProgress, !progress.wait(forRow: memoryRow) {
                // The decode failed; the render reports it when it ends.
                for channel in [out.0, out.1, out.2, out.3] { (channel + offset).update(repeating: 0, count: count) }
                return
            }
            let base = UnsafeRawPointer(buffer.storage + memoryRow * buffer.rowBytes)
            BufferDeinterleave.read(base, format: buffer.format, alpha: buffer.alphaMode, decodeTable: decodeTable,
                                    column: column, count: count,
                                    into: (out.0 + offset, out.1 + offset, out.2 + offset, out.3 + offset))
        case .yuv(let frame, let scratch):
            YUVReader.read(frame, row: row, column: column, count: count,
                           into: (out.0 + offset, out.1 + offset, out.2 + offset, out.3 + offset), scratch: scratch)
        }
    }

    // MARK: Load 8-bit codes

    /// Whether ``loadCodes(x0:y:count:into:)`` can read this view: an opaque 8-bit RGB buffer read
    /// as it is stored (no transfer decode, no primaries change), whose values are its codes / 255.
    var hasCodes: Bool {
        guard case .buffer(let buffer) = storage else { return false }
        return buffer.format.component == .uint8 && buffer.format.channels >= 3
            && (buffer.alphaMode == .opaque || !buffer.format.hasAlpha) && decodeTable == nil && primaries == nil
    }

    /// Reads the red, green and blue codes of pixels `x0 ..< x0 + count` of row `y` (a view with
    /// ``hasCodes``), with the view's edge mode: what ``load(x0:y:count:into:)`` reads as code / 255.
    func loadCodes(x0: Int, y: Int, count: Int,
                   into out: (UnsafeMutablePointer<Int16>, UnsafeMutablePointer<Int16>, UnsafeMutablePointer<Int16>)) {
        func fill(_ from: Int, _ to: Int, _ r: Int16, _ g: Int16, _ b: Int16) {
            guard to > from else { return }
            (out.0 + from).update(repeating: r, count: to - from)
            (out.1 + from).update(repeating: g, count: to - from)
            (out.2 + from).update(repeating: b, count: to - from)
        }
        guard case .buffer(let buffer) = storage, !valid.isEmpty else { return fill(0, count, 0, 0, 0) }
        var row = y
        if edge == .clamp {
            row = min(max(y, valid.y), valid.maxY - 1)
        } else if y < valid.y || y >= valid.maxY {
            return fill(0, count, 0, 0, 0)
        }
        let memoryRow = buffer.height - 1 - row
        if let progress = buffer.rowProgress, !progress.wait(forRow: memoryRow) { return fill(0, count, 0, 0, 0) }
        let pixels = UnsafeRawPointer(buffer.storage + memoryRow * buffer.rowBytes).assumingMemoryBound(to: UInt8.self)
        let channels = buffer.format.channels, (red, blue) = buffer.format.redAndBlueIndices
        func unpack(column: Int, count: Int, at offset: Int) {
            graph_unpack8_codes_row(pixels + column * channels, Int32(channels), Int32(red), Int32(blue), Int32(count),
                                    out.0 + offset, out.1 + offset, out.2 + offset)
        }
        let first = min(max(valid.x - x0, 0), count)
        let last = max(min(valid.maxX - x0, count), first)
        if last > first { unpack(column: x0 + first, count: last - first, at: first) }
        if edge == .clamp {
            // The edge pixels, repeated.
            if first > 0 {
                unpack(column: valid.x, count: 1, at: 0)
                fill(1, first, out.0[0], out.1[0], out.2[0])
            }
            if last < count {
                unpack(column: valid.maxX - 1, count: 1, at: last)
                fill(last + 1, count, out.0[last], out.1[last], out.2[last])
            }
        } else {
            fill(0, first, 0, 0, 0)
            fill(last, count, 0, 0, 0)
        }
    }

    /// One pixel as premultiplied RGBA; the caller guarantees it lies inside `valid`.
    @inline(__always)
    func fetch(column: Int, row: Int) -> (Float, Float, Float, Float) {
        switch storage {
        case .planes(let planes):
            let r = row - planes.rect.y, c = column - planes.rect.x
            return (planes.value(channel: 0, row: r, column: c), planes.value(channel: 1, row: r, column: c),
                    planes.value(channel: 2, row: r, column: c), planes.value(channel: 3, row: r, column: c))
        case .buffer(let buffer):
            if let progress = buffer.rowProgress, !progress.wait(forRow: buffer.height - 1 - row) { return (0, 0, 0, 0) }
            let base = UnsafeRawPointer(buffer.storage + (buffer.height - 1 - row) * buffer.rowBytes
                + column * buffer.format.bytesPerPixel)
            return PixelIO.readPixel(base, format: buffer.format, alpha: buffer.alphaMode, decodeTable: decodeTable)
        case .yuv(let frame, let scratch):
            return withUnsafeTemporaryAllocation(of: Float.self, capacity: 4) { pixel in
                guard let p = pixel.baseAddress else { return (0, 0, 0, 1) }
                YUVReader.read(frame, row: row, column: column, count: 1, into: (p, p + 1, p + 2, p + 3), scratch: scratch)
                return (p[0], p[1], p[2], p[3])
            }
        }
    }

    // MARK: Sample (any position)

    /// Samples at working-space points (`xs[i]`, `ys[i]`): bilinear between pixel centres, or the
    /// pixel containing the point. Non-finite or far-away points read as outside. The storage is
    /// resolved here, once per span; ``SpanGather`` runs the loop specialised for it. `scratch`:
    /// ``SpanGather/scratchRegisters`` registers of the worker.
    func sample(xs: UnsafeMutablePointer<Float>, ys: UnsafeMutablePointer<Float>, count: Int, into out: Channels,
                scratch: UnsafeMutableRawPointer) {
        guard !valid.isEmpty, count > 0 else { return zero(out, 0, count) }
        func gather<Source: GatherSource>(_ source: Source) {
            SpanGather.run(source, valid: valid, edge: edge, filter: filter, xs: xs, ys: ys, count: count, into: out)
        }
        switch storage {
        case .planes(let planes):
            guard let storage = planes.storage else { return zero(out, 0, count) }
            switch planes.format {
            case .rgbaf: gather(FloatPlaneGather(planes, storage: storage))
            case .rgbah where filter == .linear:
                SpanGather.runHalfPlanes(planes, storage: storage, valid: valid, edge: edge, xs: xs, ys: ys, count: count,
                                         into: out, scratch: scratch)
            case .rgbah: gather(HalfPlaneGather(planes, storage: storage))
            case .rgba8:
                SpanGather.unitBytes.withUnsafeBufferPointer { unit in
                    guard let unit = unit.baseAddress else { return }
                    gather(BytePlaneGather(planes, storage: storage, unit: unit))
                }
            }
        case .buffer(let buffer):
            guard waitForRows(of: buffer, ys: ys, count: count) else { return zero(out, 0, count) }
            let storage = UnsafeRawPointer(buffer.storage)
            switch buffer.format {
            case .grayf: return gather(GrayFloatGather(storage: storage, rowBytes: buffer.rowBytes, height: buffer.height))
            case .grayh: return gather(GrayHalfGather(storage: storage, rowBytes: buffer.rowBytes, height: buffer.height))
            case .rgbaf:
                return gather(RGBAFloatGather<Float32Samples>(storage: storage, rowBytes: buffer.rowBytes, height: buffer.height,
                                                              straight: buffer.alphaMode == .straight, opaque: buffer.alphaMode == .opaque))
            case .rgbf: return gather(RGBFloatGather(storage: storage, rowBytes: buffer.rowBytes, height: buffer.height))
            case .rgbah:
                return gather(RGBAFloatGather<HalfSamples>(storage: storage, rowBytes: buffer.rowBytes, height: buffer.height,
                                                           straight: buffer.alphaMode == .straight, opaque: buffer.alphaMode == .opaque))
            default: guard buffer.format.component == .uint8 else { return gather(FetchGather(view: self)) }
            }
            let table = decodeTable.flatMap { $0.count == 256 ? $0 : nil } ?? SpanGather.unitBytes
            table.withUnsafeBufferPointer { colour in
                SpanGather.unitBytes.withUnsafeBufferPointer { unit in
                    guard let colour = colour.baseAddress, let unit = unit.baseAddress else { return }
                    let rows = ByteRows(storage: storage, rowBytes: buffer.rowBytes,
                                        height: buffer.height, colour: colour, unit: unit,
                                        straight: buffer.alphaMode == .straight, opaque: buffer.alphaMode == .opaque)
                    switch buffer.format.channels {
                    case 1: gather(Gray8Gather(rows: rows))
                    case 2: gather(GrayAlpha8Gather(rows: rows))
                    case 3: gather(RGB8Gather(rows: rows))
                    default:
                        let (red, blue) = buffer.format.redAndBlueIndices
                        gather(RGBA8Gather(rows: rows, red: red, blue: blue))
                    }
                }
            }
        case .yuv:
            gather(FetchGather(view: self))
        }
    }

    /// Waits until every row the points of a span can touch is decoded (a streaming source fills
    /// top rows first, so the lowest working-space row is the last to arrive); false if the decode
    /// failed.
    private func waitForRows(of buffer: ImageBuffer, ys: UnsafeMutablePointer<Float>, count: Int) -> Bool {
        guard let progress = buffer.rowProgress else { return true }
        var lowest = Float.infinity
        for i in 0..<count where ys[i].isFinite { lowest = min(lowest, ys[i]) }
        guard lowest.isFinite else { return true }
        let limit = SpanGather.coordinateLimit
        let row = min(max(Int((min(max(lowest, -limit), limit) - 0.5).rounded(.down)), valid.y), valid.maxY - 1)
        return progress.wait(forRow: buffer.height - 1 - row)
    }
}

/// Row conversion from interleaved buffers of every ``PixelFormat`` into premultiplied planar Float32.
enum BufferDeinterleave {
    static func read(_ row: UnsafeRawPointer, format: PixelFormat, alpha: AlphaMode, decodeTable: [Float]?, column: Int,
                     count: Int, into out: InputView.Channels) {
        let (r, g, b, a) = out
        if let decodeTable, decodeTable.count == 256, format.component == .uint8 {
            return decodeTable.withUnsafeBufferPointer { table in
                readDecoding8(row, format: format, alpha: alpha, table: table, column: column, count: count, into: out)
            }
        }
        let scale: Float = 1 / 255
        switch format {
        case .rgba8, .bgra8, .rgb8:
            // CRowKernels: AVX2 eight pixels at a time (the stride-3 loop does not vectorise).
            let (red, blue) = format.redAndBlueIndices
            graph_unpack8_row(row.assumingMemoryBound(to: UInt8.self) + column * format.channels, Int32(format.channels),
                              Int32(red), Int32(blue), Int32(count), r, g, b, a)
        case .gray8:
            let p = row.assumingMemoryBound(to: UInt8.self) + column
            for i in 0..<count { r[i] = Float(p[i]) * scale }
            g.update(from: r, count: count)
            b.update(from: r, count: count)
            a.update(repeating: 1, count: count)
        case .grayh, .grayf:
            // Grey maps (depth, masks, shared intermediates): a row conversion, then copies.
            if format == .grayh {
                graph_half_to_float(row.assumingMemoryBound(to: UInt16.self) + column, r, count)
            } else {
                r.update(from: row.assumingMemoryBound(to: Float.self) + column, count: count)
            }
            g.update(from: r, count: count)
            b.update(from: r, count: count)
            a.update(repeating: 1, count: count)
        default:
            let bytesPerPixel = format.bytesPerPixel
            for i in 0..<count {
                let pixel = PixelIO.readPixel(row + (column + i) * bytesPerPixel, format: format, alpha: .premultiplied,
                                              decodeTable: decodeTable)
                r[i] = pixel.0; g[i] = pixel.1; b[i] = pixel.2; a[i] = pixel.3
            }
        }
        if alpha == .straight && format.hasAlpha {
            for i in 0..<count {
                r[i] *= a[i]; g[i] *= a[i]; b[i] *= a[i]
            }
        } else if alpha == .opaque && format.hasAlpha {
            // Opaque means alpha is 1 whatever the bytes hold (like Core Graphics' "skip" alpha).
            a.update(repeating: 1, count: count)
        }
    }

    /// 8-bit rows decoded through the exact 256-entry sRGB table, then premultiplied.
    private static func readDecoding8(_ row: UnsafeRawPointer, format: PixelFormat, alpha: AlphaMode,
                                      table: UnsafeBufferPointer<Float>, column: Int, count: Int,
                                      into out: InputView.Channels) {
        let (r, g, b, a) = out
        let channels = format.channels
        let (red, blue) = channels >= 3 ? format.redAndBlueIndices : (0, 0)
        if let table = table.baseAddress {
            graph_decode8_row(row.assumingMemoryBound(to: UInt8.self) + column * channels, Int32(channels), Int32(red), Int32(blue),
                              table, Int32(count), r, g, b, a)
        }
        if alpha == .straight && format.hasAlpha {
            for i in 0..<count {
                r[i] *= a[i]; g[i] *= a[i]; b[i] *= a[i]
            }
        } else if alpha == .opaque && format.hasAlpha {
            // Opaque means alpha is 1 whatever the bytes hold (like Core Graphics' "skip" alpha).
            a.update(repeating: 1, count: count)
        }
    }
}

/// An area pass reading a cropped input through a window (``AreaInputWindow``).
extension InputView {
    /// `view` reading only the pixels inside `window`.
    init(_ view: InputView, window: PixelRect) {
        storage = view.storage
        valid = view.valid.intersection(window)
        edge = view.edge
        filter = view.filter
        decodeTable = view.decodeTable
        primaries = view.primaries
    }
}
