import CCodecShims
import CLibPNG

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streaming PNG decoder: the header and the metadata chunks before the image data are read at
/// init, then rows top-down in batches, so a render can start on the top rows while the bottom ones
/// decode (the engine decodes PNG inputs so, on a thread of their own). Samples are
/// `PNGCodec.decode`'s (expanded to 8 or 16 bits, 16-bit native-endian; RGBA with `outputRGBA`);
/// no orientation is applied. Interlaced files (Adam7 passes cover the whole image) and the
/// metadata of chunks after the image data are for `PNGCodec.decode`: see ``isInterlaced`` and
/// ``hasChunksAfterImageData``. One thread at a time.
public final class PNGRowDecoder {
    /// Width of the image.
    public let width: Int
    /// Height of the image.
    public let height: Int
    /// Channels per decoded pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
    public let channels: Int
    /// Bits per decoded sample: 8 or 16.
    public let bitDepth: Int
    /// Bytes of one decoded row.
    public let rowBytes: Int
    /// Adam7: rows come only after every pass (`readRows` refuses).
    public let isInterlaced: Bool
    /// Whether chunks other than IDAT and IEND follow the image data (text, eXIf, tIME): their
    /// metadata is not in ``metadata``.
    public let hasChunksAfterImageData: Bool
    /// Metadata of the chunks before the image data.
    public let metadata: ImageMetadata
    /// Warnings of the header and the chunks before the image data.
    public let warnings: [String]
    /// Rows read so far.
    public private(set) var nextRow = 0

    private let report: LibraryReport
    private let reader: PNGCodec.Reader
    private var failure: CodecError?

    /// Runs `body` with a decoder that reads `bytes` in place (no copy of the file; the decoder
    /// must not escape `body`).
    public static func reading<Result>(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions(),
                                       _ body: (PNGRowDecoder) throws -> Result) throws -> Result {
        try bytes.withUnsafeBufferPointer { buffer in
            let report = LibraryReport()
            let reader = try PNGCodec.Reader(buffer, report: report)
            return try body(PNGRowDecoder(reader, report: report, options: options) { offset in
                offset + 8 <= buffer.count ? Array(buffer[offset ..< offset + 8]) : nil
            })
        }
    }

    /// A decoder reading bytes `0 ..< byteCount` of the open file `fileDescriptor` as rows decode
    /// (64 KiB at a time), so the file is never held whole; the descriptor must outlive it.
    public convenience init(fileDescriptor: Int32, byteCount: Int, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let report = LibraryReport()
        let reader = try PNGCodec.Reader(fileDescriptor: fileDescriptor, byteCount: byteCount, report: report)
        try self.init(reader, report: report, options: options) { offset in
            guard offset + 8 <= byteCount else { return nil }
            var header = [UInt8](repeating: 0, count: 8)
            let got = header.withUnsafeMutableBytes { pread(fileDescriptor, $0.baseAddress, 8, off_t(offset)) }
            return got == 8 ? header : nil
        }
    }

    /// `chunkHeader(offset)`: the 8 bytes at `offset` of the file, nil past its end (for the walk
    /// over the chunk headers).
    private init(_ reader: PNGCodec.Reader, report: LibraryReport, options: DecodeOptions,
                 chunkHeader: (Int) -> [UInt8]?) throws(CodecError) {
        try reader.readInfo()
        let header = reader.header()
        try options.checkSize(width: header.width, height: header.height, format: .png)
        var passes: Int32 = 1
        guard ccs_png_dec_prepare(reader.dec, 1.littleEndian == 1 ? 1 : 0, options.outputRGBA ? 1 : 0, &passes) == 0 else {
            throw reader.failure(stage: "transform setup")
        }
        channels = Int(png_get_channels(reader.png, reader.info))
        bitDepth = Int(png_get_bit_depth(reader.png, reader.info))
        rowBytes = Int(png_get_rowbytes(reader.png, reader.info))
        guard bitDepth == 8 || bitDepth == 16, rowBytes == header.width * channels * bitDepth / 8 else {
            throw CodecError(.corrupt, "unexpected libpng output layout (\(channels) channels, \(bitDepth) bits, \(rowBytes) bytes per row)", format: .png)
        }
        width = header.width
        height = header.height
        isInterlaced = header.interlaced
        hasChunksAfterImageData = Self.chunksFollowImageData(chunkHeader)
        var warnings: [String] = []
        metadata = reader.metadata(warnings: &warnings)
        self.warnings = report.warnings + warnings
        self.report = report
        self.reader = reader
    }

    /// Decodes the next `min(maxRows, height − nextRow)` rows into `into` (row i at
    /// `into + i * rowBytes`, `rowBytes >= self.rowBytes`) and returns how many: 0 once all rows
    /// were read. Reading the last row also reads the chunks after the image data up to IEND, so
    /// their errors are thrown here too.
    public func readRows(into destination: UnsafeMutableRawPointer, rowBytes stride: Int, maxRows: Int) throws(CodecError) -> Int {
        if let failure { throw failure }
        guard !isInterlaced else { throw CodecError(.invalidArgument, "readRows: an interlaced PNG decodes whole (PNGCodec.decode)", format: .png) }
        guard stride >= rowBytes, maxRows >= 0 else {
            throw CodecError(.invalidArgument, "readRows: rowBytes \(stride) < \(rowBytes) or maxRows \(maxRows) < 0", format: .png)
        }
        let count = min(maxRows, height - nextRow)
        guard count > 0 else { return 0 }
        guard ccs_png_dec_read_rows(reader.dec, destination.assumingMemoryBound(to: UInt8.self), stride, UInt32(count), 1) == 0 else {
            failure = reader.failure(stage: "image data (IDAT)")
            throw failure!
        }
        nextRow += count
        if nextRow == height, ccs_png_dec_read_end(reader.dec) != 0 {
            failure = reader.failure(stage: "chunks after the image data")
            throw failure!
        }
        return count
    }

    /// Whether a chunk other than IDAT or IEND comes after the first IDAT (chunk headers only,
    /// `chunkHeader(offset)` giving the 8 bytes at `offset`).
    private static func chunksFollowImageData(_ chunkHeader: (Int) -> [UInt8]?) -> Bool {
        var position = 8, seenImageData = false
        while let header = chunkHeader(position) {
            let length = header[0 ..< 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4 ..< 8], as: UTF8.self)
            if type == "IEND" { return false }
            if type == "IDAT" {
                seenImageData = true
            } else if seenImageData {
                return true
            }
            position += 12 + length
        }
        return false
    }
}
