import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The transitions against float64 implementations of their documented formulas
/// (``TransitionFilters``): two 8-bit pictures of different sizes, the target moved by whole
/// pixels so both are exact at pixel centres. The mixes are linear in Float32 values (error about
/// 1e-7), so 1e-4 is wide; the hard edges (bars, mod) are skipped within 0.02 pixel, where
/// Float32 may fall on either side.
final class TransitionFilterTests: XCTestCase {
    let tolerance = 1e-4
    let shift = (5, -4)

    func pictures() throws -> (a: GeometrySource, b: GeometrySource, target: Image) {
        let a = try GeometrySource(width: 41, height: 31, seed: 23), b = try GeometrySource(width: 33, height: 37, seed: 31)
        let target = b.image.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: Double(shift.0), ty: Double(shift.1)))
        return (a, b, target)
    }

    /// Renders `name` over the union and a margin against `expected(x, y, in, target)`; checks the
    /// extent is the union of the pictures'.
    func check(_ name: String, _ parameters: [String: FilterValue], tolerance: Double? = nil, compareAtLeast fraction: Double = 0.8, file: StaticString = #filePath, line: UInt = #line,
               expected: @escaping (Double, Double, [Double], [Double]) -> [Double]?) throws {
        let (a, b, target) = try pictures()
        var parameters = parameters
        parameters["inputImage"] = .image(a.image)
        parameters["inputTargetImage"] = .image(target)
        let image = try Image.filter(name, parameters: parameters)
        XCTAssertEqual(image.extent, a.image.extent.union(target.extent), name, file: file, line: line)
        var compared = 0
        let union = a.image.extent.union(target.extent)
        let error = try largestError(image, rect: Rect(x: -3, y: -8, width: 46, height: 44)) { i, j in
            let x = Double(i) + 0.5, y = Double(j) + 0.5
            // Outside the union of the pictures: transparent, the swipe's band included.
            guard x > union.minX, x < union.maxX, y > union.minY, y < union.maxY else { return [0, 0, 0, 0] }
            guard let want = expected(x, y, a.pixel(i, j), b.pixel(i - self.shift.0, j - self.shift.1)) else { return nil }
            compared += 1
            return want
        }
        XCTAssertGreaterThan(Double(compared), 41 * 37 * fraction, "\(name): most pixels compared", file: file, line: line)
        XCTAssertLessThan(error, tolerance ?? self.tolerance, name, file: file, line: line)
    }

    func mix(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] { (0..<4).map { a[$0] * (1 - t) + b[$0] * t } }
    func clamp01(_ x: Double) -> Double { min(max(x, 0), 1) }

    func testDissolve() throws {
        for t in [0.0, 0.35, 1.0] {
            try check("CIDissolveTransition", ["inputTime": .number(t)]) { _, _, a, b in self.mix(a, b, t) }
        }
    }

    func testSwipe() throws {
        let extent = Rect(x: 2, y: -3, width: 40, height: 35), angle = 0.7, w = 12.0, opacity = 0.6
        let colour = [1.0, 0.0, 1.0, 1.0]
        let m = (extent.x + extent.width / 2, extent.y + extent.height / 2)
        let radius = (extent.width * abs(cos(angle)) + extent.height * abs(sin(angle))) / 2
        for t in [0.0, 0.45, 1.0] {
            let front = -radius - w / 2 + t * (2 * radius + w)
            try check("CISwipeTransition", ["inputExtent": .rect(extent), "inputAngle": .number(angle), "inputWidth": .number(w),
                                            "inputOpacity": .number(opacity), "inputTime": .number(t), "inputColor": .color(colour)]) { x, y, a, b in
                let d = (x - m.0) * cos(angle) + (y - m.1) * sin(angle) - front
                guard abs(abs(d) - w / 2) > 0.02 else { return nil }
                let picture = self.mix(b, a, self.clamp01(d / w + 0.5))
                return abs(d) < w / 2 ? self.mix(picture, colour, opacity) : picture
            }
        }
    }

    func testBarsSwipe() throws {
        let angle = 2.5, w = 7.0, offset = 6.0
        // The union of the 41×31 picture and the target at (5, −4), 33×37.
        let union = Rect(x: 0, y: -4, width: 41, height: 37)
        let m = (union.x + union.width / 2, union.y + union.height / 2)
        let radius = (union.width * abs(cos(angle)) + union.height * abs(sin(angle))) / 2
        for t in [0.0, 0.4, 1.0] {
            try check("CIBarsSwipeTransition", ["inputAngle": .number(angle), "inputWidth": .number(w),
                                                "inputBarOffset": .number(offset), "inputTime": .number(t)]) { x, y, a, b in
                let vx = x - m.0, vy = y - m.1
                let along = vx * cos(angle) + vy * sin(angle), across = (vx * sin(angle) - vy * cos(angle)) / w
                guard abs(across - across.rounded()) > 0.01 else { return nil }
                let k = across.rounded(.down), odd = abs(k.truncatingRemainder(dividingBy: 2)) == 1 ? 1.0 : 0.0
                let front = -radius + t * (2 * radius + offset) - offset * odd
                return self.mix(a, b, self.clamp01(front - along + 0.5))
            }
        }
        let (a, _, _) = try pictures()
        XCTAssertThrowsError(try Image.filter("CIBarsSwipeTransition", parameters: ["inputImage": .image(a.image.clampedToExtent()),
                                                                                     "inputTargetImage": .image(a.image)]))
    }

    func testMod() throws {
        let c = (18.2, 13.7), arms = 2.0, radius = 9.0, compression = 30.0
        for t in [0.0, 0.3, 0.8] {
            try check("CIModTransition", ["inputCenter": .vector([c.0, c.1]), "inputAngle": .number(arms), "inputRadius": .number(radius),
                                          "inputCompression": .number(compression), "inputTime": .number(t)]) { x, y, a, b in
                func phase(_ x: Double, _ y: Double) -> Double {
                    let r = hypot(x - c.0, y - c.1)
                    let g = r / radius * (1 + r / compression) + arms * atan2(y - c.1, x - c.0) / (2 * Double.pi)
                    return g - g.rounded(.down)
                }
                let g = phase(x, y)
                // Skip where the phase is near the time or near its wrap (1 → 0), and the seam at φ = ±π.
                guard abs(g - t) > 0.01, g > 0.01, g < 0.99, !(x < c.0 && abs(y - c.1) < 0.05) else { return nil }
                return g < t ? b : a
            }
        }
    }

    func testEveryKernelCompiles() {
        let kernels: [(String, CatalogueKernel)] = [
            ("dissolve", TransitionFilters.dissolveKernel), ("swipe", TransitionFilters.swipeKernel),
            ("bars", TransitionFilters.barsSwipeKernel), ("mod", TransitionFilters.modKernel),
        ]
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIDissolveTransition", "CISwipeTransition", "CIBarsSwipeTransition", "CIModTransition"])
    }
}
