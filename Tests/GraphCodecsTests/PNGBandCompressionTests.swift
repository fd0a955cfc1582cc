import CLibDeflate
import CZlib
import XCTest

@testable import GraphCodecs

/// PNGRowEncoder compresses bands of rows in parallel into one zlib stream: the stream inflates
/// (zlib's own inflate, which checks the Adler-32) to exactly the filtered rows libpng writes for
/// the same image, the chunks around it are libpng's, and the file is the same for any thread
/// count and any way the rows are fed.
final class PNGBandCompressionTests: XCTestCase {
    /// Rows of different kinds so every filter wins somewhere: a horizontal ramp (Sub), the row
    /// above plus a little (Up), noise (None), a smooth 2-D surface (Average, Paeth).
    private func samples(width: Int, height: Int, channels: Int, bitDepth: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func random() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let one = bitDepth == 16 ? 65535 : 255
        var values = [Int](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels {
                    let i = (y * width + x) * channels + c
                    switch y % 4 {
                    case 0: values[i] = (x * 7 + c * 40 + y) * one / 255
                    case 1: values[i] = values[i - width * channels] + random() % (one / 64 + 1)
                    case 2: values[i] = random()
                    default: values[i] = (x * x + y * 3 * (c + 1)) * one / 700
                    }
                }
            }
        }
        var bytes: [UInt8] = []
        for value in values {
            let sample = value % (one + 1)
            if bitDepth == 16 { withUnsafeBytes(of: UInt16(sample)) { bytes += $0 } } else { bytes.append(UInt8(sample)) }
        }
        return bytes
    }

    /// Encodes with PNGRowEncoder, rows fed in `feed` batch sizes (repeated; the rest at the end).
    private func encode(_ bytes: [UInt8], width: Int, height: Int, channels: Int, bitDepth: Int, threads: Int,
                        bandBytes: Int = PNGBandCompressor.defaultBandBytes, feed: [Int] = [5, 1, 9, 0, 8],
                        level: Int = 6) throws -> [UInt8] {
        let encoder = try PNGRowEncoder(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                        iccProfile: channels >= 3 ? ICCProfile.sRGBBytes : nil, iccProfileName: "ICC profile",
                                        exif: EXIF.makeOrientationTIFF(1), xmp: #"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#,
                                        compressionLevel: level, threads: threads, bandBytes: bandBytes, fileDescriptor: nil)
        let rowBytes = encoder.rowBytes
        var row = 0, step = 0
        while row < height {
            let count = min(feed[step % feed.count], height - row)
            try bytes.withUnsafeBytes { try encoder.writeRows($0.baseAddress! + row * rowBytes, rowBytes: rowBytes, count: count) }
            row += count
            step += 1
        }
        return try encoder.finish()
    }

    /// The chunks of a PNG file, in order: type and data.
    private func chunks(_ file: [UInt8]) -> [(type: String, data: [UInt8])] {
        var result: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= file.count {
            let length = file[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: file[offset + 4..<offset + 8], as: UTF8.self)
            result.append((type, Array(file[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
        return result
    }

    /// The image data's zlib stream: the IDAT chunks' data joined.
    private func imageData(_ file: [UInt8]) -> [UInt8] {
        chunks(file).filter { $0.type == "IDAT" }.flatMap(\.data)
    }

    /// zlib's inflate of a whole zlib stream: the bytes, and whether it ended exactly at the end
    /// of `stream` with a correct Adler-32 (inflate returns Z_DATA_ERROR on a wrong one).
    private func inflated(_ stream: [UInt8]) -> (bytes: [UInt8], complete: Bool) {
        var z = z_stream()
        guard inflateInit_(&z, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return ([], false) }
        defer { inflateEnd(&z) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = stream
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            z.next_in = source.baseAddress
            z.avail_in = UInt32(source.count)
            while status == Z_OK {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                    z.next_out = out.baseAddress
                    z.avail_out = UInt32(out.count)
                    status = inflate(&z, Z_NO_FLUSH)
                    return out.count - Int(z.avail_out)
                }
                output += chunk[0..<produced]
                if status == Z_BUF_ERROR && produced > 0 { status = Z_OK }
            }
        }
        return (output, status == Z_STREAM_END && z.avail_in == 0)
    }

    /// Checks one encode against libpng's: same chunks besides IDAT, a complete zlib stream whose
    /// Adler-32 holds, inflating to libpng's filtered rows, and pixels decoding to the input.
    private func checkAgainstLibpng(width: Int, height: Int, channels: Int, bitDepth: Int, threads: Int,
                                    bandBytes: Int = PNGBandCompressor.defaultBandBytes,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let what = "\(width)x\(height), \(channels) channels, \(bitDepth) bits, \(threads) threads"
        let bytes = samples(width: width, height: height, channels: channels, bitDepth: bitDepth, seed: UInt64(width * height))
        let ours = try encode(bytes, width: width, height: height, channels: channels, bitDepth: bitDepth,
                              threads: threads, bandBytes: bandBytes)
        let libpng = try PNGCodec.encode(width: width, height: height, channels: channels, bitDepth: bitDepth, bytes: bytes,
                                         iccProfile: channels >= 3 ? ICCProfile.sRGBBytes : nil,
                                         exif: EXIF.makeOrientationTIFF(1), xmp: #"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#)
        let ourChunks = chunks(ours), libpngChunks = chunks(libpng)
        func withoutImageData(_ list: [(type: String, data: [UInt8])]) -> [String] {
            list.filter { $0.type != "IDAT" }.map { "\($0.type) \($0.data)" }
        }
        XCTAssertEqual(withoutImageData(ourChunks), withoutImageData(libpngChunks), what, file: file, line: line)
        XCTAssertEqual(ourChunks.map(\.type).drop { $0 != "IDAT" }.prefix { $0 == "IDAT" }.count,
                       ourChunks.filter { $0.type == "IDAT" }.count, "IDAT chunks are consecutive: \(what)", file: file, line: line)
        let (ourRows, complete) = inflated(imageData(ours))
        XCTAssertTrue(complete, "a complete zlib stream with its Adler-32: \(what)", file: file, line: line)
        let (libpngRows, _) = inflated(imageData(libpng))
        XCTAssertEqual(ourRows.count, height * (width * channels * bitDepth / 8 + 1), what, file: file, line: line)
        XCTAssertTrue(ourRows == libpngRows, "libpng's filter types and filtered rows: \(what)", file: file, line: line)
        let decoded = try ImageFile.decode(ours)
        XCTAssertTrue(decoded.bytes == bytes, "decoded by libpng: \(what)", file: file, line: line)
        XCTAssertEqual(decoded.warnings, [], what, file: file, line: line)
    }

    /// Every layout, in many bands of 32 KiB, a height that is not
    /// a multiple of the band (the last band short), and one that is.
    func testImageDataIsLibpngsFilteredRowsInOneValidStream() throws {
        for (channels, bitDepth) in [(1, 8), (1, 16), (2, 8), (3, 8), (3, 16), (4, 8), (4, 16)] {
            let width = 97
            let filteredRow = width * channels * bitDepth / 8 + 1
            let rowsPerBand = (32768 + filteredRow - 1) / filteredRow
            for height in [4 * rowsPerBand + 3, 3 * rowsPerBand] {
                try checkAgainstLibpng(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                       threads: 3, bandBytes: 32768)
            }
        }
    }

    /// Images of one band: smaller than a band, a single row, a single pixel, one 16-bit grey row.
    func testImagesOfOneBand() throws {
        try checkAgainstLibpng(width: 37, height: 23, channels: 3, bitDepth: 8, threads: 2)
        try checkAgainstLibpng(width: 300, height: 1, channels: 4, bitDepth: 16, threads: 4)
        try checkAgainstLibpng(width: 1, height: 1, channels: 1, bitDepth: 8, threads: 1)
        try checkAgainstLibpng(width: 5, height: 1, channels: 1, bitDepth: 16, threads: 1)
    }

    /// Two bands at the default size (512 KiB), the second of a few rows.
    func testTwoBandsAtTheDefaultSize() throws {
        try checkAgainstLibpng(width: 400, height: 460, channels: 3, bitDepth: 8, threads: 2)
    }

    /// The same bytes for 1 to 8 threads and any feeding (all rows at once, one at a time, odd batches).
    func testTheFileIsTheSameForAnyThreadCountAndFeeding() throws {
        let (width, height) = (150, 400)
        let bytes = samples(width: width, height: height, channels: 3, bitDepth: 8, seed: 3)
        let reference = try encode(bytes, width: width, height: height, channels: 3, bitDepth: 8, threads: 1,
                                   bandBytes: 32768, feed: [height])
        XCTAssertEqual(chunks(reference).filter { $0.type == "IDAT" }.count, 6, "180 KB of rows in bands of 32 KiB")
        for threads in [1, 2, 3, 8] {
            for feed in [[height], [1], [5, 1, 9, 0, 8], [219]] {
                let file = try encode(bytes, width: width, height: height, channels: 3, bitDepth: 8, threads: threads,
                                      bandBytes: 32768, feed: feed)
                XCTAssertTrue(file == reference, "\(threads) threads, rows fed \(feed)")
            }
        }
    }

    /// Every level, 0 (stored blocks only) to 9, joins its bands into one valid stream of the same
    /// rows: the walk that makes each band's final block non-final finds stored, fixed and dynamic
    /// blocks, and the final block's end at any bit offset (330 band ends).
    func testEveryLevelJoinsItsBands() throws {
        let (width, height) = (211, 420)
        let bytes = samples(width: width, height: height, channels: 3, bitDepth: 8, seed: 5)
        for level in 0...9 {
            let banded = try encode(bytes, width: width, height: height, channels: 3, bitDepth: 8, threads: 3,
                                    bandBytes: 8192, level: level)
            XCTAssertEqual(chunks(banded).filter { $0.type == "IDAT" }.count, 33, "level \(level)")
            let (rows, complete) = inflated(imageData(banded))
            XCTAssertTrue(complete, "level \(level)")
            XCTAssertEqual(rows.count, height * (width * 3 + 1), "level \(level)")
            XCTAssertTrue(try ImageFile.decode(banded).bytes == bytes, "level \(level)")
        }
    }

    /// One band is exactly libdeflate's zlib stream of libpng's filtered rows at the same level
    /// (header and Adler-32 included); split in bands, the stream costs each band's lost window.
    /// Rows that repeat every two rows show that cost at its worst: each 32 KiB band codes the
    /// 4.2 KB of noise afresh.
    func testOneBandIsLibdeflatesStream() throws {
        let (width, height) = (700, 300)
        var state: UInt64 = 9
        let noise = (0..<2 * width * 3).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let bytes = (0..<height / 2).flatMap { _ in noise }
        for level in [1, 6, 9] {
            let oneBand = try encode(bytes, width: width, height: height, channels: 3, bitDepth: 8, threads: 2,
                                     bandBytes: Int.max / 2, level: level)
            XCTAssertEqual(chunks(oneBand).filter { $0.type == "IDAT" }.count, 1)
            XCTAssertTrue(imageData(oneBand) == libdeflateZlib(inflated(imageData(oneBand)).bytes, level: level),
                          "level \(level)")
            let banded = try encode(bytes, width: width, height: height, channels: 3, bitDepth: 8, threads: 2,
                                    bandBytes: 32768, level: level)
            let bands = chunks(banded).filter { $0.type == "IDAT" }.count
            XCTAssertEqual(bands, 19, "16 rows of 2101 bytes a band")
            XCTAssertTrue(inflated(imageData(banded)).bytes == inflated(imageData(oneBand)).bytes)
            XCTAssertLessThan(imageData(banded).count, imageData(oneBand).count + bands * (noise.count + 64),
                              "level \(level): banded \(imageData(banded).count) bytes, one stream \(imageData(oneBand).count)")
        }
    }

    /// libdeflate's one-call zlib stream of `bytes` at `level`.
    private func libdeflateZlib(_ bytes: [UInt8], level: Int) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else { return [] }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, bytes.count))
        let size = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { out in
                libdeflate_zlib_compress(compressor, source.baseAddress, source.count, out.baseAddress, out.count)
            }
        }
        return Array(output[0..<size])
    }
}
