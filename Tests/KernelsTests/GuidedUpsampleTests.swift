import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEGuidedUpsample against a float64 statement of its formula written here, and what the depth
/// recipes use it for: a mask known only coarsely comes back with its edge on the photo's edge.
final class GuidedUpsampleTests: XCTestCase {
    /// sRGB encode of a linear value (the guide luma G).
    func encode(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// Normalised tent weights `max(1 − |i + ½ − u|/w, 0)` of the source pixels i around position u.
    func tent(_ u: Double, halfWidth w: Double) -> [(Int, Double)] {
        let first = Int((u - w - 0.5).rounded(.down)) + 1, last = Int((u + w - 0.5).rounded(.up)) - 1
        let taps = (first...last).map { ($0, max(1 - abs(Double($0) + 0.5 - u) / w, 0)) }
        let sum = taps.reduce(0) { $0 + $1.1 }
        return taps.map { ($0.0, $0.1 / sum) }
    }

    /// A 40×32 guide at (4, −8) and a 16×10 mask at (−2, 3) (2.5 and 3.2 guide pixels per mask
    /// pixel), r = 1.5 (boxes with half-weight end taps), ε = 0.01, every pixel of the output.
    func testGuidedUpsampleIsItsFormula() throws {
        let source = try TestImage(width: 40, height: 32, seed: 41)
        let mask = try TestImage(width: 16, height: 10, seed: 42)
        let (gx, gy, ex, ey, epsilon) = (4, -8, -2, 3, 0.01)
        let (tx, ty) = (2.5, 3.2)
        let guide = source.image.transformed(by: AffineTransform(translationX: Double(gx), y: Double(gy)))
        let small = mask.image.transformed(by: AffineTransform(translationX: Double(ex), y: Double(ey)))
        let image = try small.applyingFilter("GEGuidedUpsample", parameters: [
            "inputGuideImage": .image(guide), "inputRadius": .number(1.5), "inputEpsilon": .number(epsilon)])
        XCTAssertEqual(image.extent, guide.extent)
        // G at guide pixel (x, y), edges repeated.
        func G(_ x: Int, _ y: Int) -> Double { encode(luma(source.clamped(x - gx, y - gy))) }
        // Mask pixel (X, Y) is centred on guide position (gx + 2.5(X − ex + ½), gy + 3.2(Y − ey + ½)).
        var packs: [SIMD2<Int>: SIMD4<Double>] = [:]
        func pack(_ X: Int, _ Y: Int) -> SIMD4<Double> {
            if let known = packs[SIMD2(X, Y)] { return known }
            var i = 0.0
            for (b, wy) in tent(Double(gy) + ty * (Double(Y - ey) + 0.5), halfWidth: ty) {
                for (a, wx) in tent(Double(gx) + tx * (Double(X - ex) + 0.5), halfWidth: tx) { i += wx * wy * G(a, b) }
            }
            let p = mask.clamped(X - ex, Y - ey)[0]
            packs[SIMD2(X, Y)] = SIMD4(i, i * i, p, i * p)
            return packs[SIMD2(X, Y)]!
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
            // Ā, B̄ read bilinearly at mask position u = (x − gx + ½)/2.5 + ex.
            var coefficient = SIMD4<Double>.zero
            for (b, wy) in tent((Double(y - gy) + 0.5) / ty + Double(ey), halfWidth: 1) {
                for (a, wx) in tent((Double(x - gx) + 0.5) / tx + Double(ex), halfWidth: 1) { coefficient += wx * wy * mean(a, b, ab) }
            }
            let v = coefficient[0] * G(x, y) + coefficient[1]
            return SIMD4(v, v, v, 1)
        }
    }

    /// What the recipes use it for: a mask known only at 1/8 resolution (each small pixel the mean
    /// of a step at x = 37) comes back with its step on the guide's edge, from one pixel to the next
    /// (bilinear upsampling spreads it over 8), and the recipes' snap `clamp(2·m − 0.5)` makes it
    /// exactly 1 and 0 on either side.
    func testGuidedUpsamplePutsAMaskEdgeOnThePhotosEdge() throws {
        func data(_ width: Int, _ height: Int, _ value: (Int) -> Float) throws -> Image {
            var floats: [Float] = []
            for _ in 0..<height { for x in 0..<width { let v = value(x); floats += [v, v, v, 1] } }
            return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                                 bytes: floats.withUnsafeBytes { Array($0) }))
        }
        let guide = try data(128, 32) { $0 < 37 ? 0.02 : 0.6 }
        let coarse = try data(16, 4) { i in Float(min(max(37 - 8 * i, 0), 8)) / 8 }  // 1 left of the step
        let image = try coarse.applyingFilter("GEGuidedUpsample", parameters: ["inputGuideImage": .image(guide), "inputRadius": .number(2),
                                                                                "inputEpsilon": .number(0.001)])
        let row = try renderExactly(image, Rect(x: 0, y: 16, width: 128, height: 1))[0].map { $0[0] }
        let steps = (1..<128).map { row[$0 - 1] - row[$0] }
        XCTAssertGreaterThan(steps[36], 0.75, "\(row[30...44])")
        XCTAssertLessThan(steps.enumerated().filter { $0.offset != 36 }.map { abs($0.element) }.max() ?? 1, 0.02, "\(row)")
        let snapped = row.map { min(max(2 * $0 - 0.5, 0), 1) }
        XCTAssertEqual(Array(snapped[0...36]), Array(repeating: 1, count: 37), "\(row[0...36])")
        XCTAssertEqual(Array(snapped[37...]), Array(repeating: 0, count: 91), "\(row[37...])")
    }

    /// A mask the photo's texture does not explain comes back as itself at the default (half-float)
    /// working format with a small ε: its coefficients are computed in Double, so `var Ĩ` does not
    /// cancel into noise (with half-float moments and ε = 1e-5 a constant mask over this texture
    /// came back with errors of several tenths).
    func testATextureTheMaskDoesNotFollowLeavesItUnchangedInHalfFloats() throws {
        let source = try TestImage(width: 96, height: 64, seed: 43)
        let mask = Image(color: [0.6, 0.6, 0.6, 1]).cropped(to: Rect(x: 0, y: 0, width: 24, height: 16))
        let image = try mask.applyingFilter("GEGuidedUpsample", parameters: [
            "inputGuideImage": .image(source.image), "inputRadius": .number(1), "inputEpsilon": .number(1e-5)])
        var options = ContextOptions()
        options.workingFormat = .rgbah
        options.workingColorSpace = nil
        let buffer = try Context(options: options).render(image, rect: image.extent, format: .rgbaf)
        var worst = 0.0
        for row in 0..<buffer.height { for x in 0..<buffer.width { worst = max(worst, abs(Double(buffer.pixel(x: x, row: row)[0]) - 0.6)) } }
        // The result's own half-float store: within 2⁻¹¹ of 0.6.
        XCTAssertLessThan(worst, 6e-4)
    }

    /// NaN holes of the mask are no samples: a one-pixel hole is filled from the pixels around it
    /// (here a constant 0.3, so exactly 0.3), and a hole wider than every box that reaches into it
    /// stays NaN in its middle.
    func testNaNHolesAreNoSamples() throws {
        func mask(_ hole: (Int, Int) -> Bool) throws -> Image {
            var floats: [Float] = []
            for y in 0..<12 { for x in 0..<12 { let v: Float = hole(x, y) ? .nan : 0.3; floats += [v, v, v, 1] } }
            return Image(buffer: try ImageBuffer(width: 12, height: 12, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                                 bytes: floats.withUnsafeBytes { Array($0) }))
        }
        let guide = try TestImage(width: 48, height: 48, seed: 44).image
        func upsampled(_ m: Image) throws -> [[SIMD4<Double>]] {
            let image = try m.applyingFilter("GEGuidedUpsample", parameters: [
                "inputGuideImage": .image(guide), "inputRadius": .number(1), "inputEpsilon": .number(0.001)])
            return try renderExactly(image, guide.extent)
        }
        let small = try upsampled(try mask { x, y in x == 5 && y == 6 })
        XCTAssertEqual(small.flatMap { $0 }.map { abs($0[0] - 0.3) }.max() ?? 1, 0, accuracy: 1e-6)
        let large = try upsampled(try mask { x, y in (2...9).contains(x) && (2...9).contains(y) })
        XCTAssertTrue(large[24][24][0].isNaN, "the middle of an 8×8 hole: \(large[24][24])")
        XCTAssertEqual(large[2][2][0], 0.3, accuracy: 1e-6, "outside the hole")
    }
}
