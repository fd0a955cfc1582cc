import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIStarShineGenerator, CISunbeamsGenerator and CILenticularHaloGenerator (``GlowGenerators``) against float64 versions of
/// their stated formulas at pixel centres; the colour is linear, so the test context's numbers are
/// the premultiplied colour times the intensity.
final class GlowGeneratorTests: XCTestCase {
    let color = [0.9, 0.6, 0.3, 0.9]
    let rect = Rect(x: -10, y: -8, width: 44, height: 36)

    func check(_ image: Image, tolerance: Double, _ intensity: (Double, Double) -> Double,
               file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(image.extent.isInfinite, file: file, line: line)
        let c = premultiplied(color)
        let error = try largestError(image, rect: rect) { i, j in
            let k = min(max(intensity(Double(i) + 0.5, Double(j) + 0.5), 0), 1)
            return c.map { $0 * k }
        }
        XCTAssertLessThan(error, tolerance, file: file, line: line)
    }

    func testStarShine() throws {
        let (cx, cy, radius, scale, angle, opacity, width, epsilon) = (12.0, 10.0, 6.0, 4.0, 0.4, -1.0, 1.5, -0.5)
        let image = try Image.filter("CIStarShineGenerator", parameters: [
            "inputCenter": .vector([cx, cy]), "inputColor": .color(color, colorSpace: .linearSRGB), "inputRadius": .number(radius),
            "inputCrossScale": .number(scale), "inputCrossAngle": .number(angle), "inputCrossOpacity": .number(opacity),
            "inputCrossWidth": .number(width), "inputEpsilon": .number(epsilon)])
        let length = scale * radius * exp(epsilon)
        try check(image, tolerance: 2e-5) { x, y in
            let dx = x - cx, dy = y - cy
            let u = abs(cos(angle) * dx + sin(angle) * dy), v = abs(cos(angle) * dy - sin(angle) * dx)
            let t = min(max(hypot(dx, dy) / radius, 0), 1), disc = 1 - t * t * (3 - 2 * t)
            return disc + exp(opacity) * (exp(-v / width - u / length) + exp(-u / width - v / length))
        }
    }

    func testSunbeams() throws {
        let (cx, cy, radius, reach, strength, contrast, time) = (11.0, 9.0, 5.0, 2.0, 0.8, 1.5, 0.3)
        let image = try Image.filter("CISunbeamsGenerator", parameters: [
            "inputCenter": .vector([cx, cy]), "inputColor": .color(color, colorSpace: .linearSRGB), "inputSunRadius": .number(radius),
            "inputMaxStriationRadius": .number(reach), "inputStriationStrength": .number(strength),
            "inputStriationContrast": .number(contrast), "inputTime": .number(time)])
        let phase = 2 * Double.pi * time
        try check(image, tolerance: 5e-5) { x, y in
            let dx = x - cx, dy = y - cy, r = hypot(dx, dy), a = atan2(dy, dx)
            let n = 0.5 + 0.5 * sin(13 * a + phase) * sin(29 * a - phase)
            let beams = strength * pow(n, contrast) * exp(-max(r - radius, 0) / (reach * radius))
            return min(max(radius - r + 0.5, 0), 1) + beams
        }
    }

    func testLenticularHalo() throws {
        let (cx, cy, radius, width, overlap, strength, contrast, time) = (12.0, 10.0, 6.0, 8.0, 0.4, 0.7, 1.2, 0.6)
        let image = try Image.filter("CILenticularHaloGenerator", parameters: [
            "inputCenter": .vector([cx, cy]), "inputColor": .color(color, colorSpace: .linearSRGB), "inputHaloRadius": .number(radius),
            "inputHaloWidth": .number(width), "inputHaloOverlap": .number(overlap), "inputStriationStrength": .number(strength),
            "inputStriationContrast": .number(contrast), "inputTime": .number(time)])
        XCTAssertTrue(image.extent.isInfinite)
        let c = premultiplied(color), phase = 2 * Double.pi * time
        let error = try largestError(image, rect: rect) { i, j in
            let dx = Double(i) + 0.5 - cx, dy = Double(j) + 0.5 - cy, r = hypot(dx, dy), a = atan2(dy, dx)
            let n = 0.5 + 0.5 * sin(13 * a + phase) * sin(29 * a - phase)
            let intensity = [-1.0, 0, 1].map { k -> Double in
                let t = (r - (radius + width / 2 + k * (1 - overlap) * width / 2)) / (width / 2)
                return min(max(max(1 - t * t, 0) * (0.5 + strength * pow(n, contrast)), 0), 1)
            }
            return [c[0] * intensity[0], c[1] * intensity[1], c[2] * intensity[2], c[3] * (intensity.max() ?? 0)]
        }
        XCTAssertLessThan(error, 5e-5)
    }

    func testAttributes() throws {
        try assertAttributes(GlowGenerators.all.map(\.name))
    }
}
