import CCodecShims
import CLibJPEG

/// Streaming JPEG decoder: reads the header at init, then hands out rows top-down in bands
/// of any size (libjpeg's jpeg_read_scanlines), so a consumer can work on row bands while
/// the rest of the file is still being decoded.
///
/// - Same checks, limits and output as `JPEGCodec.decode` (which is a loop over this class):
///   grey (1), RGB (3) or, with `DecodeOptions.outputRGBA`, RGBA (4); CMYK/YCCK converted to
///   RGB(A) row by row; scaled DCT decoding (`jpegScaleDenominator`); 12-bit and lossless
///   refused; the `maxPixelCount` limit checked from the header; truncated data is an error
///   (thrown by the `readRows` call that meets the end of the data; for progressive files,
///   whose scans libjpeg reads entirely before the first row, that is the first call).
/// - Orientation: rows come in file order. `DecodeOptions.applyOrientation` is ignored here
///   (rotating needs the whole image); the EXIF orientation is reported in
///   `metadata.exifOrientation` (with `orientationApplied == false`) for the caller to apply.
/// - Errors come back as `CodecError` (libjpeg's longjmp is caught in the C shim on every
///   call). After an error the decoder is dead: every later call rethrows the same error.
/// - Not thread-safe: one thread at a time (it may be handed from one thread to another).
public final class JPEGRowDecoder {
    /// Output width, after scaling.
    public let width: Int
    /// Output height, after scaling.
    public let height: Int
    /// Channels per output pixel (1, 3 or 4).
    public let channels: Int
    /// Metadata from the header (ICC, EXIF, XMP, orientation, sampling...).
    public let metadata: ImageMetadata
    /// The next row `readRows` will deliver (0-based); `height` when all rows were read.
    public private(set) var nextRow = 0

    /// Tightly packed bytes per row (width × channels).
    public var rowBytes: Int { width * channels }
    /// True once every row was read and libjpeg finished the file without error.
    public var isFinished: Bool { nextRow == height && failure == nil }
    /// Library warnings so far plus metadata warnings, in order; never printed.
    public var warnings: [String] { report.warnings + headerWarnings }

    private let report = LibraryReport()
    private let handle: DecoderHandle
    /// The bytes libjpeg reads, when they are in memory (nil: read from a file descriptor).
    private let source: SourceBytes?
    private let headerWarnings: [String]
    /// CMYK/YCCK input: Adobe-inverted or not; rows are decoded into `scratch` and converted.
    private let cmykInverted: Bool?
    private let rgba: Bool
    private var scratch: [UInt8] = []
    private var failure: CodecError?

    /// Reads the header of a JPEG held in memory (the bytes are copied: the decoder owns them).
    public convenience init(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(bytes, unownedBuffer: nil, options: options)
    }

    /// Runs `body` with a decoder that reads `bytes` in place (no copy of the file; the decoder
    /// must not escape `body`). For big files decoded on a thread of their own.
    public static func reading<Result>(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions(),
                                       _ body: (JPEGRowDecoder) throws -> Result) throws -> Result {
        try bytes.withUnsafeBufferPointer { buffer in
            try body(JPEGRowDecoder(bytes, unownedBuffer: buffer, options: options))
        }
    }

    /// `unownedBuffer`, when given, must be `bytes`' own storage and outlive the decoder
    /// (used by `JPEGCodec.decode` and `JPEGTranscoder` to avoid copying the file).
    convenience init(_ bytes: [UInt8], unownedBuffer: UnsafeBufferPointer<UInt8>?, options: DecodeOptions) throws(CodecError) {
        let source = unownedBuffer.map { SourceBytes(unowned: $0) } ?? SourceBytes(copying: bytes)
        try self.init(header: bytes, source: source, options: options) { report in
            guard let base = source.buffer.baseAddress else { return nil }
            return ccs_jpeg_dec_create(base, source.buffer.count, report.pointer, Int32(clamping: options.maxJPEGScans))
        }
    }

