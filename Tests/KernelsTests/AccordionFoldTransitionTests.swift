import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIAccordionFoldTransition (``AccordionFoldTransition``) against a float64 implementation of its
/// documented panels, on ``TransitionFilterTests``'s pictures (the 41×31 input and the 33×37
/// target at (5, −4)). Panel seams and the folded top are discontinuous: pixels within 0.02 pixel
/// of them are skipped; elsewhere the bilinear reads err by about 1e-5, hence 2e-4.
extension TransitionFilterTests {
    func testAccordionFold() throws {
        let (a, b, target) = try pictures()
        let bottom = 4.0, folds = 2.0, amount = 0.4
        for t in [0.0, 0.2, 0.45, 0.7, 1.0] {
            let first = t < 0.5
            let extent = first ? a.image.extent : target.extent
            let alpha = Double.pi / 2 * (1 - abs(2 * t - 1)), cosine = max(cos(alpha), 1e-3)
            let yb = extent.y + bottom, length = extent.height - bottom, panel = length / (2 * folds), folded = panel * cosine
            func read(_ x: Double, _ y: Double) -> [Double] {
                first ? a.bilinear(x, y) : b.bilinear(x - Double(self.shift.0), y - Double(self.shift.1))
            }
            try check("CIAccordionFoldTransition", ["inputBottomHeight": .number(bottom), "inputNumberOfFolds": .number(folds),
                                                    "inputFoldShadowAmount": .number(amount), "inputTime": .number(t)],
                      tolerance: 2e-4, compareAtLeast: 0.6) { x, y, _, _ in
                let s = y - yb
                if s < 0 { return read(x, y) }
                if abs(s - length * cosine) < 0.02 { return nil }
                if s > length * cosine { return [0, 0, 0, 0] }
                let k = (s / folded).rounded(.down)
                if abs(s / folded - k) * folded < 0.02 || abs(s / folded - k - 1) * folded < 0.02 { return nil }
                let c = read(x, yb + k * panel + (s - k * folded) / cosine)
                let dark = k.truncatingRemainder(dividingBy: 2) == 1 ? amount * sin(alpha) : 0
                return [c[0] * (1 - dark), c[1] * (1 - dark), c[2] * (1 - dark), c[3]]
            }
        }
    }

    func testAccordionKernelCompilesAndAttributesMatch() throws {
        XCTAssertNil(AccordionFoldTransition.kernel.compileError, "\(String(describing: AccordionFoldTransition.kernel.compileError))")
        try assertAttributes(["CIAccordionFoldTransition"])
    }
}
