import Foundation
import XCTest
@testable import GraphCodecs

/// HEIC outputs use x265's fast settings and a quality scale matched to JPEG's by SSIM (issue 30
/// item 10): the same `quality` gives about the same fidelity in both formats.
final class HEIFEncoderSettingsTests: XCTestCase {
    func testQualityMapMatchesTheMeasuredPoints() {
        XCTAssertEqual(HEIFCodec.libheifQuality(matchingJPEGQuality: 90), 70)
        XCTAssertEqual(HEIFCodec.libheifQuality(matchingJPEGQuality: 50), 40)
        XCTAssertEqual(HEIFCodec.libheifQuality(matchingJPEGQuality: 100), 100)
        XCTAssertEqual(HEIFCodec.libheifQuality(matchingJPEGQuality: 1), 1)
        XCTAssertEqual(HEIFCodec.libheifQuality(matchingJPEGQuality: 80), 59, "linear between 75 (53) and 90 (70)")
        var previous = 0
        for quality in 1...100 {
            let mapped = HEIFCodec.libheifQuality(matchingJPEGQuality: quality)
            XCTAssertGreaterThanOrEqual(mapped, previous, "monotonic at \(quality)")
            XCTAssertTrue((1...100).contains(mapped))
            previous = mapped
        }
        XCTAssertTrue(HEIFCodec.encoderParameters.contains { $0 == ("preset", "ultrafast") })
    }

    /// A photo-like picture (gradients, discs, fine noise) written at the default quality 90 as
    /// JPEG and as HEIC: the HEIC is at least about as faithful (SSIM against the source no more
    /// than 0.005 below the JPEG's; on the 12 MP photo the map was measured on they are 0.9944 and
    /// 0.9938, on this synthetic one the HEIC is well above), and quality 50 gives a lower SSIM.
    func testDefaultQualityGivesAboutJPEGsSSIM() throws {
        let (width, height) = (320, 240)
        var state: UInt32 = 12345
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Double(state >> 24) / 255 - 0.5
                let (u, v) = (Double(x) / Double(width), Double(y) / Double(height))
                let disc = ((x - 100) * (x - 100) + (y - 120) * (y - 120)) < 2500 || ((x - 240) * (x - 240) + (y - 60) * (y - 60)) < 900
                let base: [Double] = disc ? [0.9, 0.3, 0.2] : [0.5 + 0.4 * sin(9 * u + 3 * v), 0.5 + 0.4 * cos(7 * v - 4 * u), 0.3 + 0.5 * u * v]
                for c in 0..<3 {
                    pixels[(y * width + x) * 3 + c] = UInt8(max(0, min(255, (base[c] + 0.02 * noise) * 255)).rounded())
                }
            }
        }
        let jpeg = try JPEGCodec.decode(try JPEGCodec.encode(width: width, height: height, channels: 3, bytes: pixels, quality: 90))
        let heic = try HEIFCodec.decode(try HEIFCodec.encode(width: width, height: height, channels: 3, bytes: pixels, quality: 90))
        XCTAssertEqual([heic.width, heic.height, heic.channels], [width, height, 3])
        XCTAssertEqual([jpeg.width, jpeg.height, jpeg.channels], [width, height, 3])
        let jpegSSIM = Self.ssim(pixels, jpeg.bytes, width: width, height: height)
        let heicSSIM = Self.ssim(pixels, heic.bytes, width: width, height: height)
        XCTAssertGreaterThan(jpegSSIM, 0.9)
        XCTAssertGreaterThan(heicSSIM, jpegSSIM - 0.005, "HEIC \(heicSSIM) against JPEG \(jpegSSIM)")
        let low = try HEIFCodec.decode(try HEIFCodec.encode(width: width, height: height, channels: 3, bytes: pixels, quality: 50))
        let lowSSIM = Self.ssim(pixels, low.bytes, width: width, height: height)
        XCTAssertLessThan(lowSSIM, heicSSIM - 0.005, "quality 50 (libheif 40) is visibly lower: \(lowSSIM)")
    }

    /// Mean SSIM of the luma over 8×8 blocks.
    static func ssim(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> Double {
        func luma(_ p: [UInt8], _ i: Int) -> Double { 0.299 * Double(p[i * 3]) + 0.587 * Double(p[i * 3 + 1]) + 0.114 * Double(p[i * 3 + 2]) }
        let (c1, c2): (Double, Double) = (2.55 * 2.55, 7.65 * 7.65)
        var total = 0.0, blocks = 0
        for by in stride(from: 0, to: height - 7, by: 8) {
            for bx in stride(from: 0, to: width - 7, by: 8) {
                var (sa, sb, saa, sbb, sab) = (0.0, 0.0, 0.0, 0.0, 0.0)
                for y in by..<(by + 8) {
                    for x in bx..<(bx + 8) {
                        let (p, q) = (luma(a, y * width + x), luma(b, y * width + x))
                        sa += p; sb += q; saa += p * p; sbb += q * q; sab += p * q
                    }
                }
                let (ma, mb) = (sa / 64, sb / 64)
                let (va, vb, cov) = (saa / 64 - ma * ma, sbb / 64 - mb * mb, sab / 64 - ma * mb)
                total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
                blocks += 1
            }
        }
        return total / Double(blocks)
    }
}
