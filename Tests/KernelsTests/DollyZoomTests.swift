import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEDepthDollyZoom on a synthetic scene whose every pixel has its own colour: a square at
/// disparity 1 (the subject) over a background at disparity 0.25, each output pixel checked against
/// a float64 model written here the other way round: for an output pixel q and each disparity d of
/// the scene, the source point `c + (q + ½ − c)/σ(d)` lies in exactly one source pixel, which covers
/// q when its disparity is d; the nearest covering disparity wins and q shows the photo sampled
/// bilinearly there. Uncovered pixels are filled from the farthest surface around them.
final class DollyZoomTests: XCTestCase {
    static let width = 64, height = 48
    static func inSquare(_ x: Int, _ y: Int) -> Bool { x >= 26 && x < 38 && y >= 18 && y < 30 }
    static func colour(_ x: Int, _ y: Int) -> SIMD4<Double> {
        SIMD4(Double(x) / 64, Double(y) / 48, inSquare(x, y) ? 1 : 0, 1)
    }

    /// The photo bilinearly at (u, v) (pixel-centre coordinates), edges clamped.
    static func bilinear(_ u: Double, _ v: Double) -> SIMD4<Double> {
        let cu = min(max(u, 0), Double(width - 1)), cv = min(max(v, 0), Double(height - 1))
        let i = Int(cu), j = Int(cv), fx = cu - Double(i), fy = cv - Double(j)
        let i1 = min(i + 1, width - 1), j1 = min(j + 1, height - 1)
        let low = colour(i, j) * (1 - fx) + colour(i1, j) * fx, high = colour(i, j1) * (1 - fx) + colour(i1, j1) * fx
        return low * (1 - fy) + high * fy
    }

    /// The model's output (rows bottom-up) for amount `t`, disparity `disparity(x, y)` (NaN: none)
    /// and subject disparity 1; also which pixels were holes.
    static func model(t: Double, disparity: (Int, Int) -> Double) -> (pixels: [[SIMD4<Double>]], holes: Int) {
        let c = (Double(width) / 2, Double(height) / 2)
        func unmagnified(_ d: Double) -> Double? { 1 - t * d > 0 ? (1 - t) / (1 - t * d) : nil }
        var least = Double.infinity
        for y in 0..<height {
            for x in 0..<width where x == 0 || y == 0 || x == width - 1 || y == height - 1 {
                if let s = unmagnified(disparity(x, y)) { least = min(least, s) }
            }
        }
        let k = least < 1 ? 1 / least : 1
        var depth = Array(repeating: Array(repeating: -Double.infinity, count: width), count: height)
        var pixels = Array(repeating: Array(repeating: SIMD4<Double>(0, 0, 0, 1), count: width), count: height)
        for y in 0..<height {
            for x in 0..<width {
                for d in [0.25, 1.0] where d > depth[y][x] {
                    guard let s1 = unmagnified(d) else { continue }
                    let s = k * s1
                    let u = c.0 + (Double(x) + 0.5 - c.0) / s, v = c.1 + (Double(y) + 0.5 - c.1) / s
                    let px = Int(u.rounded(.down)), py = Int(v.rounded(.down))
                    guard px >= 0, px < width, py >= 0, py < height, disparity(px, py) == d else { continue }
                    depth[y][x] = d
                    pixels[y][x] = bilinear(u - 0.5, v - 0.5)
                }
            }
        }
        // Holes: a priority queue of (disparity, order) entries, the smallest taken first: first
        // every filled pixel next to a hole (order: its position), then each hole as it is filled.
        let holes = depth.reduce(0) { $0 + $1.filter { $0 == -.infinity }.count }
        var filled = depth.map { $0.map { $0 > -.infinity } }
        func neighbours(_ x: Int, _ y: Int) -> [(Int, Int)] {
            var result: [(Int, Int)] = []
            for ny in max(y - 1, 0)...min(y + 1, height - 1) {
                for nx in max(x - 1, 0)...min(x + 1, width - 1) where nx != x || ny != y { result.append((nx, ny)) }
            }
            return result
        }
        var queue: [(d: Double, order: Int, x: Int, y: Int)] = []
        for y in 0..<height {
            for x in 0..<width where filled[y][x] && neighbours(x, y).contains(where: { !filled[$0.1][$0.0] }) {
                queue.append((depth[y][x], y * width + x, x, y))
            }
        }
        var order = width * height
        while let first = queue.indices.min(by: { (queue[$0].d, queue[$0].order) < (queue[$1].d, queue[$1].order) }) {
            let (d, _, x, y) = queue.remove(at: first)
            for (nx, ny) in neighbours(x, y) where !filled[ny][nx] {
                filled[ny][nx] = true
                depth[ny][nx] = d
                pixels[ny][nx] = pixels[y][x]
                queue.append((d, order, nx, ny))
                order += 1
            }
        }
        return (pixels, holes)
    }

