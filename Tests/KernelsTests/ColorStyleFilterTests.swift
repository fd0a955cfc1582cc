import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The per-pixel looks and utilities (``ColorStyleFilters``, ``MaskAndMixFilters``) against float64
/// implementations of their documented formulas, on 8-bit sources (exact in Float32). The kernels
/// are a few Float32 operations per pixel (error about 1e-6; the spotlight's power 1e-5 relative,
/// times a brightness up to 3), so 1e-4 is wide while a wrong constant errs by hundredths.
final class ColorStyleFilterTests: XCTestCase {
    let tolerance = 1e-4

    func source(_ seed: UInt64 = 37) throws -> GeometrySource { try GeometrySource(width: 29, height: 23, seed: seed) }
    func luma(_ c: [Double]) -> Double { min(max(0.2125 * c[0] + 0.7154 * c[1] + 0.0721 * c[2], 0), 1) }
    func unpremultiplied(_ p: [Double]) -> [Double] { p[3] > 0 ? [p[0] / p[3], p[1] / p[3], p[2] / p[3]] : [0, 0, 0] }
    func lerp(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] { zip(a, b).map { $0 + ($1 - $0) * t } }

    /// Renders `image` over the source's pixels and a margin against `expected(x, y, pixel)` (nil:
    /// transparent outside the source).
    func check(_ image: Image, _ s: GeometrySource, _ name: String, file: StaticString = #filePath, line: UInt = #line,
               expected: @escaping (Double, Double, [Double]) -> [Double]) throws {
        XCTAssertEqual(image.extent, s.image.extent, name, file: file, line: line)
        let error = try largestError(image, rect: Rect(x: -2, y: -2, width: Double(s.width + 4), height: Double(s.height + 4))) { i, j in
            let p = s.pixel(i, j)
            guard p[3] > 0 else { return [0, 0, 0, 0] }
            return expected(Double(i) + 0.5, Double(j) + 0.5, p)
        }
        XCTAssertLessThan(error, tolerance, name, file: file, line: line)
    }

    func testThermalAndXRay() throws {
        let s = try source()
        let stops: [[Double]] = [[0, 0, 1], [0, 1, 1], [0, 1, 0], [1, 1, 0], [1, 0, 0]]
        try check(try Image.filter("CIThermal", parameters: ["inputImage": .image(s.image)]), s, "CIThermal") { _, _, p in
            let l = 4 * self.luma(self.unpremultiplied(p)), k = min(Int(l), 3)
            return self.lerp(stops[k], stops[k + 1], l - Double(k)).map { $0 * p[3] } + [p[3]]
        }
        try check(try Image.filter("CIXRay", parameters: ["inputImage": .image(s.image)]), s, "CIXRay") { _, _, p in
            let v = 1 - self.luma(self.unpremultiplied(p))
            return [0.88 * v * p[3], 0.96 * v * p[3], v * p[3], p[3]]
        }
    }

