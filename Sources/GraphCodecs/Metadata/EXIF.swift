/// Minimal EXIF reading and writing: just what the codecs need (the orientation tag and the
/// Exif IFD's pixel dimensions, and dropping the thumbnail).
///
/// EXIF is a TIFF structure: a byte-order mark ("II" little / "MM" big endian), 42, the
/// offset of IFD0, then 12-byte entries (tag, type, count, value-or-offset).
public enum EXIF {
    /// The "Exif\0\0" prefix of a JPEG APP1 EXIF segment.
    public static let jpegPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

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

    /// Reads IFD0 tag 0x0112 (Orientation). Returns nil when the TIFF structure is broken
    /// or the tag is absent; the value is returned as stored (may be outside 1...8).
    public static func orientation(tiff: [UInt8]) -> Int? {
        guard let entry = orientationEntry(tiff) else { return nil }
        return entry.type == 3 ? entry.reader.u16(entry.valueOffset).map(Int.init) : entry.reader.u32(entry.valueOffset).map(Int.init)
    }

    /// `tiff` with IFD0 Orientation (0x0112) set to `orientation` in place: same byte order,
    /// same storage (SHORT or LONG), every other byte untouched. Accepts the TIFF structure
    /// with or without the JPEG "Exif\0\0" prefix and keeps what it was given.
    ///
    /// The input comes back unchanged when the tag is absent (readers take that as 1, which
    /// is what callers write after rotating the pixels), when the structure is broken, when
    /// the value is not stored inline, or when `orientation` is outside 1...8.
    public static func settingOrientation(_ orientation: Int, in tiff: [UInt8]) -> [UInt8] {
        let start = tiff.hasBytePrefix(jpegPrefix) ? jpegPrefix.count : 0
        guard (1...8).contains(orientation), let entry = orientationEntry(Array(tiff[start...])), entry.inline else {
            return tiff
        }
        var bytes = entry.type == 3 ? [UInt8(orientation >> 8), UInt8(orientation & 0xFF)] : [0, 0, 0, UInt8(orientation)]
        if entry.reader.littleEndian { bytes.reverse() }
        var out = tiff
        out.replaceSubrange(start + entry.valueOffset..<start + entry.valueOffset + bytes.count, with: bytes)
        return out
    }

    /// `tiff` with the Exif IFD's PixelXDimension (0xA002) and PixelYDimension (0xA003) set to
    /// `width` and `height` in place, so that an edit that crops or scales writes its own size
    /// (readers such as exiftool's `ExifImageWidth` show these). Same byte order and storage
    /// (SHORT or LONG), every other byte untouched; with or without the "Exif\0\0" prefix. A tag
    /// that is absent, not a single inline SHORT or LONG, or a SHORT that cannot hold the new
    /// value is left as it is (and the structure comes back unchanged when it is broken).
    public static func settingPixelDimensions(width: Int, height: Int, in tiff: [UInt8]) -> [UInt8] {
        let start = tiff.hasBytePrefix(jpegPrefix) ? jpegPrefix.count : 0
        let body = Array(tiff[start...])
        guard let reader = tiffReader(body), let ifd0 = reader.u32(4).map(Int.init),
              let pointer = inlineEntry(0x8769, inIFDAt: ifd0, reader), let exifIFD = pointer.value else { return tiff }
        var out = tiff
        for (tag, value) in [(UInt16(0xA002), width), (UInt16(0xA003), height)] {
            guard value >= 0, let entry = inlineEntry(tag, inIFDAt: exifIFD, reader), entry.value != nil else { continue }
            var bytes: [UInt8]
            if entry.type == 3 {
                guard value <= Int(UInt16.max) else { continue }
                bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
            } else {
                guard value <= Int(UInt32.max) else { continue }
                bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
            }
            if reader.littleEndian { bytes.reverse() }
            out.replaceSubrange(start + entry.valueOffset..<start + entry.valueOffset + bytes.count, with: bytes)
        }
        return out
    }

