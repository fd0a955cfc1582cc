import CCodecShims
import CLibPNG

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streaming PNG encoder: the header and metadata chunks are written at init, rows are
/// compressed as they are fed top-down in bands of any size, and `finish()` completes the file,
/// so no whole image is ever held. Two destinations, as ``JPEGRowEncoder``'s: memory (`finish()`
/// returns the bytes) or an open file descriptor (streamed through a 256 KiB buffer; `finish()`
/// returns `[]` and ``outputByteCount`` says how much was written).
///
/// Settings and checks are `PNGCodec.encode`'s (not interlaced: Adam7 needs the whole image);
/// the files are byte for byte the same. 16-bit samples are native-endian. Errors come back as
/// `CodecError`; after an error every later call rethrows it. One thread at a time.
public final class PNGRowEncoder {
    /// Width of the image being written.
    public let width: Int
    /// Height of the image being written.
    public let height: Int
    /// Channels per pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
    public let channels: Int
    /// Bits per channel: 8 or 16.
    public let bitDepth: Int
    /// Rows written so far.
    public private(set) var nextRow = 0
    /// Size of the finished file (0 before `finish()`).
    public private(set) var outputByteCount = 0

    private let report = LibraryReport()
    private let encoder: OpaquePointer
    private var failure: CodecError?
    private var finished = false

    /// An encoder writing to memory (`fileDescriptor == nil`) or streaming to `fileDescriptor`
    /// at its current offset (kept open; the caller closes it after `finish()`).
    public init(
        width: Int, height: Int, channels: Int, bitDepth: Int, iccProfile: [UInt8]? = nil,
        iccProfileName: String = "ICC profile", exif: [UInt8]? = nil, xmp: String? = nil, compressionLevel: Int = 6,
        fileDescriptor: Int32? = nil
    ) throws(CodecError) {
        try PNGCodec.checkSettings(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                   compressionLevel: compressionLevel, iccProfile: iccProfile, xmp: xmp)
        let tiff = try PNGCodec.checkedEXIF(exif)
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        let report = self.report
        let created = PNGCodec.withParameters(
            width: width, height: height, channels: channels, bitDepth: bitDepth, iccProfile: iccProfile,
            iccProfileName: iccProfileName, exif: tiff, xmp: xmp, compressionLevel: compressionLevel, interlaced: false
        ) { params in ccs_png_enc_create(&params, fileDescriptor ?? -1, report.pointer) }
        guard let created else { throw Self.failure(report, ioErrno: 0) }
        encoder = created
    }

    deinit { ccs_png_enc_destroy(encoder) }

    /// Bytes of one row (`width × channels × bitDepth / 8`).
    public var rowBytes: Int { width * channels * bitDepth / 8 }

    /// Compresses `count` rows (row i at `rows + i * rowBytes`, `rowBytes >= self.rowBytes`).
    public func writeRows(_ rows: UnsafeRawPointer, rowBytes stride: Int, count: Int) throws(CodecError) {
        if let failure { throw failure }
        guard !finished else { throw CodecError(.invalidArgument, "writeRows after finish()", format: .png) }
        guard stride >= rowBytes, count >= 0, count <= height - nextRow else {
            throw CodecError(.invalidArgument, "writeRows: \(count) rows of \(stride) bytes given, \(height - nextRow) rows of \(rowBytes) bytes left", format: .png)
        }
        guard count > 0 else { return }
        let status = ccs_png_enc_write_rows(encoder, rows.assumingMemoryBound(to: UInt8.self), stride, UInt32(count))
        guard status == 0 else {
            failure = Self.failure(report, ioErrno: ccs_png_enc_io_errno(encoder))
            throw failure!
        }
        nextRow += count
    }

    /// Completes the file (all `height` rows written): its bytes (memory) or `[]` (descriptor).
    public func finish() throws(CodecError) -> [UInt8] {
        if let failure { throw failure }
        guard !finished, nextRow == height else {
            throw CodecError(.invalidArgument, "finish() after \(nextRow) of \(height) rows", format: .png)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard ccs_png_enc_finish(encoder, &output, &size) == 0 else {
            failure = Self.failure(report, ioErrno: ccs_png_enc_io_errno(encoder))
            throw failure!
        }
        finished = true
        outputByteCount = size
        guard let output else { return [] }
        defer { ccs_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private static func failure(_ report: LibraryReport, ioErrno: Int32) -> CodecError {
        if ioErrno != 0 {
            let message = String(cString: strerror(ioErrno))
            return CodecError(.io, "writing the PNG file failed: \(message)", format: .png, libraryMessage: message)
        }
        return CodecError(.corrupt, "libpng failed to encode: \(report.error)", format: .png, libraryMessage: report.error)
    }
}
