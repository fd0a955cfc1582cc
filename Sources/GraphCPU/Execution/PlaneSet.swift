import CHalf

/// A materialised intermediate: channel planes over a pixel rectangle, stored in the working
/// format (8-bit, half or single float). Rows run bottom-up (row 0 is `rect.y`).
///
/// An image known opaque keeps no alpha plane (3 planes; alpha reads as 1), and one also known grey
/// (R = G = B: a depth map, a blur map) keeps one plane that reads as red, green and blue: a quarter
/// of the conversions and memory traffic of four planes (``Plan/Stage/storedChannels``).
///
/// Per-worker scratch: a worker keeps one per stage and reuses it from tile to tile, growing it only
/// when a tile needs more pixels than any before.
package final class PlaneSet: @unchecked Sendable {
    let format: WorkingFormat
    private(set) var rect: PixelRect = .empty
    /// The planes stored: 4 (RGBA), 3 (RGB, alpha 1) or 1 (grey: one value for R, G and B, alpha 1).
    private(set) var channels = 4
    private(set) var storage: UnsafeMutableRawPointer?
    private var capacity = 0
    /// The image processor's buffer whose planes these are (adopted, not copied), or nil when the
    /// storage is this set's own.
    private var adopted: PlanarBuffer?

    init(format: WorkingFormat) { self.format = format }

    /// The planes of `buffer` (an image processor's output or rendered input), without a copy:
    /// Float32 samples as ``WorkingFormat/rgbaf``, half as ``WorkingFormat/rgbah``, as many planes
    /// as it stores.
    init(adopting buffer: PlanarBuffer) {
        format = Self.format(of: buffer.samples)
        rect = buffer.rect
        channels = buffer.channels
        storage = buffer.storage
        capacity = buffer.byteCount
        adopted = buffer
    }

    deinit { if adopted == nil { storage?.deallocate() } }

    /// The working format whose planes hold `samples`.
    package static func format(of samples: PlanarBuffer.Samples) -> WorkingFormat { samples == .float32 ? .rgbaf : .rgbah }

    /// Prepares `channels` planes (see ``channels``) for `rect` (contents undefined until written).
    func reset(to rect: PixelRect, channels: Int = 4) {
        self.rect = rect
        self.channels = channels == 1 || channels == 3 ? channels : 4
        let needed = byteCount
        if needed > capacity {
            if adopted == nil { storage?.deallocate() }
            adopted = nil
            capacity = needed
            storage = UnsafeMutableRawPointer.allocate(byteCount: max(needed, 64), alignment: 64)
        }
    }

    var byteCount: Int { rect.pixelCount * channels * format.bytesPerSample }

    /// The bytes of storage this set owns (what it grew to; adopted planes are not its own).
    var ownedBytes: Int { adopted == nil ? capacity : 0 }

    /// Frees the storage this set owns (scratch planes kept past a render that needed them);
    /// the next ``reset(to:channels:)`` allocates again.
    func releaseStorage() {
        guard adopted == nil, let storage else { return }
        storage.deallocate()
        self.storage = nil
        capacity = 0
        rect = .empty
    }

    /// Whether channel `channel` has a plane of its own (alpha of 3 or 1 planes and green and blue of
    /// one plane have none).
    @inline(__always)
    func stores(channel: Int) -> Bool { channel < channels && (channels != 1 || channel == 0) }

    /// The start of the plane holding channel `channel`'s row `row` (bottom-up): green and blue of
    /// one plane are its red. Alpha of 3 or 1 planes has no plane: callers read 1 instead.
    @inline(__always)
    func rowPointer(channel: Int, row: Int) -> UnsafeMutableRawPointer {
        guard let storage else { preconditionFailure("PlaneSet used before reset") }
        let plane = channels == 1 ? 0 : channel
        return storage + ((plane * rect.height + row) * rect.width) * format.bytesPerSample
    }

    /// Converts `count` samples starting at column `column` of a row into Float32 (alpha without a
    /// plane reads 1).
    @inline(__always)
    func read(channel: Int, row: Int, column: Int, count: Int, into destination: UnsafeMutablePointer<Float>) {
        if channel == 3 && channels < 4 { return destination.update(repeating: 1, count: count) }
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

    /// Converts `count` Float32 samples into a row at column `column`; a channel without a plane of
    /// its own (see ``stores(channel:)``) is not written.
    @inline(__always)
    func write(channel: Int, row: Int, column: Int, count: Int, from source: UnsafePointer<Float>) {
        guard stores(channel: channel) else { return }
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

    /// Converts all of `buffer` (Float32, over this set's rect, set by ``reset(to:channels:)``) into the planes.
    func write(_ buffer: PlanarBuffer) {
        for channel in 0..<4 where stores(channel: channel) {
            for row in 0..<rect.height {
                write(channel: channel, row: row, column: 0, count: rect.width, from: buffer.readingRow(channel: channel, row: row))
            }
        }
    }

    /// Copies `count` stored samples of a row from one channel to another (a grey result's green and
    /// blue, when they have planes of their own).
    @inline(__always)
    func copy(channel source: Int, to destination: Int, row: Int, column: Int, count: Int) {
        guard stores(channel: destination) else { return }
        let offset = column * format.bytesPerSample
        (rowPointer(channel: destination, row: row) + offset)
            .copyMemory(from: rowPointer(channel: source, row: row) + offset, byteCount: count * format.bytesPerSample)
    }

    /// One sample as Float32 (used by edge reads and pixel fetches).
    @inline(__always)
    func value(channel: Int, row: Int, column: Int) -> Float {
        if channel == 3 && channels < 4 { return 1 }
        let offset = (((channels == 1 ? 0 : channel) * rect.height + row) * rect.width + column)
        guard let storage else { return 0 }
        switch format {
        case .rgbaf: return storage.assumingMemoryBound(to: Float.self)[offset]
        case .rgbah: return Float(Float16(bitPattern: storage.assumingMemoryBound(to: UInt16.self)[offset]))
        case .rgba8: return Float(storage.assumingMemoryBound(to: UInt8.self)[offset]) * (1 / 255)
        }
    }
}
