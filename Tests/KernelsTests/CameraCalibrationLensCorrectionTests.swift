import Foundation
import XCTest
import GraphCodecs
@testable import GraphEngine
@testable import Kernels

/// CICameraCalibrationLensCorrection against a float64 implementation of Apple's
/// `lensDistortionPointForPoint` (table interpolated at `r·(n − 1)/r_max`, point moved by
/// `1 + m`), and on the real iPhone calibrations: a distortion drawn from a photo's own
/// coefficients is undone to within half a pixel.
final class CameraCalibrationLensCorrectionTests: XCTestCase {
    /// A calibration for a 82×62 reference image with a strong synthetic distortion (up to 11 %).
    let synthetic = CameraCalibration(
        intrinsicMatrix: [100, 0, 0, 0, 100, 0, 41, 31, 1], referenceWidth: 82, referenceHeight: 62, pixelSize: 0.02,
        lensDistortionCenter: (30.6, 26.2), lensDistortionCoefficients: [0, 5, 1.5, 0, 0, 0, 0, 0],
        inverseLensDistortionCoefficients: [0, -6, -1, 0.1, 0, 0, 0, 0])

    /// `0.01·Σ cₖ·((s·r)²)ᵏ`, the magnification at `r` reference pixels.
    func magnification(_ coefficients: [Double], pixelSize: Double, radius: Double) -> Double {
        let x = pixelSize * radius * pixelSize * radius
        var power = 1.0, sum = 0.0
        for c in coefficients {
            sum += c * power
            power *= x
        }
        return 0.01 * sum
    }

    /// Apple's point function in float64: table of 42 from the coefficients over the reference
    /// size, centre scaled to `width`×`height` (top-left pixel coordinates in and out).
    func distortedPoint(_ x: Double, _ y: Double, calibration: CameraCalibration, inverse: Bool,
                        width: Double, height: Double) -> (Double, Double) {
        let coefficients = inverse ? calibration.inverseLensDistortionCoefficients : calibration.lensDistortionCoefficients
        let reference = (x: calibration.lensDistortionCenter!.x, y: calibration.lensDistortionCenter!.y)
        let referenceMaximum = hypot(max(reference.x, calibration.referenceWidth - reference.x),
                                     max(reference.y, calibration.referenceHeight - reference.y))
        let table = (0..<42).map { magnification(coefficients, pixelSize: calibration.pixelSize!, radius: referenceMaximum * Double($0) / 41) }
        let c = (x: reference.x * width / calibration.referenceWidth, y: reference.y * height / calibration.referenceHeight)
        let maximum = hypot(max(c.x, width - c.x), max(c.y, height - c.y))
        let v = (x: x - c.x, y: y - c.y)
        let r = hypot(v.x, v.y)
        var m = table[41]
        if r < maximum {
            let value = r * 41 / maximum
            let index = Int(value), fraction = value - Double(index)
            m = (1 - fraction) * table[index] + fraction * table[index + 1]
        }
        return (c.x + v.x * (1 + m), c.y + v.y * (1 + m))
    }

    func testMatchesApplesPointFunctionWithBothTables() throws {
        let source = try GeometrySource(width: 41, height: 31, seed: 29)
        for inverse in [false, true] {
            // The calibration as it is (FilterValueConvertible), as Core Image takes its AVCameraCalibrationData.
            let image = try source.image.applyingFilter("CICameraCalibrationLensCorrection", parameters: [
                "inputAVCameraCalibrationData": synthetic, "inputUseInverseLookUpTable": inverse])
            XCTAssertEqual(image.extent, source.image.extent)
            var moved = 0.0
            let error = try largestError(image, rect: Rect(x: -3, y: -3, width: 47, height: 37)) { i, j in
                let x = Double(i) + 0.5, y = Double(j) + 0.5
                guard x > 0, x < 41, y > 0, y < 31 else { return [0, 0, 0, 0] }
                // The reference works from the top left; the engine's y is up.
                let q = self.distortedPoint(x, 31 - y, calibration: self.synthetic, inverse: inverse, width: 41, height: 31)
                moved = max(moved, hypot(q.0 - x, q.1 - (31 - y)))
                return source.bilinear(q.0, 31 - q.1)
            }
            XCTAssertLessThan(error, 2e-3, "inverse \(inverse)")
            XCTAssertGreaterThan(moved, 2, "the synthetic distortion moves pixels by pixels (inverse \(inverse))")
        }
    }