    /// Reads the header of the JPEG in bytes `0 ..< byteCount` of the open file `fileDescriptor`,
    /// whose first bytes, through the SOS segment at least, are `header` (for the marker walk). The
    /// scan data is read from the file as rows decode (64 KiB at a time), never held whole; the
    /// caller keeps the descriptor open for the decoder's life. A file that has shrunk meanwhile
    /// reads as truncated.
    public convenience init(fileDescriptor: Int32, byteCount: Int, header: [UInt8],
                            options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(header: header, source: nil, options: options) { report in
            ccs_jpeg_dec_create_fd(fileDescriptor, Int64(byteCount), report.pointer, Int32(clamping: options.maxJPEGScans))
        }
    }

    private init(header bytes: [UInt8], source: SourceBytes?, options: DecodeOptions,
                 create: (LibraryReport) -> OpaquePointer?) throws(CodecError) {
        guard !bytes.isEmpty else { throw CodecError(.truncated, "empty file (0 bytes)", format: .jpeg) }
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw CodecError(.unrecognizedFormat, "not a JPEG file: no SOI marker (FF D8) at the start", format: .jpeg)
        }
        guard [1, 2, 4, 8].contains(options.jpegScaleDenominator) else {
            throw CodecError(.invalidArgument, "jpegScaleDenominator must be 1, 2, 4 or 8, got \(options.jpegScaleDenominator)", format: .jpeg)
        }
        let scan = JPEGMarkers.scanHeader(bytes)
        if let frame = scan.frame { try JPEGCodec.checkSupported(frame) }

        self.source = source
        guard let dec = create(report) else { throw JPEGCodec.failure(report, stage: "decoder setup") }
        handle = DecoderHandle(dec)
        guard let cinfo = ccs_jpeg_dec_cinfo(dec) else { throw JPEGCodec.failure(report, stage: "decoder setup") }
        guard ccs_jpeg_dec_read_header(dec) == 0 else { throw JPEGCodec.failure(report, stage: "header") }

        try options.checkSize(width: Int(cinfo.pointee.image_width), height: Int(cinfo.pointee.image_height), format: .jpeg)

        var warnings: [String] = []
        var metadata = JPEGCodec.headerMetadata(cinfo)
        JPEGMarkers.apply(segments: JPEGCodec.savedMarkers(cinfo, scanned: scan.segments), to: &metadata, warnings: &warnings)
        self.metadata = metadata
        headerWarnings = warnings

