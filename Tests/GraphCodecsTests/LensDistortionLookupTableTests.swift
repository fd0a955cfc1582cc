import XCTest
@testable import GraphCodecs

/// The look-up tables a calibration's 8 coefficients give: each entry the polynomial at its radius
/// (evaluated here term by term), the last at the farthest corner; unchanged when the photo turns.
final class LensDistortionLookupTableTests: XCTestCase {
    let calibration = CameraCalibration(
        intrinsicMatrix: [500, 0, 0, 0, 500, 0, 50, 25, 1], referenceWidth: 100, referenceHeight: 50, pixelSize: 0.01,
        lensDistortionCenter: (40, 20), lensDistortionCoefficients: [0.5, 2, -3, 0, 0, 0, 0, 0],
        inverseLensDistortionCoefficients: [0, -2, 3, 0, 0, 0, 0, 1])

    func testEntriesAreThePolynomialAtEvenlySpacedRadii() throws {
        let maximum = (60.0 * 60 + 30 * 30).squareRoot()
        XCTAssertEqual(calibration.lensDistortionMaximumRadius ?? 0, maximum, accuracy: 1e-12)
        let forward = try XCTUnwrap(calibration.lensDistortionLookupTable())
        let inverse = try XCTUnwrap(calibration.lensDistortionLookupTable(inverse: true))
        XCTAssertEqual(forward.count, 42)
        XCTAssertEqual(inverse.count, 42)
        for k in 0..<42 {
            let x = 0.01 * maximum * Double(k) / 41 * 0.01 * maximum * Double(k) / 41
            XCTAssertEqual(forward[k], 0.01 * (0.5 + 2 * x - 3 * x * x), accuracy: 1e-15, "entry \(k)")
            XCTAssertEqual(inverse[k], 0.01 * (-2 * x + 3 * x * x + x * x * x * x * x * x * x), accuracy: 1e-15, "entry \(k)")
        }
        for orientation in 1...8 {
            XCTAssertEqual(calibration.oriented(orientation).lensDistortionLookupTable(), forward, "orientation \(orientation)")
        }
    }

    func testProblemsNameWhatIsMissing() {
        XCTAssertNil(calibration.lensDistortionProblem)
        var broken = calibration
        broken.lensDistortionCenter = nil
        XCTAssertEqual(broken.lensDistortionProblem, "it has no lens distortion centre (depthData:LensDistortionCenterOffsetX/Y)")
        XCTAssertNil(broken.lensDistortionLookupTable())
        broken = calibration
        broken.lensDistortionCoefficients = [1, 2, 3]
        XCTAssertEqual(broken.lensDistortionProblem, "its LensDistortionCoefficients has 3 values, not 8")
        broken = calibration
        broken.pixelSize = 0
        XCTAssertEqual(broken.lensDistortionProblem, "it has no positive pixel size (depthData:PixelSize)")
        broken = calibration
        broken.inverseLensDistortionCoefficients[3] = .nan
        XCTAssertEqual(broken.lensDistortionProblem, "its InverseLensDistortionCoefficients are not all finite")
    }
}