    func zoomed(t: Double, disparity: @escaping (Int, Int) -> Double) throws -> [[SIMD4<Double>]] {
        let photo = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height, Self.colour)
        let map = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height) { x, y in
            let d = disparity(x, y)
            return SIMD4(d, d, d, 1)
        }
        let zoomed = try photo.applyingFilter("GEDepthDollyZoom", parameters: [
            "inputDisparityImage": .image(map), "inputAmount": .number(t),
            "inputFocusRect": .rect(Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1))])
        XCTAssertEqual(zoomed.extent, photo.extent)
        return try renderExactly(zoomed, photo.extent)
    }

    func assertMatchesModel(t: Double, disparity: @escaping (Int, Int) -> Double, holes: ClosedRange<Int>,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let out = try zoomed(t: t, disparity: disparity)
        let (expected, holeCount) = Self.model(t: t, disparity: disparity)
        XCTAssertTrue(holes.contains(holeCount), "\(holeCount) holes", file: file, line: line)
        var worst = 0.0, at = (0, 0)
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let e = (0..<4).map { abs(out[y][x][$0] - expected[y][x][$0]) }.max() ?? 0
                if e > worst { worst = e; at = (x, y) }
            }
        }
        XCTAssertLessThan(worst, 1e-5, "worst at \(at): \(out[at.1][at.0]) vs \(expected[at.1][at.0])", file: file, line: line)
    }

    /// Toward the subject (t = 0.45): the background (all of the border) would shrink to 0.62, so
    /// everything is magnified by k = 1/0.62: the background stays where it was, the subject grows
    /// by k over it, and no pixel is a hole (nothing is made up at the border).
    func testTowardTheSubjectTheFrameStaysFilledAndTheSubjectGrows() throws {
        let disparity: (Int, Int) -> Double = { Self.inSquare($0, $1) ? 1 : 0.25 }
        try assertMatchesModel(t: 0.45, disparity: disparity, holes: 0...0)
        let out = try zoomed(t: 0.45, disparity: disparity)
        // The background in place; the subject 1.61 times wider: its 12 columns become 20.
        for c in 0..<4 { XCTAssertEqual(out[2][3][c], Self.colour(3, 2)[c], accuracy: 1e-6) }
        XCTAssertEqual((0..<Self.width).filter { out[24][$0][2] > 0 }.count, 20)
    }

    /// Away from the subject (t = −0.45): the background grows by 1.30 about the centre and uncovers
    /// a ring around the unmoved subject, filled from the background; a NaN in the map is a hole too.
    func testAwayFromTheSubjectHolesAreFilledFromTheBackground() throws {
        let disparity: (Int, Int) -> Double = { x, y in
            x == 5 && y == 40 ? .nan : (Self.inSquare(x, y) ? 1 : 0.25)
        }
        try assertMatchesModel(t: -0.45, disparity: disparity, holes: 1...Int.max)
        let out = try zoomed(t: -0.45, disparity: disparity)
        for y in 18..<30 {
            for x in 26..<38 { for c in 0..<4 { XCTAssertEqual(out[y][x][c], Self.colour(x, y)[c], accuracy: 1e-6, "subject at \(x),\(y)") } }
        }
        XCTAssertEqual(out[17][30][2], 0, "the ring below the subject shows background")
    }
}
