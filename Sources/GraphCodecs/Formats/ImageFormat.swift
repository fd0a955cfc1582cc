/// The image file formats this module reads and writes, one case each. What a format is (its
/// names, suffixes, magic bytes, loader and how it is saved) is its ``entry``; the
/// ``ImageFormatRegistry`` lists the entries and answers "which format is this file?".
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// PNG.
    case png
    /// JPEG (JFIF or EXIF).
    case jpeg
    /// HEIF/HEIC (read through libheif).
    case heif

    /// Everything the engine knows of this format.
    public var entry: ImageFormatEntry {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        case .heif: return .heif
        }
    }

    /// Display name ("PNG", "JPEG", "HEIF").
    public var name: String { entry.name }

    /// Identifies the format from its magic bytes; nil when unknown (``ImageFormatRegistry/sniff(_:)``).
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? { ImageFormatRegistry.sniff(bytes) }
}
