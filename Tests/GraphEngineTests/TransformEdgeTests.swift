import Foundation
import XCTest
@testable import GraphEngine

/// A transformed image is sampled at every pixel its extent touches, edges like the interior:
/// bilinear between pixel centres, transparent outside the source (issue 12, second defect: a
/// translation by (10.5, 3.25) left the right column and top row transparent). Expected values are
/// computed here in Double from the bilinear formula, with and without colour management.
final class TransformEdgeTests: XCTestCase {
    static let width = 7, height = 5

    /// Straight-alpha RGBA8 bytes, top row first.
    static let bytes: [UInt8] = {
        var rng = SeededGenerator(seed: 912)
        return (0..<(width * height * 4)).map { i in UInt8(i % 4 == 3 ? Int.random(in: 40...255, using: &rng)
                                                                   : Int.random(in: 0...255, using: &rng)) }
    }()

    static let transforms: [(String, GraphEngine.AffineTransform)] = [
        ("translation (10.5, 3.25)", GraphEngine.AffineTransform(translationX: 10.5, y: 3.25)),
        ("scale (1.5, 0.75) then (0.3, 2.6)", GraphEngine.AffineTransform(a: 1.5, b: 0, c: 0, d: 0.75, tx: 0.3, ty: 2.6)),
        ("upscale 2.5 then (-1.2, 0.4)", GraphEngine.AffineTransform(a: 2.5, b: 0, c: 0, d: 2.5, tx: -1.2, ty: 0.4)),
        ("rotation 0.3 rad then (5.2, 1.7)",
         GraphEngine.AffineTransform(a: cos(0.3), b: sin(0.3), c: -sin(0.3), d: cos(0.3), tx: 5.2, ty: 1.7)),
    ]

    /// The source pixel (column `i`, working-space row `j`) premultiplied in the working space; 0
    /// outside the source.
    static func sourcePixel(_ i: Int, _ j: Int, managed: Bool) -> [Double] {
        guard i >= 0, j >= 0, i < width, j < height else { return [0, 0, 0, 0] }
        let offset = ((height - 1 - j) * width + i) * 4
        let a = Double(bytes[offset + 3]) / 255
        return (0..<3).map { c -> Double in
            let v = Double(bytes[offset + c]) / 255
            return (managed ? decode(v) : v) * a
        } + [a]
    }

    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// The transformed image at pixel (`x`, `y`), premultiplied in the output space.
    static func expected(_ t: GraphEngine.AffineTransform, covered: (x0: Int, y0: Int, x1: Int, y1: Int), x: Int, y: Int,
                         managed: Bool) -> [Double] {
        guard x >= covered.x0, x < covered.x1, y >= covered.y0, y < covered.y1 else { return [0, 0, 0, 0] }
        // Inverse of x' = a·x + c·y + tx, y' = b·x + d·y + ty at the pixel centre.
        let det = t.a * t.d - t.b * t.c
        let dx = Double(x) + 0.5 - t.tx, dy = Double(y) + 0.5 - t.ty
        let sx = (t.d * dx - t.c * dy) / det, sy = (-t.b * dx + t.a * dy) / det
        let fx = sx - 0.5, fy = sy - 0.5
        let i = Int(fx.rounded(.down)), j = Int(fy.rounded(.down))
        let u = fx - fx.rounded(.down), v = fy - fy.rounded(.down)
        let p00 = sourcePixel(i, j, managed: managed), p10 = sourcePixel(i + 1, j, managed: managed)
        let p01 = sourcePixel(i, j + 1, managed: managed), p11 = sourcePixel(i + 1, j + 1, managed: managed)
        var value = (0..<4).map { c in
            p00[c] * (1 - u) * (1 - v) + p10[c] * u * (1 - v) + p01[c] * (1 - u) * v + p11[c] * u * v
        }
        if managed, value[3] > 0 {
            for c in 0..<3 { value[c] = encode(value[c] / value[3]) * value[3] }
        }
        return value
    }

