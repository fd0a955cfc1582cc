import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEDepthDollyZoom on a synthetic scene whose every pixel has its own colour: a square at
/// disparity 1 (the subject) over a background at disparity 0.25, each output pixel checked against
/// the source pixel the pinhole reprojection, computed here in float64, puts there.
final class DollyZoomTests: XCTestCase {
    static let width = 64, height = 48
    static func inSquare(_ x: Int, _ y: Int) -> Bool { x >= 26 && x < 38 && y >= 18 && y < 30 }
    static func colour(_ x: Int, _ y: Int) -> SIMD4<Double> {
        SIMD4(Double(x) / 64, Double(y) / 48, inSquare(x, y) ? 1 : 0, 1)
    }
    static func disparity(_ x: Int, _ y: Int) -> Double { inSquare(x, y) ? 1 : 0.25 }

    func testPixelsLandWhereThePinholeReprojectionPutsThem() throws {
        let photo = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height, Self.colour)
        let map = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height) { x, y in
            let d = Self.disparity(x, y)
            return SIMD4(d, d, d, 1)
        }
        let t = 0.5
        let zoomed = try photo.applyingFilter("GEDepthDollyZoom", parameters: [
            "inputDisparityImage": .image(map), "inputAmount": .number(t),
            "inputFocusRect": .rect(Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1))])
        XCTAssertEqual(zoomed.extent, photo.extent)
        let out = try renderExactly(zoomed, photo.extent)
        // Forward map in float64: subject disparity 1 keeps its scale; the background scales by
        // (1 − t)/(1 − t/4) = 0.571 about the centre (32, 24). Nearest wins; first visited on a tie.
        var expected: [Int: (d: Double, x: Int, y: Int)] = [:]
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let d = Self.disparity(x, y), s = (1 - t * 1) / (1 - t * d)
                let tx = Int((32 + (Double(x) + 0.5 - 32) * s).rounded(.down)), ty = Int((24 + (Double(y) + 0.5 - 24) * s).rounded(.down))
                guard tx >= 0, tx < Self.width, ty >= 0, ty < Self.height else { continue }
                if let known = expected[ty * Self.width + tx], known.d >= d { continue }
                expected[ty * Self.width + tx] = (d, x, y)
            }
        }
        XCTAssertGreaterThan(expected.count, 1000)
        for (target, hit) in expected {
            let got = out[target / Self.width][target % Self.width], want = Self.colour(hit.x, hit.y)
            for c in 0..<3 { XCTAssertEqual(got[c], want[c], accuracy: 1e-6, "pixel \(target % Self.width),\(target / Self.width)") }
        }
        // The subject stays where it was, whole.
        for y in 18..<30 { for x in 26..<38 { XCTAssertEqual(out[y][x][2], 1, "subject at \(x),\(y)") } }
        // Holes (the shrunken background leaves a border) are filled with background colours.
        XCTAssertEqual(out[0][0][2], 0)
        XCTAssertEqual(out[0][0][3], 1)
    }
}
