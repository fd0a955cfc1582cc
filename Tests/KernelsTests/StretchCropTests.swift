import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIStretchCrop (``StretchCrop``) against the float64 crop and per-axis stretch written here, the
/// source sampled bilinearly between pixel centres.
final class StretchCropTests: XCTestCase {
    var source: GeometrySource!

    override func setUpWithError() throws { source = try GeometrySource() }

    func testStretchCrop() throws {
        for (size, crop, center) in [([20.0, 8.0], 0.5, 0.3), ([6.0, 11.0], 0.0, 0.0), ([26.0, 9.0], 1.0, 1.0)] {
            let image = try source.image.applyingFilter("CIStretchCrop", parameters: [
                "inputSize": .vector(size), "inputCropAmount": .number(crop), "inputCenterStretchAmount": .number(center)])
            XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: size[0], height: size[1]))
            // The centred crop of the output's aspect ratio, a fraction `crop` of the way.
            let aspect = size[0] / size[1]
            let full = 13.0 / 9 > aspect ? (9 * aspect, 9.0) : (13.0, 13 / aspect)
            let sw = 13 + (full.0 - 13) * crop, sh = 9 + (full.1 - 9) * crop
            let rx = size[0] / sw, ry = size[1] / sh, k = min(rx, ry)
            func axis(_ p: Double, _ half: Double, _ r: Double, _ s: Double, _ c: Double) -> Double {
                let t = r / k + (1 - r / k) * center, u = (p - half) / half
                return c + u * t / (1 + (t - 1) * abs(u)) * s / 2
            }
            let error = try largestError(image, rect: image.extent) { x, y in
                self.source.bilinear(axis(Double(x) + 0.5, size[0] / 2, rx, sw, 6.5), axis(Double(y) + 0.5, size[1] / 2, ry, sh, 4.5))
            }
            XCTAssertLessThan(error, 5e-4, "\(size) \(crop) \(center)")
        }
        XCTAssertThrowsError(try source.image.applyingFilter("CIStretchCrop", parameters: ["inputSize": .vector([0, 5])]))
        try assertAttributes(["CIStretchCrop"])
    }
}
