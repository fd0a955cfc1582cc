import Foundation
import GraphEngine
import XCTest
@testable import Kernels

/// What the fast dolly zoom relies on: the same bytes for any number of threads (the z-buffer in
/// bands of output rows, colours by rows, the fill's passes by rows or cells), covered pixels as
/// the model, holes from farther surfaces only, and the remembered ceilings of
/// ``DollyZoomPixels/FirstCentre``.
final class DollyZoomInvariantTests: XCTestCase {
    static let width = 72, height = 54
    /// Four surfaces: a background at 0.2 with a step to 0.45 on the right, a bar at 0.7 and the
    /// subject (1.0) in the middle, so holes open between several of them (t < 0), plus a NaN.
    static func disparity(_ x: Int, _ y: Int) -> Double {
        if x == 9 && y == 40 { return .nan }
        if x >= 30 && x < 42 && y >= 21 && y < 33 { return 1.0 }
        if x >= 14 && x < 60 && y >= 8 && y < 13 { return 0.7 }
        return x >= 50 ? 0.45 : 0.2
    }
    static let levels = [0.2, 0.45, 0.7, 1.0]
    static func colour(_ x: Int, _ y: Int) -> SIMD4<Double> {
        SIMD4(Double(x) / Double(width), Double(y) / Double(height), (Double(x * y % 17) + 0.5) / 17, 1)
    }

    /// The zoom of a photo coloured by `subjectColour` written the other way round
    /// (`DollyZoomModel`, over four levels; holes nil).
    static func model(t: Double) -> (pixels: [[SIMD4<Double>?]], holes: Int) {
        DollyZoomModel.render(width: width, height: height, levels: levels, t: t, disparity: disparity) { u, v in
            DollyZoomModel.bilinear(u, v, width: width, height: height, colour: subjectColour)
        }
    }

