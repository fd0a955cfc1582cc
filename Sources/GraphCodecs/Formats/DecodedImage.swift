/// Decoded pixels plus everything learnt from the file's metadata.
public struct DecodedImage: Sendable {
    /// Width in pixels (after any orientation applied).
    public var width: Int
    /// Height in pixels (after any orientation applied).
    public var height: Int
    /// 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA (after palette / tRNS expansion).
    public var channels: Int
    /// 8 or 16. 16-bit samples are stored as native-endian UInt16 (two bytes each).
    public var bitDepth: Int
    /// Tightly packed rows, top row first, interleaved channels.
    public var bytes: [UInt8]
    /// The file's metadata (profile, EXIF, XMP, segments).
    public var metadata: ImageMetadata
    /// Non-fatal library warnings (libpng / libjpeg), in order; never printed.
    public var warnings: [String]

    /// Decoded pixels with their layout and metadata.
    public init(
        width: Int, height: Int, channels: Int, bitDepth: Int, bytes: [UInt8],
        metadata: ImageMetadata, warnings: [String] = []
    ) {
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        self.bytes = bytes
        self.metadata = metadata
        self.warnings = warnings
    }

    /// Bytes per row (width × channels × bytes per sample).
    public var rowBytes: Int { width * channels * (bitDepth / 8) }

    /// Whether the last channel is alpha.
    public var hasAlpha: Bool { channels == 2 || channels == 4 }
}
