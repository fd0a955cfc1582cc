import XCTest
import GraphEngine
@testable import Kernels

/// Photo effects, vignettes and depth conversions against float64 references.
final class LookFilterTests: XCTestCase {
    /// A preset written out: sRGB-encoded colour through colour controls after channel gains.
    func photoEffect(_ p: [Double], saturation: Double, contrast: Double, lift: Double, gains: [Double] = [1, 1, 1],
                     clamps: Bool = false) -> [Double] {
        let c = unpremultiplied(p)
        let g = (0..<3).map { c[$0] * gains[$0] }
        let l = luma(g)
        var out = (0..<3).map { contrast * (l + (g[$0] - l) * saturation) + 0.5 * (1 - contrast) + lift }
        if clamps { out = out.map { min(max($0, 0), 1) } }
        return premultiplied(out + [c[3]])
    }

    func testPhotoEffectsAreTheirDocumentedMatrices() throws {
        let (image, pixels) = try randomImage(width: 10, height: 6, seed: 61)
        let presets: [(String, Double, Double, Double, [Double], Bool)] = [
            ("CIPhotoEffectMono", 0, 0.8, 0.03, [1, 1, 1], false), ("CIPhotoEffectNoir", 0, 1.6, 0, [1, 1, 1], true),
            ("CIPhotoEffectTonal", 0, 1, 0, [1, 1, 1], false), ("CIPhotoEffectChrome", 1.3, 1.1, 0, [1, 1, 1], false),
            ("CIPhotoEffectFade", 0.6, 0.85, 0.06, [1, 1, 1], false),
            ("CIPhotoEffectInstant", 0.85, 0.95, 0.04, [1.06, 1, 0.9], false),
            ("CIPhotoEffectProcess", 0.9, 1.1, 0, [0.94, 1, 1.08], false),
            ("CIPhotoEffectTransfer", 1.1, 1.05, 0.02, [1.08, 1.02, 0.88], false),
        ]
        XCTAssertEqual(Set(presets.map(\.0)), Set(LookFilters.photoEffects.map(\.name)))
        for (name, s, c, l, g, clamps) in presets {
            let output = try image.filtered(name)
            // Colour management off: applied to the stored (sRGB-encoded) values.
            assertPixels(try renderPixels(output, image.extent), pixels.map {
                photoEffect($0, saturation: s, contrast: c, lift: l, gains: g, clamps: clamps)
            }, tolerance: 3e-6, name)
        }
        // Managed: the working (linear) colour is encoded, looked, decoded.
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.outputColorSpace = nil
        let managed = try renderPixels(try image.filtered("CIPhotoEffectChrome"), image.extent, context: Context(options: options))
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            let looked = unpremultiplied(photoEffect(premultiplied(c[0..<3].map(srgbEncode) + [c[3]]), saturation: 1.3, contrast: 1.1, lift: 0))
            return premultiplied(looked[0..<3].map(srgbDecode) + [c[3]])
        }
        assertPixels(managed, expected, tolerance: 3e-4)
    }

    func testPhotoEffectsFoldWithNeighbouringMatrices() throws {
        let (image, _) = try randomImage(width: 4, height: 4, seed: 62)
        let chain = try image.filtered("CIPhotoEffectProcess").filtered("CIExposureAdjust", ["inputEV": .number(0.2)])
        let dump = try exactContext().dump(chain, rect: image.extent)
        let matrices = dump.programs.flatMap(\.instructions).filter { $0.split(separator: ";").first?.contains("matrix") ?? false }
        XCTAssertEqual(matrices.count, 1, dump.text())
    }

    func testVignetteDarkensTowardsTheCorners() throws {
        let (image, pixels) = try randomImage(width: 30, height: 20, seed: 63)
        let (intensity, radius) = (0.8, 0.9)
        let output = try image.filtered("CIVignette", ["inputIntensity": .number(intensity), "inputRadius": .number(radius)])
        let r = radius * 0.5 * hypot(30, 20)
        let expected = mapPixels(pixels, width: 30) { p, x, y in
            let d = hypot(Double(x) + 0.5 - 15, Double(y) + 0.5 - 10) / r
            let v = 1 - intensity * smoothstep(0.5, 1, d)
            return [p[0] * v, p[1] * v, p[2] * v, p[3]]
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
        XCTAssertThrowsError(try Image.filter("CIRandomGenerator").filtered("CIVignette", ["inputIntensity": .number(1)]))
    }

    func testVignetteEffectAroundACircle() throws {
        let (image, pixels) = try randomImage(width: 30, height: 20, seed: 64)
        let output = try image.filtered("CIVignetteEffect", [
            "inputCenter": .vector([12, 9]), "inputRadius": .number(8), "inputIntensity": .number(-0.5), "inputFalloff": .number(0.3)])
        let expected = mapPixels(pixels, width: 30) { p, x, y in
            let d = hypot(Double(x) + 0.5 - 12, Double(y) + 0.5 - 9)
            let v = 1 + 0.5 * smoothstep(8 * 0.7, 8 * 1.3, d)
            return [p[0] * v, p[1] * v, p[2] * v, p[3]]
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
    }

    func testDepthAndDisparityAreReciprocalsWithAGuardedZero() throws {
        let depths: [Float] = [0.5, 2, 0, .nan, 1e-6, -4, 0.25, 3]
        var floats: [Float] = []
        for d in depths { floats += [d, d, d, 1] }
        let buffer = try ImageBuffer(width: 4, height: 2, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                     bytes: floats.withUnsafeBytes { Array($0) })
        let depth = Image(buffer: buffer)
        let expected: [Double] = [2, 0.5, 65504, .nan, 65504, -0.25, 4, 1.0 / 3]
        for name in ["CIDepthToDisparity", "CIDisparityToDepth"] {
            let rendered = try renderPixels(try depth.filtered(name), depth.extent)
            // Rows bottom-up: the buffer's top row (first four values) is y = 1.
            let ordered = Array(rendered[4..<8]) + Array(rendered[0..<4])
            assertPixels(ordered, expected.map { [$0, $0, $0, 1] }, tolerance: 1e-6, name)
        }
        // Round trip.
        let (image, pixels) = try randomImage(width: 7, height: 5, seed: 65, opaque: true, range: 0.2...5)
        let back = try image.filtered("CIDepthToDisparity").filtered("CIDisparityToDepth")
        assertPixels(try renderPixels(back, image.extent), pixels, tolerance: 2e-6)
    }
}
