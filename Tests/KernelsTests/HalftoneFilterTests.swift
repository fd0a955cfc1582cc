import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The halftone screens against float64 implementations of their documented spot functions
/// (``HalftoneFilters``). The source is 8-bit, so its values are exact in Float32; the kernels'
/// Float32 trigonometry errs by about 1e-6, times the ramp's slope `1/e` (at most `w` = 9 here),
/// so 1e-3 leaves a wide margin while a wrong spot, angle or ramp errs by tenths.
final class HalftoneFilterTests: XCTestCase {
    let tolerance = 1e-3
    let c = (20.3, 15.1), w = 9.0, angle = 0.3

    func source() throws -> GeometrySource { try GeometrySource(width: 41, height: 31, seed: 29) }

    func luma(_ p: [Double]) -> Double {
        min(max((0.2125 * p[0] + 0.7154 * p[1] + 0.0721 * p[2]) / p[3], 0), 1)
    }
    func paper(_ level: Double, _ spot: Double, _ edge: Double) -> Double { min(max((level - spot) / edge + 0.5, 0), 1) }
    func toScreen(_ x: Double, _ y: Double, angle: Double) -> (Double, Double) {
        let vx = (x - c.0) / w, vy = (y - c.1) / w
        return (cos(angle) * vx + sin(angle) * vy, cos(angle) * vy - sin(angle) * vx)
    }
    func dotSpot(_ u: (Double, Double)) -> Double { 0.5 + 0.25 * (cos(2 * Double.pi * u.0) + cos(2 * Double.pi * u.1)) }
    func lineSpot(_ t: Double) -> Double { 0.5 + 0.5 * cos(2 * Double.pi * t) }

    /// Renders `name` over the source and a margin against `expected(x, y, premultiplied pixel)`
    /// (transparent outside); checks the extent is the input's, and infinite for a clamped input.
    func check(_ name: String, _ sharpness: Double, extra: [String: FilterValue] = [:], angled: Bool = true,
               file: StaticString = #filePath, line: UInt = #line, expected: @escaping (Double, Double, [Double]) -> [Double]) throws {
        let s = try source()
        var parameters: [String: FilterValue] = ["inputImage": .image(s.image), "inputCenter": .vector([c.0, c.1]),
                                                 "inputWidth": .number(w), "inputSharpness": .number(sharpness)]
        if angled { parameters["inputAngle"] = .number(angle) }
        parameters.merge(extra) { $1 }
        let image = try Image.filter(name, parameters: parameters)
        XCTAssertEqual(image.extent, s.image.extent, name, file: file, line: line)
        let error = try largestError(image, rect: Rect(x: -3, y: -2, width: 47, height: 36)) { i, j in
            let p = s.pixel(i, j)
            guard p[3] > 0 else { return [0, 0, 0, 0] }
            return expected(Double(i) + 0.5, Double(j) + 0.5, p)
        }
        XCTAssertLessThan(error, tolerance, "\(name) sharpness \(sharpness)", file: file, line: line)
        parameters["inputImage"] = .image(s.image.clampedToExtent())
        XCTAssertTrue(try Image.filter(name, parameters: parameters).extent.isInfinite, name, file: file, line: line)
    }

    func grey(_ v: Double, _ a: Double) -> [Double] { [v * a, v * a, v * a, a] }

    func testScreens() throws {
        for sharpness in [0.7, 1.0, 0.0] {
            let e = 1 - sharpness + 1 / w
            try check("CIDotScreen", sharpness) { x, y, p in
                self.grey(self.paper(self.luma(p), self.dotSpot(self.toScreen(x, y, angle: self.angle)), e), p[3])
            }
            try check("CILineScreen", sharpness) { x, y, p in
                self.grey(self.paper(self.luma(p), self.lineSpot(self.toScreen(x, y, angle: self.angle).1), e), p[3])
            }
            try check("CIHatchedScreen", sharpness) { x, y, p in
                let u = self.toScreen(x, y, angle: self.angle)
                return self.grey(self.paper(self.luma(p), max(self.lineSpot(u.1), cos(2 * Double.pi * u.0) / 2), e), p[3])
            }
            try check("CICircularScreen", sharpness, angled: false) { x, y, p in
                self.grey(self.paper(self.luma(p), self.lineSpot(hypot(x - self.c.0, y - self.c.1) / self.w), e), p[3])
            }
        }
    }

    func testCMYKHalftone() throws {
        let gcr = 0.8, ucr = 0.4, sharpness = 0.6, e = 1 - sharpness + 1 / w
        try check("CICMYKHalftone", sharpness, extra: ["inputGCR": .number(gcr), "inputUCR": .number(ucr)]) { x, y, p in
            let rgb = (0..<3).map { min(max(p[$0] / p[3], 0), 1) }
            let k = gcr * (rgb.map { 1 - $0 }.min() ?? 0)
            let ink = rgb.map { max(1 - $0 - ucr * k, 0) }
            // Coverage of an ink of level `level` on the dot screen turned by `degrees`.
            func cover(_ level: Double, _ degrees: Double) -> Double {
                1 - self.paper(1 - level, self.dotSpot(self.toScreen(x, y, angle: self.angle + degrees * Double.pi / 180)), e)
            }
            let black = 1 - cover(k, 45)
            return [(1 - cover(ink[0], 15)) * black * p[3], (1 - cover(ink[1], 75)) * black * p[3],
                    (1 - cover(ink[2], 0)) * black * p[3], p[3]]
        }
    }

    func testInvalidWidthThrows() throws {
        let s = try source()
        XCTAssertThrowsError(try Image.filter("CICMYKHalftone", parameters: ["inputImage": .image(s.image), "inputWidth": .number(0)]))
        XCTAssertThrowsError(try Image.filter("CIDotScreen", parameters: ["inputImage": .image(s.image), "inputWidth": .number(0.5)]))
    }

    func testEveryKernelCompiles() {
        let kernels: [(String, CatalogueKernel)] = [
            ("dot", HalftoneFilters.dotScreenKernel), ("line", HalftoneFilters.lineScreenKernel),
            ("hatched", HalftoneFilters.hatchedScreenKernel), ("circular", HalftoneFilters.circularScreenKernel),
            ("cmyk", HalftoneFilters.cmykKernel),
        ]
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CICMYKHalftone", "CICircularScreen", "CIDotScreen", "CIHatchedScreen", "CILineScreen"])
    }
}
