import XCTest
import GraphEngine
@testable import Kernels

/// CISystemToneMap (``SystemToneMap``) against a float64 reference written here: the headroom
/// measured as the largest unpremultiplied component, the target per dynamic range, and
/// CIToneMapHeadroom's curve `f(x) = x/(1 + k·x)` on the largest component.
final class SystemToneMapTests: XCTestCase {
    /// The expected pixels for target headroom `target`.
    func expected(_ pixels: Pixels, target: Double) -> Pixels {
        let source = max(1, pixels.map { p in p[3] > 0 ? max(p[0], p[1], p[2]) / p[3] : 0 }.max() ?? 0)
        guard target < source else { return pixels }
        let k = (source - target) / (source * target)
        return pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            let m = max(c[0], c[1], c[2])
            let gain = m > 0 ? 1 / (1 + k * m) : 1
            return premultiplied([c[0] * gain, c[1] * gain, c[2] * gain, c[3]])
        }
    }

    func testEachDynamicRangeMapsTheMeasuredHeadroomOntoItsTarget() throws {
        let (image, pixels) = try randomImage(width: 23, height: 7, seed: 83, range: -0.1...7)
        let display = 4.0
        for (range, target) in [(nil, display), ("kCIDynamicRangeHigh", display), ("kCIDynamicRangeConstrainedHigh", 2.0),
                                ("kCIDynamicRangeStandard", 1.0), ("standard", 1.0)] as [(String?, Double)] {
            var parameters: [String: FilterValue] = ["inputDisplayHeadroom": .number(display)]
            if let range { parameters["inputPreferredDynamicRange"] = .string(range) }
            let output = try image.filtered("CISystemToneMap", parameters)
            XCTAssertEqual(output.extent, image.extent)
            assertPixels(try renderPixels(output, image.extent), expected(pixels, target: target), tolerance: 2e-5, range ?? "nil")
        }
        // The brightest component lands on the target.
        let peak = try renderPixels(try image.filtered("CISystemToneMap", ["inputPreferredDynamicRange": .string("standard")]), image.extent)
            .map { p in p[3] > 0 ? max(p[0], p[1], p[2]) / p[3] : 0 }.max() ?? 0
        XCTAssertEqual(peak, 1, accuracy: 1e-5)
    }

    /// An SDR image (every component at most 1) has nothing to compress; nor has any image for a
    /// display with more headroom than it.
    func testNothingToCompressPassesUnchanged() throws {
        let (image, pixels) = try randomImage(width: 9, height: 4, seed: 7, range: 0...1)
        assertPixels(try renderPixels(try image.filtered("CISystemToneMap", ["inputPreferredDynamicRange": .string("standard")]), image.extent),
                     pixels, tolerance: 1e-6)
        let (bright, brightPixels) = try randomImage(width: 9, height: 4, seed: 8, range: 0...3)
        assertPixels(try renderPixels(try bright.filtered("CISystemToneMap", ["inputDisplayHeadroom": .number(8)]), bright.extent),
                     brightPixels, tolerance: 1e-6)
    }

    func testCoreImagesKeysAndErrors() throws {
        try assertAttributes(["CISystemToneMap"])
        let (image, _) = try randomImage(width: 3, height: 3, seed: 1)
        XCTAssertThrowsError(try image.filtered("CISystemToneMap", ["inputPreferredDynamicRange": .string("hdr")])) {
            XCTAssertTrue("\($0)".contains("inputPreferredDynamicRange") && "\($0)".contains("got \"hdr\""), "\($0)")
        }
        XCTAssertThrowsError(try image.clampedToExtent().filtered("CISystemToneMap", [:])) {
            XCTAssertTrue("\($0)".contains("inputImage") && "\($0)".contains("crop it first"), "\($0)")
        }
    }
}
