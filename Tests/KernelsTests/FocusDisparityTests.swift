import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEFocusDisparity against a float64 statement of its definition (``FocusDisparity``'s doc
/// comment: 256 bins over the map's finite range, windows of ±8 bins, the nearest run of windows
/// holding a quarter of the area each, the mean inside them) and against what that definition is for: the depth of
/// the cluster a user would call the subject.
final class FocusDisparityTests: XCTestCase {
    static let (width, height) = (40, 30)
    /// The focus rectangle of most tests: x 10..<30, y 6..<24 of the 40×30 map (360 pixels).
    static let area = Rect(x: 0.25, y: 0.2, width: 0.5, height: 0.6)

    /// A deterministic noise in [−amplitude, amplitude] (eleven levels, mean 0 over a row of 11).
    static func noise(_ x: Int, _ y: Int, amplitude: Double) -> Double {
        Double((x * 37 + y * 91) % 11 - 5) / 5 * amplitude
    }

    /// A map that is `inside(x, y)` in the test area and a ramp from 0.5 to 2.0 outside it (so the
    /// map's finite range, which sets the bins, is 0.5…2.0 whatever the area holds).
    static func map(_ inside: @escaping (Int, Int) -> Double) -> (Int, Int) -> Double {
        { x, y in
            (10..<30).contains(x) && (6..<24).contains(y) ? inside(x, y) : 0.5 + 1.5 * Double(x + y * width) / Double(width * height - 1)
        }
    }

    func focus(_ value: (Int, Int) -> Double, _ rect: Rect? = area) throws -> [Float] {
        let image = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height) { x, y in
            let v = value(x, y)
            return SIMD4(v, v, v, 1)
        }
        var parameters: [String: FilterValue] = [:]
        if let rect { parameters["inputFocusRect"] = .rect(rect) }
        let f = try image.applyingFilter("GEFocusDisparity", parameters: parameters)
        XCTAssertEqual(f.extent, Rect(x: 0, y: 0, width: 1, height: 1))
        let buffer = try exactContext(threads: 2).render(f, format: .rgbaf, colorSpace: .data)
        return buffer.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The definition in float64, over the finite values with x in x0..<x1, y in y0..<y1 (the whole
    /// map's when there are none), the bins over the map's finite range.
    static func expected(_ value: (Int, Int) -> Double, _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> Double {
        var all: [Double] = [], values: [Double] = []
        for y in 0..<height {
            for x in 0..<width where value(x, y).isFinite {
                all.append(value(x, y))
                if x >= x0, x < x1, y >= y0, y < y1 { values.append(value(x, y)) }
            }
        }
        if values.isEmpty { values = all }
        guard let lo = all.min(), let hi = all.max(), !values.isEmpty else { return 0 }
        guard hi > lo else { return values.reduce(0, +) / Double(values.count) }
        func bin(_ v: Double) -> Int { min(255, Int(((v - lo) / (hi - lo) * 256).rounded(.down))) }
        let bins = values.map(bin)
        let mass = (0..<256).map { c in bins.filter { abs($0 - c) <= 8 }.count }
        let large = (0..<256).filter { Double(mass[$0]) >= Double(values.count) / 4 }
        var (first, last) = (0, 0)
        if let nearest = large.last {
            (first, last) = (nearest, nearest)
            while large.contains(first - 1) { first -= 1 }
        } else {
            let top = mass.max() ?? 0
            last = (0..<256).last { mass[$0] == top } ?? 0
            first = last
        }
        let chosen = zip(values, bins).filter { $0.1 >= first - 8 && $0.1 <= last + 8 }.map(\.0)
        return chosen.reduce(0, +) / Double(chosen.count)
    }

    /// Two depths side by side in the area: x < split at `left`, the rest at `right`, each with
    /// ±0.02 of noise (well inside a window: ±8 bins of 1.5/256 are ±0.047).
    static func twoDepths(split: Int, left: Double, right: Double) -> (Int, Int) -> Double {
        map { x, y in (x < split ? left : right) + noise(x, y, amplitude: 0.02) }
    }

    /// The mean of `value` over x in x0..<x1, y in 6..<24 (finite values).
    static func mean(_ value: (Int, Int) -> Double, _ x0: Int, _ x1: Int) -> Double {
        var values: [Double] = []
        for y in 6..<24 { for x in x0..<x1 where value(x, y).isFinite { values.append(value(x, y)) } }
        return values.reduce(0, +) / Double(values.count)
    }

    func testTheNearerClusterWinsWhenItHoldsAQuarterOfTheArea() throws {
        // 40% far (0.8), 60% near (1.6): the near cluster, the mean of its values. The cluster
        // lies in one window, so f is its mean to Float precision; its noise averages to 1.6
        // within 0.005.
        let farLeft = Self.twoDepths(split: 18, left: 0.8, right: 1.6)
        var f = try focus(farLeft)
        XCTAssertEqual(Double(f[0]), Self.expected(farLeft, 10, 30, 6, 24), accuracy: 1e-6)
        XCTAssertEqual(Double(f[0]), Self.mean(farLeft, 18, 30), accuracy: 1e-6)
        XCTAssertEqual(Double(f[0]), 1.6, accuracy: 0.005)
        XCTAssertEqual([f[1], f[2], f[3]], [f[0], f[0], 1])
        // 60% near, 40% far: near. 30% near: still near (a subject in front of a larger background).
        for split in [22, 16] {
            let nearLeft = Self.twoDepths(split: split, left: 1.6, right: 0.8)
            f = try focus(nearLeft)
            XCTAssertEqual(Double(f[0]), Self.expected(nearLeft, 10, 30, 6, 24), accuracy: 1e-6)
            XCTAssertEqual(Double(f[0]), Self.mean(nearLeft, 10, split), accuracy: 1e-6, "near on \(split - 10) of 20 columns")
        }
        // 20% near: too small a cluster, the far one.
        let smallNear = Self.twoDepths(split: 14, left: 1.6, right: 0.8)
        f = try focus(smallNear)
        XCTAssertEqual(Double(f[0]), Self.expected(smallNear, 10, 30, 6, 24), accuracy: 1e-6)
        XCTAssertEqual(Double(f[0]), Self.mean(smallNear, 14, 30), accuracy: 1e-6)
    }

    func testAUnimodalNoisyAreaGivesItsMean() throws {
        // ±0.1 around 1.2 (wider than a window, flat: eleven levels 0.02 apart): every window
        // holding a quarter of the area is in the run, whose windows cover the area, so f is its mean.
        let noisy = Self.map { x, y in 1.2 + Self.noise(x, y, amplitude: 0.1) }
        let f = Double(try focus(noisy)[0])
        XCTAssertEqual(f, Self.expected(noisy, 10, 30, 6, 24), accuracy: 1e-6)
        XCTAssertEqual(f, Self.mean(noisy, 10, 30), accuracy: 1e-6)
    }

    func testNaNHolesAreSkipped() throws {
        // Every seventh pixel a hole, a third of the rest far: the holes move nothing.
        let holes = Self.map { x, y in
            (x + 3 * y) % 7 == 0 ? .nan : (x < 16 ? 0.8 : 1.6) + Self.noise(x, y, amplitude: 0.02)
        }
        let f = Double(try focus(holes)[0])
        XCTAssertEqual(f, Self.expected(holes, 10, 30, 6, 24), accuracy: 1e-6)
        XCTAssertEqual(f, Self.mean(holes, 16, 30), accuracy: 1e-6)
    }

    func testAnAreaWithoutAFiniteValueFallsBackToTheWholeMapAndAMapWithoutOneToZero() throws {
        let hole = Self.map { _, _ in .nan }
        let f = Double(try focus(hole)[0])
        XCTAssertEqual(f, Self.expected(hole, 10, 30, 6, 24), accuracy: 1e-6)
        XCTAssertEqual(f, Self.expected(hole, 0, Self.width, 0, Self.height), accuracy: 1e-6)
        XCTAssertEqual(try focus({ _, _ in .nan })[0], 0)
        // A constant map (no range): its value.
        XCTAssertEqual(try focus({ _, _ in 0.75 })[0], 0.75)
    }

    func testDefaultIsTheCentre() throws {
        // The centre tenth: x 18...22, y 13.5...16.5 → 18..<22, 13..<17.
        let value = Self.twoDepths(split: 20, left: 0.8, right: 1.6)
        XCTAssertEqual(Double(try focus(value, nil)[0]), Self.expected(value, 18, 22, 13, 17), accuracy: 1e-6)
    }

    func testARectangleInPixelsIsAnErrorWithTheDivision() throws {
        let value = Self.map { _, _ in 1 }
        XCTAssertThrowsError(try focus(value, Rect(x: 100, y: 200, width: 300, height: 300))) {
            XCTAssertEqual("\($0)", "GEFocusDisparity.inputFocusRect: inputFocusRect is normalised (0…1, lower-left origin); [100, 200, 300, 300] looks like pixels: divide by the map's size (40×30) → [2.5, 6.667, 7.5, 10]")
        }
        XCTAssertThrowsError(try focus(value, Rect(x: 0.8, y: 0.5, width: 0.3, height: 0.2))) {
            XCTAssertTrue("\($0)".hasSuffix("[0.8, 0.5, 0.3, 0.2] reaches outside the image"), "\($0)")
        }
        // Within the tolerance of 0.01: accepted.
        XCTAssertNoThrow(try focus(value, Rect(x: 0.5, y: -0.005, width: 0.505, height: 0.5)))
    }

    func testAnInfiniteMapIsAnError() throws {
        let map = try DepthBlurEffectTests.disparity(step: 4).clampedToExtent()
        XCTAssertThrowsError(try map.applyingFilter("GEFocusDisparity")) {
            XCTAssertTrue("\($0)".contains("finite, non-empty extent"), "\($0)")
        }
    }
}
