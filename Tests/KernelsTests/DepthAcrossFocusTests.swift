@testable import GraphEngine
import Kernels
import XCTest

/// CIDepthBlurEffect's value across the focus plane (``DepthAcrossFocus``) against a float64
/// statement of its rule, on a map with a ramp from behind the focus to in front of it (lifted) and
/// an in-focus plateau between the two (kept), read through extremes at half the map's size.
final class DepthAcrossFocusTests: XCTestCase {
    static let width = 40, height = 30, probe = 2

    /// Rows 0–14: behind (−6) up to column 14, a ramp of 3.6 px per column through the focus from
    /// column 15 to 19, in front (+12) from column 20. Rows 15–29: behind up to column 13, an
    /// in-focus plateau (0) over columns 14–23, in front from column 24.
    static func value(_ i: Int, _ j: Int) -> Double {
        if j < 15 { return i < 15 ? -6 : i >= 20 ? 12 : -6 + 3.6 * Double(i - 14) }
        return i < 14 ? -6 : i < 24 ? 0 : 12
    }

    /// The extremes at half size, `(max c, −min c)`: both sides blurred, except over the ramp's first
    /// eight rows (map columns 7–8, rows 0–3), where the front side carries 1.5 px only.
    static func extremes(_ x: Int, _ y: Int) -> SIMD4<Double> { SIMD4((7...8).contains(x) && y < 4 ? 1.5 : 12, 6, 0, 1) }

    /// The rule: the value, or the larger of it and the nearer extreme where the value changes sign
    /// between the pixels `probe` either side (0 outside the map) and both extremes pass 2 px.
    static func expected(_ i: Int, _ j: Int) -> Double {
        func at(_ x: Int, _ y: Int) -> Double { x < 0 || y < 0 || x >= width || y >= height ? 0 : value(x, y) }
        let p = probe, v = value(i, j), e = extremes(i / 2, j / 2)
        let crosses = at(i - p, j) * at(i + p, j) < 0 || at(i, j - p) * at(i, j + p) < 0
        return crosses && e.x > 2 && e.y > 2 ? max(e.x, v) : v
    }

    static func data(width: Int, height: Int, _ value: (Int, Int) -> SIMD4<Double>) throws -> Image {
        var floats: [Float] = []
        for j in (0..<height).reversed() { for i in 0..<width { floats += (0..<4).map { Float(value(i, j)[$0]) } } }
        let bytes = floats.withUnsafeBytes { Array($0) }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil, bytes: bytes))
    }

    func across() throws -> Image {
        let values = try Self.data(width: Self.width, height: Self.height) { let c = Self.value($0, $1); return SIMD4(c, c, c, 1) }
        let extremes = try Self.data(width: Self.width / 2, height: Self.height / 2, Self.extremes)
        let pass = DepthAcrossFocus(probe: Self.probe, photo: values.extent, map: extremes.extent, filterName: "across")
        return values.applying(pass, with: [extremes.clampedToExtent()])
    }

    func testRampThroughTheFocusGoesToTheNearerSideAndPlateausStay() throws {
        let image = try across()
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 40, height: 30))
        try assertMatches(image, image.extent, tolerance: 1e-6) { x, y in  // Float32 values against float64
            let c = Self.expected(x, y)
            return SIMD4(c, c, c, 1)
        }
        // The statement's own cases: the ramp's pixels around the crossing (−2.4 at column 15, 1.2 at
        // 16) take the front's 12; the in-focus plateau's middle and both flat sides keep their values;
        // where the front carries under 2 px (rows 0–7) the ramp stays as it is.
        XCTAssertEqual(Self.expected(15, 10), 12)
        XCTAssertEqual(Self.expected(16, 10), 12)
        XCTAssertEqual(Self.expected(18, 20), 0)
        XCTAssertEqual(Self.expected(10, 10), -6)
        XCTAssertEqual(Self.expected(30, 10), 12)
        XCTAssertEqual(Self.expected(15, 3), -2.4, accuracy: 1e-12)
    }

    func testTilesAndReferenceEvaluatorAgree() throws {
        try assertTilesAndReferenceAgree(try across())
    }
}
