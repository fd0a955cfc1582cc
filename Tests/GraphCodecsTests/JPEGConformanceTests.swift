import XCTest

@testable import GraphCodecs

/// Every JPEG under shared/testdata/jpeg either decodes exactly like libjpeg-turbo's djpeg
/// (-dct int, PNM; checksums in Fixtures/jpeg_checksums.txt, made by
/// Fixtures/make_jpeg_checksums.py) or fails with a clear error, and only where djpeg failed
/// or warned. Nothing may crash or hang.
final class JPEGConformanceTests: XCTestCase {
    func testAllFilesMatchDjpegOrFailCleanly() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let lines = try TestPaths.readLines(TestPaths.fixtures + "/jpeg_checksums.txt")
        XCTAssertGreaterThan(lines.count, 150)
        var identical = 0, refused = 0
        for line in lines {
            let f = line.split(separator: " ").map(String.init)
            let (path, scale, status) = (f[0], Int(f[1]) ?? 1, f[2])
            let options = DecodeOptions(jpegScaleDenominator: scale, applyOrientation: false)
            do {
                let image = try JPEGCodec.decode(try ImageFile.read(path: root + "/" + path), options: options)
                XCTAssertNotEqual(status, "fail", "\(path) decoded but djpeg failed")
                let actual = ["\(image.width)", "\(image.height)", "\(image.channels)", canonicalFNV(image)]
                XCTAssertEqual(actual, Array(f[3...6]), "\(path) 1/\(scale) differs from djpeg")
                if actual == Array(f[3...6]) { identical += 1 }
            } catch {
                XCTAssertNotEqual(status, "ok", "\(path) 1/\(scale) failed but djpeg decodes it cleanly: \(error)")
                XCTAssertFalse(error.message.isEmpty)
                refused += 1
            }
        }
        XCTAssertEqual(identical + refused, lines.count)
        print("JPEG conformance: \(identical) identical to djpeg, \(refused) refused with an error, of \(lines.count)")
    }

    func testTwelveBitIsRefusedNamingThePrecision() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let error = expectCodecError { () throws(CodecError) in
            try ImageFile.decode(path: root + "/libjpeg-turbo/monkey12.jpg")
        }
        XCTAssertEqual(error?.kind, .unsupported)
        XCTAssertTrue(error?.message.contains("12-bit precision") == true, error?.description ?? "")
        // Header-only info still works and reports the precision.
        let info = try ImageFile.info(path: root + "/libjpeg-turbo/monkey12.jpg")
        XCTAssertEqual(info.bitDepth, 12)
        XCTAssertEqual(info.width, 149)
        XCTAssertEqual(info.height, 227)
    }

    func testKnownCorruptFileThrows() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let error = expectCodecError { () throws(CodecError) in
            try ImageFile.decode(path: root + "/jpeg-decoder/crashtest/images/derive-huffman-codes-overflow.jpg")
        }
        XCTAssertEqual(error?.kind, .corrupt)
        XCTAssertNotNil(error?.libraryMessage)
    }

    func testScaledDecodeSizes() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let data = try ImageFile.read(path: root + "/libjpeg-turbo/testorig.jpg")
        for (scale, size) in [(1, (227, 149)), (2, (114, 75)), (4, (57, 38)), (8, (29, 19))] {
            let image = try JPEGCodec.decode(data, options: DecodeOptions(jpegScaleDenominator: scale))
            XCTAssertEqual(image.width, size.0)
            XCTAssertEqual(image.height, size.1)
        }
        XCTAssertThrowsError(try JPEGCodec.decode(data, options: DecodeOptions(jpegScaleDenominator: 3)))
    }

    func testRGBAOutputMatchesRGB() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        for file in ["libjpeg-turbo/testorig.jpg", "jpeg-decoder/reftest/images/mozilla/jpg-gray.jpg", "jpeg-decoder/reftest/images/mozilla/jpg-cmyk-1.jpg"] {
            let data = try ImageFile.read(path: root + "/" + file)
            let plain = try JPEGCodec.decode(data)
            let rgba = try JPEGCodec.decode(data, options: DecodeOptions(outputRGBA: true))
            XCTAssertEqual(rgba.channels, 4)
            for i in stride(from: 0, to: plain.width * plain.height, by: 97) {
                for c in 0..<3 {
                    XCTAssertEqual(rgba.bytes[i * 4 + c], plain.bytes[i * plain.channels + min(c, plain.channels - 1)], file)
                }
                XCTAssertEqual(rgba.bytes[i * 4 + 3], 255)
            }
        }
    }

    func testICCChunkEdgeCases() throws {
        let root = try TestPaths.sharedTestData("jpeg") + "/jpeg-decoder/icc/"
        // These files carry synthetic 1-byte chunks whose content is the sequence number.
        let order = try ImageFile.info(path: root + "icc_chunk_order.jpeg")
        XCTAssertEqual(order.metadata.iccProfile, (1...254).map { UInt8($0) }, "out-of-order chunks are reassembled by sequence number")
        let missing = try ImageFile.info(path: root + "icc_missing_chunk.jpeg")
        XCTAssertNil(missing.metadata.iccProfile)
        XCTAssertTrue(missing.warnings.contains { $0.contains("missing") }, "\(missing.warnings)")
        let cases = [
            ("icc_chunk_count_mismatch.jpeg", "count"), ("icc_chunk_double_seq_no.jpeg", "duplicate"),
            ("icc_chunk_seq_no_0.jpeg", "sequence number 0"),
        ]
        for (name, needle) in cases {
            let info = try ImageFile.info(path: root + name)
            XCTAssertTrue(info.warnings.contains { $0.contains(needle) }, "\(name): \(info.warnings)")
            // The decoder reports the same warnings and still decodes the pixels.
            let image = try ImageFile.decode(path: root + name)
            XCTAssertTrue(image.warnings.contains { $0.contains(needle) }, name)
        }
    }
}
