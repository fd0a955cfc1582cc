/// Image formats this module recognises but cannot read, so an error can name them rather than
/// print the file's first bytes.
enum UnsupportedFormat {
    /// The name of the format `bytes` start with (`TIFF`, `WebP`, `GIF`...), or nil.
    static func name(of bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return "BigTIFF" }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return "WebP" }
        if ascii("GIF87a") || ascii("GIF89a") { return "GIF" }
        if ascii("BM"), bytes.count >= 26 { return "BMP" }
        if ascii("8BPS") { return "Photoshop (PSD)" }
        if ascii("%PDF") { return "PDF" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "ICO" }
        if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "JPEG XL" }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { return "JPEG 2000" }
        if ascii("ftyp", at: 4), bytes.count >= 12 {
            let brand = FileText.escaped(bytes[8..<12])
            if brand == "avif" || brand == "avis" { return "AVIF" }
            return "ISO media (brand \(brand))"
        }
        if ascii("qoif") { return "QOI" }
        if ascii("<?xml") || ascii("<svg") { return "SVG/XML" }
        return nil
    }
}
