import CCodecShims
import CLibJPEG

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streaming JPEG encoder: the header and metadata markers are written at init, rows are
/// fed top-down in bands of any size (jpeg_write_scanlines), and `finish()` completes the
/// file. Two destinations:
/// - memory (default): a buffer that grows by realloc (no copy per growth; pass
///   `initialCapacity` when the size can be guessed); `finish()` returns the bytes.
///   `JPEGCodec.encode` is a loop over this.
/// - `fileDescriptor:`: the file is streamed to an open descriptor while rows come in
///   (256 KiB writes, early writeback every MiB on Linux) and `finish()` returns `[]`;
///   `outputByteCount` says how much was written. Used with
///   `ImageFile.writeAtomically(to:body:)`, which owns the temporary file, fsync and rename.
///
/// Same settings as `JPEGCodec.encode`: accurate integer DCT (JDCT_ISLOW), libjpeg quality
/// scaling, JFIF APP0 unless `exif` is given; grey+alpha (2) and RGBA (4) drop the alpha.
/// Errors come back as `CodecError`; after an error every later call rethrows it.
/// Not thread-safe: one thread at a time (it may be handed from one thread to another).
public final class JPEGRowEncoder {
    /// Width of the image being written.
    public let width: Int
    /// Height of the image being written.
    public let height: Int
    /// Input channels per pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
    public let channels: Int
    /// Rows written so far.
    public private(set) var nextRow = 0
    /// Size of the finished file (0 before `finish()`).
    public private(set) var outputByteCount = 0

    private let report = LibraryReport()
    private let handle: EncoderHandle
    private var failure: CodecError?
    private var finished = false
    /// Packed grey rows for grey+alpha input.
    private var scratch: [UInt8] = []

    /// An encoder writing to memory.
    public convenience init(
        width: Int, height: Int, channels: Int, quality: Int = 90, subsampling: JPEGSubsampling = .s420,
        progressive: Bool = false, optimizeHuffman: Bool = false, iccProfile: [UInt8]? = nil, xmp: String? = nil,
        extendedXMP: String? = nil, exif: [UInt8]? = nil, comment: String? = nil, initialCapacity: Int = 0
    ) throws(CodecError) {
        try self.init(
            width: width, height: height, channels: channels, quality: quality, subsampling: subsampling,
            progressive: progressive, optimizeHuffman: optimizeHuffman, iccProfile: iccProfile, xmp: xmp,
            extendedXMP: extendedXMP, exif: exif, comment: comment, destination: .memory(initialCapacity))
    }

    /// An encoder streaming the file to `fileDescriptor` (written at its current offset, never
    /// closed here; the caller keeps it open until `finish()` returned or the encoder is gone).
    public convenience init(
        width: Int, height: Int, channels: Int, quality: Int = 90, subsampling: JPEGSubsampling = .s420,
        progressive: Bool = false, optimizeHuffman: Bool = false, iccProfile: [UInt8]? = nil, xmp: String? = nil,
        extendedXMP: String? = nil, exif: [UInt8]? = nil, comment: String? = nil, fileDescriptor: Int32
    ) throws(CodecError) {
        try self.init(
            width: width, height: height, channels: channels, quality: quality, subsampling: subsampling,
            progressive: progressive, optimizeHuffman: optimizeHuffman, iccProfile: iccProfile, xmp: xmp,
            extendedXMP: extendedXMP, exif: exif, comment: comment, destination: .fileDescriptor(fileDescriptor))
    }

    enum Destination {
        case memory(Int)
        case fileDescriptor(Int32)
    }

