import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIRippleTransition (``RippleTransition``) against a float64 implementation of its documented
/// wave, on ``TransitionFilterTests``'s pictures and a small shading picture. The ring's edges and
/// middle switch pictures, so pixels within 0.02 pixel of them are skipped; elsewhere bilinear reads
/// at Float32 positions err by about 1e-5, hence 2e-4.
extension TransitionFilterTests {
    func testRipple() throws {
        let shadingSource = try GeometrySource(width: 7, height: 3, seed: 71)
        let shading = shadingSource.image.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: -20, ty: 60))
        let c = (17.3, 12.8), extent = Rect(x: -2, y: -3, width: 45, height: 38), w = 9.0, scale = 2.5
        let reach = [(extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY)]
            .map { hypot($0.0 - c.0, $0.1 - c.1) }.max() ?? 0
        let (a, b, _) = try pictures()
        for t in [0.0, 0.3, 0.6, 1.0] {
            let rho = -w / 2 + t * (reach + w)
            try check("CIRippleTransition", ["inputShadingImage": .image(shading), "inputCenter": .vector([c.0, c.1]),
                                             "inputExtent": .rect(extent), "inputTime": .number(t), "inputWidth": .number(w),
                                             "inputScale": .number(scale)], tolerance: 2e-4) { x, y, pa, pb in
                let r = hypot(x - c.0, y - c.1), d = r - rho
                guard [-w / 2, 0, w / 2].allSatisfy({ abs(d - $0) > 0.02 }) else { return nil }
                if d < -w / 2 { return pb }
                if d > w / 2 { return pa }
                let v = 2 * Double.pi * d / w, shift = scale * sin(v)
                let q = (x - shift * (x - c.0) / r, y - shift * (y - c.1) / r)
                // The target is the second picture moved by (5, −4).
                let picture = d < 0 ? b.bilinear(q.0 - Double(self.shift.0), q.1 - Double(self.shift.1)) : a.bilinear(q.0, q.1)
                let shade = shadingSource.bilinear(0.5 + 6 * (0.5 + 0.5 * cos(v)), 1.5)
                return (0..<4).map { picture[$0] + (0.5 - 0.5 * cos(v)) * shade[$0] }
            }
        }
    }

    func testRippleKernelCompilesAndAttributesMatch() throws {
        XCTAssertNil(RippleTransition.kernel.compileError, "\(String(describing: RippleTransition.kernel.compileError))")
        try assertAttributes(["CIRippleTransition"])
    }
}
