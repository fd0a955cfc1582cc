import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIHueSaturationValueGradient (``HueSaturationValueGradient``) against a float64 HSV wheel written
/// here from the textbook's sector form (not the kernel's closed form). The test context has no
/// working space, so the wheel's values come through unconverted. Float32 `atan2` and the soft rim
/// err by about 1e-6 (times 6 for the hue's sectors), hence 1e-4; the dither is held to its bound.
final class HueSaturationValueGradientTests: XCTestCase {
    /// HSV to RGB by sectors: `i = floor(6h)`, `f = 6h − i`, then the six cases.
    func hsv(_ h: Double, _ s: Double, _ v: Double) -> [Double] {
        let h6 = (h - h.rounded(.down)) * 6, i = Int(h6.rounded(.down)) % 6, f = h6 - h6.rounded(.down)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch i {
        case 0: return [v, t, p]
        case 1: return [q, v, p]
        case 2: return [p, v, t]
        case 3: return [p, q, v]
        case 4: return [t, p, v]
        default: return [v, p, q]
        }
    }

    func testWheel() throws {
        let radius = 20.0, value = 0.8, softness = 0.5, edge = 0.1 * softness * radius
        let wheel = try Image.filter("CIHueSaturationValueGradient", parameters: [
            "inputValue": .number(value), "inputRadius": .number(radius), "inputSoftness": .number(softness), "inputDither": .number(0)])
        XCTAssertEqual(wheel.extent, Rect(x: -20, y: -20, width: 40, height: 40))
        let expected: (Int, Int) -> [Double] = { i, j in
            let x = Double(i) + 0.5, y = Double(j) + 0.5, r = hypot(x, y)
            let a = min(max((radius - r) / edge, 0), 1)
            return self.hsv(atan2(y, x) / (2 * Double.pi), min(r / radius, 1), value).map { $0 * a } + [a]
        }
        XCTAssertLessThan(try largestError(wheel, rect: Rect(x: -22, y: -22, width: 44, height: 44)) { i, j in
            guard i >= -20, j >= -20, i < 20, j < 20 else { return [0, 0, 0, 0] }
            return expected(i, j)
        }, 1e-4)
        // The dither moves each colour by at most dither/255/2 (times the alpha).
        let dithered = try Image.filter("CIHueSaturationValueGradient", parameters: [
            "inputValue": .number(value), "inputRadius": .number(radius), "inputSoftness": .number(softness), "inputDither": .number(2)])
        let moved = try largestError(dithered, rect: Rect(x: -20, y: -20, width: 40, height: 40)) { expected($0, $1) }
        XCTAssertLessThan(moved, 1.0 / 255 + 1e-4)
        XCTAssertGreaterThan(moved, 0.5 / 255)
    }

    func testKernelCompilesAndAttributesMatch() throws {
        XCTAssertNil(HueSaturationValueGradient.kernel.compileError, "\(String(describing: HueSaturationValueGradient.kernel.compileError))")
        try assertAttributes(["CIHueSaturationValueGradient"])
        XCTAssertThrowsError(try Image.filter("CIHueSaturationValueGradient", parameters: ["inputRadius": .number(0)]))
    }
}
