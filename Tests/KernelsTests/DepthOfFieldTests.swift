import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIDepthOfField against its documented graph in float64: saturation, unsharp mask and Gaussian
/// (pixel-integrated taps, edges repeated), mixed by a smoothstep of the distance to the line.
final class DepthOfFieldTests: XCTestCase {
    func testTiltShiftMixesSharpAndBlurredByTheDistanceToTheLine() throws {
        let source = try TestImage(width: 30, height: 24, seed: 19)
        let weights = [0.2125, 0.7154, 0.0721]
        for (p0, p1, s, ur, ui, r) in [([2.0, 5.0], [28.0, 15.0], 1.5, 2.5, 0.5, 3.0), ([10.0, 0.0], [10.0, 12.0], 0.4, 1.0, 2.0, 1.5)] {
            let image = try source.image.applyingFilter("CIDepthOfField", parameters: [
                "inputPoint0": .vector(p0), "inputPoint1": .vector(p1), "inputSaturation": .number(s),
                "inputUnsharpMaskRadius": .number(ur), "inputUnsharpMaskIntensity": .number(ui), "inputRadius": .number(r)])
            XCTAssertEqual(image.extent, source.image.extent)
            func saturated(_ x: Int, _ y: Int) -> SIMD4<Double> {
                let c = source.clamped(x, y), l = weights[0] * c.x + weights[1] * c.y + weights[2] * c.z
                let mixed = SIMD3(l, l, l) + s * (SIMD3(c.x, c.y, c.z) - SIMD3(l, l, l))
                return SIMD4(mixed, 1)
            }
            let unsharpTaps = gaussianTaps(ur), blurTaps = gaussianTaps(r)
            let dx = p1[0] - p0[0], dy = p1[1] - p0[1], length = (dx * dx + dy * dy).squareRoot()
            try assertMatches(image, image.extent, tolerance: 1e-5) { x, y in
                let here = saturated(x, y)
                var sharp = here + ui * (here - separable(unsharpTaps, x, y, saturated))
                sharp.w = 1
                let blurred = separable(blurTaps, x, y, saturated)
                let distance = abs((Double(x) + 0.5 - p0[0]) * -dy + (Double(y) + 0.5 - p0[1]) * dx) / length
                let t = min(distance / (length / 2), 1), m = t * t * (3 - 2 * t)
                return sharp + m * (blurred - sharp)
            }
        }
    }

    func testTheTwoPointsMustDifferAndAttributes() throws {
        let source = try TestImage(width: 6, height: 5, seed: 1)
        XCTAssertThrowsError(try source.image.applyingFilter("CIDepthOfField", parameters: [
            "inputPoint0": .vector([3, 3]), "inputPoint1": .vector([3, 3])])) {
            XCTAssertTrue("\($0)".contains("CIDepthOfField") && "\($0)".contains("inputPoint1"), "\($0)")
        }
        XCTAssertNil(DepthOfField.kernel.compileError)
        try assertAttributes(["CIDepthOfField"])
    }
}