        rgba = options.outputRGBA
        let space = cinfo.pointee.jpeg_color_space
        let outSpace: J_COLOR_SPACE
        switch space {
        case JCS_GRAYSCALE: outSpace = rgba ? JCS_EXT_RGBA : JCS_GRAYSCALE
        case JCS_YCbCr, JCS_RGB: outSpace = rgba ? JCS_EXT_RGBA : JCS_EXT_RGB
        case JCS_CMYK, JCS_YCCK: outSpace = JCS_CMYK
        default:
            throw CodecError(
                .unsupported, "JPEG with \(cinfo.pointee.num_components) components in an unknown colour space",
                format: .jpeg, segment: "SOF")
        }
        cmykInverted = space == JCS_CMYK || space == JCS_YCCK ? cinfo.pointee.saw_Adobe_marker != 0 : nil
        cinfo.pointee.out_color_space = outSpace
        cinfo.pointee.scale_num = 1
        guard [1, 2, 4, 8].contains(options.jpegScaleDenominator) else {
            throw CodecError(.invalidArgument, "jpegScaleDenominator must be 1, 2, 4 or 8, got \(options.jpegScaleDenominator)", format: .jpeg)
        }
        cinfo.pointee.scale_denom = UInt32(options.jpegScaleDenominator)
        cinfo.pointee.dct_method = JDCT_ISLOW
        guard ccs_jpeg_dec_calc_output(dec) == 0 else { throw JPEGCodec.failure(report, stage: "output setup") }
        guard ccs_jpeg_dec_start(dec) == 0 else { throw JPEGCodec.failure(report, stage: "start of decompression") }
        width = Int(cinfo.pointee.output_width)
        height = Int(cinfo.pointee.output_height)
        channels = cmykInverted == nil ? Int(cinfo.pointee.output_components) : (rgba ? 4 : 3)
    }

    /// Decodes the next `min(maxRows, height − nextRow)` rows into `into` (row i at
    /// `into + i * rowBytes`, `rowBytes >= width * channels`) and returns how many were
    /// stored: 0 once all rows were read. Reading the last row also finishes the file
    /// (jpeg_finish_decompress), so errors after the last scanline are thrown here too.
    public func readRows(into destination: UnsafeMutableRawPointer, rowBytes: Int, maxRows: Int) throws(CodecError) -> Int {
        if let failure { throw failure }
        guard rowBytes >= self.rowBytes, maxRows >= 0 else {
            throw CodecError(.invalidArgument, "readRows: rowBytes \(rowBytes) < \(self.rowBytes) or maxRows \(maxRows) < 0", format: .jpeg)
        }
        let wanted = min(maxRows, height - nextRow)
        guard wanted > 0 else { return 0 }
        let dec = handle.dec
        let out = destination.assumingMemoryBound(to: UInt8.self)
        var got = 0
        var status: Int32 = 0
        if let inverted = cmykInverted {
            // Decode CMYK into scratch, up to 16 rows at a time, and convert into place.
            let band = min(wanted, 16)
            let cmykRow = width * 4
            if scratch.count < band * cmykRow { scratch = [UInt8](repeating: 0, count: band * cmykRow) }
            let (width, rgba) = (self.width, self.rgba)
            scratch.withUnsafeMutableBufferPointer { buffer in
                guard let temp = buffer.baseAddress else { status = -1; return }
                while got < wanted && status == 0 {
                    var count: UInt32 = 0
                    status = ccs_jpeg_dec_read_rows(dec, temp, cmykRow, UInt32(min(band, wanted - got)), &count)
                    for row in 0..<Int(count) {
                        JPEGCodec.convertCMYK(
                            temp + row * cmykRow, to: out + (got + row) * rowBytes, pixels: width, inverted: inverted, rgba: rgba)
                    }
                    got += Int(count)
                }
            }
        } else {
            var count: UInt32 = 0
            status = ccs_jpeg_dec_read_rows(dec, out, rowBytes, UInt32(wanted), &count)
            got = Int(count)
        }
        nextRow += got
        if status != 0 { return try fail(JPEGCodec.failure(report, stage: "scan data")) }
        if nextRow == height, ccs_jpeg_dec_finish(dec) != 0 {
            return try fail(JPEGCodec.failure(report, stage: "scan data"))
        }
        if report.prematureEnd {
            return try fail(
                CodecError(
                    .truncated, "the JPEG data ends before the image is complete (truncated file)",
                    format: .jpeg, segment: "scan data", libraryMessage: "Premature end of JPEG file"))
        }
        return got
    }

    private func fail(_ error: CodecError) throws(CodecError) -> Int {
        failure = error
        throw error
    }
}

/// Owns the C decompressor.
private final class DecoderHandle {
    let dec: OpaquePointer
    init(_ dec: OpaquePointer) { self.dec = dec }
    deinit { ccs_jpeg_dec_destroy(dec) }
}

/// The compressed bytes libjpeg reads from: a private copy, or a caller-kept buffer.
private final class SourceBytes {
    let buffer: UnsafeBufferPointer<UInt8>
    private let owned: Bool

    init(copying bytes: [UInt8]) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = copy.initialize(from: bytes)
        buffer = UnsafeBufferPointer(copy)
        owned = true
    }

    init(unowned buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        owned = false
    }

    deinit { if owned { buffer.deallocate() } }
}
