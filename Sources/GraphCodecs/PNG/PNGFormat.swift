extension ImageFormatEntry {
    /// PNG: read and written through libpng, 8 or 16 bits per sample.
    public static let png = ImageFormatEntry(
        format: .png, name: "PNG", suffixes: ["png"],
        isA: { $0.starts(with: PNGCodec.signature) },
        // "PNG" at 1...3 with the rest of the signature damaged (a transfer in text mode).
        isDamagedA: { $0.count >= 4 && $0[1...3].elementsEqual([0x50, 0x4E, 0x47]) },
        load: { bytes, options throws(CodecError) in try PNGCodec.decode(bytes, options: options) },
        loadInfo: { bytes throws(CodecError) in try PNGCodec.readInfo(bytes) },
        saving: .png)
}

extension ImageSaving {
    /// PNG output: 8 or 16 bits per sample.
    public static let png = ImageSaving(name: "PNG", key: "png", bitDepths: [8, 16], carriesAuxiliaryImages: false)
}
