import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIMaximumScaleTransform against a float64 footprint maximum written here (input pixels whose
/// square overlaps the output pixel's footprint by more than 1e-9 px; 0 outside a finite extent).
final class MaximumScaleTransformTests: XCTestCase {
    /// The maximum over input pixels overlapping output pixel (x, y)'s footprint.
    static func reference(_ x: Int, _ y: Int, sx: Double, sy: Double, read: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double> {
        func overlapping(_ index: Int, _ s: Double) -> [Int] {
            let low = Double(index) / s, high = Double(index + 1) / s
            return (Int(low.rounded(.down)) - 1...Int(high.rounded(.up)) + 1).filter { i in
                min(Double(i + 1), high) - max(Double(i), low) > 1e-9
            }
        }
        var best = SIMD4<Double>(repeating: -.infinity)
        for j in overlapping(y, sy) { for i in overlapping(x, sx) { best = pointwiseMax(best, read(i, j)) } }
        return best
    }

    func scaled(_ image: Image, scale: Double, aspect: Double) throws -> Image {
        try image.applyingFilter("CIMaximumScaleTransform", parameters: ["inputScale": .number(scale), "inputAspectRatio": .number(aspect)])
    }

    func testShrinkTakesTheFootprintMaximumWithTransparentBorders() throws {
        let source = try TestImage(width: 23, height: 17, seed: 5, opaque: false)
        for (scale, aspect) in [(0.25, 2.0), (0.3, 1.5), (0.45, 0.7)] {
            let image = try scaled(source.image, scale: scale, aspect: aspect)
            let sx = scale * aspect, sy = scale
            XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 23 * sx, height: 17 * sy).integral)
            try assertMatches(image, image.extent, tolerance: 1e-7) { x, y in Self.reference(x, y, sx: sx, sy: sy, read: source.at) }
        }
    }

    func testEnlargeTakesTheOneOrTwoPixelsAFootprintOverlaps() throws {
        let source = try TestImage(width: 9, height: 7, seed: 8, opaque: false)
        let image = try scaled(source.image, scale: 2.5, aspect: 0.8)
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 18, height: 18))
        try assertMatches(image, image.extent, tolerance: 1e-7) { x, y in Self.reference(x, y, sx: 2, sy: 2.5, read: source.at) }
    }

    /// Clamp, scale, crop: the footprints read the nearest edge pixel outside, and a crop far from
    /// the origin reads only its footprints.
    func testClampedInputStaysInfiniteAndItsCropReadsOnlyTheFootprints() throws {
        let source = try TestImage(width: 15, height: 12, seed: 3)
        let image = try scaled(source.image.clampedToExtent(), scale: 0.3, aspect: 1)
        XCTAssertTrue(image.extent.isInfinite)
        let crop = Rect(x: -4, y: -3, width: 14, height: 12)
        try assertMatches(image.cropped(to: crop), crop, tolerance: 1e-7) { x, y in
            Self.reference(x, y, sx: 0.3, sy: 0.3, read: source.clamped)
        }
        guard case .area(let pass) = image.node.kind else { return XCTFail("not an area pass") }
        XCTAssertEqual(pass.regionOfInterest(input: 0, for: Rect(x: 300, y: -600, width: 3, height: 6)),
                       Rect(x: 1000, y: -2000, width: 10, height: 20))
    }

    func testTilesThreadsAndTheReferenceEvaluatorAgree() throws {
        let source = try TestImage(width: 40, height: 33, seed: 9, opaque: false)
        let image = try scaled(source.image, scale: 0.37, aspect: 1.3)
        XCTAssertEqual(try renderExactly(image, image.extent, tileSize: 8), try renderExactly(image, image.extent, tileSize: 256))
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.workingColorSpace = nil
        let reference = try ReferenceEvaluator().render(image, rect: image.extent, options: options)
        let fast = try renderExactly(image, image.extent)
        var index = 0
        for row in fast {
            for value in row {
                let r = reference[index]
                XCTAssertEqual(SIMD4<Double>(Double(r[0]), Double(r[1]), Double(r[2]), Double(r[3])), value)
                index += 1
            }
        }
    }

    func testIdentityZeroAndAttributes() throws {
        let source = try TestImage(width: 5, height: 4, seed: 1)
        XCTAssertEqual(try scaled(source.image, scale: 1, aspect: 1), source.image)
        XCTAssertTrue(try scaled(source.image, scale: 0, aspect: 1).extent.isEmpty)
        try assertAttributes(["CIMaximumScaleTransform"])
    }
}