    func testSpotColor() throws {
        let s = try source()
        // Centres on colours the source has, so every range replaces some pixels.
        let centres = [[0.3, 0.5, 0.4], [0.8, 0.2, 0.6], [0.5, 0.5, 0.5]], replacements = [[1.0, 0.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
        let closeness = [0.35, 0.3, 0.25], contrast = [0.5, 0.9, 0.2]
        var parameters: [String: FilterValue] = ["inputImage": .image(s.image)]
        for n in 0..<3 {
            parameters["inputCenterColor\(n + 1)"] = .color(centres[n] + [1], colorSpace: .linearSRGB)
            parameters["inputReplacementColor\(n + 1)"] = .color(replacements[n] + [1], colorSpace: .linearSRGB)
            parameters["inputCloseness\(n + 1)"] = .number(closeness[n])
            parameters["inputContrast\(n + 1)"] = .number(contrast[n])
        }
        var replaced = 0
        try check(try Image.filter("CISpotColor", parameters: parameters), s, "CISpotColor") { _, _, p in
            let original = self.unpremultiplied(p)
            var c = original
            for n in 0..<3 {
                let d = sqrt(zip(original, centres[n]).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
                let w = min(max((closeness[n] - d) / max(closeness[n] * (1 - contrast[n]), 1e-4), 0), 1)
                if w > 0 { replaced += 1 }
                c = self.lerp(c, replacements[n], w)
            }
            return c.map { $0 * p[3] } + [p[3]]
        }
        XCTAssertGreaterThan(replaced, 30, "the ranges replace some pixels")
    }

    func testSpotLight() throws {
        let s = try source()
        let position = [35.0, 30.0, 20.0], target = [10.0, 8.0, 0.0], brightness = 2.5, concentration = 0.05
        let axis0 = zip(target, position).map { $0 - $1 }, n = sqrt(axis0.map { $0 * $0 }.reduce(0, +))
        let axis = axis0.map { $0 / n }, colour = [1.0, 0.5, 0.25]
        let image = try Image.filter("CISpotLight", parameters: [
            "inputImage": .image(s.image), "inputLightPosition": .vector(position), "inputLightPointsAt": .vector(target),
            "inputBrightness": .number(brightness), "inputConcentration": .number(concentration),
            "inputColor": .color(colour + [1], colorSpace: .linearSRGB)])
        try check(image, s, "CISpotLight") { x, y, p in
            let v = [position[0] - x, position[1] - y, position[2]], len = sqrt(v.map { $0 * $0 }.reduce(0, +))
            let l = v.map { $0 / len }
            let cosine = -(l[0] * axis[0] + l[1] * axis[1] + l[2] * axis[2])
            let intensity = brightness * pow(max(cosine, 0), 100 * concentration) * max(l[2], 0)
            return (0..<3).map { p[$0] * colour[$0] * intensity } + [p[3]]
        }
    }

    func testMaskToAlphaMixAndDifference() throws {
        let s = try source(), t = try source(41)
        try check(try Image.filter("CIMaskToAlpha", parameters: ["inputImage": .image(s.image)]), s, "CIMaskToAlpha") { _, _, p in
            let a = 0.2125 * p[0] + 0.7154 * p[1] + 0.0721 * p[2]
            return [a, a, a, a]
        }
        // Both sources are 29×23 at the origin: the union and intersection are that rectangle.
        let amount = 0.3
        try check(try Image.filter("CIMix", parameters: ["inputImage": .image(s.image), "inputBackgroundImage": .image(t.image),
                                                         "inputAmount": .number(amount)]), s, "CIMix") { x, y, p in
            let q = t.pixel(Int(x), Int(y))
            return (0..<4).map { q[$0] + amount * (p[$0] - q[$0]) }
        }
        try check(try Image.filter("CIColorAbsoluteDifference", parameters: ["inputImage": .image(s.image), "inputImage2": .image(t.image)]),
                  s, "CIColorAbsoluteDifference") { x, y, p in
            let q = t.pixel(Int(x), Int(y)), a = p[3] * q[3]
            return zip(self.unpremultiplied(p), self.unpremultiplied(q)).map { abs($0 - $1) * a } + [a]
        }
        let moved = t.image.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 5))
        let difference = try Image.filter("CIColorAbsoluteDifference", parameters: ["inputImage": .image(s.image), "inputImage2": .image(moved)])
        XCTAssertEqual(difference.extent, Rect(x: 10, y: 5, width: 19, height: 18))
    }

    func testClamp() throws {
        let s = try source()
        let rect = Rect(x: 4, y: 3, width: 10, height: 8)
        let image = try Image.filter("CIClamp", parameters: ["inputImage": .image(s.image), "inputExtent": .rect(rect)])
        XCTAssertTrue(image.extent.isInfinite)
        let error = try largestError(image, rect: Rect(x: -5, y: -5, width: 30, height: 25)) { i, j in
            s.pixel(min(max(i, 4), 13), min(max(j, 3), 10))
        }
        XCTAssertLessThan(error, tolerance)
        let whole = try Image.filter("CIClamp", parameters: ["inputImage": .image(s.image)])
        let edge = try largestError(whole, rect: Rect(x: -5, y: -5, width: 40, height: 35)) { i, j in s.pixel(i, j, clamped: true) }
        XCTAssertLessThan(edge, tolerance)
        XCTAssertThrowsError(try Image.filter("CIClamp", parameters: ["inputImage": .image(s.image), "inputExtent": .rect(Rect(x: 100, y: 100, width: 5, height: 5))]))
    }

    func testEveryKernelCompiles() {
        let kernels: [(String, CatalogueKernel)] = [
            ("thermal", ColorStyleFilters.thermalKernel), ("xray", ColorStyleFilters.xRayKernel),
            ("spot colour", ColorStyleFilters.spotColorKernel), ("spot light", ColorStyleFilters.spotLightKernel),
            ("mask to alpha", MaskAndMixFilters.maskToAlphaKernel), ("mix", MaskAndMixFilters.mixKernel),
            ("difference", MaskAndMixFilters.absoluteDifferenceKernel),
        ]
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIThermal", "CIXRay", "CISpotColor", "CISpotLight", "CIMaskToAlpha", "CIMix", "CIColorAbsoluteDifference", "CIClamp"])
    }
}
