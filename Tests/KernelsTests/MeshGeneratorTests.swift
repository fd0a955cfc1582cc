import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIMeshGenerator (``MeshGenerator``): every pixel against the float64 coverage of round-capped
/// segments, its extent, its colour, and errors naming the element of `inputMesh` that is wrong.
final class MeshGeneratorTests: XCTestCase {
    func generate(_ mesh: [[Double]], width: Double, color: [Double] = [1, 1, 1, 1]) throws -> Image {
        try FilterRegistry.standard.apply("CIMeshGenerator", parameters: [
            "inputMesh": .vectors(mesh), "inputWidth": .number(width), "inputColor": .color(color)])
    }

    /// `clamp(½ + w/2 − d, 0, 1)`, `d` the distance from the pixel centre to the nearest segment.
    func expectedCoverage(_ mesh: [[Double]], width: Double, x: Int, y: Int) -> Double {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let nearest = mesh.map { s -> Double in
            let (dx, dy) = (s[2] - s[0], s[3] - s[1])
            let l2 = dx * dx + dy * dy
            let t = l2 == 0 ? 0 : min(max(((px - s[0]) * dx + (py - s[1]) * dy) / l2, 0), 1)
            return hypot(px - s[0] - t * dx, py - s[1] - t * dy)
        }.min() ?? .infinity
        return min(max(0.5 + width / 2 - nearest, 0), 1)
    }

    func testEveryPixelIsTheFloat64CoverageOfTheSegments() throws {
        // A triangle, two crossing diagonals, a point (a zero-length segment) and one far from the rest.
        let mesh: [[Double]] = [[10, 10, 90, 40], [90, 40, 50, 90], [50, 90, 10, 10], [20, 70, 70, 20.3], [20, 20, 70, 70],
                                [33.3, 60.7, 33.3, 60.7], [-40.25, 5, -30, 5]]
        for width in [0.0, 1.5, 4.2] {
            let image = try generate(mesh, width: width)
            let reach = width / 2 + 1
            XCTAssertEqual(image.extent, Rect(x: (-40.25 - reach).rounded(.down), y: (5 - reach).rounded(.down),
                                              width: (90 + reach).rounded(.up) - (-40.25 - reach).rounded(.down),
                                              height: (90 + reach).rounded(.up) - (5 - reach).rounded(.down)), "width \(width)")
            var partial = 0
            try assertMatches(image, image.extent, tolerance: 1e-6) { x, y in
                let c = self.expectedCoverage(mesh, width: width, x: x, y: y)
                if c > 0, c < 1 { partial += 1 }
                return SIMD4(repeating: c)
            }
            XCTAssertGreaterThan(partial, 200, "anti-aliased edges at width \(width)")
        }
    }

    /// Inside a line the colour is the colour, premultiplied; far from every line transparent.
    func testColourIsPremultipliedTimesCoverage() throws {
        // Width 5 along y = 0: pixel centres at |y| ≤ 1.5 fully inside, at 2.5 on the edge (½), at 3.5 outside.
        let image = try generate([[0, 0, 40, 0]], width: 5, color: [0.2, 0.4, 0.6, 0.5])
        try assertMatches(image, Rect(x: 10, y: -2, width: 20, height: 4), tolerance: 1e-6) { _, _ in SIMD4(0.1, 0.2, 0.3, 0.5) }
        for row in [-3.0, 2.0] {
            try assertMatches(image, Rect(x: 10, y: row, width: 20, height: 1), tolerance: 1e-6) { _, _ in SIMD4(0.1, 0.2, 0.3, 0.5) * 0.5 }
        }
        try assertMatches(image, Rect(x: 10, y: 3, width: 20, height: 1), tolerance: 1e-6) { _, _ in .zero }
    }

    func testCoreImagesKeysDefaultsAndRanges() throws {
        try assertAttributes(["CIMeshGenerator"])
    }

    func testBadMeshesNameTheElement() throws {
        let cases: [([[Double]], String)] = [
            ([[0, 0, 1, 1], [0, 0, 1]], "element 1: expected a vector of 4 numbers, got 3"),
            ([[0, 0, 1, 1], [0, 0, 1, 1], [0, .infinity, 1, 1]], "element 2: vector components must be finite"),
            ([], "the mesh has no segments"),
            ([[0, 0, 1e12, 1e12]], "more than an image can hold"),
        ]
        for (mesh, expected) in cases {
            XCTAssertThrowsError(try generate(mesh, width: 1)) {
                XCTAssertTrue("\($0)".contains("inputMesh") && "\($0)".contains(expected), "\($0)")
            }
        }
        XCTAssertThrowsError(try FilterRegistry.standard.apply("CIMeshGenerator", parameters: ["inputMesh": .vector([0, 0, 1, 1])])) {
            XCTAssertTrue("\($0)".contains("expected a list of vectors of 4 numbers each, got a vector of 4"), "\($0)")
        }
    }
}
