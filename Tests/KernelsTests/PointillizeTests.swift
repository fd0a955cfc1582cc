import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIPointillize (``Pointillize``) against a float64 implementation of its documented dots: the
/// covering dots found by search over a 5×5 block of cells (not the kernel's 3×3), the top one by
/// its jitter, or white. Pixels within 0.05 pixel of a dot's rim are skipped (Float32 may fall on
/// either side); elsewhere the bilinear read errs by about 1e-5, hence 2e-4.
final class PointillizeTests: XCTestCase {
    func testDots() throws {
        let s = try GeometrySource(width: 37, height: 29, seed: 73)
        let r = 4.0, d = 1.6 * r, c = (10.3, 7.7)
        let image = try Image.filter("CIPointillize", parameters: ["inputImage": .image(s.image), "inputRadius": .number(r),
                                                                   "inputCenter": .vector([c.0, c.1])])
        XCTAssertEqual(image.extent, s.image.extent.outset(dx: d, dy: d).integral)
        func fract(_ x: Double) -> Double { x - x.rounded(.down) }
        var compared = 0, dots = 0
        let error = try largestError(image, rect: Rect(x: -6, y: -6, width: 49, height: 41)) { i, j in
            let x = Double(i) + 0.5, y = Double(j) + 0.5
            let cell = (((x - c.0) / d).rounded(.down), ((y - c.1) / d).rounded(.down))
            var found: [(x: Double, y: Double, distance: Double, priority: Double)] = []
            for a in -2...2 {
                for b in -2...2 {
                    let k = (cell.0 + Double(a), cell.1 + Double(b))
                    let jitter = (fract(k.0 * 0.7548776662 + k.1 * 0.5698402910), fract(k.0 * 0.5698402910 + k.1 * 0.7548776662))
                    let q = (c.0 + d * (k.0 + 0.5 + 0.6 * (jitter.0 - 0.5)), c.1 + d * (k.1 + 0.5 + 0.6 * (jitter.1 - 0.5)))
                    found.append((q.0, q.1, hypot(x - q.0, y - q.1), jitter.0))
                }
            }
            guard found.allSatisfy({ abs($0.distance - r) > 0.05 }) else { return nil }
            compared += 1
            guard let top = found.filter({ $0.distance <= r }).max(by: { $0.priority < $1.priority }) else { return [1, 1, 1, 1] }
            dots += 1
            return s.bilinear(top.x, top.y)
        }
        XCTAssertGreaterThan(compared, 49 * 41 * 6 / 10)
        XCTAssertGreaterThan(dots, 49 * 41 / 3)
        XCTAssertLessThan(error, 2e-4)
    }

    func testKernelCompilesAndAttributesMatch() throws {
        XCTAssertNil(Pointillize.kernel.compileError, "\(String(describing: Pointillize.kernel.compileError))")
        try assertAttributes(["CIPointillize"])
    }
}
