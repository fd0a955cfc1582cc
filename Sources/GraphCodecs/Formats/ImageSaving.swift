/// What writing one format takes: the name and key outputs give it and the options it accepts.
/// The engine's encoders (GraphEngine's `Context.encode`) write it; the checks of write options,
/// recipes and `graph` read these values, so they hold for every format alike.
public struct ImageSaving: Sendable, Hashable {
    /// The name of written files in messages ("PNG", "JPEG", "HEIC": libheif writes HEVC-coded HEIF).
    public let name: String
    /// The name a recipe output's `"format"` gives ("png", "jpeg", "heic"), in lower case.
    public let key: String
    /// Other names accepted for it (`"jpg"`), not listed in messages.
    public let otherKeys: [String]
    /// The bits per sample it writes, smallest first (the first is the default).
    public let bitDepths: [Int]
    /// Whether it carries a photo's auxiliary images (depth data, mattes) after the primary.
    public let carriesAuxiliaryImages: Bool

    /// A saving description from its parts (see the properties).
    public init(name: String, key: String, otherKeys: [String] = [], bitDepths: [Int], carriesAuxiliaryImages: Bool) {
        self.name = name
        self.key = key
        self.otherKeys = otherKeys
        self.bitDepths = bitDepths
        self.carriesAuxiliaryImages = carriesAuxiliaryImages
    }

    /// The bit depths in words, for messages: "8" or "8 or 16".
    public var bitDepthList: String { ImageFormatRegistry.list(bitDepths.map(String.init), conjunction: "or") }
}
