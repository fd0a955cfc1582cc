import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The outline and relief filters (``NeighbourhoodStyleFilters``) against float64 implementations:
/// a 3×3 Sobel on luma and a separable Gaussian with the catalogue's documented pixel-integrated
/// weights (``BlurFilters``), written here. Float32 sums of nine 8-bit lumas err by about 1e-6;
/// the steepest ramps (line overlay's contrast 20, comic's ink 6, the loft's square root where `b`
/// is near 0) multiply that, so 2e-3 is wide while a wrong weight or threshold errs by tenths.
/// Pixels where a hard step (the posterisation's rounding) lies within 1e-3 are skipped.
final class NeighbourhoodStyleFilterTests: XCTestCase {
    let tolerance = 2e-3

    func source() throws -> GeometrySource { try GeometrySource(width: 27, height: 21, seed: 43) }
    func luma(_ p: [Double]) -> Double { 0.2125 * p[0] + 0.7154 * p[1] + 0.0721 * p[2] }

    func sobel(_ y: (Int, Int) -> Double, _ i: Int, _ j: Int) -> Double {
        let gx = (y(i + 1, j - 1) + 2 * y(i + 1, j) + y(i + 1, j + 1)) - (y(i - 1, j - 1) + 2 * y(i - 1, j) + y(i - 1, j + 1))
        let gy = (y(i - 1, j + 1) + 2 * y(i, j + 1) + y(i + 1, j + 1)) - (y(i - 1, j - 1) + 2 * y(i, j - 1) + y(i + 1, j - 1))
        return hypot(gx, gy)
    }

    func render(_ name: String, _ parameters: [String: FilterValue], _ s: GeometrySource, file: StaticString = #filePath, line: UInt = #line,
                expected: @escaping (Int, Int) -> [Double]?) throws {
        let image = try Image.filter(name, parameters: parameters)
        XCTAssertEqual(image.extent, s.image.extent, name, file: file, line: line)
        var compared = 0
        let error = try largestError(image, rect: Rect(x: -2, y: -2, width: Double(s.width + 4), height: Double(s.height + 4))) { i, j in
            guard i >= 0, j >= 0, i < s.width, j < s.height else { return [0, 0, 0, 0] }
            guard let want = expected(i, j) else { return nil }
            compared += 1
            return want
        }
        XCTAssertGreaterThan(compared, s.width * s.height * 8 / 10, name, file: file, line: line)
        XCTAssertLessThan(error, tolerance, name, file: file, line: line)
    }

    func testComicEffect() throws {
        let s = try source()
        var inked = 0
        try render("CIComicEffect", ["inputImage": .image(s.image)], s) { i, j in
            let p = s.pixel(i, j)
            let e = self.sobel({ self.luma(s.pixel($0, $1, clamped: true)) }, i, j)
            var q: [Double] = []
            for c in 0..<3 {
                let v = p[c] / p[3] * 4 + 0.5
                if abs(v - v.rounded()) < 1e-3 { return nil }
                q.append(v.rounded(.down) / 4)
            }
            let ink = min(max(6 * (e - 0.15), 0), 1)
            if ink > 0 { inked += 1 }
            return q.map { $0 * (1 - ink) * p[3] } + [p[3]]
        }
        XCTAssertGreaterThan(inked, 20, "some outlines")
    }

    func testLineOverlay() throws {
        let s = try source()
        for (noise, sharpness) in [(0.0, 0.7), (0.08, 1.3)] {
            let intensity = 1.5, threshold = 0.4, contrast = 20.0
            let clamped: (Int, Int) -> [Double] = { s.pixel($0, $1, clamped: true) }
            let blurred = noise > 0 ? separableGaussian(10 * noise, clamped) : clamped
            let denoised: (Int, Int) -> Double = { i, j in
                let b = blurred(i, j), p = clamped(i, j)
                return self.luma((0..<4).map { b[$0] + sharpness / 2 * (p[$0] - b[$0]) })
            }
            try render("CILineOverlay", ["inputImage": .image(s.image), "inputNRNoiseLevel": .number(noise), "inputNRSharpness": .number(sharpness),
                                         "inputEdgeIntensity": .number(intensity), "inputThreshold": .number(threshold),
                                         "inputContrast": .number(contrast)], s) { i, j in
                [0, 0, 0, min(max((intensity * self.sobel(denoised, i, j) - threshold) * contrast, 0), 1)]
            }
        }
    }

