import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIColorCurves (``ColorCurves``) against a float64 piecewise-linear lookup written here. The table
/// is read by bilinear sampling at Float32 positions (error about 1e-6 of an entry step), hence 1e-4.
final class ColorCurvesTests: XCTestCase {
    func testCurves() throws {
        let s = try GeometrySource(width: 19, height: 13, seed: 79)
        let table: [[Double]] = [[0.1, 0.9, 0.0], [0.3, 0.2, 0.25], [0.2, 0.6, 0.5], [0.9, 0.1, 0.75], [1.0, 0.4, 1.0]]
        let lo = -0.1, hi = 1.2
        let image = try Image.filter("CIColorCurves", parameters: [
            "inputImage": .image(s.image), "inputCurvesData": .floats(table.flatMap { $0.map(Float.init) }),
            "inputCurvesDomain": .vector([lo, hi])])
        XCTAssertEqual(image.extent, s.image.extent)
        let error = try largestError(image, rect: Rect(x: 0, y: 0, width: 19, height: 13)) { i, j in
            let p = s.pixel(i, j)
            return (0..<3).map { ch -> Double in
                let u = min(max((p[ch] / p[3] - lo) / (hi - lo), 0), 1) * 4
                let k = min(Int(u.rounded(.down)), 3), f = u - Double(k)
                return (table[k][ch] * (1 - f) + table[k + 1][ch] * f) * p[3]
            } + [p[3]]
        }
        XCTAssertLessThan(error, 1e-4)
        let identity = try Image.filter("CIColorCurves", parameters: ["inputImage": .image(s.image)])
        XCTAssertLessThan(try largestError(identity, rect: Rect(x: 0, y: 0, width: 19, height: 13)) { s.pixel($0, $1) }, 1e-5)
        XCTAssertThrowsError(try Image.filter("CIColorCurves", parameters: ["inputImage": .image(s.image), "inputCurvesData": .floats([0, 1])]))
        XCTAssertThrowsError(try Image.filter("CIColorCurves", parameters: ["inputImage": .image(s.image), "inputCurvesDomain": .vector([1, 1])]))
    }

    func testKernelCompilesAndAttributesMatch() throws {
        XCTAssertNil(ColorCurves.kernel.compileError, "\(String(describing: ColorCurves.kernel.compileError))")
        try assertAttributes(["CIColorCurves"])
    }
}
