import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The distance fields against brute-force float64 distances over every pixel of the mask.
final class DistanceGradientTests: XCTestCase {
    let width = 40, height = 30

    /// Two discs (one touching the left edge), a bar along the top edge and scattered single pixels.
    func mask() -> [[Bool]] {
        var state: UInt64 = 0x2545F4914F6CDD1D
        return (0..<height).map { y in (0..<width).map { x in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let a = Double(x - 9) * Double(x - 9) + Double(y - 12) * Double(y - 12) <= 36 || x < 2 && y > 8 && y < 15
            let b = Double(x - 28) * Double(x - 28) + Double(y - 18) * Double(y - 18) <= 20
            return a || b || (y == height - 1 && x > 20) || state % 97 == 0
        } }
    }

    /// The mask as an image: red 0.9 in the mask, 0.2 elsewhere (green and blue noise that must not count).
    func image(_ mask: [[Bool]]) throws -> Image {
        var floats: [Float] = []
        for y in (0..<height).reversed() {
            for x in 0..<width { floats += [mask[y][x] ? 0.9 : 0.2, Float(x % 3), 0.7, 1] }
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .premultiplied, colorSpace: nil,
                                             bytes: floats.withUnsafeBytes { Array($0) }))
    }

    /// Brute force: the distance to the nearest mask pixel, and to the nearest non-mask pixel (the
    /// pixels outside the image are not in the mask).
    func distances(_ mask: [[Bool]], _ x: Int, _ y: Int) -> (toMask: Double, toOutside: Double) {
        var toMask = Double.infinity
        var toOutside = Double(min(x + 1, y + 1, width - x, height - y))
        if x < 0 || y < 0 || x >= width || y >= height { toOutside = 0 }
        for j in 0..<height {
            for i in 0..<width {
                let d = (Double(i - x) * Double(i - x) + Double(j - y) * Double(j - y)).squareRoot()
                if mask[j][i] { toMask = min(toMask, d) } else { toOutside = min(toOutside, d) }
            }
        }
        return (toMask, toOutside)
    }

    func inMask(_ mask: [[Bool]], _ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height && mask[y][x] }

    func testUnsignedDistanceIsTheExactEuclideanDistanceOverTheMaximum() throws {
        let mask = mask(), source = try image(mask)
        for m in [7.5, 3, 0] {
            let field = try source.applyingFilter("CIDistanceGradientFromRedMask", parameters: ["inputMaximumDistance": .number(m)])
            XCTAssertTrue(field.extent.isInfinite)
            let rect = Rect(x: -12, y: -9, width: Double(width + 24), height: Double(height + 18))
            try assertMatches(field.cropped(to: rect), rect, tolerance: 2e-7) { x, y in
                let d = distances(mask, x, y).toMask
                let v = m > 0 ? min(d / m, 1) : (d > 0 ? 1 : 0)
                return SIMD4(v, v, v, 1)
            }
        }
    }

    func testSignedDistanceIsZeroOnTheOutlineAndNegativeInside() throws {
        let mask = mask(), source = try image(mask)
        for m in [6.0, 2.5, 0] {
            let field = try source.applyingFilter("CISignedDistanceGradientFromRedMask", parameters: ["inputMaximumDistance": .number(m)])
            let rect = Rect(x: -8, y: -8, width: Double(width + 16), height: Double(height + 16))
            try assertMatches(field.cropped(to: rect), rect, tolerance: 2e-7) { x, y in
                let inside = inMask(mask, x, y), (toMask, toOutside) = distances(mask, x, y)
                let magnitude = m > 0 ? min(((inside ? toOutside : toMask) - 0.5) / m, 1) : 1
                let v = inside ? -magnitude : magnitude
                return SIMD4(v, v, v, 1)
            }
        }
    }

    /// A maximum longer than the tiles: every tile size gives the same bytes, the reference
    /// evaluator agrees, and a far crop of a clamped mask reads only the tile grown by ⌈M⌉ + 1.
    func testTilesReferenceEvaluatorAndRegionOfInterest() throws {
        let source = try image(mask())
        for name in ["CIDistanceGradientFromRedMask", "CISignedDistanceGradientFromRedMask"] {
            let field = try source.applyingFilter(name, parameters: ["inputMaximumDistance": .number(13.2)])
            let rect = Rect(x: -5, y: -4, width: 50, height: 38)
            XCTAssertEqual(try renderExactly(field, rect, tileSize: 8), try renderExactly(field, rect, tileSize: 256), name)
            var options = ContextOptions()
            options.workingFormat = .rgbaf
            options.workingColorSpace = nil
            let small = Rect(x: 30, y: 20, width: 14, height: 12)
            let reference = try ReferenceEvaluator().render(field, rect: small, options: options)
            for (i, v) in try renderExactly(field, small).joined().enumerated() {
                XCTAssertLessThanOrEqual(abs(v.x - Double(reference[i].x)), 1e-6, name)
            }
            let clamped = try source.clampedToExtent().applyingFilter(name, parameters: ["inputMaximumDistance": .number(13.2)])
            guard case .area(let pass) = clamped.node.kind else { return XCTFail("not an area pass") }
            XCTAssertEqual(pass.regionOfInterest(input: 0, for: Rect(x: 900, y: -700, width: 16, height: 16)),
                           Rect(x: 885, y: -715, width: 46, height: 46))
        }
        try assertAttributes(["CIDistanceGradientFromRedMask", "CISignedDistanceGradientFromRedMask"])
    }
}