    /// `colour`: the photo tagged linear sRGB (a colour image: half planes in a half working
    /// format), else data.
    func zoomed(t: Double, colour: Bool = false) throws -> Image {
        var photo = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height, Self.colour)
        if colour {
            let data = try Context().render(photo, format: .rgbaf, colorSpace: .data)
            photo = Image(buffer: try ImageBuffer(width: Self.width, height: Self.height, format: .rgbaf, alphaMode: .opaque,
                                                  colorSpace: .linearSRGB, bytes: data.bytes))
        }
        return try Self.zoomed(photo, t: t)
    }

    /// `image` (the scene's size) through the dolly zoom by the scene's disparity, focused on the
    /// subject (the focus rectangle lies inside it: d_s = 1).
    static func zoomed(_ image: Image, t: Double) throws -> Image {
        let map = try DepthBlurEffectTests.dataImage(width: width, height: height) { x, y in
            let d = disparity(x, y)
            return SIMD4(d, d, d, 1)
        }
        return try image.applyingFilter("GEDepthDollyZoom", parameters: [
            "inputDisparityImage": .image(map), "inputAmount": .number(t),
            "inputFocusRect": .rect(Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1))])
    }

    /// Covered pixels match the model; holes, bordered by several surfaces, show only farther
    /// ones: never the subject's colour (blue 1 on the subject alone, see `subjectColour`).
    func testCoveredPixelsMatchTheModelAndHolesShowOnlyFartherSurfaces() throws {
        for t in [-0.45, -0.2, 0.3] {
            let photo = try DepthBlurEffectTests.dataImage(width: Self.width, height: Self.height, Self.subjectColour)
            let out = try renderExactly(try Self.zoomed(photo, t: t), Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)))
            let (expected, holes) = Self.model(t: t)
            if t < 0 { XCTAssertGreaterThan(holes, 50, "t = \(t): holes between the surfaces") }
            // Other surfaces' blue is at most 0.05 (mirrored detail may add a little): 0.1 would be
            // a 5 % share of the subject. The exact model holds except on the one-pixel ring either
            // side of a hole's edge: the fill anti-aliases the edge with a nearer surface (the
            // photo's edge is soft, a hard step there was most of the fill's excess detail) and
            // refills the far side's edge pixels (a line tinted by the nearer surface); there the
            // blend's bounds (`DollyZoomModel.checkFill`).
            let surfaces = DollyZoomModel.surfaces(width: Self.width, height: Self.height, levels: Self.levels, t: t, disparity: Self.disparity)
            let (filled, worst, at) = DollyZoomModel.checkFill(out, expected: expected, surfaces: surfaces, farBlue: 0.1, "t = \(t)",
                                                               file: #filePath, line: #line)
            XCTAssertEqual(filled, holes)
            XCTAssertLessThan(worst, 1e-5, "t = \(t), worst at \(at): \(out[at.1][at.0]) vs \(String(describing: expected[at.1][at.0]))")
        }
    }

    /// The scene's colours with the subject (disparity 1) alone blue: blue 1 there, at most 0.05
    /// elsewhere (red and green as `colour`).
    static func subjectColour(_ x: Int, _ y: Int) -> SIMD4<Double> {
        let base = colour(x, y)
        return SIMD4(base[0], base[1], disparity(x, y) == 1 ? 1 : base[2] * 0.05, 1)
    }

    /// The same bytes for one thread and several, in Float32 and half working formats (the bands
    /// of the z-buffer and the row ranges differ with the thread count).
    func testTheSameBytesForAnyNumberOfThreads() throws {
        let image = try zoomed(t: -0.3, colour: true)
        var halfOptions = ContextOptions()
        halfOptions.workingFormat = .rgbah
        let dump = try Context(options: halfOptions).dump(image)
        XCTAssertEqual(dump.programs.filter { $0.kind == "processor" }.map(\.format), ["RGBAh (opaque: 3 planes)"], "half planes, no alpha")
        for format in [WorkingFormat.rgbaf, .rgbah] {
            var renders: [[UInt8]] = []
            for threads in [1, 2, 3, 7] {
                var options = ContextOptions()
                options.workingFormat = format
                options.threads = threads
                options.tileSize = 16
                renders.append(try Context(options: options).render(image, format: .rgbaf).bytes)
            }
            for (index, render) in renders.enumerated().dropFirst() { XCTAssertEqual(render, renders[0], "\(format), render \(index)") }
        }
    }

    /// A render of part of the image (the processor's output smaller than the photo: its colours
    /// built aside and copied) gives the same pixels as the whole render there.
    func testAPartRendersAsTheWhole() throws {
        let image = try zoomed(t: -0.3)
        let whole = try renderExactly(image, image.extent)
        let part = try renderExactly(image, Rect(x: 20, y: 10, width: 31, height: 17))
        for y in 0..<17 {
            for x in 0..<31 { XCTAssertEqual(part[y][x], whole[10 + y][20 + x], "(\(x), \(y))") }
        }
    }

    /// The z-buffer's banded pass on its own: every band count gives the same disparities.
    func testTheZBufferIsTheSameForAnyBandCount() throws {
        let width = 173, height = 131
        var rng = SystemRandomNumberGenerator()
        var map = [Float]()
        for _ in 0..<(40 * 30) { map.append(Float.random(in: 0.5...2, using: &rng)) }
        let photoBuffer = try PlanarBuffer(x: 0, y: 0, width: width, height: height, samples: .float32)
        let mapBuffer = try PlanarBuffer(x: 0, y: 0, width: 40, height: 30, samples: .float32)
        for (i, value) in map.enumerated() { mapBuffer.planes[0][i] = value }
        let disparity = DollyZoomReprojection.StretchedDisparity(map: mapBuffer, width: width, height: height)
        defer { disparity.deallocate() }
        for amount in [0.35, -0.4] {
            let geometry = DollyZoomReprojection.Geometry(amount: amount, subject: 1.2, photo: photoBuffer, disparity: disparity)
            var results: [[UInt32]] = []
            for threads in [1, 2, 5, 16] {
                let pixels = DollyZoomPixels(width: width, height: height, threads: threads)
                defer { pixels.deallocate() }
                pixels.splat(geometry, disparity: disparity)
                results.append((0..<(width * height)).map { pixels.depth[$0].bitPattern })
            }
            XCTAssertGreaterThan(results[0].filter { $0 != Float(-Float.infinity).bitPattern }.count, width * height / 2)
            for result in results.dropFirst() { XCTAssertEqual(result, results[0], "amount \(amount)") }
        }
    }

    /// ⌈x⌉ clamped to 0...count, whatever came before (remembered answers, the next pixel's).
    func testFirstCentreMatchesTheCeiling() {
        var rng = SystemRandomNumberGenerator()
        for count in [1, 2, 7, 100] {
            var first = DollyZoomPixels.FirstCentre(count: count)
            var x = Double.random(in: -3...Double(count + 3), using: &rng)
            for step in 0..<2000 {
                // Mostly small steps (as along a row), sometimes jumps, and whole numbers.
                switch step % 7 {
                case 0: x = Double.random(in: -3...Double(count + 3), using: &rng)
                case 1: x = x.rounded()
                default: x += Double.random(in: -0.3...1.2, using: &rng)
                }
                let expected = Int(min(max(x.rounded(.up), 0), Double(count)))
                XCTAssertEqual(first(x), expected, "count \(count), x \(x)")
            }
        }
    }
}
