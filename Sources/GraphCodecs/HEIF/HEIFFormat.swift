extension ImageFormatEntry {
    /// HEIF: read through libheif (any of its image brands); written as HEIC (HEVC through
    /// libheif and x265), 8 bits per sample, the main image only.
    public static let heif = ImageFormatEntry(
        format: .heif, name: "HEIF", suffixes: ["heic"], otherSuffixes: ["heif"],
        isA: HEIFBrands.isHEIF,
        load: { bytes, options throws(CodecError) in try HEIFCodec.decode(bytes, options: options) },
        loadInfo: { bytes throws(CodecError) in try HEIFCodec.readInfo(bytes) },
        saving: .heic)
}

extension ImageSaving {
    /// HEIC output (HEVC-coded HEIF): 8 bits per sample, the main image only (libheif cannot
    /// write auxiliary images).
    public static let heic = ImageSaving(name: "HEIC", key: "heic", bitDepths: [8], carriesAuxiliaryImages: false)
}

/// The `ftyp` brands that make an ISOBMFF file a HEIF image.
enum HEIFBrands {
    /// `ftyp` brands of HEIF image files (HEVC-coded, and the generic image brands).
    static let image: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// Whether `bytes` start an ISOBMFF file (size, "ftyp", major brand, minor version,
    /// compatible brands) whose major or a compatible brand is a HEIF image brand.
    static func isHEIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12, bytes[4..<8].elementsEqual(Array("ftyp".utf8)) else { return false }
        let reader = ByteReader(bytes)
        let size = min(Int(reader.u32(0) ?? 0), bytes.count)
        var brands: [String] = []
        if let major = reader.fourCC(8) { brands.append(major) }
        var at = 16
        while at + 4 <= size, let brand = reader.fourCC(at) {
            brands.append(brand)
            at += 4
        }
        return brands.contains(where: image.contains)
    }
}
