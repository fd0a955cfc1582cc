import CCodecShims
import CLibPNG

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streaming PNG encoder: the header and metadata chunks are written at init, rows are filtered
/// and compressed as they are fed top-down in bands of any size, and `finish()` completes the file,
/// so no whole image is ever held. Two destinations, as ``JPEGRowEncoder``'s: memory (`finish()`
/// returns the bytes) or an open file descriptor (streamed through a 256 KiB buffer; `finish()`
/// returns `[]` and ``outputByteCount`` says how much was written).
///
/// Compression runs on `threads` threads (`PNGBandCompressor`): each row gets libpng's adaptive
/// filter (so the filtered data is the bytes libpng would compress), and bands of rows are
/// deflated in parallel into one zlib stream. The stream differs from libpng's single one only at
/// the band cuts (+0.002% on the 24 MP T8 photo); the file is the same for any `threads` and any
/// way the rows are fed. Settings and checks are `PNGCodec.encode`'s (not interlaced: Adam7
/// needs the whole image), and so are the chunks before and after the image data. 16-bit samples
/// are native-endian. Errors come back as `CodecError`; after an error every later call rethrows
/// it. One thread at a time calls it.
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
    private let filter: OpaquePointer
    private let compressor: PNGBandCompressor
    private var failure: CodecError?
    private var finished = false

    /// An encoder writing to memory (`fileDescriptor == nil`) or streaming to `fileDescriptor`
    /// at its current offset (kept open; the caller closes it after `finish()`), compressing on
    /// `threads` threads.
    public convenience init(
        width: Int, height: Int, channels: Int, bitDepth: Int, iccProfile: [UInt8]? = nil,
        iccProfileName: String = "ICC profile", exif: [UInt8]? = nil, xmp: String? = nil, compressionLevel: Int = 6,
        threads: Int = 1, fileDescriptor: Int32? = nil
    ) throws(CodecError) {
        try self.init(width: width, height: height, channels: channels, bitDepth: bitDepth, iccProfile: iccProfile,
                      iccProfileName: iccProfileName, exif: exif, xmp: xmp, compressionLevel: compressionLevel,
                      threads: threads, bandBytes: PNGBandCompressor.defaultBandBytes, fileDescriptor: fileDescriptor)
    }

    /// The same with bands of `bandBytes` of filtered rows or more (``PNGBandCompressor``).
    init(
        width: Int, height: Int, channels: Int, bitDepth: Int, iccProfile: [UInt8]?, iccProfileName: String,
        exif: [UInt8]?, xmp: String?, compressionLevel: Int, threads: Int, bandBytes: Int, fileDescriptor: Int32?
    ) throws(CodecError) {
        try PNGCodec.checkSettings(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                   compressionLevel: compressionLevel, iccProfile: iccProfile, xmp: xmp)
        let tiff = try PNGCodec.checkedEXIF(exif)
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        let rowBytes = width * channels * bitDepth / 8
        guard let filter = ccs_png_filter_create(rowBytes, UInt32(channels * bitDepth / 8), bitDepth == 16 && 1.littleEndian == 1 ? 1 : 0) else {
            throw CodecError(.tooLarge, "out of memory for a \(width)-pixel PNG row", format: .png)
        }
        self.filter = filter
        let report = self.report
        let created = PNGCodec.withParameters(
            width: width, height: height, channels: channels, bitDepth: bitDepth, iccProfile: iccProfile,
            iccProfileName: iccProfileName, exif: tiff, xmp: xmp, compressionLevel: compressionLevel, interlaced: false
        ) { params in ccs_png_enc_create(&params, fileDescriptor ?? -1, report.pointer) }
        guard let created else {
            ccs_png_filter_destroy(filter)
            throw Self.failure(report, ioErrno: 0)
        }
        encoder = created
        do {
            compressor = try PNGBandCompressor(rowBytes: rowBytes + 1, totalRows: height, level: compressionLevel,
                                               threads: threads, bandBytes: bandBytes) { [encoder = created, report] data throws(CodecError) in
                guard ccs_png_enc_write_idat(encoder, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count) == 0 else {
                    throw Self.failure(report, ioErrno: ccs_png_enc_io_errno(encoder))
                }
            }
        } catch {
            ccs_png_enc_destroy(created)
            ccs_png_filter_destroy(filter)
            throw error
        }
    }

    deinit {
        ccs_png_filter_destroy(filter)
        ccs_png_enc_destroy(encoder)
    }

    /// Bytes of one row (`width × channels × bitDepth / 8`).
    public var rowBytes: Int { width * channels * bitDepth / 8 }

    /// Memory an encoder of rows of `rowBytes` holds on `threads` threads, besides the rows it is given.
    public static func workingBytes(rowBytes: Int, threads: Int) -> Int {
        PNGBandCompressor.workingBytes(rowBytes: rowBytes + 1, threads: max(1, threads)) + 2 * rowBytes
    }

    /// Filters and compresses `count` rows (row i at `rows + i * rowBytes`, `rowBytes >= self.rowBytes`).
    public func writeRows(_ rows: UnsafeRawPointer, rowBytes stride: Int, count: Int) throws(CodecError) {
        if let failure { throw failure }
        guard !finished else { throw CodecError(.invalidArgument, "writeRows after finish()", format: .png) }
        guard stride >= rowBytes, count >= 0, count <= height - nextRow else {
            throw CodecError(.invalidArgument, "writeRows: \(count) rows of \(stride) bytes given, \(height - nextRow) rows of \(rowBytes) bytes left", format: .png)
        }
        do {
            var done = 0
            while done < count {
                let batch = min(count - done, compressor.rowsFree)
                let space = try compressor.fillSpace()
                ccs_png_filter_rows(filter, rows.assumingMemoryBound(to: UInt8.self) + done * stride, stride, UInt32(batch), space)
                try compressor.commit(rows: batch)
                done += batch
                nextRow += batch
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Completes the file (all `height` rows written): its bytes (memory) or `[]` (descriptor).
    public func finish() throws(CodecError) -> [UInt8] {
        if let failure { throw failure }
        guard !finished, nextRow == height else {
            throw CodecError(.invalidArgument, "finish() after \(nextRow) of \(height) rows", format: .png)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        do {
            try compressor.finish()
        } catch {
            failure = error
            throw error
        }
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
