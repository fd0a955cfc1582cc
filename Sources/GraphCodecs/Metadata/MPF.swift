/// One entry of a JPEG Multi-Picture Format index (CIPA DC-007), e.g. an iPhone's
/// disparity map or portrait matte stored after the primary image.
public struct MPFEntry: Sendable, Equatable {
    /// 0-based position in the MP Entry table.
    public var index: Int
    /// Raw individual image attribute (flags, format, type code).
    public var attributes: UInt32
    /// Image size in bytes as recorded (some writers record a wrong size for the primary).
    public var length: Int
    /// Offset as stored: relative to the MPF TIFF header; 0 for the primary image.
    public var relativeOffset: Int
    /// Absolute file offset of the image's SOI marker (0 for the primary image).
    public var absoluteOffset: Int
    /// Index of the first dependent image (0 for none).
    public var dependentImage1: Int
    /// Index of the second dependent image (0 for none).
    public var dependentImage2: Int

    /// MP type code (low 24 bits): 0x030000 baseline primary, 0x010001/0x010002 large
    /// thumbnails, 0x020001 panorama, 0x020002 disparity, 0x020003 multi-angle, 0 undefined.
    public var typeCode: UInt32 { attributes & 0x00FF_FFFF }
    /// Image data format (bits 24...26): 0 = JPEG.
    public var dataFormat: Int { Int((attributes >> 24) & 0x7) }
    /// Attribute bit 31: the image has dependent children.
    public var isDependentParent: Bool { attributes & 0x8000_0000 != 0 }
    /// Attribute bit 30: the image is a dependent child.
    public var isDependentChild: Bool { attributes & 0x4000_0000 != 0 }
    /// Attribute bit 29: the representative image.
    public var isRepresentative: Bool { attributes & 0x2000_0000 != 0 }

    /// Human-readable type name.
    public var typeName: String {
        switch typeCode {
        case 0x030000: return "Baseline MP Primary Image"
        case 0x010001: return "Large Thumbnail (VGA)"
        case 0x010002: return "Large Thumbnail (Full HD)"
        case 0x020001: return "Multi-Frame Panorama"
        case 0x020002: return "Multi-Frame Disparity"
        case 0x020003: return "Multi-Frame Multi-Angle"
        case 0: return "Undefined"
        default: return "Type 0x" + String(typeCode, radix: 16)
        }
    }
}

/// Parser for the APP2 "MPF\0" segment.
public enum MPF {
    /// The bytes an MPF APP2 payload starts with: `MPF\0`.
    public static let jpegPrefix: [UInt8] = Array("MPF".utf8) + [0]

    /// Parses the MP Index IFD of an APP2 payload (starting with "MPF\0").
    /// `tiffHeaderOffset` is the absolute file offset of the TIFF header (payload start + 4);
    /// entry offsets are relative to it and are converted to absolute offsets.
    static func parse(payload: [UInt8], tiffHeaderOffset: Int?, warnings: inout [String]) -> [MPFEntry] {
        guard payload.hasBytePrefix(jpegPrefix), payload.count >= 12 else { return [] }
        let tiff = Array(payload[4...])
        var reader = ByteReader(tiff)
        if tiff[0] == 0x49, tiff[1] == 0x49 {
            reader.littleEndian = true
        } else if !(tiff[0] == 0x4D && tiff[1] == 0x4D) {
            warnings.append("MPF: bad TIFF byte order mark")
            return []
        }
        guard reader.u16(2) == 42, let ifd = reader.u32(4).map(Int.init), let count = reader.u16(ifd) else {
            warnings.append("MPF: malformed MP Index IFD")
            return []
        }
        var numberOfImages: Int?
        var entryOffset: Int?
        var entryBytes = 0
        for i in 0..<Int(count) {
            let entry = ifd + 2 + i * 12
            guard let tag = reader.u16(entry), let fieldCount = reader.u32(entry + 4),
                let value = reader.u32(entry + 8)
            else {
                warnings.append("MPF: MP Index IFD runs past the segment end")
                return []
            }
            if tag == 0xB001 { numberOfImages = Int(value) }
            if tag == 0xB002 {
                entryBytes = Int(fieldCount)
                entryOffset = Int(value)
            }
        }
        guard let entryOffset else {
            // Apple writes such a stub (version and NumberOfImages only) inside each auxiliary
            // image: it indexes nothing, which is not a problem.
            if numberOfImages == nil { warnings.append("MPF: no MP Entry tag (0xB002)") }
            return []
        }
        let n = entryBytes / 16
        if let numberOfImages, numberOfImages != n {
            warnings.append("MPF: NumberOfImages \(numberOfImages) but \(n) MP entries")
        }
        if tiffHeaderOffset == nil {
            warnings.append("MPF: segment file offset unknown; absolute offsets are relative")
        }
        var entries: [MPFEntry] = []
        for i in 0..<n {
            let at = entryOffset + i * 16
            guard let attributes = reader.u32(at), let size = reader.u32(at + 4),
                let offset = reader.u32(at + 8), let dep1 = reader.u16(at + 12), let dep2 = reader.u16(at + 14)
            else {
                warnings.append("MPF: MP entry \(i + 1) runs past the segment end")
                break
            }
            let relative = Int(offset)
            let absolute = relative == 0 ? 0 : relative + (tiffHeaderOffset ?? 0)
            entries.append(
                MPFEntry(
                    index: i, attributes: attributes, length: Int(size), relativeOffset: relative,
                    absoluteOffset: absolute, dependentImage1: Int(dep1), dependentImage2: Int(dep2)))
        }
        return entries
    }
}
