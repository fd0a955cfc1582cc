import XCTest

@testable import GraphCodecs

/// Bad input: every failure is a CodecError whose message names the problem.
final class ErrorTests: XCTestCase {
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBE32(data.count)
        let body = Array(type.utf8) + data
        out += body
        out.appendBE32(Int(crc32(body)))
        return out
    }

    func testAbsurdPNGSizeIsRefusedBeforeAllocating() {
        var ihdr: [UInt8] = []
        ihdr.appendBE32(100_000)
        ihdr.appendBE32(100_000)
        ihdr += [8, 2, 0, 0, 0]  // 8-bit RGB: 30 GB of pixels if it were allocated
        let png = PNGCodec.signature + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
        let error = expectCodecError { () throws(CodecError) in try PNGCodec.decode(png) }
        XCTAssertEqual(error?.kind, .tooLarge)
        XCTAssertTrue(error?.message.contains("100000x100000") == true, error?.description ?? "")
        XCTAssertTrue(error?.message.contains("before allocating") == true)
        // A smaller limit applies the same way to ordinary files.
        let small = try? PNGCodec.encode(width: 20, height: 20, channels: 1, bitDepth: 8, bytes: [UInt8](repeating: 0, count: 400))
        let limited = expectCodecError { () throws(CodecError) in try PNGCodec.decode(small ?? [], options: DecodeOptions(maxPixelCount: 399)) }
        XCTAssertEqual(limited?.kind, .tooLarge)
        // Header-only info still works for the absurd file.
        XCTAssertEqual(try? PNGCodec.readInfo(png).width, 100_000)
    }

    func testAbsurdJPEGSizeIsRefused() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let data = try ImageFile.read(path: root + "/jpeg-decoder/crashtest/images/max_size.jpg")
        let info = try ImageFile.info(data)
        let error = expectCodecError { () throws(CodecError) in try JPEGCodec.decode(data) }
        if info.width * info.height > DecodeOptions.defaultMaxPixelCount {
            XCTAssertEqual(error?.kind, .tooLarge, error?.description ?? "")
        }
        let tiny = try JPEGCodec.encode(width: 64, height: 64, channels: 1, bytes: [UInt8](repeating: 9, count: 4096))
        let limited = expectCodecError { () throws(CodecError) in try JPEGCodec.decode(tiny, options: DecodeOptions(maxPixelCount: 4095)) }
        XCTAssertEqual(limited?.kind, .tooLarge)
        XCTAssertTrue(limited?.message.contains("64x64") == true)
    }

    func testTruncatedJPEGIsAnError() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let data = try ImageFile.read(path: root + "/libjpeg-turbo/testorig.jpg")
        XCTAssertNoThrow(try JPEGCodec.decode(data))
        for cut in [data.count / 2, data.count - 10] {
            let error = expectCodecError { () throws(CodecError) in try JPEGCodec.decode(Array(data[0..<cut])) }
            XCTAssertEqual(error?.kind, .truncated, error?.description ?? "")
            XCTAssertTrue(error?.description.contains("truncated") == true, error?.description ?? "")
        }
        // Cut inside the header.
        let header = expectCodecError { () throws(CodecError) in try JPEGCodec.decode(Array(data[0..<300])) }
        XCTAssertNotNil(header)
    }

    func testTruncatedPNGIsAnError() throws {
        let pixels = (0..<(64 * 64 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let png = try PNGCodec.encode(width: 64, height: 64, channels: 3, bitDepth: 8, bytes: pixels, compressionLevel: 0)
        for cut in [png.count / 2, png.count - 12, 40] {
            let error = expectCodecError { () throws(CodecError) in try PNGCodec.decode(Array(png[0..<cut])) }
            XCTAssertEqual(error?.kind, .truncated, "cut at \(cut): \(error?.description ?? "")")
            XCTAssertTrue(error?.description.contains("truncated") == true)
        }
    }

    func testGarbageBytes() {
        let garbage = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        let error = expectCodecError { () throws(CodecError) in try ImageFile.decode(garbage) }
        XCTAssertEqual(error?.kind, .unrecognizedFormat)
        XCTAssertTrue(error?.message.contains("not a PNG, JPEG or HEIF") == true)
        let empty = expectCodecError { () throws(CodecError) in try ImageFile.decode([]) }
        XCTAssertTrue(empty?.message.contains("empty") == true)
        // Garbage after a JPEG SOI marker: libjpeg's message comes back, nothing is printed.
        let fakeJPEG: [UInt8] = [0xFF, 0xD8, 0xFF] + garbage
        let jpegError = expectCodecError { () throws(CodecError) in try JPEGCodec.decode(fakeJPEG) }
        XCTAssertNotNil(jpegError?.libraryMessage)
        // Garbage after a PNG signature.
        let pngError = expectCodecError { () throws(CodecError) in try PNGCodec.decode(PNGCodec.signature + garbage) }
        XCTAssertEqual(pngError?.format, .png)
        XCTAssertNotNil(pngError?.libraryMessage)
    }

    func testErrorsNameTheFile() {
        let error = expectCodecError { () throws(CodecError) in try ImageFile.decode(path: "/nonexistent/dir/x.png") }
        XCTAssertEqual(error?.kind, .io)
        XCTAssertTrue(error?.description.hasPrefix("/nonexistent/dir/x.png: ") == true, error?.description ?? "")
        XCTAssertTrue(error?.description.contains("No such file") == true)
    }
}
