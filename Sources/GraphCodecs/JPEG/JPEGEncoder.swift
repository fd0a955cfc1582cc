extension JPEGCodec {
    /// Largest ICC data per APP2 chunk (65535 − 2 length bytes − 14 header bytes).
    static let maxICCChunk = 65519

    /// Encodes 8-bit grey (1), grey+alpha (2, alpha dropped), RGB (3) or RGBA (4, alpha
    /// dropped) pixels with libjpeg-turbo.
    ///
    /// - `quality` 1...100 (libjpeg scaling of the standard tables); `subsampling` applies to
    ///   colour images; `progressive` uses jpeg_simple_progression.
    /// - `iccProfile` is split into APP2 ICC_PROFILE chunks; `xmp` becomes an APP1 XMP packet
    ///   (at most `XMP.maxMainPacketBytes`); `exif` is an EXIF TIFF structure (with or without
    ///   the "Exif\0\0" prefix) written as APP1 right after SOI (no JFIF marker then).
    /// - `extendedXMP` is split into APP1 Extended XMP chunks after the main packet, which must
    ///   name its GUID in `xmpNote:HasExtendedXMP` (see `XMP.digestGUID(ofExtended:)`).
    public static func encode(
        width: Int, height: Int, channels: Int, bytes: [UInt8], quality: Int = 90,
        subsampling: JPEGSubsampling = .s420, progressive: Bool = false, optimizeHuffman: Bool = false,
        iccProfile: [UInt8]? = nil, xmp: String? = nil, extendedXMP: String? = nil, exif: [UInt8]? = nil,
        comment: String? = nil
    ) throws(CodecError) -> [UInt8] {
        let encoder = try JPEGRowEncoder(
            width: width, height: height, channels: channels, quality: quality, subsampling: subsampling,
            progressive: progressive, optimizeHuffman: optimizeHuffman, iccProfile: iccProfile, xmp: xmp,
            extendedXMP: extendedXMP, exif: exif, comment: comment, initialCapacity: bytes.count / 8 + 65536)
        guard bytes.count == width * height * channels else {
            throw CodecError(.invalidArgument, "expected \(width * height * channels) bytes for \(width)x\(height)x\(channels), got \(bytes.count)", format: .jpeg)
        }
        let written: Result<Void, CodecError> = bytes.withUnsafeBytes { raw in
            Result { () throws(CodecError) in
                guard let base = raw.baseAddress else { return }
                try encoder.writeRows(base, rowBytes: width * channels, count: height)
            }
        }
        try written.get()
        return try encoder.finish()
    }
}
