import CCodecShims
import CLibJPEG

/// JPEG decoding and header reading through libjpeg-turbo (8-bit API).
///
/// - Output: grey (1 channel), RGB (3) or, with `outputRGBA`, RGBA (4) via libjpeg-turbo's
///   JCS_EXT_RGB / JCS_EXT_RGBA, decoded row by row straight into the final buffer with the
///   accurate integer IDCT (JDCT_ISLOW, djpeg's default).
/// - CMYK / YCCK are converted to RGB in Swift with the naive formula. Adobe (APP14) CMYK
///   is stored inverted, so R = C·K/255 (the same as djpeg's PPM output); CMYK without an
///   Adobe marker is taken as regular, R = (255−C)(255−K)/255. No ICC conversion is done.
/// - 12-bit (and lossless) JPEGs are refused with a message naming the precision.
/// - "Premature end of JPEG file" is a libjpeg warning (it pads with grey); here it is an
///   error, so a truncated file never yields a partly grey image.
public enum JPEGCodec {
    /// Decodes a whole JPEG file held in memory.
    public static func decode(_ data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        guard !data.isEmpty else { throw CodecError(.truncated, "empty file (0 bytes)", format: .jpeg) }
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else {
            throw CodecError(.unrecognizedFormat, "not a JPEG file: no SOI marker (FF D8) at the start", format: .jpeg)
        }
        guard [1, 2, 4, 8].contains(options.jpegScaleDenominator) else {
            throw CodecError(.invalidArgument, "jpegScaleDenominator must be 1, 2, 4 or 8, got \(options.jpegScaleDenominator)", format: .jpeg)
        }
        let scan = JPEGMarkers.scanHeader(data)
        if let frame = scan.frame { try checkSupported(frame) }
        let result: Result<DecodedImage, CodecError> = data.withUnsafeBufferPointer { buffer in
            Result { () throws(CodecError) -> DecodedImage in try decode(buffer, scanned: scan.segments, options: options) }
        }
        return try result.get()
    }

    /// Refuses what libjpeg-turbo's 8-bit API cannot decode, with a precise message.
    static func checkSupported(_ frame: JPEGFrameHeader) throws(CodecError) {
        let sof = "SOF\(Int(frame.marker) - 0xC0)"
        if frame.lossless {
            throw CodecError(.unsupported, "lossless JPEG (\(sof), \(frame.precision)-bit) is not supported", format: .jpeg, segment: sof)
        }
        if frame.precision != 8 {
            throw CodecError(
                .unsupported,
                "\(frame.precision)-bit precision JPEG is not supported: libjpeg-turbo's 8-bit API decodes only 8-bit samples",
                format: .jpeg, segment: sof)
        }
    }