    /// Core Image's categories and keys (its calibration input has no default: a recipe takes the photo's).
    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CICameraCalibrationLensCorrection"])
        let input = try FilterRegistry.standard.descriptor(named: "CICameraCalibrationLensCorrection").input("inputUseInverseLookUpTable")
        guard case .bool(false)? = input?.defaultValue else { return XCTFail("inputUseInverseLookUpTable defaults to false") }
    }

    func testBadCalibrationsAreErrorsNamingTheInput() throws {
        let image = try GeometrySource(width: 8, height: 6).image
        func message(_ calibration: CameraCalibration, image: Image) -> String {
            do {
                _ = try image.applyingFilter("CICameraCalibrationLensCorrection", parameters: ["inputAVCameraCalibrationData": .cameraCalibration(calibration)])
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        var noCentre = synthetic
        noCentre.lensDistortionCenter = nil
        XCTAssertTrue(message(noCentre, image: image).contains("inputAVCameraCalibrationData"), message(noCentre, image: image))
        XCTAssertTrue(message(noCentre, image: image).contains("no lens distortion centre"), message(noCentre, image: image))
        var short = synthetic
        short.inverseLensDistortionCoefficients = [0, 1, 2, 3, 4]
        XCTAssertTrue(message(short, image: image).contains("InverseLensDistortionCoefficients has 5 values, not 8"), message(short, image: image))
        var noPixelSize = synthetic
        noPixelSize.pixelSize = nil
        XCTAssertTrue(message(noPixelSize, image: image).contains("pixel size"), message(noPixelSize, image: image))
        XCTAssertTrue(message(synthetic, image: image.clampedToExtent()).contains("infinite"), message(synthetic, image: image.clampedToExtent()))
        XCTAssertThrowsError(try image.applyingFilter("CICameraCalibrationLensCorrection", parameters: [:])) { error in
            XCTAssertTrue("\(error)".contains("inputAVCameraCalibrationData"), "\(error)")
        }
    }

    /// The acceptance check on every real calibration in ../shared/testdata/depth: dots of a grid
    /// over the whole photo are drawn where the photo's lens put them (the forward coefficients,
    /// evaluated in float64), the filter undoes that with the forward table, and each dot's centroid
    /// must land within half a pixel of where the rectilinear grid has it. The inverse table run on
    /// the rectilinear grid must move each dot to the point the inverse coefficients send onto it
    /// (solved in float64); how far that is from where the lens put it is Apple's fit of the
    /// inverse (0.1 px on the iPhone 7 Plus and X, 1.3 px at these points on the iPhone 13 Pro), printed.
    func testUndoesTheRealPhotosDistortionToHalfAPixel() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/testdata/depth")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw XCTSkip("no real depth photos at \(folder.path)")
        }
        var calibrated = 0, largestShift = 0.0
        for name in names.sorted() where name.hasSuffix(".jpg") || name.hasSuffix(".heic") {
            let path = folder.appendingPathComponent(name).path
            guard let photo = try? DepthPhoto(contentsOf: path), photo.depthMapInfo != nil,
                  let calibration = try photo.depthData().calibration else { continue }
            XCTAssertNil(calibration.lensDistortionProblem, name)
            calibrated += 1
            let width = Int(calibration.referenceWidth), height = Int(calibration.referenceHeight)
            let stepX = Double(width - 80) / 3, stepY = Double(height - 80) / 4
            var grid: [(Double, Double)] = []
            for row in 0..<5 {
                for column in 0..<4 { grid.append((40 + Double(column) * stepX, 40 + Double(row) * stepY)) }
            }
            let distorted = grid.map { distortedPoint($0.0, $0.1, calibration: calibration, inverse: false,
                                                      width: Double(width), height: Double(height)) }
            // Exact (no table) positions the lens gives: the test's expectations.
            let lens = grid.map { p -> (Double, Double) in
                let c = calibration.lensDistortionCenter!
                let m = magnification(calibration.lensDistortionCoefficients, pixelSize: calibration.pixelSize!,
                                      radius: hypot(p.0 - c.x, p.1 - c.y))
                return (c.x + (p.0 - c.x) * (1 + m), c.y + (p.1 - c.y) * (1 + m))
            }
            for (a, b) in zip(distorted, lens) { XCTAssertLessThan(hypot(a.0 - b.0, a.1 - b.1), 0.1, "\(name): the table interpolates the polynomial") }
            // Where the inverse table's point function lands on each grid point: p = c + (q − c)/(1 + m(|p − c|)).
            let inverted = grid.map { q -> (Double, Double) in
                let c = calibration.lensDistortionCenter!
                var p = q
                for _ in 0..<50 {
                    let m = magnification(calibration.inverseLensDistortionCoefficients, pixelSize: calibration.pixelSize!,
                                          radius: hypot(p.0 - c.x, p.1 - c.y))
                    p = (c.x + (q.0 - c.x) / (1 + m), c.y + (q.1 - c.y) / (1 + m))
                }
                return p
            }
            let fit = zip(inverted, lens).map { hypot($0.0 - $1.0, $0.1 - $1.1) }.max() ?? 0
            let shifts = zip(grid, lens).map { hypot($0.0 - $1.0, $0.1 - $1.1) }
            largestShift = max(largestShift, shifts.max() ?? 0)

            let corrected = try dots(at: lens, width: width, height: height)
                .applyingFilter("CICameraCalibrationLensCorrection", parameters: ["inputAVCameraCalibrationData": .cameraCalibration(calibration)])
            let redistorted = try dots(at: grid, width: width, height: height)
                .applyingFilter("CICameraCalibrationLensCorrection", parameters: [
                    "inputAVCameraCalibrationData": .cameraCalibration(calibration), "inputUseInverseLookUpTable": .bool(true)])
            var worst = (corrected: 0.0, distorted: 0.0)
            for (index, point) in grid.enumerated() {
                let found = try centroid(of: corrected, near: point, height: height)
                worst.corrected = max(worst.corrected, hypot(found.0 - point.0, found.1 - point.1))
                let again = try centroid(of: redistorted, near: inverted[index], height: height)
                worst.distorted = max(worst.distorted, hypot(again.0 - inverted[index].0, again.1 - inverted[index].1))
            }
            print("\(name): lens shift up to \(shifts.max() ?? 0) px (corners \(shifts[0]), \(shifts[3]), \(shifts[16]), \(shifts[19])); "
                  + "corrected dots within \(worst.corrected) px, inverse table within \(worst.distorted) px (its fit to the lens: \(fit) px)")
            XCTAssertLessThan(worst.corrected, 0.5, "\(name): the forward table undoes the lens")
            XCTAssertLessThan(worst.distorted, 0.5, "\(name): the inverse table moves dots as its coefficients say")
        }
        guard calibrated > 0 else { throw XCTSkip("no photo in \(folder.path) has a camera calibration") }
        XCTAssertGreaterThan(largestShift, 2, "some real lens moves a dot by more than 2 px, so the check can fail")
    }

    /// A transparent `width`×`height` image with a Gaussian dot (σ = 2 px, white, its alpha the
    /// weight) at each point, given from the top left.
    func dots(at points: [(Double, Double)], width: Int, height: Int) throws -> Image {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for (x, y) in points {
            for row in max(0, Int(y) - 8)...min(height - 1, Int(y) + 8) {
                for column in max(0, Int(x) - 8)...min(width - 1, Int(x) + 8) {
                    let d2 = pow(Double(column) + 0.5 - x, 2) + pow(Double(row) + 0.5 - y, 2)
                    let offset = (row * width + column) * 4
                    bytes[offset] = 255
                    bytes[offset + 1] = 255
                    bytes[offset + 2] = 255
                    bytes[offset + 3] = UInt8((255 * exp(-d2 / 8)).rounded())
                }
            }
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .straight, colorSpace: nil, bytes: bytes))
    }

    /// The alpha-weighted centroid of `image` within 10 px of `point` (from the top left), from the top left.
    func centroid(of image: Image, near point: (Double, Double), height: Int) throws -> (Double, Double) {
        // Working-space pixels i0..<i0+21, j0..<j0+21 (y up); rendered rows run from the top.
        let (i0, j0) = (Int(point.0) - 10, height - Int(point.1) - 10)
        let rendered = try exactContext(tileSize: 64).render(image, rect: Rect(x: Double(i0), y: Double(j0), width: 21, height: 21), format: .rgbaf)
        var (sum, sx, sy) = (0.0, 0.0, 0.0)
        for j in 0..<21 {
            for i in 0..<21 {
                let a = Double(rendered.pixel(x: i, row: 20 - j)[3])
                sum += a
                sx += a * (Double(i0 + i) + 0.5)
                sy += a * (Double(height) - (Double(j0 + j) + 0.5))
            }
        }
        return (sx / sum, sy / sum)
    }
}
