import Foundation
import GraphEngine
@testable import Kernels
import XCTest

/// CIDepthBlurEffect on a synthetic two-plane scene: a red object at disparity 1 over a smooth
/// green-blue texture at disparity 0.25 (brighter than the object everywhere, so the photo-guided
/// refinement of the map can find the edge) (the map given at a quarter of the photo's size, as phones
/// store it), against float64 statements of what the layered blur should give.
final class DepthBlurEffectTests: XCTestCase {
    static let width = 480, height = 320
    /// The object: x in 160..<320, y in 96..<224 (multiples of 4, so the quarter-size map is exact).
    static func inObject(_ x: Int, _ y: Int) -> Bool { x >= 160 && x < 320 && y >= 96 && y < 224 }
    static let red = SIMD4<Double>(0.8, 0, 0, 1)
    static func background(_ x: Int, _ y: Int) -> SIMD4<Double> {
        let (u, v) = (Double(x) + 0.5, Double(y) + 0.5)
        return SIMD4(0, 0.7 + 0.2 * sin(2 * .pi * u / 40) * cos(2 * .pi * v / 50), 0.6 + 0.2 * cos(2 * .pi * u / 60), 1)
    }
    static func scene(_ x: Int, _ y: Int) -> SIMD4<Double> { inObject(x, y) ? red : background(x, y) }