    /// `tiff` without its thumbnail: IFD0's link to the next IFD (IFD1, the thumbnail's) set to 0,
    /// and the thumbnail's JPEG bytes (IFD1's JPEGInterchangeFormat, 0x0201, and its length,
    /// 0x0202) cut off when they end the structure (but for up to 3 bytes of padding), as they do
    /// in camera files; IFD1's own
    /// entries stay as unreferenced bytes. A written image is a new rendering, and a thumbnail of
    /// the source would show the unedited (uncropped, unrotated) photo; ImageIO likewise embeds
    /// none unless asked. With or without the "Exif\0\0" prefix; a structure with no IFD1, or a
    /// broken one, comes back unchanged.
    public static func removingThumbnail(in tiff: [UInt8]) -> [UInt8] {
        let start = tiff.hasBytePrefix(jpegPrefix) ? jpegPrefix.count : 0
        let body = Array(tiff[start...])
        guard let reader = tiffReader(body), let ifd0 = reader.u32(4).map(Int.init), let count = reader.u16(ifd0) else { return tiff }
        let link = ifd0 + 2 + Int(count) * 12
        guard let ifd1 = reader.u32(link).map(Int.init), ifd1 != 0 else { return tiff }
        var out = tiff
        out.replaceSubrange(start + link..<start + link + 4, with: [0, 0, 0, 0])
        if let offset = inlineEntry(0x0201, inIFDAt: ifd1, reader)?.value, let length = inlineEntry(0x0202, inIFDAt: ifd1, reader)?.value,
           offset > ifd1, length > 0, offset + length <= body.count, body.count - (offset + length) < 4 {
            out.removeSubrange((start + offset)...)
        }
        return out
    }

    /// A reader set to a bare TIFF structure's byte order, when its header is valid.
    private static func tiffReader(_ tiff: [UInt8]) -> ByteReader? {
        guard tiff.count >= 8 else { return nil }
        var reader = ByteReader(tiff)
        if tiff[0] == 0x49, tiff[1] == 0x49 {
            reader.littleEndian = true
        } else if tiff[0] == 0x4D, tiff[1] == 0x4D {
            reader.littleEndian = false
        } else {
            return nil
        }
        return reader.u16(2) == 42 ? reader : nil
    }

    /// Entry `tag` of the IFD at `offset` when it holds one SHORT (3), LONG (4) or IFD (13)
    /// value stored inline: its type, the offset of its value field and the value. Nil when the
    /// tag is absent or the IFD is cut short; `value` nil when the entry has another form. Every
    /// read is bounds-checked.
    private static func inlineEntry(_ tag: UInt16, inIFDAt offset: Int, _ reader: ByteReader) -> (type: UInt16, valueOffset: Int, value: Int?)? {
        guard let count = reader.u16(offset) else { return nil }
        for index in 0..<Int(count) {
            let entry = offset + 2 + index * 12
            guard let found = reader.u16(entry), let type = reader.u16(entry + 2), let values = reader.u32(entry + 4) else { return nil }
            guard found == tag else { continue }
            guard values == 1, type == 3 || type == 4 || type == 13 else { return (type, entry + 8, nil) }
            let value = type == 3 ? reader.u16(entry + 8).map(Int.init) : reader.u32(entry + 8).map(Int.init)
            return (type, entry + 8, value)
        }
        return nil
    }

    /// The IFD0 Orientation entry of a bare TIFF structure: a reader set to its byte order,
    /// the entry's type (3 SHORT or 4 LONG; other types count as broken), the offset of its
    /// value field, and whether the value is really stored there (a count that fits four
    /// bytes) rather than elsewhere. Every read is bounds-checked.
    private static func orientationEntry(_ tiff: [UInt8]) -> (reader: ByteReader, type: UInt16, valueOffset: Int, inline: Bool)? {
        guard let reader = tiffReader(tiff), let ifd = reader.u32(4).map(Int.init), let count = reader.u16(ifd) else { return nil }
        for index in 0..<Int(count) {
            let entry = ifd + 2 + index * 12
            guard let tag = reader.u16(entry), let type = reader.u16(entry + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            guard type == 3 || type == 4, reader.slice(entry + 8, type == 3 ? 2 : 4) != nil,
                let values = reader.u32(entry + 4)
            else { return nil }
            return (reader, type, entry + 8, values <= (type == 3 ? 2 : 1))
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