    private static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, scanned: [JPEGSegment], options: DecodeOptions
    ) throws(CodecError) -> DecodedImage {
        let report = LibraryReport()
        guard let base = buffer.baseAddress,
            let dec = ccs_jpeg_dec_create(base, buffer.count, report.pointer, Int32(options.maxJPEGScans))
        else { throw failure(report, stage: "decoder setup") }
        defer { ccs_jpeg_dec_destroy(dec) }
        guard let cinfo = ccs_jpeg_dec_cinfo(dec) else { throw failure(report, stage: "decoder setup") }
        guard ccs_jpeg_dec_read_header(dec) == 0 else { throw failure(report, stage: "header") }

        let width = Int(cinfo.pointee.image_width), height = Int(cinfo.pointee.image_height)
        try options.checkSize(width: width, height: height, format: .jpeg)

        var warnings: [String] = []
        var metadata = headerMetadata(cinfo)
        JPEGMarkers.apply(segments: savedMarkers(cinfo, scanned: scanned), to: &metadata, warnings: &warnings)

        let rgba = options.outputRGBA
        let source = cinfo.pointee.jpeg_color_space
        let cmyk = source == JCS_CMYK || source == JCS_YCCK
        let outSpace: J_COLOR_SPACE
        switch source {
        case JCS_GRAYSCALE: outSpace = rgba ? JCS_EXT_RGBA : JCS_GRAYSCALE
        case JCS_YCbCr, JCS_RGB: outSpace = rgba ? JCS_EXT_RGBA : JCS_EXT_RGB
        case JCS_CMYK, JCS_YCCK: outSpace = JCS_CMYK
        default:
            throw CodecError(
                .unsupported, "JPEG with \(cinfo.pointee.num_components) components in an unknown colour space",
                format: .jpeg, segment: "SOF")
        }
        cinfo.pointee.out_color_space = outSpace
        cinfo.pointee.scale_num = 1
        cinfo.pointee.scale_denom = UInt32(options.jpegScaleDenominator)
        cinfo.pointee.dct_method = JDCT_ISLOW
        guard ccs_jpeg_dec_calc_output(dec) == 0 else { throw failure(report, stage: "output setup") }
        guard ccs_jpeg_dec_start(dec) == 0 else { throw failure(report, stage: "start of decompression") }

        var outWidth = Int(cinfo.pointee.output_width), outHeight = Int(cinfo.pointee.output_height)
        let components = Int(cinfo.pointee.output_components)
        let rowBytes = outWidth * components
        let total = rowBytes * outHeight
        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            initialized = 0
            guard let base = out.baseAddress else { failed = total > 0; return }
            if ccs_jpeg_dec_read_all(dec, base, rowBytes) != 0 || ccs_jpeg_dec_finish(dec) != 0 {
                failed = true
                return
            }
            initialized = total
        }
        if failed { throw failure(report, stage: "scan data") }
        if report.prematureEnd {
            throw CodecError(
                .truncated, "the JPEG data ends before the image is complete (truncated file)",
                format: .jpeg, segment: "scan data", libraryMessage: "Premature end of JPEG file")
        }
        var channels = components
        if cmyk {
            bytes = convertCMYK(bytes, inverted: cinfo.pointee.saw_Adobe_marker != 0, rgba: rgba)
            channels = rgba ? 4 : 3
        }
        if options.applyOrientation, metadata.exifOrientation != 1 {
            (bytes, outWidth, outHeight) = Orientation.apply(
                metadata.exifOrientation, bytes: bytes, width: outWidth, height: outHeight, pixelBytes: channels)
            metadata.orientationApplied = true
        }
        return DecodedImage(
            width: outWidth, height: outHeight, channels: channels, bitDepth: 8, bytes: bytes,
            metadata: metadata, warnings: report.warnings + warnings)
    }

    /// Frame-level metadata libjpeg parsed from the header.
    private static func headerMetadata(_ cinfo: UnsafeMutablePointer<jpeg_decompress_struct>) -> ImageMetadata {
        var metadata = ImageMetadata(format: .jpeg)
        let c = cinfo.pointee
        metadata.fileBitDepth = Int(c.data_precision)
        metadata.jpegProgressive = c.progressive_mode != 0
        metadata.jpegArithmetic = c.arith_code != 0
        switch c.jpeg_color_space {
        case JCS_GRAYSCALE: metadata.jpegColorSpace = .grey
        case JCS_YCbCr: metadata.jpegColorSpace = .yCbCr
        case JCS_RGB: metadata.jpegColorSpace = .rgb
        case JCS_CMYK: metadata.jpegColorSpace = .cmyk
        case JCS_YCCK: metadata.jpegColorSpace = .ycck
        default: metadata.jpegColorSpace = .unknown
        }
        if let components = c.comp_info {
            metadata.jpegSampling = (0..<Int(c.num_components)).map {
                [Int(components[$0].h_samp_factor), Int(components[$0].v_samp_factor)]
            }
        }
        metadata.jpegSubsampling = subsampling(metadata.jpegSampling)
        return metadata
    }

    /// The standard pattern for 3-component (h, v) factors with 1x1 chroma, else nil.
    static func subsampling(_ sampling: [[Int]]) -> JPEGSubsampling? {
        guard sampling.count == 3, sampling[1] == [1, 1], sampling[2] == [1, 1] else { return nil }
        return JPEGSubsampling(lumaH: sampling[0][0], lumaV: sampling[0][1])
    }

    /// libjpeg's saved APPn/COM markers, with file offsets taken from the Swift header walk
    /// when the two agree (same order, code and length).
    private static func savedMarkers(
        _ cinfo: UnsafeMutablePointer<jpeg_decompress_struct>, scanned: [JPEGSegment]
    ) -> [JPEGSegment] {
        var segments: [JPEGSegment] = []
        var marker = cinfo.pointee.marker_list
        while let current = marker {
            let code = UInt8(truncatingIfNeeded: current.pointee.marker)
            let length = Int(current.pointee.data_length)
            let payload = current.pointee.data.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
            let index = segments.count
            let offset =
                index < scanned.count && scanned[index].marker == code && scanned[index].payload.count == length
                ? scanned[index].offset : nil
            segments.append(JPEGSegment(marker: code, offset: offset, payload: payload))
            marker = current.pointee.next
        }
        return segments
    }

    /// CMYK → RGB (or RGBA), in place, front to back.
    private static func convertCMYK(_ cmyk: [UInt8], inverted: Bool, rgba: Bool) -> [UInt8] {
        var out = cmyk
        let pixels = cmyk.count / 4
        let step = rgba ? 4 : 3
        out.withUnsafeMutableBufferPointer { p in
            for i in 0..<pixels {
                var c = Int(p[i * 4]), m = Int(p[i * 4 + 1]), y = Int(p[i * 4 + 2]), k = Int(p[i * 4 + 3])
                if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                // round(c * k / 255), as libjpeg-turbo's cmyk_to_rgb.
                p[i * step] = UInt8((c * k * 2 + 255) / 510)
                p[i * step + 1] = UInt8((m * k * 2 + 255) / 510)
                p[i * step + 2] = UInt8((y * k * 2 + 255) / 510)
                if rgba { p[i * step + 3] = 255 }
            }
        }
        if !rgba { out.removeLast(out.count - pixels * 3) }
        return out
    }

    /// A CodecError from libjpeg's message, classified.
    static func failure(_ report: LibraryReport, stage: String) -> CodecError {
        let message = report.error.isEmpty ? "unknown libjpeg failure" : report.error
        if report.scanLimitHit {
            return CodecError(.corrupt, "too many progressive scans (hang protection): \(message)", format: .jpeg, segment: stage, libraryMessage: message)
        }
        if report.prematureEnd {
            return CodecError(.truncated, "the JPEG data ends prematurely (truncated file): \(message)", format: .jpeg, segment: stage, libraryMessage: message)
        }
        if message.contains("Maximum supported image dimension") {
            return CodecError(.tooLarge, "image dimensions exceed libjpeg's limit: \(message)", format: .jpeg, segment: stage, libraryMessage: message)
        }
        if message.hasPrefix("Not a JPEG file") {
            return CodecError(.unrecognizedFormat, message, format: .jpeg, segment: stage, libraryMessage: message)
        }
        if message.contains("precision") || message.contains("Unsupported") {
            return CodecError(.unsupported, "unsupported JPEG: \(message)", format: .jpeg, segment: stage, libraryMessage: message)
        }
        return CodecError(.corrupt, "invalid JPEG data: \(message)", format: .jpeg, segment: stage, libraryMessage: message)
    }

    /// Reads the frame header and APPn metadata with the Swift header walk only (no libjpeg,
    /// no pixels): cheap even for 24 MP files.
    public static func readInfo(_ data: [UInt8]) throws(CodecError) -> ImageInfo {
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else {
            throw CodecError(.unrecognizedFormat, "not a JPEG file: no SOI marker (FF D8) at the start", format: .jpeg)
        }
        let scan = JPEGMarkers.scanHeader(data)
        guard let frame = scan.frame else {
            let problem = scan.problem ?? "no SOF frame header before the first scan"
            throw CodecError(.corrupt, "no frame header found: \(problem)", format: .jpeg, segment: "SOF")
        }
        var warnings: [String] = []
        if let problem = scan.problem { warnings.append(problem) }
        var metadata = ImageMetadata(format: .jpeg)
        metadata.fileBitDepth = frame.precision
        metadata.jpegProgressive = frame.progressive
        metadata.jpegArithmetic = frame.arithmetic
        metadata.jpegSampling = frame.components.map { [$0.h, $0.v] }
        metadata.jpegSubsampling = subsampling(metadata.jpegSampling)
        JPEGMarkers.apply(segments: scan.segments, to: &metadata, warnings: &warnings)
        let space: JPEGColorSpace
        switch frame.components.count {
        case 1: space = .grey
        case 3: space = metadata.jpegAdobeTransform == 0 || frame.components.map(\.id) == [82, 71, 66] ? .rgb : .yCbCr
        case 4: space = metadata.jpegAdobeTransform == 2 ? .ycck : .cmyk
        default: space = .unknown
        }
        metadata.jpegColorSpace = space
        let models: [JPEGColorSpace: String] = [.grey: "grey", .yCbCr: "YCbCr", .rgb: "RGB", .cmyk: "CMYK", .ycck: "YCCK"]
        return ImageInfo(
            format: .jpeg, width: frame.width, height: frame.height, channels: frame.components.count,
            bitDepth: frame.precision, colorModel: models[space] ?? "unknown", metadata: metadata, warnings: warnings)
    }
}
