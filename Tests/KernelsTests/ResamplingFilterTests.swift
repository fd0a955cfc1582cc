import Foundation
import GraphEngine
import Kernels
import XCTest

/// Lanczos and bicubic scaling against a float64 separable resampler written here, against Pillow's
/// (fixtures), and the JPEG scaled decode they use when shrinking.
final class ResamplingFilterTests: XCTestCase {
    static func lanczos(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        return sin(.pi * x) / (.pi * x) * sin(.pi * x / 3) / (.pi * x / 3)
    }

    static func cubic(_ b: Double, _ c: Double) -> (Double) -> Double {
        { x in
            let a = abs(x)
            if a < 1 { return ((12 - 9 * b - 6 * c) * a * a * a + (-18 + 12 * b + 6 * c) * a * a + (6 - 2 * b)) / 6 }
            if a < 2 { return ((-b - 6 * c) * a * a * a + (6 * b + 30 * c) * a * a + (-12 * b - 48 * c) * a + (8 * b + 24 * c)) / 6 }
            return 0
        }
    }

    /// Output index X along an axis scaled by `scale`: input pixels i with weights
    /// `k((i + ½ − u)/widen)`, u = (X + ½)/scale, widen = max(1/scale, 1), normalised.
    static func taps(_ index: Int, scale: Double, support: Double, kernel: (Double) -> Double) -> [(Int, Double)] {
        let u = (Double(index) + 0.5) / scale, widen = max(1 / scale, 1)
        let reach = support * widen
        let first = Int((u - reach - 0.5).rounded(.down)) - 1, last = Int((u + reach).rounded(.up)) + 1
        let all = (first...last).map { ($0, kernel((Double($0) + 0.5 - u) / widen)) }.filter { $0.1 != 0 }
        let sum = all.reduce(0) { $0 + $1.1 }
        return all.map { ($0.0, $0.1 / sum) }
    }

