import Foundation

/// Pixels in memory: the backing of buffer sources and the result of `Context.render(_:rect:format:colorSpace:progress:)`.
///
/// Rows are stored top row first (as every codec and most callers expect). An image made from a
/// buffer of height `h` has extent `[0 0 w h]`, so memory row `r` holds working-space row `h − 1 − r`.
/// The buffer is immutable once made, so it is safe to share between threads.
public final class ImageBuffer: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixel format of the bytes.
    public let format: PixelFormat
    /// Whether the colour is premultiplied, straight, or opaque.
    public let alphaMode: AlphaMode
    /// Bytes from one row to the next (rows are top first).
    public let rowBytes: Int
    /// The colour space of the pixels, or nil for data (depth, masks, LUTs) that is never converted.
    public let colorSpace: ColorSpace?
    /// For a buffer still being filled (streaming decode): which rows are ready. nil when complete.
    package let rowProgress: RowProgress?
    package let storage: UnsafeMutableRawPointer
    /// The storage is an anonymous memory map (a windowed fill, or a large buffer) rather than a heap block.
    private let mappedBytes: Int?
    /// For borrowed memory: what gives it back to its owner (instead of freeing the storage).
    private let release: (@Sendable () -> Void)?

    /// A zero-filled buffer. Fails for non-positive or absurd sizes.
    public convenience init(width: Int, height: Int, format: PixelFormat, alphaMode: AlphaMode = .premultiplied,
                            colorSpace: ColorSpace? = .sRGB) throws(GraphError) {
        try self.init(width: width, height: height, format: format, alphaMode: alphaMode, colorSpace: colorSpace, rowProgress: nil)
    }

    /// A zero-filled buffer whose rows a decoder publishes as it fills them (`rowProgress`).
    package init(width: Int, height: Int, format: PixelFormat, alphaMode: AlphaMode = .premultiplied,
                 colorSpace: ColorSpace? = .sRGB, rowProgress: RowProgress?, zeroed: Bool = true) throws(GraphError) {
        guard width > 0, height > 0 else {
            throw GraphError.invalidSize("buffer size \(width)x\(height) must be positive")
        }
        let (rowBytes, overflowRow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (total, overflowTotal) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflowRow, !overflowTotal, total <= ImageBuffer.maximumByteCount else {
            throw GraphError.invalidSize("buffer size \(width)x\(height) \(format.rawValue) is too large")
        }
        self.width = width
        self.height = height
        self.format = format
        self.alphaMode = format.hasAlpha ? alphaMode : .opaque
        self.rowBytes = rowBytes
        self.colorSpace = colorSpace
        self.rowProgress = rowProgress
        if rowProgress != nil {
            // Address space only: pages are committed as the fill writes rows (on the decoder's
            // thread: nothing is zeroed up front on the caller's), and a windowed fill hands them
            // back with `releaseRows(above:)`, so it holds just its window (fresh pages read 0).
            // Huge pages where the system allows: the 24 MP gamma benchmark's process takes 2,600
            // page faults instead of 20,000 (kernel time was a fifth of its decoder thread's), for
            // a window up to 2 MiB larger.
            let mapped = mmap(nil, max(total, 1), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
            guard let mapped, mapped != MAP_FAILED else {
                throw GraphError.invalidSize("cannot reserve \(total) bytes of address space for a \(width)x\(height) buffer")
            }
            _ = madvise(mapped, max(total, 1), Int32(MADV_HUGEPAGE))
            self.storage = mapped
            self.mappedBytes = max(total, 1)
            self.release = nil
        } else if total >= ImageBuffer.mappedThreshold,
                  let mapped = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED {
            // Large buffers: fresh pages from the system, zero already, in huge pages where the
            // system allows (a 300 MB copy from caller memory then faults 150 pages, not 75,000).
            _ = madvise(mapped, total, Int32(MADV_HUGEPAGE))
            self.storage = mapped
            self.mappedBytes = total
            self.release = nil
        } else {
            self.storage = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: 64)
            if zeroed { self.storage.initializeMemory(as: UInt8.self, repeating: 0, count: max(total, 1)) }
            self.mappedBytes = nil
            self.release = nil
        }
    }

    /// A buffer holding a copy of `bytes` (tightly packed rows, top row first; 16-bit and float
    /// samples in native byte order).
    public convenience init(width: Int, height: Int, format: PixelFormat, alphaMode: AlphaMode = .premultiplied,
                            colorSpace: ColorSpace? = .sRGB, bytes: [UInt8]) throws(GraphError) {
        try self.init(width: width, height: height, format: format, alphaMode: alphaMode, colorSpace: colorSpace)
        guard bytes.count == rowBytes * height else {
            throw GraphError.invalidSize(
                "expected \(rowBytes * height) bytes for \(width)x\(height) \(format.rawValue), got \(bytes.count)")
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { storage.copyMemory(from: base, byteCount: bytes.count) }
        }
    }

    /// A buffer filled by `body`, which gets the storage (top row first) and its row stride. With
    /// `zeroed` false the storage is not cleared first (for a `body` that writes every byte: a
    /// 384 MB buffer is then written once, not twice).
    public convenience init(width: Int, height: Int, format: PixelFormat, alphaMode: AlphaMode = .premultiplied,
                            colorSpace: ColorSpace? = .sRGB, zeroed: Bool = true,
                            fill body: (UnsafeMutableRawPointer, Int) throws -> Void) throws {
        try self.init(width: width, height: height, format: format, alphaMode: alphaMode, colorSpace: colorSpace,
                      rowProgress: nil, zeroed: zeroed)
        try body(storage, rowBytes)
    }

    /// A buffer over memory the caller owns, read in place (no copy): `height` rows of `width`
    /// pixels, `rowBytes` apart (at least a row of pixels; top row first; native byte order).
    /// The memory must stay valid and unchanged until `release` is called, which happens once,
    /// on whatever thread lets go of the buffer last (the last image or render using it).
    /// Fails for non-positive or absurd sizes and a `rowBytes` shorter than a row.
    public init(borrowing memory: UnsafeRawPointer, width: Int, height: Int, rowBytes: Int, format: PixelFormat,
                alphaMode: AlphaMode = .premultiplied, colorSpace: ColorSpace? = .sRGB,
                release: @escaping @Sendable () -> Void) throws(GraphError) {
        guard width > 0, height > 0 else {
            throw GraphError.invalidSize("buffer size \(width)x\(height) must be positive")
        }
        let (row, overflowRow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard !overflowRow, rowBytes >= row else {
            throw GraphError.invalidSize("rowBytes \(rowBytes) is smaller than a row of \(width) \(format.rawValue) pixels")
        }
        let (total, overflowTotal) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflowTotal, total <= ImageBuffer.maximumByteCount else {
            throw GraphError.invalidSize("buffer size \(width)x\(height) \(format.rawValue) (\(rowBytes) bytes a row) is too large")
        }
        self.width = width
        self.height = height
        self.format = format
        self.alphaMode = format.hasAlpha ? alphaMode : .opaque
        self.rowBytes = rowBytes
        self.colorSpace = colorSpace
        self.rowProgress = nil
        self.storage = UnsafeMutableRawPointer(mutating: memory)
        self.mappedBytes = nil
        self.release = release
    }

    deinit {
        if let release { release() } else if let mappedBytes { munmap(storage, mappedBytes) } else { storage.deallocate() }
    }

    /// Windowed fills: hands rows `0 ..< row` (top first) back to the system; the render reads them
    /// no more (reading one fails the render). Only whole pages inside those rows are returned.
    package func releaseRows(above row: Int) {
        guard let progress = rowProgress, progress.isWindowed, mappedBytes != nil else { return }
        let row = min(row, height)
        let from = progress.releasedRows
        guard row > from else { return }
        progress.markReleased(rows: row)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // Rows above `from` are released already, so the page holding its first byte can go too.
        let start = from * rowBytes / page * page
        let end = row * rowBytes / page * page
        if end > start { madvise(storage + start, end - start, Int32(MADV_DONTNEED)) }
    }

    /// Read-only access to the bytes (waits for a streaming fill to finish).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        _ = rowProgress?.waitForAll()
        // The last row ends after its pixels (borrowed memory may end there, before a full stride).
        return try body(UnsafeRawBufferPointer(start: storage, count: rowBytes * (height - 1) + width * format.bytesPerPixel))
    }

    /// Where a streaming fill writes its rows (top row first, `rowBytes` apart).
    package var mutableStorageForFilling: UnsafeMutableRawPointer { storage }

    /// A copy of the bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// One pixel as Float32 samples in the buffer's own channel order (test and debugging helper).
    public func pixel(x: Int, row: Int) -> [Float] {
        _ = rowProgress?.waitForAll()
        let base = storage + row * rowBytes + x * format.bytesPerPixel
        return (0..<format.channels).map { channel in PixelIO.readSample(base, index: channel, component: format.component) }
    }

    /// Buffers from this size up are mapped from the system rather than allocated (see `init`).
    static let mappedThreshold = 8 << 20

    /// 4 GiB: more than any sane single buffer, small enough that sizes never overflow downstream.
    public static let maximumByteCount = 1 << 32
}
