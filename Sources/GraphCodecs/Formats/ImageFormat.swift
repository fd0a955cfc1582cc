/// The container formats this module reads and writes.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// PNG.
    case png
    /// JPEG (JFIF or EXIF).
    case jpeg
    /// HEIF/HEIC (read through libheif).
    case heif

    /// Display name ("PNG", "JPEG", "HEIF").
    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .heif: return "HEIF"
        }
    }

    /// `ftyp` brands of HEIF image files (HEVC-coded, and the generic image brands).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// Identifies the format from its magic bytes; nil when unknown.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            return .jpeg
        }
        // ISOBMFF: size, "ftyp", major brand, minor version, compatible brands.
        if bytes.count >= 12, bytes[4..<8].elementsEqual(Array("ftyp".utf8)) {
            let reader = ByteReader(bytes)
            let size = min(Int(reader.u32(0) ?? 0), bytes.count)
            var brands: [String] = []
            if let major = reader.fourCC(8) { brands.append(major) }
            var at = 16
            while at + 4 <= size, let brand = reader.fourCC(at) {
                brands.append(brand)
                at += 4
            }
            if brands.contains(where: heifBrands.contains) { return .heif }
        }
        return nil
    }
}
