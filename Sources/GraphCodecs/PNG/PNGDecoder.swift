import CCodecShims
import CLibPNG

/// PNG decoding and header reading through libpng 1.6.
///
/// Every colour type and bit depth is expanded by libpng to 8- or 16-bit samples: palette →
/// RGB(A), 1/2/4-bit grey → 8-bit (scaled to the full range), tRNS → alpha. Adam7 images are
/// de-interlaced by libpng. gAMA / sRGB / iCCP are reported in the metadata, never applied.
public enum PNGCodec {
    /// The 8-byte PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes a whole PNG file held in memory.
    public static func decode(_ data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        let result: Result<DecodedImage, CodecError> = data.withUnsafeBufferPointer { buffer in
            Result { () throws(CodecError) -> DecodedImage in try decode(buffer, options: options) }
        }
        return try result.get()
    }

    /// Reads the header and the metadata chunks before the image data, without decoding pixels.
    public static func readInfo(_ data: [UInt8]) throws(CodecError) -> ImageInfo {
        let result: Result<ImageInfo, CodecError> = data.withUnsafeBufferPointer { buffer in
            Result { () throws(CodecError) -> ImageInfo in
                let report = LibraryReport()
                let reader = try Reader(buffer, report: report)
                try reader.readInfo()
                var warnings: [String] = []
                let header = reader.header()
                var metadata = reader.metadata(warnings: &warnings)
                metadata.segments = chunkList(data)
                return ImageInfo(
                    format: .png, width: header.width, height: header.height, channels: header.channels,
                    bitDepth: header.bitDepth, colorModel: header.colorModel, metadata: metadata,
                    warnings: report.warnings + warnings)
            }
        }
        return try result.get()
    }

    private static func decode(_ buffer: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let report = LibraryReport()
        let reader = try Reader(buffer, report: report)
        try reader.readInfo()
        let header = reader.header()
        try options.checkSize(width: header.width, height: header.height, format: .png)

        var passes: Int32 = 1
        let littleEndian = 1.littleEndian == 1
        guard ccs_png_dec_prepare(reader.dec, littleEndian ? 1 : 0, options.outputRGBA ? 1 : 0, &passes) == 0 else {
            throw reader.failure(stage: "transform setup")
        }
        let channels = Int(png_get_channels(reader.png, reader.info))
        let bitDepth = Int(png_get_bit_depth(reader.png, reader.info))
        let rowBytes = Int(png_get_rowbytes(reader.png, reader.info))
        guard bitDepth == 8 || bitDepth == 16, rowBytes == header.width * channels * bitDepth / 8 else {
            throw CodecError(.corrupt, "unexpected libpng output layout (\(channels) channels, \(bitDepth) bits, \(rowBytes) bytes per row)", format: .png)
        }
        let (total, overflow) = rowBytes.multipliedReportingOverflow(by: header.height)
        guard !overflow else { throw CodecError(.tooLarge, "image byte size overflows", format: .png) }

        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            initialized = 0
            guard let base = out.baseAddress else { failed = total > 0; return }
            if ccs_png_dec_read_rows(reader.dec, base, rowBytes, UInt32(header.height), passes) != 0 {
                failed = true
                return
            }
            initialized = total
        }
        if failed { throw reader.failure(stage: "image data (IDAT)") }
        guard ccs_png_dec_read_end(reader.dec) == 0 else { throw reader.failure(stage: "chunks after the image data") }

