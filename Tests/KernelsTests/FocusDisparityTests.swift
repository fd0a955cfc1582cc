import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEFocusDisparity against a float64 statement of its formula: the interquartile mean of the
/// map's red values (NaN holes skipped) over the focus rectangle scaled to the map and rounded out.
final class FocusDisparityTests: XCTestCase {
    static let (width, height) = (40, 30)
    /// A map with depth steps, a gradient, and NaN holes on every seventh pixel.
    static func value(_ x: Int, _ y: Int) -> Double {
        if (x + 3 * y) % 7 == 0 { return .nan }
        return (x < 24 ? 0.5 : 1.5) + 0.01 * Double(y) + 0.003 * Double(x * x % 11)
    }

    func focus(_ rect: Rect?) throws -> [Float] {
        let map = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height) { x, y in
            let v = Self.value(x, y)
            return SIMD4(v, v, v, 1)
        }
        var parameters: [String: FilterValue] = [:]
        if let rect { parameters["inputFocusRect"] = .rect(rect) }
        let f = try map.applyingFilter("GEFocusDisparity", parameters: parameters)
        XCTAssertEqual(f.extent, Rect(x: 0, y: 0, width: 1, height: 1))
        let buffer = try exactContext(threads: 2).render(f, format: .rgbaf, colorSpace: .data)
        return buffer.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The interquartile mean of the finite values with x in x0..<x1, y in y0..<y1 (y up).
    func expected(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> Double {
        var values: [Double] = []
        for y in y0..<y1 { for x in x0..<x1 where Self.value(x, y).isFinite { values.append(Self.value(x, y)) } }
        values.sort()
        let middle = values[(values.count / 4)..<(values.count - values.count / 4)]
        return middle.reduce(0, +) / Double(middle.count)
    }

    func testInterquartileMeanOverTheRectangle() throws {
        // (0.3, 0.45, 0.55, 0.2) of 40x30: x 12...34, y 13.5...19.5, rounded out to 12..<34, 13..<20;
        // it straddles the depth step at x = 24, which the middle half keeps apart from the ends.
        let f = try focus(Rect(x: 0.3, y: 0.45, width: 0.55, height: 0.2))
        XCTAssertEqual(Double(f[0]), expected(12, 34, 13, 20), accuracy: 1e-6)
        XCTAssertEqual(f[0], f[1])
        XCTAssertEqual(f[0], f[2])
        XCTAssertEqual(f[3], 1)
    }

    func testDefaultIsTheCentreAndAnEmptyAreaFallsBackToTheWholeMap() throws {
        // The centre tenth: x 18...22, y 13.5...16.5 → 18..<22, 13..<17.
        XCTAssertEqual(Double(try focus(nil)[0]), expected(18, 22, 13, 17), accuracy: 1e-6)
        // Outside the map: nothing finite there, so the whole map's.
        XCTAssertEqual(Double(try focus(Rect(x: 2, y: 2, width: 0.1, height: 0.1))[0]),
                       expected(0, Self.width, 0, Self.height), accuracy: 1e-6)
    }

    func testAnInfiniteMapIsAnError() throws {
        let map = try DepthBlurEffectTests.disparity(step: 4).clampedToExtent()
        XCTAssertThrowsError(try map.applyingFilter("GEFocusDisparity")) {
            XCTAssertTrue("\($0)".contains("finite, non-empty extent"), "\($0)")
        }
    }
}
