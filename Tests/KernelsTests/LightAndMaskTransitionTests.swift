import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The light and mask transitions (``LightAndMaskTransitions``) against float64 implementations of
/// their documented formulas, with ``TransitionFilterTests``'s pictures and checks. The shadow's
/// blur is the test's own separable Gaussian; its Float32 sums and the disintegration's 32× ramp
/// keep errors near 1e-5, so the tolerance here is 2e-4.
extension TransitionFilterTests {
    func testDisintegrateWithMask() throws {
        let maskSource = try GeometrySource(width: 20, height: 15, seed: 7)
        let mask = maskSource.image.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: 2))
        let delta = 1.0 / 32, density = 0.7, sigma = 1.5, offset = (3, -4)
        func m(_ i: Int, _ j: Int) -> Double {
            let p = maskSource.pixel(i - 3, j - 2)
            return min(max(0.2125 * p[0] + 0.7154 * p[1] + 0.0721 * p[2], 0), 1)
        }
        for t in [0.0, 0.4, 1.0] {
            func cover(_ i: Int, _ j: Int) -> Double { 1 - min(max(((1 + delta) * t - m(i, j)) / delta, 0), 1) }
            // The cover exists over the mask's extent only, then moves by the offset.
            let moved: (Int, Int) -> [Double] = { i, j in
                let (a, b) = (i - offset.0, j - offset.1)
                guard a >= 3, b >= 2, a < 23, b < 17 else { return [0, 0, 0, 0] }
                let c = cover(a, b)
                return [c, c, c, c]
            }
            let shadow = separableGaussian(sigma, moved)
            try check("CIDisintegrateWithMaskTransition", ["inputMaskImage": .image(mask), "inputTime": .number(t),
                                                           "inputShadowRadius": .number(sigma), "inputShadowDensity": .number(density),
                                                           "inputShadowOffset": .vector([Double(offset.0), Double(offset.1)])],
                      tolerance: 2e-4) { x, y, a, b in
                let i = Int(x.rounded(.down)), j = Int(y.rounded(.down)), c = cover(i, j), s = density * shadow(i, j)[3]
                return (0..<4).map { a[$0] * c + b[$0] * (1 - s) * (1 - c) }
            }
        }
    }

    func testCopyMachine() throws {
        let extent = Rect(x: 1, y: -2, width: 38, height: 33), angle = 4.0, w = 15.0, opacity = 1.6
        let colour = [0.0, 1.0, 1.0, 1.0]
        let m = (extent.x + extent.width / 2, extent.y + extent.height / 2)
        let radius = (extent.width * abs(cos(angle)) + extent.height * abs(sin(angle))) / 2
        for t in [0.0, 0.55, 1.0] {
            let front = -radius - w / 2 + t * (2 * radius + w)
            try check("CICopyMachineTransition", ["inputExtent": .rect(extent), "inputAngle": .number(angle), "inputWidth": .number(w),
                                                  "inputOpacity": .number(opacity), "inputTime": .number(t),
                                                  "inputColor": .color(colour)]) { x, y, a, b in
                let d = (x - m.0) * cos(angle) + (y - m.1) * sin(angle) - front
                let picture = self.mix(b, a, self.clamp01(d / w + 0.5))
                return self.mix(picture, colour, self.clamp01(opacity * max(1 - pow(2 * d / w, 2), 0)))
            }
        }
    }

    func testFlash() throws {
        let c = (14.3, 20.6), extent = Rect(x: 0, y: -4, width: 41, height: 37), colour = [1.0, 1.0, 0.0, 1.0]
        let maxRadius = 1.7, strength = 0.8, contrast = 2.0, fade = 0.7
        let reach = [(0.0, -4.0), (41.0, -4.0), (0.0, 33.0), (41.0, 33.0)].map { hypot($0.0 - c.0, $0.1 - c.1) }.max() ?? 1
        for t in [0.0, 0.2, 0.45, 0.7, 1.0] {
            let g = min((1 - abs(2 * t - 1)) / fade, 1)
            try check("CIFlashTransition", ["inputCenter": .vector([c.0, c.1]), "inputExtent": .rect(extent), "inputColor": .color(colour),
                                            "inputTime": .number(t), "inputMaxStriationRadius": .number(maxRadius),
                                            "inputStriationStrength": .number(strength), "inputStriationContrast": .number(contrast),
                                            "inputFadeThreshold": .number(fade)], tolerance: 2e-4) { x, y, a, b in
                let r = hypot(x - c.0, y - c.1) / reach
                let rays = pow(0.5 + 0.5 * cos(16 * atan2(y - c.1, x - c.0)), contrast)
                let q = g * (1 + maxRadius * strength * rays)
                return self.mix(t < 0.5 ? a : b, colour, g * self.clamp01(1 - (r - q) / 0.1))
            }
        }
    }

    func testLightAndMaskKernelsCompile() {
        let kernels: [(String, CatalogueKernel)] = [
            ("cover", LightAndMaskTransitions.coverKernel), ("disintegrate", LightAndMaskTransitions.disintegrateKernel),
            ("copy machine", LightAndMaskTransitions.copyMachineKernel), ("flash", LightAndMaskTransitions.flashKernel),
        ]
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    func testLightAndMaskAttributesMatchCoreImage() throws {
        try assertAttributes(["CIDisintegrateWithMaskTransition", "CICopyMachineTransition", "CIFlashTransition"])
    }
}