    func check(_ name: String, _ parameters: [String: FilterValue], kernel: @escaping (Double) -> Double, support: Double,
               sx: Double, sy: Double) throws {
        let source = try TestImage(width: 23, height: 17, seed: 21, opaque: false)
        var all = parameters
        all["inputImage"] = .image(source.image)
        let image = try FilterRegistry.standard.apply(name, parameters: all)
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 23 * sx, height: 17 * sy).integral, name)
        try assertMatches(image, image.extent, tolerance: 3e-6) { x, y in
            var sum = SIMD4<Double>.zero
            for (j, wy) in Self.taps(y, scale: sy, support: support, kernel: kernel) {
                for (i, wx) in Self.taps(x, scale: sx, support: support, kernel: kernel) { sum += wx * wy * source.clamped(i, j) }
            }
            return sum
        }
    }

    func testLanczosShrinkingAndEnlarging() throws {
        try check("CILanczosScaleTransform", ["inputScale": .number(0.45), "inputAspectRatio": .number(1.3)],
                  kernel: Self.lanczos, support: 3, sx: 0.585, sy: 0.45)
        try check("CILanczosScaleTransform", ["inputScale": .number(1.6)], kernel: Self.lanczos, support: 3, sx: 1.6, sy: 1.6)
    }

    func testBicubicWithBAndC() throws {
        try check("CIBicubicScaleTransform", ["inputScale": .number(0.7), "inputB": .number(1.0 / 3), "inputC": .number(1.0 / 3)],
                  kernel: Self.cubic(1.0 / 3, 1.0 / 3), support: 2, sx: 0.7, sy: 0.7)
        try check("CIBicubicScaleTransform", ["inputScale": .number(1.25)], kernel: Self.cubic(0, 0.75), support: 2, sx: 1.25, sy: 1.25)
    }

    /// The fixtures' grey input, as an image (rows top first there, y up here).
    func fixtureInput() throws -> Image {
        let width = 14, height = 10
        var floats: [Float] = []
        for row in 0..<height {
            for col in 0..<width {
                let v = Float(Double((col * 7 + row * 13) % 17) / 16 + 0.25 * sin(Double(col * row) * 0.1))
                floats += [v, v, v, 1]
            }
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                             bytes: floats.withUnsafeBytes { Array($0) }))
    }

    /// Compares the red channel with a fixture (rows top first, six significant digits) where
    /// `inside(column, row)`.
    func assertFixture(_ image: Image, _ fixture: [[Double]], tolerance: Double, inside: (Int, Int) -> Bool = { _, _ in true },
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let rendered = try renderExactly(image, image.extent)
        XCTAssertEqual(rendered.count, fixture.count, file: file, line: line)
        for (row, values) in fixture.enumerated() {
            for (column, expected) in values.enumerated() where inside(column, row) {
                let value = rendered[fixture.count - 1 - row][column][0]
                XCTAssertEqual(value, expected, accuracy: tolerance, "column \(column), row \(row)", file: file, line: line)
            }
        }
    }

    /// Pillow renormalises the kernel where it leaves the image; the engine repeats edge pixels, so
    /// only outputs whose taps stay inside compare.
    func testAgreesWithPillowAwayFromTheEdges() throws {
        let input = try fixtureInput()
        let lanczos = try input.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.7), "inputAspectRatio": .number(9.0 / 14 / 0.7)])
        try assertFixture(lanczos, AreaFixtures.pillowLanczos9x7, tolerance: 2e-5) { column, row in
            column >= 3 && column <= 5 && row >= 3 && row <= 3
        }
        // Pillow's BICUBIC is Keys' cubic with a = −0.5: B = 0, C = 0.5.
        let bicubic = try input.applyingFilter("CIBicubicScaleTransform", parameters: [
            "inputScale": .number(0.7), "inputAspectRatio": .number(9.0 / 14 / 0.7), "inputB": .number(0), "inputC": .number(0.5)])
        try assertFixture(bicubic, AreaFixtures.pillowBicubic9x7, tolerance: 2e-5) { column, row in
            column >= 2 && column <= 6 && row >= 2 && row <= 4
        }
    }

    func testConvolutionAndRectangleMorphologyAgreeWithOpenCV() throws {
        let input = try fixtureInput()
        let clamped = input.clampedToExtent()
        let weights: [Double] = [0.1, -0.2, 0.3, 0.05, 0.6, -0.1, 0.2, 0.15, -0.05]
        try assertFixture(try clamped.applyingFilter("CIConvolution3X3", parameters: ["inputWeights": .vector(weights)]).cropped(to: input.extent),
                          AreaFixtures.opencvFilter2D, tolerance: 1e-5)
        for (name, fixture) in [("CIMorphologyRectangleMinimum", AreaFixtures.opencvErode5x3), ("CIMorphologyRectangleMaximum", AreaFixtures.opencvDilate5x3)] {
            let image = try clamped.applyingFilter(name, parameters: ["inputWidth": .number(5), "inputHeight": .number(3)]).cropped(to: input.extent)
            try assertFixture(image, fixture, tolerance: 1e-5)
        }
    }

    /// A JPEG shrunk to a quarter is decoded at 1/2 (the kernel keeps a factor of 2), and matches
    /// the same Lanczos of the full decode within the DCT scaling's difference.
    func testShrinkingAJPEGUsesTheScaledDecode() throws {
        let path = NSTemporaryDirectory() + "area-scaled-decode-\(getpid()).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try TestImage(width: 160, height: 120, seed: 22)
        var options = ContextOptions()
        options.workingColorSpace = nil
        let context = Context(options: options)
        try context.write(try source.image.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(1.5)]).cropped(to: source.image.extent),
                          to: path, options: ImageWriteOptions(quality: 98))
        let file = try Image(contentsOf: path)
        let quarter = try file.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.25)])
        let dump = try context.dump(quarter).text()
        XCTAssertTrue(dump.contains("decoded at 1/2 (80x60)"), dump)
        XCTAssertEqual(quarter.extent, Rect(x: 0, y: 0, width: 40, height: 30))
        let decoded = Image(buffer: try context.render(file, format: .rgba8))
        let direct = try decoded.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.25)])
        let a = try context.render(quarter, format: .rgba8).bytes, b = try context.render(direct, format: .rgba8).bytes
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 255
        XCTAssertLessThanOrEqual(worst, 6)
        XCTAssertFalse(try context.dump(try file.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.3)])).text()
            .contains("decoded at"), "a shrink below 4 keeps the full decode")
    }
}
