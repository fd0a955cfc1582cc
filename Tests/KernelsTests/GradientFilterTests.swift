import XCTest
import GraphEngine
@testable import Kernels

/// Gradients and patterns against float64 references at pixel centres.
final class GradientFilterTests: XCTestCase {
    let rect = Rect(x: -7, y: 3, width: 40, height: 31)

    /// Renders `image` over `rect` and compares with `f(px, py)` (pixel centres), premultiplied.
    func check(_ image: Image, tolerance: Double = 3e-6, _ message: String = "", _ f: (Double, Double) -> [Double],
               file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(image.extent.isInfinite, file: file, line: line)
        var expected = Pixels()
        for y in Int(rect.y)..<Int(rect.maxY) {
            for x in Int(rect.x)..<Int(rect.maxX) { expected.append(f(Double(x) + 0.5, Double(y) + 0.5)) }
        }
        assertPixels(try renderPixels(image, rect), expected, tolerance: tolerance, message, file: file, line: line)
    }

    let c0 = [0.9, 0.3, 0.1, 1.0], c1 = [0.1, 0.5, 0.8, 0.6]
    func mix(_ t: Double) -> [Double] {
        let a = premultiplied(c0), b = premultiplied(c1)
        return (0..<4).map { a[$0] + (b[$0] - a[$0]) * t }
    }
    var colors: [String: FilterValue] {
        ["inputColor0": .color(c0, colorSpace: .linearSRGB), "inputColor1": .color(c1, colorSpace: .linearSRGB)]
    }

    func testLinearAndSmoothLinearGradients() throws {
        var parameters = colors
        parameters["inputPoint0"] = .vector([2, 5])
        parameters["inputPoint1"] = .vector([25, 20])
        let d = [23.0, 15.0], length2 = 23.0 * 23 + 15 * 15
        func t(_ x: Double, _ y: Double) -> Double { min(max(((x - 2) * d[0] + (y - 5) * d[1]) / length2, 0), 1) }
        try check(try Image.filter("CILinearGradient", parameters: parameters), "linear") { mix(t($0, $1)) }
        try check(try Image.filter("CISmoothLinearGradient", parameters: parameters), "smooth") { mix(smoothstep(0, 1, t($0, $1))) }
        parameters["inputPoint1"] = .vector([2, 5])
        try check(try Image.filter("CILinearGradient", parameters: parameters), "coincident points") { _, _ in mix(0) }
    }

    func testRadialGradient() throws {
        var parameters = colors
        parameters["inputCenter"] = .vector([10, 15])
        parameters["inputRadius0"] = .number(4)
        parameters["inputRadius1"] = .number(14)
        try check(try Image.filter("CIRadialGradient", parameters: parameters)) { x, y in
            mix(min(max((hypot(x - 10, y - 15) - 4) / 10, 0), 1))
        }
    }

    func testGaussianGradient() throws {
        var parameters = colors
        parameters["inputCenter"] = .vector([12, 18])
        parameters["inputRadius"] = .number(21)
        try check(try Image.filter("CIGaussianGradient", parameters: parameters)) { x, y in
            let d2 = (x - 12) * (x - 12) + (y - 18) * (y - 18)
            return mix(1 - exp(-d2 / (2 * 7 * 7)))
        }
    }

    /// The smoothed square wave: signed distance to the nearest cell edge over the half transition.
    func wave(_ u: Double, _ width: Double, _ sharpness: Double) -> Double {
        let v = (u / 2 - (u / 2).rounded(.down)) * 2
        let e = v < 1 ? min(v, 1 - v) : -min(v - 1, 2 - v)
        let h = max((1 - sharpness) * width / 2, 1e-4)
        return min(max(e * width / h, -1), 1)
    }

    func testCheckerboardAndStripes() throws {
        for sharpness in [1.0, 0.4] {
            var parameters = colors
            parameters["inputCenter"] = .vector([3, 4])
            parameters["inputWidth"] = .number(6)
            parameters["inputSharpness"] = .number(sharpness)
            try check(try Image.filter("CICheckerboardGenerator", parameters: parameters), tolerance: 2e-5, "checkerboard \(sharpness)") { x, y in
                mix(0.5 - 0.5 * wave((x - 3) / 6, 6, sharpness) * wave((y - 4) / 6, 6, sharpness))
            }
            try check(try Image.filter("CIStripesGenerator", parameters: parameters), tolerance: 2e-5, "stripes \(sharpness)") { x, _ in
                mix(0.5 - 0.5 * wave((x - 3) / 6, 6, sharpness))
            }
        }
        // A hard checkerboard: color0 up and right of the centre, color1 beside it.
        let hard = try renderPixels(try Image.filter("CICheckerboardGenerator", parameters: colors),
                                    Rect(x: 150, y: 150, width: 81, height: 1))
        assertPixels([hard[0], hard[80]], [premultiplied(c0), premultiplied(c1)], tolerance: 1e-6)
        XCTAssertThrowsError(try Image.filter("CIStripesGenerator", parameters: ["inputWidth": .number(0)]))
    }
}

