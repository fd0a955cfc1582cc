import XCTest
import GraphEngine
@testable import Kernels

/// Colour mapping filters against float64 references (Float32 where the formula is a float hash).
final class ColorMappingFilterTests: XCTestCase {
    func testMonochromeOverlaysTheToneOnTheGrey() throws {
        let (image, pixels) = try randomImage(width: 14, height: 8, seed: 31)
        let tone = [0.7, 0.5, 0.2], intensity = 0.8
        let output = try image.filtered("CIColorMonochrome", [
            "inputColor": .color(tone + [1], colorSpace: .linearSRGB), "inputIntensity": .number(intensity)])
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p), l = luma(c)
            let toned = tone.map { t in l < 0.5 ? 2 * l * t : 1 - 2 * (1 - l) * (1 - t) }
            return premultiplied((0..<3).map { c[$0] + (toned[$0] - c[$0]) * intensity } + [c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
    }

    func testPosterizeRoundsToLevels() throws {
        let (image, pixels) = try randomImage(width: 15, height: 7, seed: 32)
        let output = try image.filtered("CIColorPosterize", ["inputLevels": .number(4)])
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            return premultiplied((0..<3).map { ((c[$0] * 3 + 0.5).rounded(.down)) / 3 } + [c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 2e-6)
    }

    func testFalseColorRampsLumaBetweenTwoColours() throws {
        let (image, pixels) = try randomImage(width: 12, height: 9, seed: 33)
        let c0 = [0.1, 0.2, 0.6, 0.8], c1 = [0.9, 0.7, 0.1, 1]
        let output = try image.filtered("CIFalseColor", [
            "inputColor0": .color(c0, colorSpace: .linearSRGB), "inputColor1": .color(c1, colorSpace: .linearSRGB)])
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p), t = min(max(luma(c), 0), 1)
            let ramp = (0..<4).map { c0[$0] + (c1[$0] - c0[$0]) * t }
            return premultiplied([ramp[0], ramp[1], ramp[2], ramp[3] * c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
    }

    func testColorMapInterpolatesTheGradientRowByLuma() throws {
        let (image, pixels) = try randomImage(width: 13, height: 6, seed: 34)
        let (table, tablePixels) = try randomImage(width: 8, height: 2, seed: 35)
        let moved = table.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 40, ty: 7))
        let output = try image.filtered("CIColorMap", ["inputGradientImage": .image(moved)])
        XCTAssertEqual(output.extent, image.extent)
        let expected = pixels.map { p -> [Double] in
            let t = min(max(luma(unpremultiplied(p)), 0), 1) * 7
            let i = min(Int(t.rounded(.down)), 6), f = t - Double(i)
            let left = tablePixels[i], right = tablePixels[i + 1]
            return (0..<4).map { (left[$0] + (right[$0] - left[$0]) * f) * p[3] }
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
        XCTAssertThrowsError(try image.filtered("CIColorMap", ["inputGradientImage": .image(try Image.filter("CILinearGradient"))]))
    }

    func testMaximumAndMinimumComponent() throws {
        let (image, pixels) = try randomImage(width: 9, height: 9, seed: 36)
        let maximum = try renderPixels(try image.filtered("CIMaximumComponent"), image.extent)
        let minimum = try renderPixels(try image.filtered("CIMinimumComponent"), image.extent)
        assertPixels(maximum, pixels.map { p in let m = max(p[0], p[1], p[2]); return [m, m, m, p[3]] }, tolerance: 0)
        assertPixels(minimum, pixels.map { p in let m = min(p[0], p[1], p[2]); return [m, m, m, p[3]] }, tolerance: 0)
    }

    func testThresholdIsStrictlyGreater() throws {
        var (image, pixels) = try randomImage(width: 11, height: 6, seed: 37)
        let threshold = 0.4
        image = image.cropped(to: image.extent)
        let output = try image.filtered("CIColorThreshold", ["inputThreshold": .number(threshold)])
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            return premultiplied((0..<3).map { Double(Float(c[$0])) > threshold ? 1 : 0 } + [c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 1e-6)
    }

    /// Otsu written here from the definition: every split of a 256-bin luma histogram, the one
    /// with the largest between-class variance.
    func testOtsuThresholdSplitsABimodalImage() throws {
        var rng = TestRandom(seed: 38)
        let width = 40, height = 20
        var floats: [Float] = []
        var lumas: [Double] = []
        for _ in 0..<(width * height) {
            let bright = rng.unit() < 0.4
            let v = bright ? 0.65 + 0.25 * rng.unit() : 0.05 + 0.3 * rng.unit()
            let rgb = [v * 1.1, v, v * 0.8].map { Float($0) }
            floats += rgb + [1]
            lumas.append(luma(rgb.map(Double.init)))
        }
        let buffer = try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                     bytes: floats.withUnsafeBytes { Array($0) })
        let image = Image(buffer: buffer)
        var histogram = [Double](repeating: 0, count: 256)
        for l in lumas { histogram[min(max(Int((Float(l) * 256).rounded(.down)), 0), 255)] += 1 }
        var bestK = 0, bestVariance = -1.0
        for k in 0..<255 {
            let w0 = histogram[0...k].reduce(0, +), w1 = histogram[(k + 1)...].reduce(0, +)
            guard w0 > 0, w1 > 0 else { continue }
            let m0 = (0...k).reduce(0.0) { $0 + Double($1) * histogram[$1] } / w0
            let m1 = ((k + 1)..<256).reduce(0.0) { $0 + Double($1) * histogram[$1] } / w1
            let variance = w0 * w1 * (m0 - m1) * (m0 - m1)
            if variance > bestVariance { bestVariance = variance; bestK = k }
        }
        let t = Double(bestK + 1) / 256
        XCTAssertGreaterThan(t, 0.3)
        XCTAssertLessThan(t, 0.7)
        let output = try image.filtered("CIColorThresholdOtsu")
        let rendered = try renderPixels(output, image.extent)
        let sourcePixels = try renderPixels(image, image.extent)
        let expected = sourcePixels.map { p in (0..<3).map { p[$0] > Double(Float(t)) ? 1.0 : 0 } + [1] }
        assertPixels(rendered, expected, tolerance: 0)
        // Whole image and a corner tile agree (the threshold comes from the whole extent).
        let corner = Rect(x: 30, y: 10, width: 10, height: 10)
        let tile = try renderPixels(output, corner)
        assertPixels(tile, (0..<10).flatMap { row in (0..<10).map { expected[(row + 10) * width + 30 + $0] } }, tolerance: 0)
    }

    /// Dave Hoskins' hash42 in Float32, written again from its description.
    static func hash42(_ x: Float, _ y: Float) -> [Float] {
        func fract(_ v: Float) -> Float { v - v.rounded(.down) }
        var q = [x * 0.1031, y * 0.1030, x * 0.0973, y * 0.1099].map(fract)
        let swizzled = [q[3] + 33.33, q[2] + 33.33, q[0] + 33.33, q[1] + 33.33]
        var dot = q[0] * swizzled[0]
        dot = q[1] * swizzled[1] + dot
        dot = q[2] * swizzled[2] + dot
        dot = q[3] * swizzled[3] + dot
        q = q.map { $0 + dot }
        let a = [q[0], q[0], q[1], q[2]], b = [q[1], q[2], q[2], q[3]], c = [q[2], q[1], q[3], q[0]]
        return (0..<4).map { fract((a[$0] + b[$0]) * c[$0]) }
    }

    func testRandomGeneratorIsTheHashOfThePixelPosition() throws {
        let random = try Image.filter("CIRandomGenerator")
        XCTAssertTrue(random.extent.isInfinite)
        let rect = Rect(x: -20, y: 1000, width: 31, height: 9)
        let rendered = try renderPixels(random, rect)
        var expected = Pixels()
        for y in 1000..<1009 { for x in -20..<11 { expected.append(Self.hash42(Float(x), Float(y)).map(Double.init)) } }
        assertPixels(rendered, expected, tolerance: 2e-6)
        // Roughly uniform: the mean of each channel near 0.5.
        let big = try renderPixels(random, Rect(x: 0, y: 0, width: 128, height: 64))
        for c in 0..<4 { XCTAssertEqual(big.map { $0[c] }.reduce(0, +) / Double(big.count), 0.5, accuracy: 0.02) }
    }

    func testDitherAddsTheNoiseInSRGB() throws {
        let (image, pixels) = try randomImage(width: 10, height: 7, seed: 39)
        let intensity = 0.3
        let output = try image.filtered("CIDither", ["inputIntensity": .number(intensity)])
        // Colour management off: the stored values are the sRGB-encoded ones.
        let expected = mapPixels(pixels, width: 10) { p, x, y in
            let c = unpremultiplied(p), n = Self.hash42(Float(x), Float(y)).map(Double.init)
            return premultiplied((0..<3).map { c[$0] + intensity * (n[$0] - 0.5) } + [c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
        XCTAssertEqual(try image.filtered("CIDither", ["inputIntensity": .number(0)]), image)
    }
}
