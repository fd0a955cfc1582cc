import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The page curls (``PageCurlTransitions``) against a float64 implementation of the cylinder model,
/// written here from the doc comment, on ``TransitionFilterTests``'s pictures with a third picture as
/// the back and a fourth as the shading. The model is discontinuous where the case changes (the
/// axis, the cylinder's top, the page's end), so pixels within 0.02 pixel of a change are skipped;
/// elsewhere bilinear reads at Float32 positions err by about 1e-5 (`asin` near 1 is steep, so
/// pixels where `x/ρ > 0.98` are skipped too), hence 2e-4.
extension TransitionFilterTests {
    /// (case, u − x, θ, x) at (x, y) for the curl (centre m, angle, f, ρ, page); case 0 flat input,
    /// 1 front, 2 back, 3 target.
    func curlModel(_ x: Double, _ y: Double, m: (Double, Double), angle: Double, f: Double, rho: Double, page: Rect)
        -> (which: Int, shift: Double, theta: Double, x: Double) {
        let xc = (x - m.0) * cos(angle) + (y - m.1) * sin(angle) - f
        func onPage(_ u: Double) -> Bool {
            let q = (x + (u - xc) * cos(angle), y + (u - xc) * sin(angle))
            return q.0 >= page.minX && q.0 <= page.maxX && q.1 >= page.minY && q.1 <= page.maxY
        }
        if xc < 0 {
            let u = Double.pi * rho - xc
            return onPage(u) ? (2, u - xc, Double.pi, xc) : (0, 0, Double.pi, xc)
        }
        if xc <= rho {
            let a1 = asin(xc / rho), u2 = rho * (Double.pi - a1), u1 = rho * a1
            if onPage(u2) { return (2, u2 - xc, Double.pi - a1, xc) }
            if onPage(u1) { return (1, u1 - xc, a1, xc) }
        }
        return (3, 0, 0, xc)
    }

    func curlParameters(page: Rect, angle: Double, rho: Double, t: Double) -> (m: (Double, Double), f: Double) {
        let half = (abs(page.width * cos(angle)) + abs(page.height * sin(angle))) / 2
        let f = half - t * (2 * half + Double.pi * rho)
        return ((page.x + page.width / 2, page.y + page.height / 2), f)
    }

    /// Whether the case is the same 0.02 pixel around (x, y) and the point is off asin's steep end.
    func curlIsSmooth(_ x: Double, _ y: Double, _ model: (Double, Double) -> (which: Int, shift: Double, theta: Double, x: Double), rho: Double) -> Bool {
        let k = model(x, y)
        if k.x > 0, k.x / rho > 0.98, k.x <= rho { return false }
        return [(0.02, 0.0), (-0.02, 0.0), (0.0, 0.02), (0.0, -0.02)].allSatisfy { model(x + $0.0, y + $0.1).which == k.which }
    }

    func testPageCurl() throws {
        let back = try GeometrySource(width: 41, height: 31, seed: 61), shadingSource = try GeometrySource(width: 9, height: 5, seed: 67)
        let shading = shadingSource.image.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 50, ty: 50))
        let page = Rect(x: 0, y: 0, width: 41, height: 31), angle = 0.4, rho = 6.0
        let (a, _, _) = try pictures()
        for t in [0.0, 0.3, 0.6, 1.0] {
            let (m, f) = curlParameters(page: page, angle: angle, rho: rho, t: t)
            let model = { (x: Double, y: Double) in self.curlModel(x, y, m: m, angle: angle, f: f, rho: rho, page: page) }
            try check("CIPageCurlTransition", ["inputBacksideImage": .image(back.image), "inputShadingImage": .image(shading),
                                               "inputExtent": .rect(page), "inputTime": .number(t), "inputAngle": .number(angle),
                                               "inputRadius": .number(rho)], tolerance: 2e-4, compareAtLeast: 0.7) { x, y, pa, pb in
                guard self.curlIsSmooth(x, y, model, rho: rho) else { return nil }
                let k = model(x, y)
                let q = (x + k.shift * cos(angle), y + k.shift * sin(angle))
                switch k.which {
                case 0: return pa
                case 3: return pb
                default:
                    let p = k.which == 2 ? back.bilinear(q.0, q.1) : a.bilinear(q.0, q.1)
                    let sh = shadingSource.bilinear(0.5 + 8 * k.theta / Double.pi, 2.5)
                    return [p[0] * sh[0] / sh[3], p[1] * sh[1] / sh[3], p[2] * sh[2] / sh[3], p[3]]
                }
            }
        }
    }

    func testPageCurlWithShadow() throws {
        let back = try GeometrySource(width: 41, height: 31, seed: 61)
        let angle = 2.8, rho = 5.0, size = 0.6, amount = 0.8
        let shadowRect = Rect(x: 5, y: -4, width: 30, height: 25)
        let (a, _, _) = try pictures()
        for t in [0.2, 0.5, 0.8] {
            // The empty page is the input's extent, 41×31 at the origin.
            let (m, f) = curlParameters(page: a.image.extent, angle: angle, rho: rho, t: t)
            let model = { (x: Double, y: Double) in self.curlModel(x, y, m: m, angle: angle, f: f, rho: rho, page: a.image.extent) }
            try check("CIPageCurlWithShadowTransition", ["inputBacksideImage": .image(back.image), "inputTime": .number(t),
                                                         "inputAngle": .number(angle), "inputRadius": .number(rho),
                                                         "inputShadowSize": .number(size), "inputShadowAmount": .number(amount),
                                                         "inputShadowExtent": .rect(shadowRect)], tolerance: 2e-4, compareAtLeast: 0.7) { x, y, pa, pb in
                guard self.curlIsSmooth(x, y, model, rho: rho) else { return nil }
                let onEdge = [shadowRect.minX, shadowRect.maxX].contains { abs($0 - x) < 0.02 } || [shadowRect.minY, shadowRect.maxY].contains { abs($0 - y) < 0.02 }
                guard !onEdge else { return nil }
                let k = model(x, y)
                let q = (x + k.shift * cos(angle), y + k.shift * sin(angle))
                switch k.which {
                case 0: return pa
                case 3:
                    let inside = x >= shadowRect.minX && x <= shadowRect.maxX && y >= shadowRect.minY && y <= shadowRect.maxY
                    let dark = inside ? amount * self.clamp01(1 - (k.x - rho) / (2 * rho * size)) : 0
                    return [pb[0] * (1 - dark), pb[1] * (1 - dark), pb[2] * (1 - dark), pb[3]]
                default: return k.which == 2 ? back.bilinear(q.0, q.1) : a.bilinear(q.0, q.1)
                }
            }
        }
        XCTAssertThrowsError(try Image.filter("CIPageCurlWithShadowTransition", parameters: [
            "inputImage": .image(a.image.clampedToExtent()), "inputTargetImage": .image(a.image), "inputBacksideImage": .image(back.image)]))
    }

    func testPageCurlKernelsCompileAndAttributesMatch() throws {
        XCTAssertNil(PageCurlTransitions.pageCurlKernel.compileError, "\(String(describing: PageCurlTransitions.pageCurlKernel.compileError))")
        XCTAssertNil(PageCurlTransitions.pageCurlWithShadowKernel.compileError,
                     "\(String(describing: PageCurlTransitions.pageCurlWithShadowKernel.compileError))")
        try assertAttributes(["CIPageCurlTransition", "CIPageCurlWithShadowTransition"])
    }
}
