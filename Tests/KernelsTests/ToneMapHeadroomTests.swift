import XCTest
import GraphEngine
@testable import Kernels

/// CIToneMapHeadroom (``ToneMapHeadroom``) against the float64 curve `f(x) = x/(1 + k·x)` on the
/// largest component, written here.
final class ToneMapHeadroomTests: XCTestCase {
    func testCurveOnTheLargestComponent() throws {
        let (image, pixels) = try randomImage(width: 17, height: 5, seed: 61, range: -0.1...6)
        let (hs, ht) = (6.0, 2.0), k = (hs - ht) / (hs * ht)
        let output = try image.filtered("CIToneMapHeadroom", ["inputSourceHeadroom": .number(hs), "inputTargetHeadroom": .number(ht)])
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            let m = max(c[0], c[1], c[2])
            let gain = m > 0 ? 1 / (1 + k * m) : 1
            return premultiplied([c[0] * gain, c[1] * gain, c[2] * gain, c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 1e-5)
        // The source headroom maps onto the target, and the slope at black is 1.
        XCTAssertEqual(hs / (1 + k * hs), ht, accuracy: 1e-12)
        // Without a source headroom, or with nothing to compress, the input comes back.
        XCTAssertEqual(try image.filtered("CIToneMapHeadroom", [:]), image)
        XCTAssertEqual(try image.filtered("CIToneMapHeadroom", ["inputSourceHeadroom": .number(2), "inputTargetHeadroom": .number(3)]), image)
        try assertAttributes(["CIToneMapHeadroom"])
    }
}
