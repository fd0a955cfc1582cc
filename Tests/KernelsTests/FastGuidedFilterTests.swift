import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEFastGuidedFilter against a float64 statement of its formula written here, and what the depth
/// recipes use it for: a mask known only coarsely comes back with its edge on the photo's edge.
final class FastGuidedFilterTests: XCTestCase {
    /// sRGB encode of a linear value (the guide luma G).
    func encode(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// Normalised tent weights `max(1 − |i + ½ − u|/w, 0)` of the source pixels i around position u.
    func tent(_ u: Double, halfWidth w: Double) -> [(Int, Double)] {
        let first = Int((u - w - 0.5).rounded(.down)) + 1, last = Int((u + w - 0.5).rounded(.up)) - 1
        let taps = (first...last).map { ($0, max(1 - abs(Double($0) + 0.5 - u) / w, 0)) }
        let sum = taps.reduce(0) { $0 + $1.1 }
        return taps.map { ($0.0, $0.1 / sum) }
    }

    /// A 40×32 guide at (4, −8), a 20×16 mask (mapped onto the guide's extent), s = 4, r = 6
    /// (r/s = 1.5: boxes with half-weight end taps), ε = 0.01, every pixel of the output.
    func testFastGuidedFilterIsItsFormula() throws {
        let source = try TestImage(width: 40, height: 32, seed: 41)
        let mask = try TestImage(width: 20, height: 16, seed: 42)
        let (gx, gy, s, epsilon) = (4, -8, 4.0, 0.01)
        let guide = source.image.transformed(by: AffineTransform(translationX: Double(gx), y: Double(gy)))
        let image = try mask.image.applyingFilter("GEFastGuidedFilter", parameters: [
            "inputGuideImage": .image(guide), "inputRadius": .number(6), "inputEpsilon": .number(epsilon), "inputScale": .number(s)])
        XCTAssertEqual(image.extent, guide.extent)
        // G at guide pixel (x, y), edges repeated.
        func G(_ x: Int, _ y: Int) -> Double { encode(luma(source.clamped(x - gx, y - gy))) }
        // Small pixel (X, Y) is centred on guide position (gx + 4(X + ½), gy + 4(Y + ½)), i.e. mask
        // position 2(X + ½), 2(Y + ½) (the mask has half the guide's pixels per side).
        var small: [SIMD2<Int>: SIMD4<Double>] = [:]
        func pack(_ X: Int, _ Y: Int) -> SIMD4<Double> {
            if let known = small[SIMD2(X, Y)] { return known }
            var i = 0.0, p = 0.0
            for (b, wy) in tent(Double(gy) + s * (Double(Y) + 0.5), halfWidth: s) {
                for (a, wx) in tent(Double(gx) + s * (Double(X) + 0.5), halfWidth: s) { i += wx * wy * G(a, b) }
            }
            for (b, wy) in tent(2 * (Double(Y) + 0.5), halfWidth: 2) {
                for (a, wx) in tent(2 * (Double(X) + 0.5), halfWidth: 2) { p += wx * wy * mask.clamped(a, b)[0] }
            }
            small[SIMD2(X, Y)] = SIMD4(i, i * i, p, i * p)
            return small[SIMD2(X, Y)]!
        }
        // Box of radius 1.5: taps −2…2, the end ones half, over width 4.
        let box = [0.5, 1, 1, 1, 0.5].map { $0 / 4 }
        func mean(_ X: Int, _ Y: Int, _ f: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double> {
            var sum = SIMD4<Double>.zero
            for dy in -2...2 { for dx in -2...2 { sum += box[dx + 2] * box[dy + 2] * f(X + dx, Y + dy) } }
            return sum
        }
        var coefficients: [SIMD2<Int>: SIMD4<Double>] = [:]
        func ab(_ X: Int, _ Y: Int) -> SIMD4<Double> {
            if let known = coefficients[SIMD2(X, Y)] { return known }
            let m = mean(X, Y, pack)
            let a = (m[3] - m[0] * m[2]) / (m[1] - m[0] * m[0] + epsilon)
            coefficients[SIMD2(X, Y)] = SIMD4(a, m[2] - a * m[0], 0, 1)
            return coefficients[SIMD2(X, Y)]!
        }
        try assertMatches(image, guide.extent, tolerance: 2e-4) { x, y in
            // Ā, B̄ read bilinearly: small position u = (x − gx + ½)/4.
            var coefficient = SIMD4<Double>.zero
            for (b, wy) in tent((Double(y - gy) + 0.5) / s, halfWidth: 1) {
                for (a, wx) in tent((Double(x - gx) + 0.5) / s, halfWidth: 1) { coefficient += wx * wy * mean(a, b, ab) }
            }
            let v = coefficient[0] * G(x, y) + coefficient[1]
            return SIMD4(v, v, v, 1)
        }
    }

    /// What the recipes use it for: a mask known only at 1/8 resolution (each small pixel the mean
    /// of a step at x = 37) comes back with its step on the guide's edge, from one pixel to the next
    /// (bilinear upsampling spreads it over 8), and the recipes' snap `clamp(2·m − 0.5)` makes it
    /// exactly 1 and 0 on either side; a fractional subsampling is an error.
    func testFastGuidedFilterPutsAMaskEdgeOnThePhotosEdge() throws {
        func data(_ width: Int, _ height: Int, _ value: (Int) -> Float) throws -> Image {
            var floats: [Float] = []
            for _ in 0..<height { for x in 0..<width { let v = value(x); floats += [v, v, v, 1] } }
            return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                                 bytes: floats.withUnsafeBytes { Array($0) }))
        }
        let guide = try data(128, 32) { $0 < 37 ? 0.02 : 0.6 }
        let coarse = try data(16, 4) { i in Float(min(max(37 - 8 * i, 0), 8)) / 8 }  // 1 left of the step
        let image = try coarse.applyingFilter("GEFastGuidedFilter", parameters: ["inputGuideImage": .image(guide), "inputRadius": .number(16),
                                                                                  "inputEpsilon": .number(0.001), "inputScale": .number(4)])
        let row = try renderExactly(image, Rect(x: 0, y: 16, width: 128, height: 1))[0].map { $0[0] }
        let steps = (1..<128).map { row[$0 - 1] - row[$0] }
        XCTAssertGreaterThan(steps[36], 0.75, "\(row[30...44])")
        XCTAssertLessThan(steps.enumerated().filter { $0.offset != 36 }.map { abs($0.element) }.max() ?? 1, 0.02, "\(row)")
        let snapped = row.map { min(max(2 * $0 - 0.5, 0), 1) }
        XCTAssertEqual(Array(snapped[0...36]), Array(repeating: 1, count: 37), "\(row[0...36])")
        XCTAssertEqual(Array(snapped[37...]), Array(repeating: 0, count: 91), "\(row[37...])")
        XCTAssertThrowsError(try coarse.applyingFilter("GEFastGuidedFilter", parameters: ["inputGuideImage": .image(guide), "inputScale": .number(2.5)])
            .extent) { XCTAssertTrue("\($0)".contains("whole number"), "\($0)") }
    }
}
