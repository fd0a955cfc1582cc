import CHalf

/// A materialised intermediate: four channel planes over a pixel rectangle, stored in the working
/// format (8-bit, half or single float). Rows run bottom-up (row 0 is `rect.y`).
///
/// Per-worker scratch: a worker keeps one per stage and reuses it from tile to tile, growing it only
/// when a tile needs more pixels than any before.
final class PlaneSet: @unchecked Sendable {
    let format: WorkingFormat
    private(set) var rect: PixelRect = .empty
    private(set) var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    /// The image processor's buffer whose planes these are (adopted, not copied), or nil when the
    /// storage is this set's own.
    private var adopted: PlanarBuffer?

    init(format: WorkingFormat) { self.format = format }

    /// The planes of `buffer` (an image processor's output or rendered input), without a copy:
    /// Float32 samples as ``WorkingFormat/rgbaf``, half as ``WorkingFormat/rgbah``.
    init(adopting buffer: PlanarBuffer) {
        format = Self.format(of: buffer.samples)
        rect = buffer.rect
        storage = buffer.storage
        capacity = buffer.byteCount
        adopted = buffer
    }

    deinit { if adopted == nil { storage?.deallocate() } }

    /// The working format whose planes hold `samples`.
    static func format(of samples: PlanarBuffer.Samples) -> WorkingFormat { samples == .float32 ? .rgbaf : .rgbah }

    /// Prepares the planes for `rect` (contents undefined until written).
    func reset(to rect: PixelRect) {
        self.rect = rect
        let needed = rect.pixelCount * 4 * format.bytesPerSample
        if needed > capacity {
            if adopted == nil { storage?.deallocate() }
            adopted = nil
            capacity = needed
            storage = UnsafeMutableRawPointer.allocate(byteCount: max(needed, 64), alignment: 64)
        }
    }

    var byteCount: Int { rect.pixelCount * 4 * format.bytesPerSample }

    /// The start of channel `channel`'s row `row` (bottom-up).
    @inline(__always)
    func rowPointer(channel: Int, row: Int) -> UnsafeMutableRawPointer {
        guard let storage else { preconditionFailure("PlaneSet used before reset") }
        return storage + ((channel * rect.height + row) * rect.width) * format.bytesPerSample
    }

    /// Converts `count` samples starting at column `column` of a row into Float32.
    @inline(__always)
    func read(channel: Int, row: Int, column: Int, count: Int, into destination: UnsafeMutablePointer<Float>) {
        let source = rowPointer(channel: channel, row: row) + column * format.bytesPerSample
        switch format {
        case .rgbaf:
            destination.update(from: source.assumingMemoryBound(to: Float.self), count: count)
        case .rgbah:
            graph_half_to_float(source.assumingMemoryBound(to: UInt16.self), destination, count)
        case .rgba8:
            let bytes = source.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { destination[i] = Float(bytes[i]) * (1 / 255) }
        }
    }

    /// Converts `count` Float32 samples into a row at column `column`.
    @inline(__always)
    func write(channel: Int, row: Int, column: Int, count: Int, from source: UnsafePointer<Float>) {
        let destination = rowPointer(channel: channel, row: row) + column * format.bytesPerSample
        switch format {
        case .rgbaf:
            destination.assumingMemoryBound(to: Float.self).update(from: source, count: count)
        case .rgbah:
            graph_float_to_half(source, destination.assumingMemoryBound(to: UInt16.self), count)
        case .rgba8:
            let bytes = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { bytes[i] = PixelIO.unorm8(source[i]) }
        }
    }

    /// Converts all of `buffer` (Float32, over this set's rect, set by ``reset(to:)``) into the planes.
    func write(_ buffer: PlanarBuffer) {
        for channel in 0..<4 {
            for row in 0..<rect.height {
                write(channel: channel, row: row, column: 0, count: rect.width, from: buffer.planes[channel] + row * rect.width)
            }
        }
    }

    /// Copies `count` stored samples of a row from one channel to another (a grey result's green and blue).
    @inline(__always)
    func copy(channel source: Int, to destination: Int, row: Int, column: Int, count: Int) {
        let offset = column * format.bytesPerSample
        (rowPointer(channel: destination, row: row) + offset)
            .copyMemory(from: rowPointer(channel: source, row: row) + offset, byteCount: count * format.bytesPerSample)
    }

    /// One sample as Float32 (used by bilinear sampling).
    @inline(__always)
    func value(channel: Int, row: Int, column: Int) -> Float {
        let offset = ((channel * rect.height + row) * rect.width + column)
        guard let storage else { return 0 }
        switch format {
        case .rgbaf: return storage.assumingMemoryBound(to: Float.self)[offset]
        case .rgbah: return Float(Float16(bitPattern: storage.assumingMemoryBound(to: UInt16.self)[offset]))
        case .rgba8: return Float(storage.assumingMemoryBound(to: UInt8.self)[offset]) * (1 / 255)
        }
    }
}