/// Issue 12: a colour parameter is a CIColor, sRGB unless given linear, converted to the working
/// space; the expected values come from the float64 sRGB formulas.
final class ColorParameterTests: XCTestCase {
    func managedContext() -> Context {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.outputColorSpace = nil  // see working-space values
        return Context(options: options)
    }

    let one = Rect(x: 0, y: 0, width: 1, height: 1)

    func testConstantColorIsSRGBAndConvertedToTheWorkingSpace() throws {
        let srgb = [0.5, 0.2, 0.9, 0.75]
        let plain = try Image.filter("CIConstantColorGenerator", parameters: ["inputColor": .vector(srgb)])
        let tagged = try Image.filter("CIConstantColorGenerator", parameters: ["inputColor": .color(srgb)])
        let linear = try Image.filter("CIConstantColorGenerator", parameters: ["inputColor": .color(srgb, colorSpace: .linearSRGB)])
        let expected = premultiplied(srgb[0..<3].map(srgbDecode) + [0.75])
        assertPixels(try renderPixels(plain, one, context: managedContext()), [expected], tolerance: 1e-6)
        assertPixels(try renderPixels(tagged, one, context: managedContext()), [expected], tolerance: 1e-6)
        assertPixels(try renderPixels(linear, one, context: managedContext()), [premultiplied(srgb)], tolerance: 1e-6)
        // Display P3: decode, then P3 primaries to sRGB primaries.
        let p3 = try Image.filter("CIConstantColorGenerator", parameters: ["inputColor": .color([1, 0, 0, 1], colorSpace: .displayP3)])
        assertPixels(try renderPixels(p3, one, context: managedContext()), [[1.2249, -0.0420, -0.0196, 1]], tolerance: 2e-4)
        // Colour management off: the numbers as given.
        assertPixels(try renderPixels(plain, one), [premultiplied(srgb)], tolerance: 1e-6)
        // Rendered to sRGB 8-bit the colour comes back as given.
        let opaque = try Image.filter("CIConstantColorGenerator", parameters: ["inputColor": .vector([0.5, 0.2, 0.9])])
        let bytes = try Context().render(opaque.cropped(to: one), format: .rgba8).bytes
        for (byte, expected) in zip(bytes, [127.5, 51, 229.5, 255]) { XCTAssertEqual(Double(byte), expected, accuracy: 0.6) }
    }

    func testTheConversionFoldsIntoTheConstant() throws {
        let image = try Image.filter("CIConstantColorGenerator", parameters: ["inputColor": .vector([0.5, 0.5, 0.5, 1])])
        let dump = try managedContext().dump(image, rect: one)
        XCTAssertTrue(dump.passes.contains { $0.pass == "fold-constant-color-conversions" && !$0.changes.isEmpty }, dump.text())
        XCTAssertFalse(dump.programs.last?.instructions.contains { $0.contains("srgbToLinear") } ?? true, dump.text())
    }

    func testColourInputsOfFiltersAreSRGB() throws {
        let (image, pixels) = try randomImage(width: 6, height: 4, seed: 51)
        let white = [0.8, 0.6, 1.0, 1.0]
        let output = try image.filtered("CIWhitePointAdjust", ["inputColor": .vector(white)])
        let w = white[0..<3].map(srgbDecode)
        assertPixels(try renderPixels(output, image.extent, context: managedContext()),
                     pixels.map { [$0[0] * w[0], $0[1] * w[1], $0[2] * w[2], $0[3]] }, tolerance: 1e-6)
        let gradient = try Image.filter("CILinearGradient", parameters: [
            "inputPoint0": .vector([0, 0]), "inputPoint1": .vector([10, 0]),
            "inputColor0": .vector([1, 0.5, 0, 1]), "inputColor1": .color([0, 0, 1, 1], colorSpace: .linearSRGB)])
        let t = 0.45, c0 = [1, srgbDecode(0.5), 0, 1]
        assertPixels(try renderPixels(gradient, Rect(x: 4, y: 0, width: 1, height: 1), context: managedContext()),
                     [[c0[0] * (1 - t), c0[1] * (1 - t), t, 1]], tolerance: 1e-6)
    }
}