    /// The pixels a transformed `width`×`height` rectangle touches: its corners' bounding box rounded out.
    static func coveredPixels(_ t: GraphEngine.AffineTransform) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        var xs: [Double] = [], ys: [Double] = []
        for (x, y) in [(0, 0), (width, 0), (0, height), (width, height)] {
            xs.append(t.a * Double(x) + t.c * Double(y) + t.tx)
            ys.append(t.b * Double(x) + t.d * Double(y) + t.ty)
        }
        let x0 = xs.min() ?? 0, x1 = xs.max() ?? 0, y0 = ys.min() ?? 0, y1 = ys.max() ?? 0
        return (Int(x0.rounded(.down)), Int(y0.rounded(.down)), Int(x1.rounded(.up)), Int(y1.rounded(.up)))
    }

    func check(managed: Bool) throws {
        var options = ContextOptions()
        if !managed {
            options.workingColorSpace = nil
            options.outputColorSpace = nil
        }
        let context = Context(options: options)
        let source = Image(buffer: try ImageBuffer(width: Self.width, height: Self.height, format: .rgba8,
                                                   alphaMode: .straight, colorSpace: managed ? .sRGB : nil,
                                                   bytes: Self.bytes))
        // Half-float intermediates (the colour-managed source) are good to about 1e-3.
        let tolerance = managed ? 2e-3 : 2e-6
        for (name, transform) in Self.transforms {
            let image = source.transformed(by: transform)
            let covered = Self.coveredPixels(transform)
            // Two pixels more on every side: outside the covered pixels everything is transparent.
            let rect = Rect(x: Double(covered.x0 - 2), y: Double(covered.y0 - 2),
                            width: Double(covered.x1 - covered.x0 + 4), height: Double(covered.y1 - covered.y0 + 4))
            XCTAssertEqual(PixelRect(image.extent), PixelRect(x: covered.x0, y: covered.y0, width: covered.x1 - covered.x0,
                                                                height: covered.y1 - covered.y0), name)
            let pixels = bottomUpPixels(try context.render(image, rect: rect, format: .rgbaf))
            var worst = 0.0, index = 0
            for y in (covered.y0 - 2)..<(covered.y1 + 2) {
                for x in (covered.x0 - 2)..<(covered.x1 + 2) {
                    let want = Self.expected(transform, covered: covered, x: x, y: y, managed: managed)
                    for c in 0..<4 { worst = max(worst, abs(Double(pixels[index][c]) - want[c])) }
                    index += 1
                }
            }
            XCTAssertLessThan(worst, tolerance, "\(name), colour management \(managed ? "on" : "off")")
        }
    }

    func testEdgesAreSampledLikeTheInteriorWithoutColorManagement() throws { try check(managed: false) }

    func testEdgesAreSampledLikeTheInteriorWithColorManagement() throws { try check(managed: true) }

    /// The issue's case read directly: an opaque source moved by (10.5, 3.25) has alpha 0.5 in its
    /// left and right columns, 0.75 in its bottom row and 0.25 in its top row (the source's edge
    /// pixel times the share of the bilinear footprint inside the source).
    func testSubpixelTranslationEdgeAlpha() throws {
        var options = ContextOptions()
        options.workingColorSpace = nil
        let buffer = try ImageBuffer(width: 4, height: 3, format: .gray8, colorSpace: nil,
                                     bytes: [UInt8](repeating: 200, count: 12))
        let image = Image(buffer: buffer).transformed(by: GraphEngine.AffineTransform(translationX: 10.5, y: 3.25))
        let rendered = try Context(options: options).render(image, format: .rgbaf)
        XCTAssertEqual(rendered.width, 5)
        XCTAssertEqual(rendered.height, 4)
        let alpha = (0..<4).map { row in (0..<5).map { rendered.pixel(x: $0, row: row)[3] } }
        XCTAssertEqual(alpha[0], [0.125, 0.25, 0.25, 0.25, 0.125], "top row")
        XCTAssertEqual(alpha[1], [0.5, 1, 1, 1, 0.5])
        XCTAssertEqual(alpha[3], [0.375, 0.75, 0.75, 0.75, 0.375], "bottom row")
    }

    /// A render larger than the image's extent is transparent outside it, whatever the root node
    /// (a crop's mask and an upscale's bilinear fringe used to leak when the extent was integral).
    func testRenderBeyondTheExtentIsTransparentOutside() throws {
        var options = ContextOptions()
        options.workingColorSpace = nil
        let context = Context(options: options)
        let source = Image(buffer: try ImageBuffer(width: 4, height: 4, format: .gray8, colorSpace: nil,
                                                   bytes: [UInt8](repeating: 255, count: 16)))
        let images = [("crop", source.cropped(to: Rect(x: 1, y: 1, width: 2, height: 2))),
                      ("scale 2", source.transformed(by: GraphEngine.AffineTransform(scaleX: 2, y: 2)))]
        for (name, image) in images {
            let covered = PixelRect(image.extent)
            let rect = PixelRect(x: covered.x - 3, y: covered.y - 3, width: covered.width + 6, height: covered.height + 6)
            let pixels = bottomUpPixels(try context.render(image, rect: rect.rect, format: .rgbaf))
            var index = 0
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX {
                    let inside = x >= covered.x && x < covered.maxX && y >= covered.y && y < covered.maxY
                    if !inside { XCTAssertEqual(pixels[index], .zero, "\(name) at (\(x), \(y))") }
                    if inside && name == "crop" { XCTAssertEqual(pixels[index], SIMD4(1, 1, 1, 1), "\(name) at (\(x), \(y))") }
                    index += 1
                }
            }
        }
    }
}
