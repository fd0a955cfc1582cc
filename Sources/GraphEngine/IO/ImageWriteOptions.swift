import GraphCodecs

/// How ``Context/encodedData(_:format:options:progress:)`` and
/// ``Context/write(_:to:format:options:protectedPaths:)`` encode a rendered image.
public struct ImageWriteOptions: Sendable, Equatable {
    /// JPEG quality, 1...100 (libjpeg's scale).
    public var quality: Int
    /// JPEG chroma subsampling.
    public var subsampling: JPEGSubsampling
    /// A progressive JPEG (several scans, coarse to fine) instead of a baseline one.
    public var progressive: Bool
    /// PNG bits per sample, 8 or 16 (JPEG is always 8).
    public var bitDepth: Int

    public init(quality: Int = 90, subsampling: JPEGSubsampling = .s420, progressive: Bool = false, bitDepth: Int = 8) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.bitDepth = bitDepth
    }

    /// Checks the values against `format`, naming the offending key.
    func validate(for format: OutputFileFormat) throws {
        guard bitDepth == 8 || bitDepth == 16 else {
            throw GraphError.invalidParameter(filter: "output", key: "bitDepth", reason: "must be 8 or 16, got \(bitDepth)")
        }
        if format == .jpeg && bitDepth != 8 {
            throw GraphError.invalidParameter(filter: "output", key: "bitDepth", reason: "JPEG supports only 8 bits")
        }
        guard (1...100).contains(quality) else {
            throw GraphError.invalidParameter(filter: "output", key: "quality", reason: "must be 1...100, got \(quality)")
        }
    }
}
