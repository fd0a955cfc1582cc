import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

typealias EngineTransform = GraphEngine.AffineTransform

/// CISampleNearest: the next affine transform reads the input pixel containing each output centre's
/// source point, `out(p) = in(⌊T⁻¹·(p + ½)⌋)`, checked against that float64 formula.
final class SampleNearestTests: XCTestCase {
    /// `in(⌊T⁻¹·(X + ½, Y + ½)⌋)` with `read`, or nil where the source point lies within 1e-3 of a
    /// pixel edge (Float32 and float64 may round it to either side).
    static func nearest(_ x: Int, _ y: Int, _ t: EngineTransform, read: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double>? {
        let px: Double = Double(x) + 0.5 - t.tx, py: Double = Double(y) + 0.5 - t.ty
        let det: Double = t.a * t.d - t.b * t.c
        let u: Double = (t.d * px - t.c * py) / det
        let v: Double = (t.a * py - t.b * px) / det
        for w in [u, v] where abs(w - w.rounded()) < 1e-3 { return nil }
        return read(Int(u.rounded(.down)), Int(v.rounded(.down)))
    }

    func transformed(_ image: Image, _ t: EngineTransform) throws -> Image {
        try image.applyingFilter("CIAffineTransform", parameters: ["inputTransform": .transform(t)])
    }

    func assertNearest(_ image: Image, _ rect: Rect, _ t: EngineTransform, read: (Int, Int) -> SIMD4<Double>,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let rendered = try renderExactly(image, rect)
        var compared = 0
        for (j, row) in rendered.enumerated() {
            for (i, value) in row.enumerated() {
                let x = Int(rect.x) + i, y = Int(rect.y) + j
                guard let want = Self.nearest(x, y, t, read: read) else { continue }
                // The input holds these float64 values rounded to Float32.
                XCTAssertLessThanOrEqual((value - want).replacing(with: -(value - want), where: value .< want).max(), 1e-7,
                                         "(\(x), \(y)): \(value) vs \(want)", file: file, line: line)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, rendered.count * (rendered.first?.count ?? 0) * 9 / 10, file: file, line: line)
    }

    func testAffineTransformsOfTheMarkedImageReadTheNearestPixel() throws {
        let source = try TestImage(width: 11, height: 8, seed: 12, opaque: false)
        let marked = try source.image.applyingFilter("CISampleNearest")
        let c: Double = 2 * cos(0.3), s: Double = 2 * sin(0.3)
        for t in [EngineTransform(a: 2.5, b: 0, c: 0, d: 3, tx: 0.3, ty: -0.2), EngineTransform(a: c, b: s, c: -s, d: c, tx: 5, ty: -1)] {
            let image = try transformed(marked, t)
            XCTAssertEqual(image.extent, t.apply(to: source.image.extent))
            try assertNearest(image, image.extent.integral, t, read: source.at)
        }
    }

    /// The mark survives clampedToExtent (CIAffineClamp), and a crop far outside reads edge pixels.
    func testTheMarkSurvivesClampingToTheExtent() throws {
        let source = try TestImage(width: 7, height: 6, seed: 2)
        let t = EngineTransform(a: 3, b: 0, c: 0, d: 2.5, tx: 0.2, ty: 0.1)
        let image = try source.image.applyingFilter("CISampleNearest")
            .applyingFilter("CIAffineClamp", parameters: ["inputTransform": .transform(t)])
        XCTAssertTrue(image.extent.isInfinite)
        let crop = Rect(x: -6, y: -5, width: 34, height: 27)
        try assertNearest(image.cropped(to: crop), crop, t, read: source.clamped)
    }

    func testTheMarkAloneChangesNoPixelAndUnmarkedTransformsStayBilinear() throws {
        let source = try TestImage(width: 9, height: 5, seed: 4, opaque: false)
        let marked = try source.image.applyingFilter("CISampleNearest")
        XCTAssertEqual(marked.extent, source.image.extent)
        XCTAssertEqual(try renderExactly(marked, marked.extent), try renderExactly(source.image, source.image.extent))
        XCTAssertEqual(try marked.applyingFilter("CISampleNearest"), marked)
        let t = EngineTransform(a: 2.5, b: 0, c: 0, d: 3, tx: 0.3, ty: -0.2)
        XCTAssertNotEqual(try renderExactly(try transformed(source.image, t), Rect(x: 2, y: 2, width: 16, height: 8)),
                          try renderExactly(try transformed(marked, t), Rect(x: 2, y: 2, width: 16, height: 8)))
        try assertAttributes(["CISampleNearest"])
    }
}