    /// A data image from a function of working-space pixel position (y up).
    static func dataImage(width: Int, height: Int, _ value: (Int, Int) -> SIMD4<Double>) throws -> Image {
        var floats: [Float] = []
        for row in (0..<height).reversed() { for x in 0..<width { floats += (0..<4).map { Float(value(x, row)[$0]) } } }
        let bytes = floats.withUnsafeBytes { Array($0) }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil, bytes: bytes))
    }

    /// The scene's disparity at 1/`step` of its size.
    static func disparity(step: Int) throws -> Image {
        try dataImage(width: width / step, height: height / step) { x, y in
            let d = inObject(step * x, step * y) ? 1.0 : 0.25
            return SIMD4(d, d, d, 1)
        }
    }

    func blurred(_ photo: (Int, Int) -> SIMD4<Double>, focus: [Double], mapStep: Int = 4) throws -> [[SIMD4<Double>]] {
        let image = try Self.dataImage(width: Self.width, height: Self.height, photo)
        let effect = try image.applyingFilter("CIDepthBlurEffect", parameters: [
            "inputDisparityImage": .image(try Self.disparity(step: mapStep)), "inputAperture": .number(1.4),
            "inputFocusRect": .rect(Rect(x: focus[0], y: focus[1], width: focus[2], height: focus[3]))])
        XCTAssertEqual(effect.extent, image.extent)
        return try renderExactly(effect, image.extent, tileSize: 128)
    }

    /// Mean of `value` over the disc dx² + dy² ≤ r² (the disc the layers are blurred with).
    static func disc(_ r: Double, _ x: Int, _ y: Int, _ value: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double> {
        let reach = Int(r.rounded(.down))
        var sum = SIMD4<Double>.zero, count = 0.0
        for dy in -reach...reach {
            for dx in -reach...reach where Double(dx * dx + dy * dy) <= r * r {
                sum += value(x + dx, y + dy)
                count += 1
            }
        }
        return sum / count
    }

    /// Distance in pixels from (x, y) outside the object to the object (Chebyshev).
    static func distanceOutside(_ x: Int, _ y: Int) -> Int {
        max(max(160 - x, x - 319, 0), max(96 - y, y - 223, 0))
    }

    func testFocusOnTheObjectKeepsItSharpAndTheBackgroundItsOwnColour() throws {
        let out = try blurred(Self.scene, focus: [0.45, 0.45, 0.1, 0.1])
        // The background alone (object region filled with background, same disparity): what the
        // background near the object must look like when nothing of the object bleeds into it. Both
        // with the full-size map, so the guide (which differs) cannot move the depth edge.
        let withObject = try blurred(Self.scene, focus: [0.45, 0.45, 0.1, 0.1], mapStep: 1)
        let alone = try blurred(Self.background, focus: [0.45, 0.45, 0.1, 0.1], mapStep: 1)
        var worstInside = 0.0, worstBleed = 0.0, worstRing = 0.0, worstFar = 0.0
        var at = [(0, 0), (0, 0), (0, 0), (0, 0)]
        func note(_ worst: inout Double, _ value: Double, _ i: Int, _ x: Int, _ y: Int) {
            if value > worst { worst = value; at[i] = (x, y) }
        }
        // k = 0.1·480/1.4; background c = −min(k·0.75 − 1, 12) = −12 (the clamp): exactly the
        // outermost layer's radius, so the disc of radius 12.
        XCTAssertEqual(min(0.1 * 480 / 1.4 * 0.75 - 1, 12), 12)
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let v = out[y][x]
                if Self.inObject(x, y) {
                    // Sharp: the photo itself, up to the edge (the refined map's transition is ~1 px).
                    if x >= 162 && x < 318 && y >= 98 && y < 222 { note(&worstInside, max(abs(v[0] - 0.8), abs(v[1]), abs(v[2])), 0, x, y) }
                    continue
                }
                let d = Self.distanceOutside(x, y)
                if d >= 2 && d <= 10 { note(&worstBleed, v[0], 1, x, y) }
                // From 3 px: the 1:1 refinement of the map reaches 2 px, and the guides differ.
                if d >= 3 && d <= 10 {
                    note(&worstRing, max(abs(withObject[y][x][1] - alone[y][x][1]), abs(withObject[y][x][2] - alone[y][x][2])), 2, x, y)
                }
                if d >= 30 && x % 7 == 0 && y % 5 == 0 && x >= 20 && x < Self.width - 20 && y >= 20 && y < Self.height - 20 {
                    let expected = Self.disc(12, x, y, Self.background)
                    note(&worstFar, max(abs(v[1] - expected[1]), abs(v[2] - expected[2])), 3, x, y)
                }
            }
        }
        XCTAssertLessThan(worstInside, 0.01, "the focused object must stay sharp: \(at[0])")
        XCTAssertLessThan(worstBleed, 0.02, "the object's red must not bleed into the background within 10 px: \(at[1])")
        XCTAssertLessThan(worstRing, 0.02, "background near the object must match the background rendered alone: \(at[2])")
        XCTAssertLessThan(worstFar, 0.02, "far background: the disc of radius 12: \(at[3])")
    }

    /// Every pixel's share is conserved: a photo of one colour renders as that colour, whatever the
    /// map. This map puts a slightly blurred strip (c ≈ 3.4, just above the Gaussian's radius) between
    /// a maximally blurred foreground (c = 6) and the focused background, and a farther band behind:
    /// where the foreground's spread overlaps the strip's own share, the front layers' coverage sums
    /// past 1 (it reached 1.48 on the iPhone 13 Pro pug photo, a +8-level bright rim outside the
    /// pug's blurred outline) and must be normalised, not added.
    func testAConstantPhotoStaysConstantWhateverTheMap() throws {
        let colour = SIMD4<Double>(0.5, 0.3, 0.7, 1)
        let photo = try Self.dataImage(width: Self.width, height: Self.height) { _, _ in colour }
        // k = 0.1·480/1.4 = 34.3; c = k·(D − 0.25)/0.25 − 1: 0.282 gives 3.4, 1 gives the clamp 6.
        let map = try Self.dataImage(width: Self.width, height: Self.height) { x, y in
            let d = y < 100 ? 0.1 : x < 200 ? 1.0 : x < 230 ? 0.282 : 0.25
            return SIMD4(d, d, d, 1)
        }
        let effect = try photo.applyingFilter("CIDepthBlurEffect", parameters: [
            "inputDisparityImage": .image(map), "inputAperture": .number(1.4), "inputLumaNoiseScale": .number(1e-9),
            "inputFocusRect": .rect(Rect(x: 0.8, y: 0.8, width: 0.1, height: 0.1))])
        let out = try renderExactly(effect, photo.extent, tileSize: 128)
        var worst = 0.0, worstAt = (0, 0)
        for (y, row) in out.enumerated() {
            for (x, pixel) in row.enumerated() {
                let error = (0..<3).map { abs(pixel[$0] - colour[$0]) }.max() ?? 0
                if error > worst { (worst, worstAt) = (error, (x, y)) }
            }
        }
        XCTAssertLessThan(worst, 1e-3, "at \(worstAt): \(out[worstAt.1][worstAt.0])")
    }

    /// The composite at a pixel just behind the focus plane (c = −2.78: 72 % of its own part is the
    /// first back layer's colour `B/B.a`) whose 2×2 block went to the blurred foreground, so that it
    /// has no share in the back layers and `B` is only the enlargements' lobes (the values printed at
    /// such a pixel of the scene above with a guided refinement of its map, where the output was
    /// (0.30, −0.98, −0.69)). Its own colour stands in: `out = F + (1 − F.a)·small`, small the
    /// Gaussian (c beyond r₁).
    func testThePixelsOwnColourStandsInForAnEmptyBackLayer() throws {
        let r1 = 2.0.squareRoot() * 1.5, t = 3.0
        // Image(color:) premultiplies: given the premultiplied values, pass them divided by alpha.
        func constant(_ v: [Double]) -> KernelArgument { .image(Image(color: [v[0] / v[3], v[1] / v[3], v[2] / v[3], v[3]])) }
        let photo = [0.0, 0.66, 0.5, 1.0], gaussian = [0.0, 0.64, 0.49, 1.0]
        let front = [0.28, 0.13775582611560822, 0.09870578348636627, 0.5511606335639954]
        let r0 = 1.5
        let image = try PortraitBlur.compositeKernel.apply([
            constant(photo), constant([-2.7773184776306152, 0, 0, 1]), constant([0.0, 0.3, 0.2, 1.0]), constant(gaussian),
            constant([0, -0.0007930690189823508, -0.0005583892343565822, -0.0012176521122455597]), constant(front),
            constant([0, 0.5189621448516846, 0.37946587800979614, 0.8239260315895081]),
            .number(r0 * r0), .number(1 / (r0 * r0)), .number(r1 * r1), .number(1 / (r1 * r1 - r0 * r0)),
            .number(1 / (t * t - r1 * r1)), .number(1 / (t * t - r1 * r1)), .number(1e-9),
        ], extent: Rect(x: 0, y: 0, width: 2, height: 2))
        let out = try renderExactly(image, image.extent)[0][0]
        for channel in 0..<3 {
            XCTAssertEqual(out[channel], front[channel] + (1 - front[3]) * gaussian[channel], accuracy: 1e-5, "channel \(channel): \(out)")
        }
    }

    /// Under the innermost layer's radius r₁ the pixel is the photo, the r₀ Gaussian and the r₁ one mixed
    /// linearly in c² between neighbours: `mix(photo, g₀, c²/r₀²)` up to r₀, then `mix(g₀, g₁, (c² − r₀²)/(r₁² − r₀²))`,
    /// on either side of the focus plane (nothing in front, no back layer reached).
    func testSmallRadiiMixThePhotoAndTheTwoGaussiansInCSquared() throws {
        let r0 = 1.7, r1 = 2.4, t = 3.4
        let photo = [0.9, 0.1, 0.5], g0 = [0.6, 0.3, 0.4], g1 = [0.2, 0.5, 0.3]
        func expected(_ c: Double) -> [Double] {
            let a2 = c * c
            if a2 < r0 * r0 { return (0..<3).map { photo[$0] + a2 / (r0 * r0) * (g0[$0] - photo[$0]) } }
            let w = min((a2 - r0 * r0) / (r1 * r1 - r0 * r0), 1)
            return (0..<3).map { g0[$0] + w * (g1[$0] - g0[$0]) }
        }
        for c in [-2.2, -1.2, 0.0, 0.8, 1.7, 2.0, 2.4] {
            let image = try PortraitBlur.compositeKernel.apply([
                .image(Image(color: photo + [1])), .image(Image(color: [c, c, c, 1])), .image(Image(color: g0 + [1])),
                .image(Image(color: g1 + [1])), .image(Image(color: [0, 0, 0, 0])), .image(Image(color: [0, 0, 0, 0])),
                .image(Image(color: [0, 0, 0, 0])),
                .number(r0 * r0), .number(1 / (r0 * r0)), .number(r1 * r1), .number(1 / (r1 * r1 - r0 * r0)),
                .number(1 / (t * t - r1 * r1)), .number(1 / (t * t - r1 * r1)), .number(1e-9),
            ], extent: Rect(x: 0, y: 0, width: 2, height: 2))
            let out = try renderExactly(image, image.extent)[0][0], want = expected(c)
            for channel in 0..<3 {
                XCTAssertEqual(Double(out[channel]), want[channel], accuracy: 1e-5, "c = \(c), channel \(channel): \(out)")
            }
        }
    }

    func testFocusOnTheBackgroundLetsTheBlurredObjectCoverItsEdge() throws {
        let out = try blurred(Self.scene, focus: [0.02, 0.02, 0.1, 0.1])
        // The object is in front: c = min(k·3 − 1, 6) = 6, one layer of radius 6 whose blurred
        // coverage spreads over the sharp background on both sides of its edge (partial occlusion):
        // out = cov·red + (1 − cov)·bg, inside too, where the background hidden behind the object's
        // edge shows through (the engine extends the background around it; this one is smooth).
        // The nearer side wins a 1 px disc at the depth edge (the blur value's maximum), so the
        // four pixels at the edge lag the exact profile by about a pixel; the rest follows it, within
        // 0.05: the half-size layer's disc is chosen for its spread (radius 2.94 there, with the box,
        // has the variance of the disc of radius 6; the Catmull-Rom enlargement adds none), so its
        // tail 5 px out sits up to 0.045 below the exact disc's.
        var worst = 0.0, worstAt = (0, 0), worstAtEdge = 0.0, worstAtEdgeAt = (0, 0)
        for y in 112..<208 {
            for x in [150, 155, 157, 158, 159, 160, 161, 162, 163, 166, 170] {
                let cov = Self.disc(6, x, y) { Self.inObject($0, $1) ? SIMD4(repeating: 1) : .zero }[0]
                let expected = cov * Self.red + (1 - cov) * Self.background(x, y)
                let error = (0..<3).map { abs(out[y][x][$0] - expected[$0]) }.max() ?? 0
                if (159...162).contains(x) {
                    if error > worstAtEdge { worstAtEdge = error; worstAtEdgeAt = (x, y) }
                } else if error > worst {
                    worst = error; worstAt = (x, y)
                }
            }
        }
        XCTAssertLessThan(worst, 0.05, "edge profile at \(worstAt)")
        XCTAssertLessThan(worstAtEdge, 0.12, "edge profile at \(worstAtEdgeAt)")
        // No cut-out: just outside the edge the object's blur is there (coverage ≈ 0.35 at 2 px), and
        // inside the background shows through (coverage ≈ 0.68 at 3 px in; an opaque silhouette
        // would give red 0.8 and no green).
        XCTAssertGreaterThan(out[160][158][0], 0.2)
        XCTAssertLessThan(out[160][163][0], 0.72)
        XCTAssertGreaterThan(out[160][163][1], 0.07)
        // The background far from the object is sharp (in focus).
        for (x, y) in [(40, 40), (420, 280), (60, 290)] {
            XCTAssertEqual(out[y][x][1], Self.background(x, y)[1], accuracy: 0.01)
        }
    }

    /// A quarter-size preview of a JPEG file decodes the photo at a quarter (libjpeg's DCT scaling:
    /// no resample stage, no larger decode); the same photo from memory is Lanczos-scaled, once (an
    /// intermediate). Both previews are low-passes of the photo: they agree closely.
    func testQuarterPreviewOfAJPEGFileDecodesAtAQuarter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("scene.jpg").path
        let scene = try Self.dataImage(width: Self.width, height: Self.height, Self.scene).matchedToWorkingSpace(from: .sRGB)
        try Context().write(scene, to: path, options: ImageWriteOptions(quality: 95))
        func preview(_ photo: Image) throws -> (image: Image, dump: GraphDump) {
            let effect = try photo.applyingFilter("CIDepthBlurEffect", parameters: [
                "inputDisparityImage": .image(try Self.disparity(step: 4)), "inputScaleFactor": .number(0.25)])
            return (effect, try Context().dump(effect))
        }
        let file = try Image(contentsOf: path)
        let (fromFile, fileDump) = try preview(file)
        XCTAssertEqual(fromFile.extent, Rect(x: 0, y: 0, width: 120, height: 80))
        let decodes = fileDump.passes.first { $0.pass == "resolve-file-sources" }?.changes ?? []
        XCTAssertTrue(decodes.contains { $0.contains("decoded at 1/4") }, "\(decodes)")
        XCTAssertFalse(fileDump.programs.contains { $0.name.hasPrefix("CIDepthBlurEffect_scale") }, "no resample")

        let inMemory = Image(buffer: try Context().render(file))
        let (fromMemory, memoryDump) = try preview(inMemory)
        XCTAssertTrue(memoryDump.programs.contains { $0.kind == "intermediate" && $0.name == "CIDepthBlurEffect_scaled" })
        let a = try Context().render(fromFile, format: .rgbaf), b = try Context().render(fromMemory, format: .rgbaf)
        var squared = 0.0
        for row in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, row: row), q = b.pixel(x: x, row: row)
                for c in 0..<3 { squared += Double(p[c] - q[c]) * Double(p[c] - q[c]) }
            }
        }
        let psnr = 10 * log10(1 / (squared / Double(a.width * a.height * 3)))
        XCTAssertGreaterThan(psnr, 30, "the DCT and Lanczos previews differ too much")
    }

    /// New aperture and focus values are uniforms and a new focus area: the second render compiles
    /// no program.
    func testNewApertureAndFocusRenderWithoutCompiling() throws {
        let image = try Self.dataImage(width: 192, height: 128) { x, y in Self.scene(5 * x / 2, 5 * y / 2) }
        let context = exactContext(threads: 2)
        func render(_ aperture: Double, _ focus: Rect) throws {
            let effect = try image.applyingFilter("CIDepthBlurEffect", parameters: [
                "inputDisparityImage": .image(try Self.disparity(step: 10)), "inputAperture": .number(aperture),
                "inputFocusRect": .rect(focus)])
            _ = try context.render(effect, format: .rgbaf)
        }
        try render(1.4, Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1))
        let compiled = context.programCacheStatistics.misses
        try render(4, Rect(x: 0.02, y: 0.02, width: 0.1, height: 0.1))
        XCTAssertEqual(context.programCacheStatistics.misses, compiled)
        XCTAssertGreaterThan(compiled, 3)
    }
}
