/// The container formats this module reads and writes.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case png
    case jpeg

    /// Display name ("PNG", "JPEG").
    public var name: String { self == .png ? "PNG" : "JPEG" }

    /// Identifies the format from its magic bytes; nil when unknown.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            return .jpeg
        }
        return nil
    }
}
