import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEDepthDollyZoom on a synthetic scene whose every pixel has its own colour: a square at
/// disparity 1 (the subject) over a background at disparity 0.25, each output pixel checked against
/// a float64 model written here the other way round: for an output pixel q and each disparity d of
/// the scene, the source point `c + (q + ½ − c)/σ(d)` lies in exactly one source pixel, which covers
/// q when its disparity is d; the nearest covering disparity wins and q shows the photo sampled
/// bilinearly there. Uncovered pixels show the background, never the subject.
final class DollyZoomTests: XCTestCase {
    static let width = 64, height = 48
    static func inSquare(_ x: Int, _ y: Int) -> Bool { x >= 26 && x < 38 && y >= 18 && y < 30 }
    static func colour(_ x: Int, _ y: Int) -> SIMD4<Double> {
        SIMD4(Double(x) / 64, Double(y) / 48, inSquare(x, y) ? 1 : 0, 1)
    }

    /// The photo bilinearly at (u, v) (pixel-centre coordinates), edges clamped.
    static func bilinear(_ u: Double, _ v: Double) -> SIMD4<Double> {
        DollyZoomModel.bilinear(u, v, width: width, height: height, colour: colour)
    }

    /// The model's output (rows bottom-up) for amount `t`, disparity `disparity(x, y)` (NaN: none)
    /// and subject disparity 1 (holes: nil); also how many pixels are holes.
    static func model(t: Double, disparity: (Int, Int) -> Double) -> (pixels: [[SIMD4<Double>?]], holes: Int) {
        DollyZoomModel.render(width: width, height: height, levels: [0.25, 1.0], t: t, disparity: disparity, bilinear: bilinear)
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
        // A hole shows the background: no subject blue, red and green of the background. The
        // exact model holds except on the one-pixel ring either side of a hole's edge: the fill
        // anti-aliases the edge with a nearer surface (the photo's edge is soft, a hard step there
        // was most of the fill's excess detail) and refills the far side's edge pixels (a line
        // tinted by the nearer surface); there the blend's bounds (`DollyZoomModel.checkFill`).
        let surfaces = DollyZoomModel.surfaces(width: Self.width, height: Self.height, levels: [0.25, 1.0], t: t, disparity: disparity)
        let (_, worst, at) = DollyZoomModel.checkFill(out, expected: expected, surfaces: surfaces, farBlue: 0, "t = \(t)",
                                                      file: file, line: line)
        XCTAssertLessThan(worst, 1e-5, "worst at \(at): \(out[at.1][at.0]) vs \(String(describing: expected[at.1][at.0]))",
                          file: file, line: line)
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
    /// a ring around the unmoved subject, filled from the background (close to the hidden
    /// background's colour there: red and green ramps); a NaN in the map is a hole too.
    func testAwayFromTheSubjectHolesAreFilledFromTheBackground() throws {
        let disparity: (Int, Int) -> Double = { x, y in
            x == 5 && y == 40 ? .nan : (Self.inSquare(x, y) ? 1 : 0.25)
        }
        try assertMatchesModel(t: -0.45, disparity: disparity, holes: 1...Int.max)
        let out = try zoomed(t: -0.45, disparity: disparity)
        // The subject unmoved; its outline, beside the holes, is blended with their fill (checked above).
        for y in 19..<29 {
            for x in 27..<37 { for c in 0..<4 { XCTAssertEqual(out[y][x][c], Self.colour(x, y)[c], accuracy: 1e-6, "subject at \(x),\(y)") } }
        }
        // The ring below the subject shows background: no subject blue a pixel clear of it; beside
        // it (row 17) the fill takes `DollyZoomFill.edgeBlend.hole` (0.35) of the subject's blue 1,
        // the one-pixel anti-aliasing of the edge.
        XCTAssertEqual(out[16][30][2], 0, "the ring below the subject shows background")
        XCTAssertEqual(out[17][30][2], 0.35, accuracy: 1e-6, "the ring's edge beside the subject: the blend")
        // The hidden background there: the photo's ramps at the source point of a background pixel.
        let (expected, _) = Self.model(t: -0.45, disparity: disparity)
        var ringed = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width where expected[y][x] == nil {
                // σ(0.25) = (1 − t)/(1 − t·0.25) (k = 1: the border is background, σ > 1 there).
                let sigma = (1 + 0.45) / (1 + 0.45 * 0.25)
                let u = 32 + (Double(x) + 0.5 - 32) / sigma, v = 24 + (Double(y) + 0.5 - 24) / sigma
                // Within the ring's width (4 px) of the ramps: filled from the background side
                // only, a ramp is not extrapolated across the ring.
                XCTAssertEqual(out[y][x][0], (u - 0.5) / 64, accuracy: 4.5 / 64, "red at hole (\(x), \(y))")
                XCTAssertEqual(out[y][x][1], (v - 0.5) / 48, accuracy: 4.5 / 48, "green at hole (\(x), \(y))")
                ringed += 1
            }
        }
        XCTAssertGreaterThan(ringed, 100)
    }
}
