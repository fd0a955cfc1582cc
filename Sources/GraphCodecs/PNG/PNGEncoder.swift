import CCodecShims
import CLibPNG

extension PNGCodec {
    /// Encodes 8- or 16-bit grey (1), grey+alpha (2), RGB (3) or RGBA (4) pixels.
    ///
    /// `bytes` holds tightly packed rows, top first; 16-bit samples are native-endian UInt16
    /// (as `DecodedImage` stores them), so decode → encode round-trips exactly.
    /// `iccProfile` is embedded as iCCP (its colour space must match: GRAY for 1–2 channels,
    /// RGB for 3–4). `exif` (an EXIF TIFF structure, with or without the "Exif\0\0" prefix,
    /// which is dropped) becomes an eXIf chunk and `xmp` an uncompressed iTXt chunk with
    /// keyword `XML:com.adobe.xmp`; both go before the image data. `compressionLevel` is
    /// zlib's 0...9.
    public static func encode(
        width: Int, height: Int, channels: Int, bitDepth: Int, bytes: [UInt8],
        iccProfile: [UInt8]? = nil, iccProfileName: String = "ICC profile", exif: [UInt8]? = nil, xmp: String? = nil,
        compressionLevel: Int = 6, interlaced: Bool = false
    ) throws(CodecError) -> [UInt8] {
        try checkSettings(width: width, height: height, channels: channels, bitDepth: bitDepth,
                          compressionLevel: compressionLevel, iccProfile: iccProfile, xmp: xmp)
        let rowBytes = width * channels * bitDepth / 8
        let (expected, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow, bytes.count == expected else {
            throw CodecError(.invalidArgument, "expected \(expected) bytes for \(width)x\(height)x\(channels) at \(bitDepth) bits, got \(bytes.count)", format: .png)
        }
        let tiff = try Self.checkedEXIF(exif)
        let report = LibraryReport()
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let status: Int32 = bytes.withUnsafeBufferPointer { pixels in
            withParameters(width: width, height: height, channels: channels, bitDepth: bitDepth, iccProfile: iccProfile,
                           iccProfileName: iccProfileName, exif: tiff, xmp: xmp, compressionLevel: compressionLevel,
                           interlaced: interlaced) { params in
                params.pixels = pixels.baseAddress
                params.stride = rowBytes
                return ccs_png_encode(&params, &output, &outputSize, report.pointer)
            }
        }
        guard status == 0, let output else {
            throw CodecError(.corrupt, "libpng failed to encode: \(report.error)", format: .png, libraryMessage: report.error)
        }
        defer { ccs_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }

    /// Checks the encoder settings, naming the wrong one.
    static func checkSettings(width: Int, height: Int, channels: Int, bitDepth: Int, compressionLevel: Int,
                              iccProfile: [UInt8]?, xmp: String?) throws(CodecError) {
        guard (1...4).contains(channels) else {
            throw CodecError(.invalidArgument, "channels must be 1...4, got \(channels)", format: .png)
        }
        guard bitDepth == 8 || bitDepth == 16 else {
            throw CodecError(.invalidArgument, "bit depth must be 8 or 16, got \(bitDepth)", format: .png)
        }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw CodecError(.invalidArgument, "invalid size \(width)x\(height)", format: .png)
        }
        guard (0...9).contains(compressionLevel) else {
            throw CodecError(.invalidArgument, "compression level must be 0...9, got \(compressionLevel)", format: .png)
        }
        if let iccProfile {
            let space = ByteReader(iccProfile).fourCC(16)
            let wanted = channels <= 2 ? "GRAY" : "RGB "
            guard space == wanted else {
                throw CodecError(.invalidArgument, "ICC profile colour space '\(space ?? "?")' does not match a \(channels)-channel image (needs '\(wanted)')", format: .png, segment: "iCCP")
            }
        }
        if let xmp, let nul = xmp.utf8.firstIndex(of: 0) {
            throw CodecError(.invalidArgument, "XMP packet has a NUL byte at offset \(xmp.utf8.distance(from: xmp.utf8.startIndex, to: nul)); iTXt text cannot hold one", format: .png, segment: "iTXt XML:com.adobe.xmp")
        }
    }

    /// Calls `body` with the shim's parameters for these settings (pixels left unset); the
    /// pointers in them are valid only during the call.
    static func withParameters<R>(
        width: Int, height: Int, channels: Int, bitDepth: Int, iccProfile: [UInt8]?, iccProfileName: String,
        exif tiff: [UInt8]?, xmp: String?, compressionLevel: Int, interlaced: Bool,
        _ body: (inout ccs_png_enc_params) -> R
    ) -> R {
        let colorTypes: [Int32] = [PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA]
        return (iccProfile ?? []).withUnsafeBufferPointer { icc in
            (tiff ?? []).withUnsafeBufferPointer { exifBytes in
                (xmp ?? "").withCString { xmpText in
                    iccProfileName.withCString { name in
                        var params = ccs_png_enc_params()
                        params.width = UInt32(width)
                        params.height = UInt32(height)
                        params.color_type = colorTypes[channels - 1]
                        params.bit_depth = Int32(bitDepth)
                        params.swap16 = 1.littleEndian == 1 ? 1 : 0
                        params.icc = iccProfile == nil ? nil : icc.baseAddress
                        params.icc_size = UInt32(icc.count)
                        params.icc_name = name
                        params.compression_level = Int32(compressionLevel)
                        params.interlace = interlaced ? 1 : 0
                        params.exif = tiff == nil ? nil : exifBytes.baseAddress
                        params.exif_size = UInt32(exifBytes.count)
                        params.xmp = xmp == nil ? nil : xmpText
                        params.xmp_length = xmp?.utf8.count ?? 0
                        return body(&params)
                    }
                }
            }
        }
    }

    /// The bare TIFF structure an eXIf chunk holds: `exif` without its "Exif\0\0" prefix, which
    /// must start with a TIFF header.
    static func checkedEXIF(_ exif: [UInt8]?) throws(CodecError) -> [UInt8]? {
        guard let exif else { return nil }
        let tiff = exif.hasBytePrefix(EXIF.jpegPrefix) ? Array(exif[EXIF.jpegPrefix.count...]) : exif
        guard tiff.hasBytePrefix([0x49, 0x49, 0x2A, 0x00]) || tiff.hasBytePrefix([0x4D, 0x4D, 0x00, 0x2A]) else {
            throw CodecError(.invalidArgument, "EXIF data does not start with a TIFF header (\"II*\\0\" or \"MM\\0*\")", format: .png, segment: "eXIf")
        }
        guard tiff.count <= Int(UInt32.max) else {
            throw CodecError(.invalidArgument, "EXIF data is \(tiff.count) bytes; one eXIf chunk holds at most 2^32 - 1", format: .png, segment: "eXIf")
        }
        return tiff
    }
}
