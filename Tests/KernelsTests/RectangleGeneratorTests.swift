import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The rectangle generators (``RectangleGenerators``) against float64 formulas written here: the
/// rounded distance with the p-norm corner, the box coverage, and Foundation's `erf`. The colour is
/// linear, so the test context's numbers are the premultiplied colour times the coverage.
final class RectangleGeneratorTests: XCTestCase {
    let color = [0.9, 0.3, 0.1, 0.8]
    let e = Rect(x: 3, y: -2, width: 30, height: 20)

    func parameters(_ extra: [String: FilterValue]) -> [String: FilterValue] {
        var p: [String: FilterValue] = ["inputExtent": .rect(e), "inputColor": .color(color, colorSpace: .linearSRGB)]
        for (k, v) in extra { p[k] = v }
        return p
    }

    /// `q = |p − c| − (h − r)`, `d = ‖max(q, 0)‖ₙ + min(max(q.x, q.y), 0) − r`, `n = 2 + 2s`.
    func distance(_ x: Double, _ y: Double, radius: Double, smoothness: Double) -> Double {
        let hx = e.width / 2, hy = e.height / 2, r = min(radius, hx, hy), n = 2 + 2 * smoothness
        let qx = abs(x - (e.x + hx)) - (hx - r), qy = abs(y - (e.y + hy)) - (hy - r)
        let outside = pow(pow(max(qx, 0), n) + pow(max(qy, 0), n), 1 / n)
        return outside + min(max(qx, qy), 0) - r
    }

    func check(_ image: Image, extent: Rect, tolerance: Double = 2e-5, _ message: String = "",
               _ coverage: (Double, Double) -> Double, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(image.extent, extent, message, file: file, line: line)
        let c = premultiplied(color)
        let error = try largestError(image, rect: extent.outset(dx: 3, dy: 3)) { i, j in
            // Pixels overlapping the extent are rendered (a fractional extent covers part of a pixel).
            let x = Double(i) + 0.5, y = Double(j) + 0.5
            guard x + 0.5 > extent.minX, x - 0.5 < extent.maxX, y + 0.5 > extent.minY, y - 0.5 < extent.maxY else { return [0, 0, 0, 0] }
            let k = coverage(x, y)
            return c.map { $0 * k }
        }
        XCTAssertLessThan(error, tolerance, message, file: file, line: line)
    }

    func testRoundedRectangle() throws {
        for (radius, smoothness) in [(6.0, 0.0), (6.0, 0.5), (0.0, 0.0), (40.0, 1.0)] {
            let image = try Image.filter("CIRoundedRectangleGenerator", parameters: parameters([
                "inputRadius": .number(radius), "inputSmoothness": .number(smoothness)]))
            try check(image, extent: e, "radius \(radius) smoothness \(smoothness)") { x, y in
                min(max(0.5 - distance(x, y, radius: radius, smoothness: smoothness), 0), 1)
            }
        }
    }

    func testRoundedRectangleStroke() throws {
        for width in [4.0, 0.5] {
            let image = try Image.filter("CIRoundedRectangleStrokeGenerator", parameters: parameters([
                "inputRadius": .number(7), "inputSmoothness": .number(0.25), "inputWidth": .number(width)]))
            try check(image, extent: e.outset(dx: width / 2, dy: width / 2), "width \(width)") { x, y in
                let d = distance(x, y, radius: 7, smoothness: 0.25)
                return min(max(0.5 - d + width / 2, 0), 1) - min(max(0.5 - d - width / 2, 0), 1)
            }
        }
    }

    func testBlurredRectangle() throws {
        for sigma in [2.0, 0.0] {
            let image = try Image.filter("CIBlurredRectangleGenerator", parameters: parameters(["inputSigma": .number(sigma)]))
            let k = 1 / (2 * (sigma * sigma + 1.0 / 12)).squareRoot()
            try check(image, extent: e.outset(dx: 3 * sigma, dy: 3 * sigma), "sigma \(sigma)") { x, y in
                0.25 * (erf(k * (x - e.minX)) - erf(k * (x - e.maxX))) * (erf(k * (y - e.minY)) - erf(k * (y - e.maxY)))
            }
        }
    }

    func testBlurredRoundedRectangle() throws {
        let sigma = 2.0, k = 1 / (2 * (sigma * sigma + 1.0 / 12)).squareRoot()
        let image = try Image.filter("CIBlurredRoundedRectangleGenerator", parameters: parameters([
            "inputRadius": .number(5), "inputSmoothness": .number(0.5), "inputSigma": .number(sigma)]))
        try check(image, extent: e.outset(dx: 6, dy: 6)) { x, y in
            0.5 - 0.5 * erf(k * distance(x, y, radius: 5, smoothness: 0.5))
        }
        // Away from the corners of a rectangle wider than 4σ it is CIBlurredRectangleGenerator.
        let box = try Image.filter("CIBlurredRectangleGenerator", parameters: parameters(["inputSigma": .number(sigma)]))
        let row = Rect(x: 0, y: 8, width: 40, height: 1)
        assertPixels(try renderPixels(image, row), try renderPixels(box, row), tolerance: 1e-4)
    }

    func testDefaultsExtentsAndInvalidRectangles() throws {
        let unit = Rect(x: 0, y: 0, width: 100, height: 100)
        XCTAssertEqual(try Image.filter("CIRoundedRectangleGenerator").extent, unit)
        XCTAssertEqual(try Image.filter("CIRoundedRectangleStrokeGenerator").extent, unit.outset(dx: 5, dy: 5))
        XCTAssertEqual(try Image.filter("CIBlurredRectangleGenerator").extent, unit.outset(dx: 30, dy: 30))
        XCTAssertEqual(try Image.filter("CIBlurredRoundedRectangleGenerator").extent, unit.outset(dx: 30, dy: 30))
        for name in RectangleGenerators.all.map(\.name) {
            for bad in [Rect(x: 0, y: 0, width: 0, height: 10), Rect.infinite] {
                XCTAssertThrowsError(try Image.filter(name, parameters: ["inputExtent": .rect(bad)]), name)
            }
        }
        try assertAttributes(RectangleGenerators.all.map(\.name))
    }
}
