import XCTest

@testable import GraphCodecs

/// Encoder round trips: PNG exact for 8/16-bit grey, grey+alpha, RGB, RGBA; JPEG options
/// readable back; ICC profiles byte-identical.
final class RoundTripTests: XCTestCase {
    func pattern(width: Int, height: Int, channels: Int, bitDepth: Int) -> [UInt8] {
        var state: UInt32 = 12345
        return (0..<(width * height * channels * bitDepth / 8)).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    func testPNGRoundTripsExactly() throws {
        for bitDepth in [8, 16] {
            for channels in 1...4 {
                for interlaced in [false, true] {
                    let (w, h) = (37, 23)
                    let pixels = pattern(width: w, height: h, channels: channels, bitDepth: bitDepth)
                    let png = try PNGCodec.encode(width: w, height: h, channels: channels, bitDepth: bitDepth, bytes: pixels, interlaced: interlaced)
                    let image = try PNGCodec.decode(png)
                    XCTAssertEqual([image.width, image.height, image.channels, image.bitDepth], [w, h, channels, bitDepth])
                    XCTAssertEqual(image.bytes, pixels, "\(channels) channels, \(bitDepth) bits")
                    XCTAssertEqual(image.metadata.pngInterlaced, interlaced)
                    XCTAssertTrue(image.warnings.isEmpty, "\(image.warnings)")
                }
            }
        }
    }

    func testPNG16BitIsNativeEndian() throws {
        let values: [UInt16] = [0x0102, 0xFFFE]
        let bytes = values.withUnsafeBytes { Array($0) }
        let png = try PNGCodec.encode(width: 2, height: 1, channels: 1, bitDepth: 16, bytes: bytes)
        // The file stores big-endian samples after the filter byte.
        let image = try PNGCodec.decode(png)
        XCTAssertEqual(image.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }, values)
    }

    func testPNGRGBAOutputOption() throws {
        let grey: [UInt8] = [10, 20, 30, 40]
        let png = try PNGCodec.encode(width: 2, height: 2, channels: 1, bitDepth: 8, bytes: grey)
        let image = try PNGCodec.decode(png, options: DecodeOptions(outputRGBA: true))
        XCTAssertEqual(image.channels, 4)
        XCTAssertEqual(image.bytes, [10, 10, 10, 255, 20, 20, 20, 255, 30, 30, 30, 255, 40, 40, 40, 255])
    }

    func testPNGICCRoundTrip() throws {
        let pixels = pattern(width: 4, height: 4, channels: 3, bitDepth: 8)
        let png = try PNGCodec.encode(width: 4, height: 4, channels: 3, bitDepth: 8, bytes: pixels, iccProfile: ICCProfile.displayP3Bytes)
        let image = try PNGCodec.decode(png)
        XCTAssertEqual(image.metadata.iccProfile, ICCProfile.displayP3Bytes)
        XCTAssertEqual(image.metadata.parsedICCProfile?.kind, .displayP3)
        XCTAssertTrue(image.warnings.isEmpty, "\(image.warnings)")
        // A colour profile on a grey image is refused up front.
        let error = expectCodecError { () throws(CodecError) in
            try PNGCodec.encode(width: 1, height: 1, channels: 1, bitDepth: 8, bytes: [0], iccProfile: ICCProfile.sRGBBytes)
        }
        XCTAssertEqual(error?.kind, .invalidArgument)
    }

    func testJPEGOptionsReadBack() throws {
        let (w, h) = (64, 48)
        var pixels: [UInt8] = []
        for y in 0..<h { for x in 0..<w { pixels += [UInt8(x * 4), UInt8(y * 5), UInt8((x + y) * 2), 255] } }
        for subsampling in [JPEGSubsampling.s444, .s422, .s420] {
            for progressive in [false, true] {
                let jpeg = try JPEGCodec.encode(
                    width: w, height: h, channels: 4, bytes: pixels, quality: 92, subsampling: subsampling,
                    progressive: progressive, iccProfile: ICCProfile.sRGBBytes, xmp: "<x:xmpmeta>test</x:xmpmeta>")
                let info = try ImageFile.info(jpeg)
                XCTAssertEqual(info.metadata.jpegSubsampling, subsampling)
                XCTAssertEqual(info.metadata.jpegProgressive, progressive)
                let image = try JPEGCodec.decode(jpeg)
                XCTAssertEqual(image.metadata.jpegSubsampling, subsampling)
                XCTAssertEqual(image.metadata.jpegProgressive, progressive)
                XCTAssertEqual(image.metadata.iccProfile, ICCProfile.sRGBBytes)
                XCTAssertEqual(image.metadata.xmp, "<x:xmpmeta>test</x:xmpmeta>")
                XCTAssertEqual([image.width, image.height, image.channels], [w, h, 3])
                // Quality 92: every sample within a small tolerance of the input.
                var worst = 0
                for i in 0..<(w * h) { for c in 0..<3 { worst = max(worst, abs(Int(image.bytes[i * 3 + c]) - Int(pixels[i * 4 + c]))) } }
                XCTAssertLessThan(worst, 24, "\(subsampling) progressive=\(progressive)")
            }
        }
    }

    func testJPEGLargeICCIsSplitAndReassembled() throws {
        // A 150 kB fake profile needs three APP2 chunks; it must come back byte-identical.
        var profile = ICCProfile.sRGBBytes
        profile += (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let jpeg = try JPEGCodec.encode(width: 8, height: 8, channels: 1, bytes: [UInt8](repeating: 128, count: 64), iccProfile: profile)
        let info = try ImageFile.info(jpeg)
        XCTAssertEqual(info.metadata.segments.filter { $0.name.hasPrefix("APP2 ICC_PROFILE") }.map(\.name), ["APP2 ICC_PROFILE 1/3", "APP2 ICC_PROFILE 2/3", "APP2 ICC_PROFILE 3/3"])
        XCTAssertEqual(info.metadata.iccProfile, profile)
        XCTAssertEqual(try JPEGCodec.decode(jpeg).metadata.iccProfile, profile)
    }

    func testJPEGGreyAlphaDropsAlpha() throws {
        let jpeg = try JPEGCodec.encode(width: 8, height: 8, channels: 2, bytes: [UInt8](repeating: 200, count: 128), quality: 100)
        let image = try JPEGCodec.decode(jpeg)
        XCTAssertEqual(image.channels, 1)
        XCTAssertTrue(image.bytes.allSatisfy { abs(Int($0) - 200) <= 1 })
    }
}
