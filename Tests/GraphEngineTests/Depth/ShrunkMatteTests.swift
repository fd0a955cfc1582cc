import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import GraphIO

/// An edit that shrinks the photo (a preview) decodes the stored JPEG matte smaller by libjpeg's
/// DCT scaling instead of decoding it whole and sampling it: the written matte keeps its usual
/// resolution relative to the photo and holds the area average of the full matte.
final class ShrunkMatteTests: XCTestCase {
    func testDecodeShrinkIsTheLargestThatKeepsThePixels() {
        func shrink(_ sx: Double, _ sy: Double, rotated: Bool = false) -> Int {
            let angle = rotated ? 0.3 : 0
            return AuxiliaryGeometry.decodeShrink(for: AffineTransform(a: sx * cos(angle), b: sx * sin(angle),
                                                                       c: -sy * sin(angle), d: sy * cos(angle), tx: 7, ty: -3))
        }
        XCTAssertEqual(shrink(1, 1), 1)
        XCTAssertEqual(shrink(2, 2), 1)
        XCTAssertEqual(shrink(0.5, 0.5), 2)
        XCTAssertEqual(shrink(0.3, 0.3), 2)
        XCTAssertEqual(shrink(0.25, 0.25), 4)
        XCTAssertEqual(shrink(0.126, 0.126), 4)
        XCTAssertEqual(shrink(0.125, 0.125), 8)
        XCTAssertEqual(shrink(0.01, 0.01), 8)
        XCTAssertEqual(shrink(0.25, 0.6), 1)  // the larger axis decides
        XCTAssertEqual(shrink(0.25, 0.25, rotated: true), 4)
    }

    /// The iPhone X portrait (3024×4032, matte 1512×2016) written at a quarter and at a half: the
    /// mattes are 378×504 and 756×1008, each within 45 dB of the float64 box average of the full
    /// matte (8-bit JPEG round trips on both sides).
    func testQuarterAndHalfSizeOutputsCarryTheAveragedMatte() throws {
        let source = try DepthTestData.path("iphoneX_depth_matte_shu223.jpg")
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try DepthPhoto(contentsOf: source)
        let photo = try Image(contentsOf: source)
        let full = try DepthTestData.values(try file.portraitEffectsMatte().map)
        XCTAssertEqual([full.width, full.height], [1512, 2016])
        for (scale, factor) in [(0.25, 4), (0.5, 2)] {
            let edited = try photo.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(scale)])
            let (auxiliary, warnings) = file.auxiliaryImages(following: edited, from: photo)
            XCTAssertEqual(warnings, [])
            let path = folder.appendingPathComponent("scaled-\(factor).jpg").path
            try Context().write(edited, to: path, options: ImageWriteOptions(auxiliaryImages: auxiliary))
            let written = try DepthTestData.values(try DepthPhoto(contentsOf: path).portraitEffectsMatte().map)
            XCTAssertEqual([written.width, written.height], [1512 / factor, 2016 / factor], "scale \(scale)")
            var squaredError = 0.0
            for y in 0..<written.height {
                for x in 0..<written.width {
                    var sum = 0.0
                    for dy in 0..<factor {
                        for dx in 0..<factor { sum += Double(full.values[(y * factor + dy) * full.width + x * factor + dx]) }
                    }
                    let difference = Double(written.values[y * written.width + x]) - sum / Double(factor * factor)
                    squaredError += difference * difference
                }
            }
            let psnr = 10 * log10(1 / (squaredError / Double(written.values.count)))
            XCTAssertGreaterThan(psnr, 45, "scale \(scale)")
        }
    }
}
