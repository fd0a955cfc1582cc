import XCTest

@testable import GraphCodecs

#if canImport(Glibc)
import Glibc
#endif

/// JPEGRowDecoder / JPEGRowEncoder / JPEGTranscoder: band-by-band results are byte-identical
/// to the whole-image codec whatever the band size, and errors on either side of the
/// two-thread pipeline come back promptly.
final class JPEGStreamingTests: XCTestCase {
    static let files = [
        "libjpeg-turbo/testorig.jpg",  // baseline 4:2:0
        "libjpeg-turbo/testimgint.jpg",
        "jpeg-decoder/reftest/images/progressive3.jpg",  // progressive
        "jpeg-decoder/reftest/images/mozilla/jpg-progressive.jpg",
        "jpeg-decoder/reftest/images/restarts.jpg",  // restart markers
        "jpeg-decoder/reftest/images/mozilla/jpg-gray.jpg",  // grey
        "jpeg-decoder/reftest/images/grayscale_large.jpg",
        "jpeg-decoder/reftest/images/mozilla/jpg-cmyk-1.jpg",  // Adobe CMYK
        "jpeg-decoder/reftest/images/ycck.jpg",
        "jpeg-decoder/reftest/images/mozilla/jpg-size-17x17.jpg",
    ]

    /// Reads every row with the given band sizes (cycled) into one packed buffer.
    static func readAll(_ decoder: JPEGRowDecoder, bands: [Int]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: decoder.rowBytes * decoder.height)
        var index = 0
        try out.withUnsafeMutableBytes { raw in
            while decoder.nextRow < decoder.height {
                let row = decoder.nextRow
                let got = try decoder.readRows(
                    into: raw.baseAddress! + row * decoder.rowBytes, rowBytes: decoder.rowBytes, maxRows: bands[index % bands.count])
                XCTAssertEqual(got, min(bands[index % bands.count], decoder.height - row))
                index += 1
            }
        }
        XCTAssertEqual(try decoder.readRows(into: &index, rowBytes: decoder.rowBytes, maxRows: 5), 0, "0 rows once done")
        XCTAssertTrue(decoder.isFinished)
        return out
    }

    func testRowDecoderMatchesWholeImageDecoder() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        var random = SystemRandomNumberGenerator()
        for file in Self.files {
            let data = try ImageFile.read(path: root + "/" + file)
            for (scale, rgba) in [(1, false), (2, false), (1, true), (4, true)] {
                let options = DecodeOptions(jpegScaleDenominator: scale, applyOrientation: false, outputRGBA: rgba)
                let whole = try JPEGCodec.decode(data, options: options)
                let randomBands = (0..<5).map { _ in Int.random(in: 1...40, using: &random) }
                for bands in [[1], [7], [16], [whole.height], [whole.height + 5], randomBands] {
                    let decoder = try JPEGRowDecoder(data, options: options)
                    XCTAssertEqual([decoder.width, decoder.height, decoder.channels], [whole.width, whole.height, whole.channels], file)
                    let rows = try Self.readAll(decoder, bands: bands)
                    XCTAssertEqual(rows, whole.bytes, "\(file) 1/\(scale) rgba \(rgba) bands \(bands)")
                    XCTAssertEqual(decoder.metadata, whole.metadata, file)
                }
            }
        }
    }

    func testRowDecoderReportsOrientationWithoutApplyingIt() throws {
        // An EXIF orientation 6 (rotate 90° CW) JPEG made here.
        let pixels = (0..<(40 * 24 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let exif = Self.orientationEXIF(6)
        let file = try JPEGCodec.encode(width: 40, height: 24, channels: 3, bytes: pixels, exif: exif)
        let decoder = try JPEGRowDecoder(file)
        XCTAssertEqual(decoder.metadata.exifOrientation, 6)
        XCTAssertFalse(decoder.metadata.orientationApplied)
        XCTAssertEqual([decoder.width, decoder.height], [40, 24], "rows in file order")
        let upright = try JPEGCodec.decode(file)
        XCTAssertEqual([upright.width, upright.height], [24, 40])
        XCTAssertEqual(try Self.readAll(decoder, bands: [5]), try JPEGCodec.decode(file, options: DecodeOptions(applyOrientation: false)).bytes)
    }

    /// A minimal little-endian TIFF with one Orientation entry.
    static func orientationEXIF(_ value: UInt8) -> [UInt8] {
        [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,
         value, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    }

    func testRowDecoderTruncationIsAnErrorAndSticks() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        for file in ["libjpeg-turbo/testorig.jpg", "jpeg-decoder/reftest/images/progressive3.jpg"] {
            let data = try ImageFile.read(path: root + "/" + file)
            let cut = Array(data.prefix(data.count * 2 / 3))
            let decoder = try JPEGRowDecoder(cut)
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: decoder.rowBytes * 8, alignment: 16)
            defer { buffer.deallocate() }
            var thrown: CodecError?
            do {
                while try decoder.readRows(into: buffer, rowBytes: decoder.rowBytes, maxRows: 8) > 0 {}
            } catch { thrown = error }
            XCTAssertEqual(thrown?.kind, .truncated, "\(file): \(String(describing: thrown))")
            XCTAssertLessThan(decoder.nextRow, decoder.height)
            XCTAssertFalse(decoder.isFinished)
            // Dead after an error: the same error again.
            let again = expectCodecError { () throws(CodecError) in
                try decoder.readRows(into: buffer, rowBytes: decoder.rowBytes, maxRows: 8)
            }
            XCTAssertEqual(again, thrown)
            XCTAssertEqual(expectCodecError { () throws(CodecError) in try JPEGCodec.decode(cut) }?.kind, .truncated)
        }
    }

    func testRowDecoderRefusesLikeTheWholeImageDecoder() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let twelve = try ImageFile.read(path: root + "/libjpeg-turbo/monkey12.jpg")
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try JPEGRowDecoder(twelve) }?.kind, .unsupported)
        let data = try ImageFile.read(path: root + "/libjpeg-turbo/testorig.jpg")
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try JPEGRowDecoder(data, options: DecodeOptions(maxPixelCount: 1000)) }?.kind, .tooLarge)
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try JPEGRowDecoder(data, options: DecodeOptions(jpegScaleDenominator: 3)) }?.kind, .invalidArgument)
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try JPEGRowDecoder([1, 2, 3]) }?.kind, .unrecognizedFormat)
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try JPEGRowDecoder([]) }?.kind, .truncated)
    }

    func testRowEncoderMatchesWholeImageEncoder() throws {
        let (width, height) = (53, 71)
        for channels in 1...4 {
            let pixels = (0..<(width * height * channels)).map { i in UInt8(truncatingIfNeeded: (i * 31) ^ (i / (width * channels)) * 5) }
            for (subsampling, progressive, optimize) in [(JPEGSubsampling.s420, false, false), (.s444, true, false), (.s422, false, true)] {
                let whole = try JPEGCodec.encode(
                    width: width, height: height, channels: channels, bytes: pixels, quality: 85, subsampling: subsampling,
                    progressive: progressive, optimizeHuffman: optimize, iccProfile: [UInt8](repeating: 9, count: 300),
                    xmp: "<x:xmpmeta/>", comment: "hello")
                for bands in [[1], [7], [height], [3, 16, 1, 9]] {
                    let encoder = try JPEGRowEncoder(
                        width: width, height: height, channels: channels, quality: 85, subsampling: subsampling,
                        progressive: progressive, optimizeHuffman: optimize, iccProfile: [UInt8](repeating: 9, count: 300),
                        xmp: "<x:xmpmeta/>", comment: "hello", initialCapacity: 16)
                    var index = 0
                    try pixels.withUnsafeBytes { raw in
                        while encoder.nextRow < height {
                            let count = min(bands[index % bands.count], height - encoder.nextRow)
                            try encoder.writeRows(raw.baseAddress! + encoder.nextRow * width * channels, rowBytes: width * channels, count: count)
                            index += 1
                        }
                    }
                    XCTAssertEqual(try encoder.finish(), whole, "channels \(channels) \(subsampling) bands \(bands)")
                }
            }
        }
    }

    func testRowEncoderMisuseIsAnError() throws {
        let encoder = try JPEGRowEncoder(width: 4, height: 2, channels: 3)
        let row = [UInt8](repeating: 128, count: 12 * 3)
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try encoder.finish() }?.kind, .invalidArgument)
        try row.withUnsafeBytes { raw in
            XCTAssertEqual(expectCodecError { () throws(CodecError) in try encoder.writeRows(raw.baseAddress!, rowBytes: 12, count: 3) }?.kind, .invalidArgument)
            try encoder.writeRows(raw.baseAddress!, rowBytes: 12, count: 2)
        }
        let file = try encoder.finish()
        XCTAssertEqual(try JPEGCodec.decode(file).width, 4)
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try encoder.finish() }?.kind, .invalidArgument)
    }

    /// A 640x1000 test photo-like image (gradients + texture) as a baseline 4:2:0 JPEG.
    static func syntheticJPEG(width: Int = 640, height: Int = 1000, progressive: Bool = false) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(truncatingIfNeeded: x * 255 / width + (x * y) % 13)
                pixels[i + 1] = UInt8(truncatingIfNeeded: y * 255 / height + ((x ^ y) & 15))
                pixels[i + 2] = UInt8(truncatingIfNeeded: (x + y) / 7 + (x * 7 + y * 3) % 17)
            }
        }
        return try JPEGCodec.encode(width: width, height: height, channels: 3, bytes: pixels, quality: 88, progressive: progressive)
    }

    func testTranscodeMatchesDecodeThenEncode() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        var inputs = try Self.files.map { try ImageFile.read(path: root + "/" + $0) }
        inputs.append(try Self.syntheticJPEG())
        inputs.append(try Self.syntheticJPEG(progressive: true))
        for (n, data) in inputs.enumerated() {
            let image = try JPEGCodec.decode(data, options: DecodeOptions(applyOrientation: false))
            let expected = try JPEGCodec.encode(
                width: image.width, height: image.height, channels: image.channels, bytes: image.bytes, quality: 90)
            for (rows, count) in [(1, 2), (7, 4), (32, 4), (64, 3), (100_000, 4), (16, 1)] {
                let actual = try JPEGTranscoder.transcode(data, quality: 90, metadata: .none, bandRows: rows, bandCount: count)
                XCTAssertEqual(actual, expected, "input \(n) bands \(count)x\(rows)")
            }
        }
    }

    func testTranscodeKeepsMetadataAndScales() throws {
        let pixels = (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0) }
        let icc = [UInt8](repeating: 3, count: 1000)
        let source = try JPEGCodec.encode(
            width: 64, height: 48, channels: 3, bytes: pixels, iccProfile: icc, xmp: "<x:xmpmeta/>",
            exif: Self.orientationEXIF(3), comment: "note")
        let output = try JPEGTranscoder.transcode(source, quality: 80, decodeOptions: DecodeOptions(jpegScaleDenominator: 2), bandRows: 4)
        let info = try JPEGCodec.readInfo(output)
        XCTAssertEqual([info.width, info.height], [32, 24])
        XCTAssertEqual(info.metadata.iccProfile, icc)
        XCTAssertEqual(info.metadata.xmp, "<x:xmpmeta/>")
        XCTAssertEqual(info.metadata.exifOrientation, 3)
        XCTAssertEqual(info.metadata.comments, ["note"])
        let bare = try JPEGCodec.readInfo(try JPEGTranscoder.transcode(source, metadata: .none))
        XCTAssertNil(bare.metadata.iccProfile)
        XCTAssertEqual(bare.metadata.exifOrientation, 1)
    }

    func testTranscodeOfTruncatedFileThrowsPromptly() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        let sources = [try Self.syntheticJPEG(), try Self.syntheticJPEG(progressive: true),
                       try ImageFile.read(path: root + "/jpeg-decoder/reftest/images/progressive3.jpg")]
        for (n, data) in sources.enumerated() {
            for fraction in [0.05, 0.5, 0.95] {
                let cut = Array(data.prefix(Int(Double(data.count) * fraction)))
                for (rows, count) in [(1, 2), (16, 4), (64, 4)] {
                    let start = Self.now()
                    let error = expectCodecError { () throws(CodecError) in
                        try JPEGTranscoder.transcode(cut, bandRows: rows, bandCount: count)
                    }
                    XCTAssertEqual(error?.kind, .truncated, "source \(n) cut at \(fraction): \(String(describing: error))")
                    XCTAssertLessThan(Self.now() - start, 2.0, "returned promptly")
                }
            }
        }
        // Corrupt (not just short) data, and a decoder failing before any row.
        var corrupt = try Self.syntheticJPEG()
        for i in stride(from: corrupt.count / 2, to: corrupt.count / 2 + 400, by: 3) { corrupt[i] = 0xFF }
        _ = try? JPEGTranscoder.transcode(corrupt, bandRows: 8)  // libjpeg may only warn; must not hang
        XCTAssertNotNil(expectCodecError { () throws(CodecError) in try JPEGTranscoder.transcode(Array(corrupt.prefix(300))) })
    }

    func testEncoderSideErrorStopsTheDecoderThread() throws {
        // An encoder shorter than the image: the consumer fails mid-stream and must stop
        // the producer (which still has rows to decode) without a hang.
        let data = try Self.syntheticJPEG()
        for (rows, count) in [(1, 2), (8, 4), (64, 4)] {
            let decoder = try JPEGRowDecoder(data)
            let encoder = try JPEGRowEncoder(width: decoder.width, height: 500, channels: decoder.channels)
            let start = Self.now()
            let error = expectCodecError { () throws(CodecError) in
                try JPEGTranscoder.pump(decoder, into: encoder, bandRows: rows, bandCount: count)
            }
            XCTAssertEqual(error?.kind, .invalidArgument)
            XCTAssertLessThan(Self.now() - start, 2.0)
            XCTAssertLessThan(decoder.nextRow, decoder.height, "the decoder stopped early")
        }
        XCTAssertEqual(
            expectCodecError { () throws(CodecError) in try JPEGTranscoder.transcode(data, bandRows: 0) }?.kind, .invalidArgument)
    }

    func testTranscodeToFileStreamsAtomically() throws {
        let folder = "/tmp/graphcodecs-stream-\(getpid())"
        mkdir(folder, 0o755)
        defer {
            for name in TestPaths.listFiles(folder) { unlink(folder + "/" + name) }
            rmdir(folder)
        }
        let data = try Self.syntheticJPEG()
        let expected = try JPEGTranscoder.transcode(data, quality: 75, bandRows: 16)
        let size = try JPEGTranscoder.transcode(data, toFile: folder + "/out.jpg", quality: 75, bandRows: 16)
        XCTAssertEqual(size, expected.count)
        XCTAssertEqual(try ImageFile.read(path: folder + "/out.jpg"), expected)
        // A failing transcode leaves the existing target and no temporary file behind.
        let error = expectCodecError { () throws(CodecError) in
            try JPEGTranscoder.transcode(Array(data.prefix(data.count / 2)), toFile: folder + "/out.jpg", bandRows: 16)
        }
        XCTAssertEqual(error?.kind, .truncated)
        XCTAssertEqual(error?.path, folder + "/out.jpg")
        XCTAssertEqual(TestPaths.listFiles(folder), ["out.jpg"])
        XCTAssertEqual(try ImageFile.read(path: folder + "/out.jpg"), expected)
        XCTAssertEqual(
            expectCodecError { () throws(CodecError) in
                try JPEGTranscoder.transcode(data, toFile: folder + "/out.jpg", allowOverwriting: false)
            }?.kind, .io)
    }

    func testFileDescriptorWriteErrorIsAnIOError() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw XCTSkip("/dev/full not available") }
        defer { close(fd) }
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: 300 * 300 * 3)
        defer { pixels.deallocate() }
        for i in 0..<(300 * 300 * 3) { pixels[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 7) }
        let encoder = try JPEGRowEncoder(width: 300, height: 300, channels: 3, quality: 100, fileDescriptor: fd)
        let error = expectCodecError { () throws(CodecError) in
            try encoder.writeRows(pixels, rowBytes: 900, count: 300)
            return try encoder.finish()
        }
        XCTAssertEqual(error?.kind, .io, String(describing: error))
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
