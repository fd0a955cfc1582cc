/// One image file format described in one place, as libvips describes each of its foreign
/// classes: its name, its file-name suffixes, how its first bytes are recognised, how it is loaded,
/// and whether and how it is saved. ``ImageFormatRegistry`` holds one per ``ImageFormat``; each is
/// declared beside its codec (`PNG/PNGFormat.swift`...).
public struct ImageFormatEntry: Sendable {
    /// The format described.
    public let format: ImageFormat
    /// The name in messages ("PNG", "JPEG", "HEIF").
    public let name: String
    /// File-name suffixes, lower case without the dot, in the order messages list them.
    public let suffixes: [String]
    /// Suffixes recognised too but not listed in messages (`heif` beside `heic`).
    public let otherSuffixes: [String]
    /// Whether a file starting with these bytes (its first 64 KiB suffice) is of this format.
    public let isA: @Sendable ([UInt8]) -> Bool
    /// Whether the bytes look like this format with a damaged signature, so they go to its loader
    /// and its library says what is wrong with them (nil: no such rule).
    public let isDamagedA: (@Sendable ([UInt8]) -> Bool)?
    /// Decodes a whole file.
    public let load: @Sendable ([UInt8], DecodeOptions) throws(CodecError) -> DecodedImage
    /// The header, metadata and auxiliary images of a file, no pixels decoded.
    public let loadInfo: @Sendable ([UInt8]) throws(CodecError) -> ImageInfo
    /// How the format is written; nil for a format that is only read.
    public let saving: ImageSaving?

    /// An entry from its parts (see the properties).
    public init(format: ImageFormat, name: String, suffixes: [String], otherSuffixes: [String] = [],
                isA: @escaping @Sendable ([UInt8]) -> Bool, isDamagedA: (@Sendable ([UInt8]) -> Bool)? = nil,
                load: @escaping @Sendable ([UInt8], DecodeOptions) throws(CodecError) -> DecodedImage,
                loadInfo: @escaping @Sendable ([UInt8]) throws(CodecError) -> ImageInfo, saving: ImageSaving?) {
        self.format = format
        self.name = name
        self.suffixes = suffixes
        self.otherSuffixes = otherSuffixes
        self.isA = isA
        self.isDamagedA = isDamagedA
        self.load = load
        self.loadInfo = loadInfo
        self.saving = saving
    }

    /// Whether `suffix` (any case, no dot) names this format.
    public func hasSuffix(_ suffix: String) -> Bool {
        let lowered = suffix.lowercased()
        return suffixes.contains(lowered) || otherSuffixes.contains(lowered)
    }
}
