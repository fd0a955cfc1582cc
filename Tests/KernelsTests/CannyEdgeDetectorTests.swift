import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CICannyEdgeDetector against the documented steps computed here in float64 on the input clamped
/// to its extent (luma or L*/100, Gaussian, Sobel/8, four-direction suppression, two thresholds,
/// Jacobi hysteresis passes).
final class CannyEdgeDetectorTests: XCTestCase {
    let width = 36, height = 28

    /// A disc (contrast 0.5), a faint rectangle (0.12), a soft diagonal band, and hashed noise of
    /// ±0.004 so no two gradient magnitudes tie; alpha 1.
    func source() throws -> (Image, [[SIMD3<Double>]]) {
        var state: UInt64 = 0x9E3779B97F4A7C15
        var rows: [[SIMD3<Double>]] = []
        for y in 0..<height {
            var row: [SIMD3<Double>] = []
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let noise = Double(state % 1000) / 1000 * 0.008 - 0.004
                var v = 0.2 + noise
                if Double(x - 11) * Double(x - 11) + Double(y - 13) * Double(y - 13) < 49 { v += 0.5 }
                if x > 20 && x < 32 && y > 4 && y < 12 { v += 0.12 }
                v += 0.3 / (1 + exp(-(Double(x + y) - 45) * 1.5))
                row.append(SIMD3(v * 0.9, v, v * 1.1))
            }
            rows.append(row)
        }
        var floats: [Float] = []
        for y in (0..<height).reversed() { for x in 0..<width { floats += [Float(rows[y][x].x), Float(rows[y][x].y), Float(rows[y][x].z), 1] } }
        let image = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .premultiplied, colorSpace: nil,
                                                  bytes: floats.withUnsafeBytes { Array($0) }))
        return (image, rows.map { $0.map { SIMD3<Double>(SIMD3<Float>($0)) } })
    }

    /// The edges in float64: true where strong after the passes.
    func reference(_ pixels: [[SIMD3<Double>]], sigma: Double, low: Double, high: Double, passes: Int, perceptual: Bool) -> [[Bool]] {
        let radius = Int((3 * sigma).rounded(.up)), pad = radius + 3 + passes
        let w = width + 2 * pad, h = height + 2 * pad
        func lightness(_ c: SIMD3<Double>) -> Double {
            let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
            guard perceptual else { return y }
            let f: Double = y > pow(6.0 / 29, 3) ? pow(y, 1.0 / 3) : y / (3 * pow(6.0 / 29, 2)) + 4.0 / 29
            return (116 * f - 16) / 100
        }
        // Index (i, j) ↔ pixel (i − pad, j − pad), read clamped.
        let luma: [[Double]] = (0..<h).map { j in (0..<w).map { i in
            lightness(pixels[min(max(j - pad, 0), height - 1)][min(max(i - pad, 0), width - 1)])
        } }
        let raw = (-radius...radius).map { k in sigma > 0 ? exp(-Double(k * k) / (2 * sigma * sigma)) : 1 }
        let taps = raw.map { $0 / raw.reduce(0, +) }
        var blurred = [[Double]](repeating: [Double](repeating: 0, count: w), count: h)
        for j in radius..<(h - radius) {
            for i in radius..<(w - radius) {
                var sum = 0.0
                for b in -radius...radius { for a in -radius...radius { sum += taps[a + radius] * taps[b + radius] * luma[j + b][i + a] } }
                blurred[j][i] = sum
            }
        }
        var magnitude = blurred, direction = [[(Int, Int)]](repeating: [(Int, Int)](repeating: (0, 0), count: w), count: h)
        for j in (radius + 1)..<(h - radius - 1) {
            for i in (radius + 1)..<(w - radius - 1) {
                let p = { (a: Int, b: Int) in blurred[j + b][i + a] }
                let gx = (p(1, -1) + 2 * p(1, 0) + p(1, 1) - p(-1, -1) - 2 * p(-1, 0) - p(-1, 1)) / 8
                let gy = (p(-1, 1) + 2 * p(0, 1) + p(1, 1) - p(-1, -1) - 2 * p(0, -1) - p(1, -1)) / 8
                magnitude[j][i] = (gx * gx + gy * gy).squareRoot()
                let angle = atan2(gy, gx) * 180 / .pi  // −180…180
                let folded = angle < 0 ? angle + 180 : angle  // 0…180
                direction[j][i] = folded <= 22.5 || folded >= 157.5 ? (1, 0) : (folded < 67.5 ? (1, 1) : (folded <= 112.5 ? (0, 1) : (-1, 1)))
            }
        }
        var state = [[Int]](repeating: [Int](repeating: 0, count: w), count: h)
        for j in (radius + 2)..<(h - radius - 2) {
            for i in (radius + 2)..<(w - radius - 2) {
                let m = magnitude[j][i], (a, b) = direction[j][i]
                let kept = m > magnitude[j - b][i - a] && m >= magnitude[j + b][i + a]
                state[j][i] = kept && m >= high ? 2 : (kept && m >= low ? 1 : 0)
            }
        }
        for _ in 0..<passes {
            var next = state
            for j in 1..<(h - 1) {
                for i in 1..<(w - 1) where state[j][i] == 1 {
                    if (-1...1).contains(where: { b in (-1...1).contains { a in state[j + b][i + a] == 2 } }) { next[j][i] = 2 }
                }
            }
            state = next
        }
        return (0..<height).map { y in (0..<width).map { x in state[y + pad][x + pad] == 2 } }
    }

    func testEdgesFollowTheDocumentedStepsExactly() throws {
        let (image, pixels) = try source()
        let cases: [(sigma: Double, low: Double, high: Double, passes: Int, perceptual: Bool)] = [
            (1.6, 0.02, 0.05, 1, false), (1.0, 0.01, 0.04, 3, false), (1.6, 0.02, 0.06, 2, true), (0, 0.03, 0.08, 0, false),
        ]
        for c in cases {
            let edges = try image.applyingFilter("CICannyEdgeDetector", parameters: [
                "inputGaussianSigma": .number(c.sigma), "inputThresholdLow": .number(c.low), "inputThresholdHigh": .number(c.high),
                "inputHysteresisPasses": .number(Double(c.passes)), "inputPerceptual": .bool(c.perceptual)])
            XCTAssertEqual(edges.extent, image.extent)
            let want = reference(pixels, sigma: c.sigma, low: c.low, high: c.high, passes: c.passes, perceptual: c.perceptual)
            let got = try renderExactly(edges, image.extent)
            var differing: [(Int, Int)] = [], count = 0
            for y in 0..<height {
                for x in 0..<width {
                    let e = want[y][x] ? 1.0 : 0.0
                    if got[y][x] != SIMD4(e, e, e, 1) { differing.append((x, y)) }
                    if want[y][x] { count += 1 }
                }
            }
            XCTAssertEqual(differing.count, 0, "\(c): \(differing.prefix(10))")
            XCTAssertGreaterThan(count, 40, "\(c): too few edges to mean anything")
        }
    }

    /// A one-channel input (loaded as one plane) gives the edges of the same picture in RGBA.
    func testGreyInputMatchesTheSamePictureInRGBA() throws {
        let (_, pixels) = try source()
        var grey: [Float] = [], rgba: [Float] = []
        for y in (0..<height).reversed() {
            for x in 0..<width {
                let v = Float(pixels[y][x].y)
                grey.append(v)
                rgba += [v, v, v, 1]
            }
        }
        func image(_ floats: [Float], _ format: PixelFormat) throws -> Image {
            Image(buffer: try ImageBuffer(width: width, height: height, format: format, alphaMode: .opaque, colorSpace: nil,
                                          bytes: floats.withUnsafeBytes { Array($0) }))
        }
        let one = try image(grey, .grayf).applyingFilter("CICannyEdgeDetector")
        let four = try image(rgba, .rgbaf).applyingFilter("CICannyEdgeDetector")
        let edges = try renderExactly(one, one.extent)
        XCTAssertEqual(edges, try renderExactly(four, four.extent))
        XCTAssertGreaterThan(edges.joined().filter { $0.x == 1 }.count, 40)
    }

    /// More passes promote more weak pixels; tiles and the reference evaluator agree.
    func testPassesTilesAndReferenceEvaluator() throws {
        let (image, _) = try source()
        func edges(_ passes: Int, high: Double = 0.08) throws -> Image {
            try image.applyingFilter("CICannyEdgeDetector", parameters: ["inputHysteresisPasses": .number(Double(passes)),
                                                                         "inputThresholdHigh": .number(high)])
        }
        func count(_ image: Image) throws -> Int { try renderExactly(image, image.extent).joined().filter { $0.x == 1 }.count }
        var promoted = 0
        for high in [0.06, 0.09, 0.12, 0.15] {
            let counts = try [0, 1, 4].map { try count(edges($0, high: high)) }
            XCTAssertTrue(counts[0] <= counts[1] && counts[1] <= counts[2], "high \(high): \(counts)")
            promoted += counts[2] - counts[0]
        }
        XCTAssertGreaterThan(promoted, 0, "no weak pixel was ever promoted")
        let three = try edges(3)
        try assertTilesAndReferenceAgree(three)
        XCTAssertThrowsError(try image.applyingFilter("CICannyEdgeDetector", parameters: ["inputHysteresisPasses": .number(1.5)])) {
            XCTAssertTrue("\($0)".contains("inputHysteresisPasses"), "\($0)")
        }
        try assertAttributes(["CICannyEdgeDetector"])
    }
}
