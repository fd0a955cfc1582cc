import Foundation

/// Settings of a ``Context``, fixed for its life (Core Image's context options).
public struct ContextOptions: Sendable, Hashable {
    /// How intermediates are stored. Default half float, as in Core Image.
    public var workingFormat: WorkingFormat = .rgbah
    /// The colour space filters work in: extended-range linear sRGB by default. nil turns colour
    /// management off: no conversion anywhere (faster; pixels are processed as stored).
    public var workingColorSpace: ColorSpace? = .linearSRGB
    /// The colour space renders are converted to (and files are tagged with). nil leaves the
    /// working-space values as they are (for data such as depth maps).
    public var outputColorSpace: ColorSpace? = .sRGB
    /// Worker threads (1...1024); default all cores.
    public var threads: Int = ContextOptions.processorCount
    /// Edge of a square tile in pixels, for graphs with area operations (point-only graphs run in
    /// full-width strips of about `tileSize²` pixels); 8...65536.
    public var tileSize: Int = 512
    /// Byte limit of the context's cache of materialised whole images (image-processor results).
    public var cacheByteLimit: Int = 256 << 20
    /// Compiled programs kept for reuse (least recently used dropped first), so a context that
    /// renders ever new recipes stays bounded.
    public var programCacheLimit: Int = 1024
    /// Largest render, in pixels, accepted before any allocation (at most 2^40).
    public var maximumRenderPixels: Int = 1 << 30
    /// Bytes a render may allocate (bands, decode windows, worker scratch, whole-region
    /// intermediates, a destination it allocates), or nil for no limit. A streamed encode that
    /// would exceed it renders in smaller bands, then on fewer threads; one that cannot fit even so,
    /// or any other render above it, fails before allocating, naming the limit.
    public var memoryLimit: Int?
    /// Run the optimizer and concatenate nodes into programs. `false` materialises every node as its
    /// own program: useful only to measure what fusion buys.
    public var fusion: Bool = true

    /// The defaults: every core, linear sRGB working space, half-float intermediates.
    public init() {}

    /// The number of cores the process may use (at least 1): the default thread count.
    public static var processorCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
