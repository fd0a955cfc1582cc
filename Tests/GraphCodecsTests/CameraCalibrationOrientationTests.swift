import XCTest
@testable import GraphCodecs

/// A calibration turned with its image (`CameraCalibration.oriented(_:)`, issue 24): a world point
/// projected through the turned calibration lands where the orientation moves its projection in
/// the stored image, for all eight EXIF orientations; turning there and back is the identity.
final class CameraCalibrationOrientationTests: XCTestCase {
    /// The iPhone 7 Plus photo's calibration (depth/iphone7plus_rw_test00.jpg, MPF image 2, read with
    /// exiftool), with a made-up rotation and translation so the extrinsics are not the identity.
    private let stored = CameraCalibration(
        intrinsicMatrix: [6658.8291015625, 0, 0, 0, 6600.5, 0, 2034.180908203125, 1533.525390625, 1],
        referenceWidth: 4032, referenceHeight: 3024,
        extrinsicMatrix: [0.8, 0.6, 0, -0.6, 0.8, 0, 0, 0, 1, 12.5, -3.25, 0.5],
        pixelSize: 0.001, lensDistortionCenter: (2027.970458984375, 1533.9285888671875),
        lensDistortionCoefficients: [0, 1e-5, 2e-5], inverseLensDistortionCoefficients: [0, -1e-5, -2e-5])

    /// `x' = A·x + b` of each orientation, in Double, written out independently of the code.
    private func displayed(_ x: Double, _ y: Double, orientation: Int, width w: Double, height h: Double) -> (Double, Double) {
        switch orientation {
        case 2: return (w - x, y)
        case 3: return (w - x, h - y)
        case 4: return (x, h - y)
        case 5: return (y, x)
        case 6: return (h - y, x)
        case 7: return (h - y, w - x)
        case 8: return (y, w - x)
        default: return (x, y)
        }
    }

    /// Pixel coordinates of world point `p` through `c` (column-major K and [R | t]).
    private func project(_ p: [Double], _ c: CameraCalibration) -> (Double, Double) {
        let e = c.extrinsicMatrix, k = c.intrinsicMatrix
        let camera = (0..<3).map { r in e[r] * p[0] + e[3 + r] * p[1] + e[6 + r] * p[2] + e[9 + r] }
        let x = camera[0] / camera[2], y = camera[1] / camera[2]
        return (k[0] * x + k[3] * y + k[6], k[1] * x + k[4] * y + k[7])
    }

    func testProjectionsMoveWithTheImage() {
        let points: [[Double]] = [[0.1, -0.2, 2], [-0.35, 0.05, 3.5], [0.02, 0.3, 1.2]]
        for orientation in 1...8 {
            let turned = stored.oriented(orientation)
            let swaps = orientation >= 5
            XCTAssertEqual(turned.referenceWidth, swaps ? 3024 : 4032, "orientation \(orientation)")
            XCTAssertEqual(turned.referenceHeight, swaps ? 4032 : 3024, "orientation \(orientation)")
            for point in points {
                let (u, v) = project(point, stored)
                let expected = displayed(u, v, orientation: orientation, width: 4032, height: 3024)
                let got = project(point, turned)
                XCTAssertEqual(got.0, expected.0, accuracy: 1e-6, "orientation \(orientation), \(point)")
                XCTAssertEqual(got.1, expected.1, accuracy: 1e-6, "orientation \(orientation), \(point)")
            }
            let centre = displayed(2027.970458984375, 1533.9285888671875, orientation: orientation, width: 4032, height: 3024)
            XCTAssertEqual(turned.lensDistortionCenter?.x ?? .nan, centre.0, accuracy: 1e-9, "orientation \(orientation)")
            XCTAssertEqual(turned.lensDistortionCenter?.y ?? .nan, centre.1, accuracy: 1e-9, "orientation \(orientation)")
            XCTAssertEqual(turned.lensDistortionCoefficients, stored.lensDistortionCoefficients)
            XCTAssertEqual(turned.pixelSize, stored.pixelSize)
        }
    }

    func testTurningThereAndBackIsTheIdentity() {
        let inverse = [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6]
        for (orientation, back) in inverse {
            let round = stored.oriented(orientation).oriented(back)
            for (a, b) in zip(round.intrinsicMatrix + round.extrinsicMatrix, stored.intrinsicMatrix + stored.extrinsicMatrix) {
                XCTAssertEqual(a, b, accuracy: 1e-9, "orientation \(orientation) then \(back)")
            }
            XCTAssertEqual(round.referenceWidth, 4032)
        }
    }
}
