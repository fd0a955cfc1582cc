import CZlib
import Foundation
import XCTest

@testable import GraphCodecs

/// PNGRowDecoder gives PNGCodec.decode's samples row by row for every non-interlaced PngSuite file,
/// says when a file must decode whole (interlaced, chunks after the image data), and fails on
/// corrupt image data when it reaches it, for good.
final class PNGRowDecoderTests: XCTestCase {
    private func rows(_ bytes: [UInt8], options: DecodeOptions, batch: Int) throws -> (decoder: [Int], samples: [UInt8]) {
        try PNGRowDecoder.reading(bytes, options: options) { decoder in
            var samples = [UInt8](repeating: 0, count: decoder.rowBytes * decoder.height)
            try samples.withUnsafeMutableBytes { out in
                while try decoder.readRows(into: out.baseAddress! + decoder.nextRow * decoder.rowBytes, rowBytes: decoder.rowBytes,
                                           maxRows: batch) > 0 {}
            }
            return ([decoder.width, decoder.height, decoder.channels, decoder.bitDepth], samples)
        }
    }

    func testRowsAreTheWholeDecodersSamples() throws {
        let folder = try TestPaths.sharedTestData("pngsuite")
        var rowByRow = 0, interlaced = 0
        for name in TestPaths.listFiles(folder) where name.hasSuffix(".png") && !name.hasPrefix("x") {
            let bytes = try ImageFile.read(path: folder + "/" + name)
            for rgba in [false, true] {
                let options = DecodeOptions(applyOrientation: false, outputRGBA: rgba)
                let whole = try ImageFile.decode(bytes, options: options)
                let isInterlaced = try PNGRowDecoder.reading(bytes, options: options) { $0.isInterlaced }
                XCTAssertEqual(isInterlaced, whole.metadata.pngInterlaced, name)
                if isInterlaced {
                    interlaced += 1
                    continue
                }
                let (layout, samples) = try rows(bytes, options: options, batch: 7)
                XCTAssertEqual(layout, [whole.width, whole.height, whole.channels, whole.bitDepth], name)
                XCTAssertTrue(samples == whole.bytes, "\(name), RGBA \(rgba)")
                rowByRow += 1
            }
        }
        XCTAssertEqual(rowByRow + interlaced, 2 * 161)
        XCTAssertGreaterThan(rowByRow, 2 * 100)
    }