    init(
        width: Int, height: Int, channels: Int, quality: Int, subsampling: JPEGSubsampling, progressive: Bool,
        optimizeHuffman: Bool, iccProfile: [UInt8]?, xmp: String?, extendedXMP: String?, exif: [UInt8]?,
        comment: String?, destination: Destination
    ) throws(CodecError) {
        guard (1...4).contains(channels) else {
            throw CodecError(.invalidArgument, "channels must be 1...4, got \(channels)", format: .jpeg)
        }
        guard width > 0, height > 0, width <= 65500, height <= 65500 else {
            throw CodecError(.invalidArgument, "invalid size \(width)x\(height) (JPEG allows 1...65500)", format: .jpeg)
        }
        guard (1...100).contains(quality) else {
            throw CodecError(.invalidArgument, "quality must be 1...100, got \(quality)", format: .jpeg)
        }
        self.width = width
        self.height = height
        self.channels = channels
        let (storage, markers) = try Self.markerPayloads(
            iccProfile: iccProfile, xmp: xmp, extendedXMP: extendedXMP, exif: exif, comment: comment)

        let inputChannels = channels == 2 ? 1 : channels
        let inSpace: J_COLOR_SPACE = inputChannels == 1 ? JCS_GRAYSCALE : inputChannels == 3 ? JCS_EXT_RGB : JCS_EXT_RGBX
        let factors = subsampling.lumaFactors
        let report = self.report
        let enc: OpaquePointer? = storage.withUnsafeBufferPointer { markerBytes in
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
                params.quality = Int32(quality)
                params.luma_h_samp = Int32(factors.h)
                params.luma_v_samp = Int32(factors.v)
                params.progressive = progressive ? 1 : 0
                params.optimize_coding = optimizeHuffman ? 1 : 0
                params.dct_method = Int32(JDCT_ISLOW.rawValue)
                params.write_jfif = exif == nil ? 1 : 0
                params.markers = UnsafePointer(markerList.baseAddress)
                params.marker_count = Int32(markerList.count)
                switch destination {
                case .memory(let capacity): return ccs_jpeg_enc_create(&params, max(0, capacity), report.pointer)
                case .fileDescriptor(let fd): return ccs_jpeg_enc_create_fd(&params, fd, report.pointer)
                }
            }
        }
        guard let enc else { throw Self.failure(report, ioErrno: 0) }
        handle = EncoderHandle(enc)
    }

    /// Compresses `count` rows (row i at `rows + i * rowBytes`, `rowBytes >= width * channels`).
    /// Writing more rows than `height` in total is an error.
    public func writeRows(_ rows: UnsafeRawPointer, rowBytes: Int, count: Int) throws(CodecError) {
        if let failure { throw failure }
        guard !finished else { throw CodecError(.invalidArgument, "writeRows after finish()", format: .jpeg) }
        guard rowBytes >= width * channels, count >= 0 else {
            throw CodecError(.invalidArgument, "writeRows: rowBytes \(rowBytes) < \(width * channels) or count \(count) < 0", format: .jpeg)
        }
        guard count <= height - nextRow else {
            throw CodecError(.invalidArgument, "writeRows: \(count) rows given but only \(height - nextRow) of \(height) left", format: .jpeg)
        }
        guard count > 0 else { return }
        let enc = handle.enc
        let source = rows.assumingMemoryBound(to: UInt8.self)
        var status: Int32 = 0
        if channels == 2 {
            // libjpeg has no grey+alpha input: pack the grey samples, 16 rows at a time.
            let width = self.width
            if scratch.count < width * 16 { scratch = [UInt8](repeating: 0, count: width * 16) }
            scratch.withUnsafeMutableBufferPointer { buffer in
                guard let grey = buffer.baseAddress else { status = -1; return }
                var done = 0
                while done < count && status == 0 {
                    let band = min(16, count - done)
                    for row in 0..<band {
                        let line = source + (done + row) * rowBytes
                        for x in 0..<width { grey[row * width + x] = line[x * 2] }
                    }
                    status = ccs_jpeg_enc_write_rows(enc, grey, width, UInt32(band))
                    done += band
                }
            }
        } else {
            status = ccs_jpeg_enc_write_rows(enc, source, rowBytes, UInt32(count))
        }
        nextRow = Int(ccs_jpeg_enc_next_row(enc))
        if status != 0 {
            failure = Self.failure(report, ioErrno: ccs_jpeg_enc_io_errno(enc))
            throw failure!
        }
    }

    /// Completes the file (all `height` rows must have been written) and returns its bytes.
    public func finish() throws(CodecError) -> [UInt8] {
        if let failure { throw failure }
        guard !finished else { throw CodecError(.invalidArgument, "finish() called twice", format: .jpeg) }
        guard nextRow == height else {
            throw CodecError(.invalidArgument, "finish() after \(nextRow) of \(height) rows", format: .jpeg)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard ccs_jpeg_enc_finish(handle.enc, &output, &size) == 0 else {
            failure = Self.failure(report, ioErrno: ccs_jpeg_enc_io_errno(handle.enc))
            throw failure!
        }
        finished = true
        outputByteCount = size
        guard let output else { return [] }  // file descriptor destination
        defer { ccs_free(output) }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            buffer.baseAddress?.initialize(from: output, count: size)
            initialized = size
        }
    }

    /// Library warnings so far (libjpeg rarely warns when compressing).
    public var warnings: [String] { report.warnings }

    private static func failure(_ report: LibraryReport, ioErrno: Int32) -> CodecError {
        if ioErrno != 0 {
            let message = String(cString: strerror(ioErrno))
            return CodecError(.io, "writing the JPEG file failed: \(message)", format: .jpeg, libraryMessage: message)
        }
        return CodecError(.corrupt, "libjpeg failed to encode: \(report.error)", format: .jpeg, libraryMessage: report.error)
    }

    /// APPn/COM payloads, concatenated so that one pinned buffer serves them all: EXIF
    /// (APP1, right after SOI), XMP (APP1), Extended XMP (APP1 chunks), ICC (APP2 chunks),
    /// comment (COM).
    static func markerPayloads(
        iccProfile: [UInt8]?, xmp: String?, extendedXMP: String?, exif: [UInt8]?, comment: String?
    ) throws(CodecError) -> (storage: [UInt8], markers: [(code: Int32, range: Range<Int>)]) {
        let maxICCChunk = JPEGCodec.maxICCChunk
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
        if let extendedXMP {
            for payload in try XMP.extendedPayloads(extendedXMP, mainPacket: xmp) { add(0xE1, payload) }
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
        return (storage, markers)
    }
}

/// Owns the C compressor (and its output buffer until handed over).
private final class EncoderHandle {
    let enc: OpaquePointer
    init(_ enc: OpaquePointer) { self.enc = enc }
    deinit { ccs_jpeg_enc_destroy(enc) }
}