    func testEdgeWork() throws {
        let s = try source()
        func lightness(_ p: [Double]) -> Double {
            let y = luma(p)
            let f: Double = y > pow(6.0 / 29, 3) ? pow(y, 1.0 / 3) : y / (3 * pow(6.0 / 29, 2)) + 4.0 / 29
            return (116 * f - 16) / 100
        }
        func smoothstep(_ a: Double, _ b: Double, _ x: Double) -> Double {
            let t = min(max((x - a) / (b - a), 0), 1)
            return t * t * (3 - 2 * t)
        }
        let clamped: (Int, Int) -> [Double] = { s.pixel($0, $1, clamped: true) }
        let fine = separableGaussian(1, clamped)
        for radius in [0.0, 3, 6.5] {
            let wide = separableGaussian(1 + radius, clamped)
            var inked = 0
            try render("CIEdgeWork", ["inputImage": .image(s.image), "inputRadius": .number(radius)], s) { i, j in
                let a = lightness(fine(i, j)), b = lightness(wide(i, j))
                let k = max(smoothstep(0.01, 0.03, b - a), 1 - smoothstep(0.2, 0.3, a))
                if k > 0.5 { inked += 1 }
                return [1 - k, 1 - k, 1 - k, 1]
            }
            if radius > 0 { XCTAssertGreaterThan(inked, 20, "radius \(radius): too little ink to mean anything") }
        }
        XCTAssertThrowsError(try s.image.applyingFilter("CIEdgeWork", parameters: ["inputRadius": .number(1000)])) {
            XCTAssertTrue("\($0)".contains("CIEdgeWork") && "\($0)".contains("inputRadius"), "\($0)")
        }
    }

    func testShadedMaterial() throws {
        let s = try source(), ball = try GeometrySource(width: 16, height: 12, seed: 3)
        let shading = ball.image.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 40, ty: -7))
        let scale = 4.0
        try render("CIShadedMaterial", ["inputImage": .image(s.image), "inputShadingImage": .image(shading), "inputScale": .number(scale)], s) { i, j in
            let y: (Int, Int) -> Double = { self.luma(s.pixel($0, $1, clamped: true)) }
            let dx = (y(i + 1, j) - y(i - 1, j)) / 2, dy = (y(i, j + 1) - y(i, j - 1)) / 2
            let n = [-scale * dx, -scale * dy, 1.0], len = sqrt(n.map { $0 * $0 }.reduce(0, +))
            // The sphere map's centre (40 + 8, −7 + 6) and half-size (8, 6), read in the ball's own frame.
            let q = ball.bilinear(8 + n[0] / len * 8, 6 + n[1] / len * 6)
            return q.map { $0 * s.pixel(i, j)[3] }
        }
        XCTAssertThrowsError(try Image.filter("CIShadedMaterial", parameters: ["inputImage": .image(s.image),
                                                                               "inputShadingImage": .image(ball.image.clampedToExtent())]))
    }

    func testHeightFieldFromMask() throws {
        let s = try source()
        for radius in [0.0, 2.5] {
            let mask: (Int, Int) -> [Double] = { i, j in
                guard i >= 0, j >= 0, i < s.width, j < s.height else { return [0, 0, 0, 0] }
                let m = min(max(self.luma(s.pixel(i, j)), 0), 1)
                return [m, m, m, 1]
            }
            let blurred = radius > 0 ? separableGaussian(radius, mask) : mask
            try render("CIHeightFieldFromMask", ["inputImage": .image(s.image), "inputRadius": .number(radius)], s) { i, j in
                let b = 1 - min(max(blurred(i, j)[0], 0), 1)
                // Where b is near 1 the square root is steep: Float32 blur sums err by 1e-7, √ of it 3e-4.
                let h = sqrt(max(1 - b * b, 0))
                return [h, h, h, 1]
            }
        }
    }

    func testEveryKernelCompiles() {
        let kernels: [(String, CatalogueKernel)] = [
            ("comic", NeighbourhoodStyleFilters.comicKernel), ("line overlay", NeighbourhoodStyleFilters.lineOverlayKernel),
            ("edge work", NeighbourhoodStyleFilters.edgeWorkKernel),
            ("shaded material", NeighbourhoodStyleFilters.shadedMaterialKernel), ("mask", NeighbourhoodStyleFilters.maskKernel),
            ("loft", NeighbourhoodStyleFilters.loftKernel),
        ]
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIComicEffect", "CILineOverlay", "CIEdgeWork", "CIShadedMaterial", "CIHeightFieldFromMask"])
    }
}

/// The separable Gaussian of `f` (σ > 0.01) at pixel (i, j): weights
/// `½(erf((k + ½)/(√2σ)) − erf((k − ½)/(√2σ)))`, |k| ≤ ⌈3σ⌉, normalised.
func separableGaussian(_ sigma: Double, _ f: @escaping (Int, Int) -> [Double]) -> (Int, Int) -> [Double] {
    let r = Int((3 * sigma).rounded(.up))
    let scale = 1 / (2.0.squareRoot() * sigma)
    var w: [Double] = (-r...r).map { k in
        let upper: Double = erf((Double(k) + 0.5) * scale), lower: Double = erf((Double(k) - 0.5) * scale)
        return 0.5 * (upper - lower)
    }
    let total = w.reduce(0, +)
    w = w.map { $0 / total }
    return { i, j in
        var sum = [0.0, 0, 0, 0]
        for (a, wy) in zip(-r...r, w) {
            for (b, wx) in zip(-r...r, w) {
                let p = f(i + b, j + a)
                for c in 0..<4 { sum[c] += wx * wy * p[c] }
            }
        }
        return sum
    }
}