    /// A decoder reading the file through its descriptor (64 KiB at a time) gives the same layout,
    /// samples and metadata as one reading the bytes in memory, or the same error (header or
    /// image data), for every PngSuite file, the corrupt ones included, a bigger file, and all of
    /// them cut short.
    func testAFileReadsAsItsBytesDo() throws {
        let folder = try TestPaths.sharedTestData("pngsuite")
        let temporary = NSTemporaryDirectory() + "png-row-fd-\(getpid()).png"
        defer { unlink(temporary) }
        var compared = 0
        /// Layout and metadata, and the samples of the whole decode.
        func describe(_ decoder: PNGRowDecoder) throws -> (String, [UInt8]) {
            let layout = "\([decoder.width, decoder.height, decoder.channels, decoder.bitDepth]) \(decoder.isInterlaced) "
                + "\(decoder.hasChunksAfterImageData) \(decoder.metadata.comments) \(decoder.metadata.iccProfile ?? [])"
            if decoder.isInterlaced { return (layout, []) }
            var samples = [UInt8](repeating: 0, count: decoder.rowBytes * decoder.height)
            try samples.withUnsafeMutableBytes { out in
                while try decoder.readRows(into: out.baseAddress! + decoder.nextRow * decoder.rowBytes,
                                           rowBytes: decoder.rowBytes, maxRows: 5) > 0 {}
            }
            return (layout, samples)
        }
        /// The description, or the error.
        func outcome(_ body: () throws -> (String, [UInt8])) -> (String, [UInt8]) {
            do { return try body() } catch { return ("\(error)", []) }
        }
        let names = TestPaths.listFiles(folder).filter { $0.hasSuffix(".png") }.sorted()
        // PngSuite's files are small: one of 720 KB, read through many 64 KiB windows, too.
        let big = try PNGCodec.encode(width: 300, height: 400, channels: 3, bitDepth: 16,
                                      bytes: (0 ..< 300 * 400 * 6).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 313) },
                                      compressionLevel: 0)
        XCTAssertGreaterThan(big.count, 10 << 16)
        for name in names + ["generated"] {
            let whole = name == "generated" ? big : try ImageFile.read(path: folder + "/" + name)
            for bytes in [whole, Array(whole.prefix(whole.count * 3 / 4)), Array(whole.prefix(40))] {
                XCTAssertTrue(FileManager.default.createFile(atPath: temporary, contents: Data(bytes)))
                let file = try InputFile(path: temporary)
                let inMemory = outcome { try PNGRowDecoder.reading(bytes) { try describe($0) } }
                let fromFile = outcome {
                    try describe(PNGRowDecoder(fileDescriptor: file.descriptor, byteCount: file.byteCount))
                }
                XCTAssertEqual(fromFile.0, inMemory.0, "\(name), \(bytes.count) of \(whole.count) bytes")
                XCTAssertTrue(fromFile.1 == inMemory.1, "\(name), \(bytes.count) of \(whole.count) bytes")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 3 * (names.count + 1))
        XCTAssertGreaterThan(names.count, 170)
    }

    /// An interlaced file's rows come only from the whole decode.
    func testInterlacedFilesAreRefused() throws {
        let bytes = try ImageFile.read(path: try TestPaths.sharedTestData("pngsuite") + "/basi2c08.png")
        let error = try PNGRowDecoder.reading(bytes) { decoder in
            let row = UnsafeMutableRawPointer.allocate(byteCount: decoder.rowBytes, alignment: 16)
            defer { row.deallocate() }
            return expectCodecError { () throws(CodecError) in
                _ = try decoder.readRows(into: row, rowBytes: decoder.rowBytes, maxRows: 1)
            }
        }
        XCTAssertEqual(error?.kind, .invalidArgument)
    }

    /// A text chunk after the image data (its metadata is read by the whole decode only).
    func testChunksAfterTheImageDataAreSeen() throws {
        let plain = try PNGCodec.encode(width: 3, height: 2, channels: 1, bitDepth: 8, bytes: [1, 2, 3, 4, 5, 6])
        let text = Array("tEXt".utf8) + Array("Comment\0late".utf8)
        var chunk = withUnsafeBytes(of: UInt32(text.count - 4).bigEndian) { Array($0) } + text
        let crc = text.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        chunk += withUnsafeBytes(of: crc.bigEndian) { Array($0) }
        let late = Array(plain.dropLast(12)) + chunk + Array(plain.suffix(12))  // before IEND
        XCTAssertEqual(try PNGRowDecoder.reading(plain) { $0.hasChunksAfterImageData }, false)
        XCTAssertEqual(try PNGRowDecoder.reading(late) { $0.hasChunksAfterImageData }, true)
        XCTAssertEqual(try ImageFile.decode(late).metadata.comments, ["Comment: late"])
        XCTAssertEqual(try rows(late, options: DecodeOptions(), batch: 1).samples, [1, 2, 3, 4, 5, 6])
    }

    /// A bad CRC in the image data and a file cut inside it: the header reads, the rows fail with
    /// the whole decoder's error, and every later read fails the same way.
    func testCorruptImageDataFailsWhenReached() throws {
        let crc = try ImageFile.read(path: try TestPaths.sharedTestData("pngsuite") + "/xcsn0g01.png")
        let good = try ImageFile.read(path: try TestPaths.sharedTestData("pngsuite") + "/basn2c16.png")
        let cut = Array(good.prefix(good.count / 2))
        for (bytes, kind) in [(crc, CodecError.Kind.corrupt), (cut, .truncated)] {
            let whole = expectCodecError { () throws(CodecError) in try ImageFile.decode(bytes) }
            let errors = try PNGRowDecoder.reading(bytes) { decoder in
                let samples = UnsafeMutableRawPointer.allocate(byteCount: decoder.rowBytes * decoder.height, alignment: 16)
                defer { samples.deallocate() }
                return (0..<2).map { _ in
                    expectCodecError { () throws(CodecError) in
                        _ = try decoder.readRows(into: samples, rowBytes: decoder.rowBytes, maxRows: decoder.height)
                    }
                }
            }
            XCTAssertEqual(errors[0]?.kind, kind)
            XCTAssertEqual(errors[0]?.message, whole?.message)
            XCTAssertEqual(errors[1]?.message, errors[0]?.message)
        }
    }
}
