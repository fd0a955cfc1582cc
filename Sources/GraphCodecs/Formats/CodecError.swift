/// An error from decoding, encoding or file I/O.
///
/// It says what went wrong and where: the format, the file path (when known), the
/// metadata segment or stage involved, and the underlying library's own message.
public struct CodecError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Broad category, so callers can react without parsing text.
    public enum Kind: String, Sendable, Equatable {
        /// The bytes are not a recognised image format.
        case unrecognizedFormat
        /// The data ends before the image is complete.
        case truncated
        /// The data is malformed (the library rejected it).
        case corrupt
        /// Valid data that this codec cannot handle (e.g. 12-bit JPEG).
        case unsupported
        /// The image exceeds `DecodeOptions.maxPixelCount` (or addressable memory).
        case tooLarge
        /// A caller-supplied parameter is invalid (encoder arguments).
        case invalidArgument
        /// A file-system operation failed.
        case io
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String
    /// The image format involved, when known.
    public var format: ImageFormat?
    /// The file path, when the data came from or went to a file.
    public var path: String?
    /// The segment, chunk or stage involved (e.g. "APP2 ICC_PROFILE", "IHDR", "scan data").
    public var segment: String?
    /// The library's own message (libpng / libjpeg-turbo / strerror), verbatim.
    public var libraryMessage: String?

    /// An error of `kind` with `message`, and what is known of where: the format, path, stage and the library's own message.
    public init(
        _ kind: Kind, _ message: String, format: ImageFormat? = nil, path: String? = nil,
        segment: String? = nil, libraryMessage: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.format = format
        self.path = path
        self.segment = segment
        self.libraryMessage = libraryMessage
    }

    /// The message with the path, format, stage and library message it has, for people.
    public var description: String {
        var text = ""
        if let path { text += "\(path): " }
        if let format { text += "\(format.name): " }
        text += message
        if let segment { text += " [\(segment)]" }
        if let libraryMessage, !libraryMessage.isEmpty, !message.contains(libraryMessage) {
            let library = format == .png ? "libpng" : format == .jpeg ? "libjpeg" : format == .heif ? "libheif" : "system"
            text += " (\(library): \(libraryMessage))"
        }
        return text
    }

    /// The same error with a file path attached (used by the path-based entry points).
    public func at(path: String) -> CodecError {
        var copy = self
        copy.path = path
        return copy
    }
}
