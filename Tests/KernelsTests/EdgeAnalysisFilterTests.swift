import XCTest
@testable import GraphEngine
@testable import Kernels

/// The 3×3 median, edges and Sobel gradients, and the 5×5 Gabor gradients, against float64 formulas over the clamped input.
final class EdgeAnalysisFilterTests: XCTestCase {
    let width = 17, height = 11

    func source() throws -> (Image, Pixels) { try randomImage(width: width, height: height, seed: 74) }

    /// The 3×3 neighbours of (x, y), row by row from (x − 1, y − 1), clamped to the image.
    func neighbours(_ pixels: Pixels, _ x: Int, _ y: Int) -> Pixels {
        (-1...1).flatMap { dy in (-1...1).map { dx in
            pixels[min(max(y + dy, 0), height - 1) * width + min(max(x + dx, 0), width - 1)]
        } }
    }

    func sobel(_ n: Pixels, _ c: Int) -> (Double, Double) {
        ((n[2][c] + 2 * n[5][c] + n[8][c]) - (n[0][c] + 2 * n[3][c] + n[6][c]),
         (n[6][c] + 2 * n[7][c] + n[8][c]) - (n[0][c] + 2 * n[1][c] + n[2][c]))
    }

    func expected(_ pixels: Pixels, _ formula: (Pixels) -> [Double]) -> Pixels {
        (0..<height).flatMap { y in (0..<width).map { x in formula(neighbours(pixels, x, y)) } }
    }

    func testMedianIsTheMiddleOfNineValuesPerChannel() throws {
        let (image, pixels) = try source()
        let median = try image.filtered("CIMedianFilter")
        XCTAssertEqual(median.extent, image.extent)
        let want = expected(pixels) { n in (0..<4).map { c in n.map { $0[c] }.sorted()[4] } }
        assertPixels(try renderPixels(median, image.extent), want, tolerance: 0)
    }

    func testEdgesAreTheScaledSobelMagnitudePerChannel() throws {
        let (image, pixels) = try source()
        let edges = try image.filtered("CIEdges", ["inputIntensity": .number(2.5)])
        XCTAssertEqual(edges.extent, image.extent)
        let want = expected(pixels) { n in (0..<3).map { c in let (gx, gy) = sobel(n, c); return 2.5 * (gx * gx + gy * gy).squareRoot() } + [1] }
        assertPixels(try renderPixels(edges, image.extent), want, tolerance: 1e-5)
    }

    func testSobelGradientsKeepTheStrongestSignedChannel() throws {
        let (image, pixels) = try source()
        let gradients = try image.filtered("CISobelGradients")
        XCTAssertEqual(gradients.extent, image.extent)
        func strongest(_ v: [Double]) -> Double { v.dropFirst().reduce(v[0]) { abs($1) > abs($0) ? $1 : $0 } }
        let want = expected(pixels) { n in
            let g = (0..<3).map { sobel(n, $0) }
            return [strongest(g.map(\.0)), strongest(g.map(\.1)), 0, 1]
        }
        assertPixels(try renderPixels(gradients, image.extent), want, tolerance: 1e-5)
    }

    func testGaborGradientsAgainstTheTapsWrittenHere() throws {
        let (image, pixels) = try source()
        let gradients = try image.filtered("CIGaborGradients")
        XCTAssertEqual(gradients.extent, image.extent)
        // Kx(dx, dy) ∝ exp(−(dx² + dy²)/2)·sin(π·dx/2), unit response to a ramp; Ky its transpose.
        func raw(_ dx: Int, _ dy: Int) -> Double {
            let d = Double(dx), e = Double(dy)
            return exp(-(d * d + e * e) / 2) * sin(Double.pi * d / 2)
        }
        var s = 0.0
        for dy in -2...2 { for dx in -2...2 { s += raw(dx, dy) * Double(dx) } }
        func strongest(_ v: [Double]) -> Double { v.dropFirst().reduce(v[0]) { abs($1) > abs($0) ? $1 : $0 } }
        var want = Pixels()
        for y in 0..<height {
            for x in 0..<width {
                var gx = [0.0, 0, 0], gy = [0.0, 0, 0]
                for dy in -2...2 {
                    for dx in -2...2 {
                        let q = pixels[min(max(y + dy, 0), height - 1) * width + min(max(x + dx, 0), width - 1)]
                        for c in 0..<3 { gx[c] += raw(dx, dy) / s * q[c]; gy[c] += raw(dy, dx) / s * q[c] }
                    }
                }
                want.append([strongest(gx), strongest(gy), 0, 1])
            }
        }
        assertPixels(try renderPixels(gradients, image.extent), want, tolerance: 1e-5)
    }

    func testInfiniteInputsAreReadOnlyAroundTheTile() throws {
        let infinite = try GeometrySource(width: 41, height: 31).image.clampedToExtent()
        for name in ["CIMedianFilter", "CIEdges", "CISobelGradients"] {
            let image = try Image.filter(name, parameters: ["inputImage": .image(infinite)])
            guard case .general(let operation) = image.node.kind else {
                XCTFail("\(name): not a general kernel")
                continue
            }
            for rect in [Rect(x: 140, y: 150, width: 16, height: 16), Rect(x: -900, y: 2000, width: 16, height: 16)] {
                XCTAssertEqual(operation.regionOfInterest(input: 0, for: rect), rect.outset(dx: 1, dy: 1), "\(name) \(rect)")
            }
        }
        let gabor = try Image.filter("CIGaborGradients", parameters: ["inputImage": .image(infinite)])
        guard case .general(let operation) = gabor.node.kind else { return XCTFail("CIGaborGradients: not a general kernel") }
        let rect = Rect(x: -900, y: 2000, width: 16, height: 16)
        XCTAssertEqual(operation.regionOfInterest(input: 0, for: rect), rect.outset(dx: 2, dy: 2))
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIMedianFilter", "CIEdges", "CISobelGradients", "CIGaborGradients"])
    }
}
