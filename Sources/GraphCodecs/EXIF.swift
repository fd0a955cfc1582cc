/// Minimal EXIF reading and writing: just what the codecs need (the orientation tag).
///
/// EXIF is a TIFF structure: a byte-order mark ("II" little / "MM" big endian), 42, the
/// offset of IFD0, then 12-byte entries (tag, type, count, value-or-offset).
public enum EXIF {
    /// The "Exif\0\0" prefix of a JPEG APP1 EXIF segment.
    public static let jpegPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// Reads IFD0 tag 0x0112 (Orientation). Returns nil when the TIFF structure is broken
    /// or the tag is absent; the value is returned as stored (may be outside 1...8).
    /// Stores the EXIF block and its orientation (1...8; anything else is a warning and stays 1).
    static func apply(tiff: [UInt8], to metadata: inout ImageMetadata, warnings: inout [String]) {
        metadata.exif = tiff
        guard let value = orientation(tiff: tiff) else { return }
        if (1...8).contains(value) {
            metadata.exifOrientation = value
        } else {
            warnings.append("EXIF orientation \(value) is outside 1...8; treated as 1")
        }
    }

    public static func orientation(tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        var reader = ByteReader(tiff)
        if tiff[0] == 0x49, tiff[1] == 0x49 {
            reader.littleEndian = true
        } else if tiff[0] == 0x4D, tiff[1] == 0x4D {
            reader.littleEndian = false
        } else {
            return nil
        }
        guard reader.u16(2) == 42, let ifd = reader.u32(4).map(Int.init), let count = reader.u16(ifd) else {
            return nil
        }
        for index in 0..<Int(count) {
            let entry = ifd + 2 + index * 12
            guard let tag = reader.u16(entry), let type = reader.u16(entry + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            switch type {
            case 3: return reader.u16(entry + 8).map(Int.init)  // SHORT, inline
            case 4: return reader.u32(entry + 8).map(Int.init)  // LONG (non-standard)
            default: return nil
            }
        }
        return nil
    }

    /// A minimal big-endian EXIF TIFF structure holding only IFD0 Orientation = `orientation`.
    /// Used to tag encoded images (and by tests); pass it as the encoders' `exif`.
    public static func makeOrientationTIFF(_ orientation: Int, littleEndian: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        func u16(_ v: Int) {
            let bytes = [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
            out += littleEndian ? bytes.reversed() : bytes
        }
        func u32(_ v: Int) {
            if littleEndian { u16(v & 0xFFFF); u16(v >> 16) } else { u16(v >> 16); u16(v & 0xFFFF) }
        }
        out += littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        u16(42)
        u32(8)  // IFD0 offset
        u16(1)  // one entry
        u16(0x0112); u16(3); u32(1); u16(orientation); u16(0)
        u32(0)  // no next IFD
        return out
    }
}
