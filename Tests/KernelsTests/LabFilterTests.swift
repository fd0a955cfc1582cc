import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The Lab conversions and ΔE 1994 (``LabFilters``) against float64 CIE formulas written here from
/// the standard; the inverse conversion is held to the round trip.
/// L runs to 100 and a, b to about ±128, so Float32 errs by about 1e-4 there (the cube root's
/// relative 1e-7 times 116·500); the tolerance is 2e-3 in Lab units, 2e-5 after the round trip.
final class LabFilterTests: XCTestCase {
    let m: [[Double]] = [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
    let white = [0.95047, 1.0, 1.08883]

    func source() throws -> GeometrySource { try GeometrySource(width: 23, height: 17, seed: 53) }
    func unpremultiplied(_ p: [Double]) -> [Double] { p[3] > 0 ? [p[0] / p[3], p[1] / p[3], p[2] / p[3]] : [0, 0, 0] }

    func lab(_ c: [Double]) -> [Double] {
        let xyz = (0..<3).map { r in (0..<3).map { m[r][$0] * c[$0] }.reduce(0, +) / white[r] }
        let d = 6.0 / 29
        let f = xyz.map { $0 > d * d * d ? cbrt($0) : $0 / (3 * d * d) + 4.0 / 29 }
        return [116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])]
    }

    func testRGBToLabAndBack() throws {
        let s = try source()
        for normalized in [false, true] {
            let image = try Image.filter("CIConvertRGBtoLab", parameters: ["inputImage": .image(s.image), "inputNormalize": .bool(normalized)])
            XCTAssertEqual(image.extent, s.image.extent)
            let error = try largestError(image, rect: Rect(x: 0, y: 0, width: 23, height: 17)) { i, j in
                let p = s.pixel(i, j), l = self.lab(self.unpremultiplied(p))
                return (normalized ? [l[0] / 100, (l[1] + 128) / 256, (l[2] + 128) / 256] : l) + [p[3]]
            }
            XCTAssertLessThan(error, normalized ? 2e-5 : 2e-3, "to Lab, normalised \(normalized)")
            let back = try Image.filter("CIConvertLabToRGB", parameters: ["inputImage": .image(image), "inputNormalize": .bool(normalized)])
            let round = try largestError(back, rect: Rect(x: 0, y: 0, width: 23, height: 17)) { i, j in s.pixel(i, j) }
            XCTAssertLessThan(round, 2e-5, "round trip, normalised \(normalized)")
        }
        // Known values: white is (100, 0, 0), sRGB red (linear 1, 0, 0) is about (53.24, 80.09, 67.20).
        XCTAssertEqual(lab([1, 1, 1])[0], 100, accuracy: 1e-3)
        XCTAssertEqual(lab([1, 0, 0])[1], 80.09, accuracy: 0.01)
    }

    func testDeltaE1994() throws {
        let s = try source(), t = try GeometrySource(width: 23, height: 17, seed: 59)
        let image = try Image.filter("CILabDeltaE", parameters: ["inputImage": .image(s.image), "inputImage2": .image(t.image)])
        XCTAssertEqual(image.extent, s.image.extent)
        let error = try largestError(image, rect: Rect(x: 0, y: 0, width: 23, height: 17)) { i, j in
            let p = self.lab(self.unpremultiplied(s.pixel(i, j))), q = self.lab(self.unpremultiplied(t.pixel(i, j)))
            let c1 = hypot(p[1], p[2]), c2 = hypot(q[1], q[2])
            let dl = p[0] - q[0], dc = c1 - c2, da = p[1] - q[1], db = p[2] - q[2]
            let dh2 = max(da * da + db * db - dc * dc, 0)
            let e = sqrt(dl * dl + pow(dc / (1 + 0.045 * c1), 2) + dh2 / pow(1 + 0.015 * c1, 2))
            return [e, e, e, 1]
        }
        XCTAssertLessThan(error, 2e-3)
    }

    func testEveryKernelCompiles() {
        for (name, kernel) in [("to Lab", LabFilters.rgbToLabKernel), ("to RGB", LabFilters.labToRGBKernel), ("ΔE", LabFilters.deltaEKernel)] {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIConvertRGBtoLab", "CIConvertLabToRGB", "CILabDeltaE"])
    }
}
