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
    /// Decodes a whole JPEG file held in memory: a loop over `JPEGRowDecoder` reading every
    /// row straight into the final buffer, then the EXIF orientation applied when asked.
    public static func decode(_ data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        let result: Result<DecodedImage, CodecError> = data.withUnsafeBufferPointer { buffer in
            Result { () throws(CodecError) -> DecodedImage in
                try decode(JPEGRowDecoder(data, unownedBuffer: buffer, options: options), options: options)
            }
        }
        return try result.get()
    }

    private static func decode(_ decoder: JPEGRowDecoder, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        var (width, height) = (decoder.width, decoder.height)
        let rowBytes = decoder.rowBytes
        let total = rowBytes * height
        var failure: CodecError?
        var bytes = [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            initialized = 0
            guard let base = out.baseAddress else { return }
            do throws(CodecError) {
                _ = try decoder.readRows(into: base, rowBytes: rowBytes, maxRows: height)
                initialized = total
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if !decoder.isFinished {
            throw CodecError(.corrupt, "no pixel memory for a \(width)x\(height) image", format: .jpeg, segment: "scan data")
        }
        var metadata = decoder.metadata
        if options.applyOrientation, metadata.exifOrientation != 1 {
            (bytes, width, height) = Orientation.apply(
                metadata.exifOrientation, bytes: bytes, width: width, height: height, pixelBytes: decoder.channels)
            metadata.orientationApplied = true
        }
        return DecodedImage(
            width: width, height: height, channels: decoder.channels, bitDepth: 8, bytes: bytes,
            metadata: metadata, warnings: decoder.warnings)
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

    /// Frame-level metadata libjpeg parsed from the header.
    static func headerMetadata(_ cinfo: UnsafeMutablePointer<jpeg_decompress_struct>) -> ImageMetadata {
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
    static func savedMarkers(
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

    /// One row of CMYK → RGB (or RGBA). Adobe CMYK is stored inverted: R = C·K/255, else
    /// R = (255−C)(255−K)/255, rounded as libjpeg-turbo's cmyk_to_rgb.
    static func convertCMYK(
        _ cmyk: UnsafePointer<UInt8>, to out: UnsafeMutablePointer<UInt8>, pixels: Int, inverted: Bool, rgba: Bool
    ) {
        let step = rgba ? 4 : 3
        for i in 0..<pixels {
            var c = Int(cmyk[i * 4]), m = Int(cmyk[i * 4 + 1]), y = Int(cmyk[i * 4 + 2]), k = Int(cmyk[i * 4 + 3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            out[i * step] = UInt8((c * k * 2 + 255) / 510)
            out[i * step + 1] = UInt8((m * k * 2 + 255) / 510)
            out[i * step + 2] = UInt8((y * k * 2 + 255) / 510)
            if rgba { out[i * step + 3] = 255 }
        }
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
    /// no pixels): cheap even for 24 MP files. With `auxiliaryImages`, the MPF images and a
    /// GDepth map are described too (their headers only; see `JPEGAuxiliaryImages`).
    public static func readInfo(_ data: [UInt8], auxiliaryImages: Bool = true) throws(CodecError) -> ImageInfo {
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
        let auxiliary = auxiliaryImages ? JPEGAuxiliaryImages.describe(data, metadata: metadata, warnings: &warnings) : []
        return ImageInfo(
            format: .jpeg, width: frame.width, height: frame.height, channels: frame.components.count,
            bitDepth: frame.precision, colorModel: models[space] ?? "unknown", metadata: metadata, warnings: warnings,
            auxiliaryImages: auxiliary)
    }
}
