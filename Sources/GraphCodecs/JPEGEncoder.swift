import CCodecShims
import CLibJPEG

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
    public static func encode(
        width: Int, height: Int, channels: Int, bytes: [UInt8], quality: Int = 90,
        subsampling: JPEGSubsampling = .s420, progressive: Bool = false, optimizeHuffman: Bool = false,
        iccProfile: [UInt8]? = nil, xmp: String? = nil, exif: [UInt8]? = nil, comment: String? = nil
    ) throws(CodecError) -> [UInt8] {
        guard (1...4).contains(channels) else {
            throw CodecError(.invalidArgument, "channels must be 1...4, got \(channels)", format: .jpeg)
        }
        guard width > 0, height > 0, width <= 65500, height <= 65500 else {
            throw CodecError(.invalidArgument, "invalid size \(width)x\(height) (JPEG allows 1...65500)", format: .jpeg)
        }
        guard (1...100).contains(quality) else {
            throw CodecError(.invalidArgument, "quality must be 1...100, got \(quality)", format: .jpeg)
        }
        guard bytes.count == width * height * channels else {
            throw CodecError(.invalidArgument, "expected \(width * height * channels) bytes for \(width)x\(height)x\(channels), got \(bytes.count)", format: .jpeg)
        }

        // APPn payloads, concatenated so that one pinned buffer serves them all.
        var markers: [(code: Int32, range: Range<Int>)] = []
        var storage: [UInt8] = []
        func add(_ code: Int, _ payload: [UInt8]) {
            markers.append((Int32(code), storage.count..<storage.count + payload.count))
            storage += payload
        }
        if let exif {
            let payload = exif.hasBytePrefix(EXIF.jpegPrefix) ? exif : EXIF.jpegPrefix + exif
            guard payload.count <= 65533 else {
                throw CodecError(.invalidArgument, "EXIF data is \(payload.count) bytes; one APP1 segment holds at most 65533", format: .jpeg, segment: "APP1 Exif")
            }
            add(0xE1, payload)
        }
        if let xmp {
            let packet = Array(xmp.utf8)
            guard packet.count <= XMP.maxMainPacketBytes else {
                throw CodecError(.invalidArgument, "XMP packet is \(packet.count) bytes; at most \(XMP.maxMainPacketBytes) fit one APP1 segment", format: .jpeg, segment: "APP1 XMP")
            }
            add(0xE1, XMP.jpegPrefix + packet)
        }
        if let iccProfile, !iccProfile.isEmpty {
            let count = (iccProfile.count + maxICCChunk - 1) / maxICCChunk
            guard count <= 255 else {
                throw CodecError(.invalidArgument, "ICC profile of \(iccProfile.count) bytes needs more than 255 APP2 chunks", format: .jpeg, segment: "APP2 ICC_PROFILE")
            }
            for index in 0..<count {
                let chunk = iccProfile[(index * maxICCChunk)..<min(iccProfile.count, (index + 1) * maxICCChunk)]
                add(0xE2, JPEGMarkers.iccPrefix + [UInt8(index + 1), UInt8(count)] + chunk)
            }
        }
        if let comment {
            let text = Array(comment.utf8)
            guard text.count <= 65533 else {
                throw CodecError(.invalidArgument, "comment too long (\(text.count) bytes)", format: .jpeg, segment: "COM")
            }
            add(0xFE, text)
        }

        // Grey+alpha: drop the alpha into a packed grey copy (libjpeg has no such input).
        let pixels: [UInt8]
        let inputChannels: Int
        if channels == 2 {
            pixels = (0..<(width * height)).map { bytes[$0 * 2] }
            inputChannels = 1
        } else {
            pixels = bytes
            inputChannels = channels
        }
        let inSpace: J_COLOR_SPACE = inputChannels == 1 ? JCS_GRAYSCALE : inputChannels == 3 ? JCS_EXT_RGB : JCS_EXT_RGBX
        let factors = subsampling.lumaFactors
        let report = LibraryReport()
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status: Int32 = pixels.withUnsafeBufferPointer { pixelBuffer in
            storage.withUnsafeBufferPointer { markerBytes in
                var list = markers.map { marker in
                    ccs_jpeg_marker(
                        code: marker.code, data: markerBytes.baseAddress.map { $0 + marker.range.lowerBound },
                        size: UInt32(marker.range.count))
                }
                return list.withUnsafeMutableBufferPointer { markerList in
                    var params = ccs_jpeg_enc_params()
                    params.width = UInt32(width)
                    params.height = UInt32(height)
                    params.components = Int32(inputChannels)
                    params.in_color_space = Int32(inSpace.rawValue)
                    params.pixels = pixelBuffer.baseAddress
                    params.stride = width * inputChannels
                    params.quality = Int32(quality)
                    params.luma_h_samp = Int32(factors.h)
                    params.luma_v_samp = Int32(factors.v)
                    params.progressive = progressive ? 1 : 0
                    params.optimize_coding = optimizeHuffman ? 1 : 0
                    params.dct_method = Int32(JDCT_ISLOW.rawValue)
                    params.write_jfif = exif == nil ? 1 : 0
                    params.markers = UnsafePointer(markerList.baseAddress)
                    params.marker_count = Int32(markerList.count)
                    return ccs_jpeg_encode(&params, &output, &outputSize, report.pointer)
                }
            }
        }
        guard status == 0, let output else {
            throw CodecError(.corrupt, "libjpeg failed to encode: \(report.error)", format: .jpeg, libraryMessage: report.error)
        }
        defer { ccs_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }
}