        var warnings: [String] = []
        var metadata = reader.metadata(warnings: &warnings)
        var width = header.width, height = header.height
        if options.applyOrientation, metadata.exifOrientation != 1 {
            (bytes, width, height) = Orientation.apply(
                metadata.exifOrientation, bytes: bytes, width: width, height: height, pixelBytes: channels * bitDepth / 8)
            metadata.orientationApplied = true
        }
        return DecodedImage(
            width: width, height: height, channels: channels, bitDepth: bitDepth, bytes: bytes,
            metadata: metadata, warnings: report.warnings + warnings)
    }

    /// Walks the chunk headers (no CRC or content checks) to list the metadata chunks.
    static func chunkList(_ data: [UInt8]) -> [MetadataSegment] {
        var segments: [MetadataSegment] = []
        let reader = ByteReader(data)
        var position = 8
        while let length = reader.u32(position).map(Int.init), let type = reader.fourCC(position + 4) {
            if !["IHDR", "IDAT", "IEND", "PLTE"].contains(type) {
                segments.append(MetadataSegment(name: type, offset: position, length: length))
            }
            if type == "IEND" { break }
            position += 12 + length
        }
        return segments
    }

    /// A libpng reader over a buffer, owning the C decoder.
    final class Reader {
        let dec: OpaquePointer
        let png: png_structp
        let info: png_infop
        let report: LibraryReport

        convenience init(_ buffer: UnsafeBufferPointer<UInt8>, report: LibraryReport) throws(CodecError) {
            try self.init(byteCount: buffer.count, report: report) {
                buffer.baseAddress.flatMap { ccs_png_dec_create($0, buffer.count, report.pointer) }
            }
        }

        /// A reader of bytes `0 ..< byteCount` of the open file `fileDescriptor`, read 64 KiB at a
        /// time as libpng asks (the descriptor must outlive the reader).
        convenience init(fileDescriptor: Int32, byteCount: Int, report: LibraryReport) throws(CodecError) {
            try self.init(byteCount: byteCount, report: report) { ccs_png_dec_create_fd(fileDescriptor, byteCount, report.pointer) }
        }

        /// The reader over `byteCount` bytes whose C decoder `create` makes (nil: it could not).
        private init(byteCount: Int, report: LibraryReport, create: () -> OpaquePointer?) throws(CodecError) {
            self.report = report
            guard byteCount >= 8 else {
                throw CodecError(.truncated, "file is only \(byteCount) bytes: too short for a PNG signature", format: .png)
            }
            guard let dec = create(), let png = ccs_png_dec_png(dec), let info = ccs_png_dec_info(dec) else {
                throw CodecError(.corrupt, "cannot create the libpng decoder", format: .png, libraryMessage: report.error)
            }
            self.dec = dec
            self.png = png
            self.info = info
        }

        deinit { ccs_png_dec_destroy(dec) }

        func readInfo() throws(CodecError) {
            guard ccs_png_dec_read_info(dec) == 0 else { throw failure(stage: "signature and header chunks") }
        }

        /// A CodecError from libpng's message, classified.
        func failure(stage: String) -> CodecError {
            let message = report.error
            let lower = message.lowercased()
            let kind: CodecError.Kind
            let text: String
            if lower.contains("truncated") || lower.contains("end of data") {
                kind = .truncated
                text = "the PNG data ends before the image is complete (truncated file): \(message)"
            } else if lower.contains("not a png") || lower.contains("ascii conversion") {
                kind = .unrecognizedFormat
                text = "bad PNG signature: \(message)"
            } else if message.hasPrefix("IEND"), !lower.contains("crc") {
                kind = .corrupt
                text = "no image data: IEND comes before any IDAT chunk (\(message))"
            } else {
                kind = .corrupt
                // libpng's fatal message is often generic ("Invalid IHDR data"); the warnings
                // just before it say what exactly was wrong ("Invalid color type in IHDR").
                let details = report.warnings.filter { $0 != message }
                text = "invalid PNG data: \(message)" + (details.isEmpty ? "" : " (\(details.joined(separator: "; ")))")
            }
            return CodecError(kind, text, format: .png, segment: stage, libraryMessage: message)
        }

        struct Header {
            var width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool
            var channels: Int
            var colorModel: String
        }

        func header() -> Header {
            let colorType = Int(png_get_color_type(png, info))
            let models = [0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"]
            return Header(
                width: Int(png_get_image_width(png, info)), height: Int(png_get_image_height(png, info)),
                bitDepth: Int(png_get_bit_depth(png, info)), colorType: colorType,
                interlaced: png_get_interlace_type(png, info) != PNG_INTERLACE_NONE,
                channels: Int(png_get_channels(png, info)), colorModel: models[colorType] ?? "unknown")
        }

        /// Metadata chunks libpng has read so far (iCCP, gAMA, sRGB, eXIf, text).
        func metadata(warnings: inout [String]) -> ImageMetadata {
            var metadata = ImageMetadata(format: .png)
            let h = header()
            metadata.pngColorType = h.colorType
            metadata.pngInterlaced = h.interlaced
            metadata.fileBitDepth = h.bitDepth

            var name: png_charp?
            var compression: Int32 = 0
            var profile: png_bytep?
            var profileLength: png_uint_32 = 0
            if png_get_iCCP(png, info, &name, &compression, &profile, &profileLength) != 0, let profile {
                metadata.iccProfile = Array(UnsafeBufferPointer(start: profile, count: Int(profileLength)))
            }
            var gamma: png_fixed_point = 0
            if png_get_gAMA_fixed(png, info, &gamma) != 0 { metadata.pngGamma = Double(gamma) / 100_000 }
            var intent: Int32 = 0
            if png_get_sRGB(png, info, &intent) != 0 { metadata.pngSRGBIntent = Int(intent) }

            var exif: png_bytep?
            var exifLength: png_uint_32 = 0
            if png_get_eXIf_1(png, info, &exifLength, &exif) != 0, let exif {
                var tiff = Array(UnsafeBufferPointer(start: exif, count: Int(exifLength)))
                if tiff.hasBytePrefix(EXIF.jpegPrefix) { tiff.removeFirst(EXIF.jpegPrefix.count) }
                EXIF.apply(tiff: tiff, to: &metadata, warnings: &warnings)
            }

            var texts: png_textp?
            var count: Int32 = 0
            if png_get_text(png, info, &texts, &count) > 0, let texts {
                for entry in UnsafeBufferPointer(start: texts, count: Int(count)) {
                    guard let keyPointer = entry.key else { continue }
                    let key = String(cString: keyPointer)
                    let value = entry.text.map { String(cString: $0) } ?? ""
                    if key == "XML:com.adobe.xmp" {
                        metadata.xmp = value
                    } else {
                        metadata.comments.append("\(key): \(value)")
                    }
                }
            }
            return metadata
        }
    }
}
