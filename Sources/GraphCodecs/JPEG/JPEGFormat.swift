extension ImageFormatEntry {
    /// JPEG (JFIF or EXIF): read and written through libjpeg-turbo, 8 bits per sample; the only
    /// format written with a photo's auxiliary images (MPF, GDepth or Dynamic Depth).
    public static let jpeg = ImageFormatEntry(
        format: .jpeg, name: "JPEG", suffixes: ["jpg", "jpeg"],
        isA: { $0.starts(with: [0xFF, 0xD8, 0xFF]) },
        load: { bytes, options throws(CodecError) in try JPEGCodec.decode(bytes, options: options) },
        loadInfo: { bytes throws(CodecError) in try JPEGCodec.readInfo(bytes) },
        saving: .jpeg)
}

extension ImageSaving {
    /// JPEG output: 8 bits per sample, followed by the photo's auxiliary images.
    public static let jpeg = ImageSaving(name: "JPEG", key: "jpeg", otherKeys: ["jpg"], bitDepths: [8], carriesAuxiliaryImages: true)
}
