import XCTest
@testable import GraphEngine
import Kernels

final class ErrorTests: XCTestCase {
    func testRenderingAnInfiniteImageIsAnError() {
        XCTAssertThrowsError(try Context().render(Image(color: [1, 0, 0, 1]))) { error in
            XCTAssertTrue("\(error)".contains("infinite extent"), "\(error)")
        }
    }

    func testAbsurdRenderSizeIsRefusedBeforeAllocating() {
        let image = Image(color: [1, 0, 0, 1]).cropped(to: Rect(x: 0, y: 0, width: 1e6, height: 1e6))
        XCTAssertThrowsError(try Context().render(image)) { error in
            XCTAssertTrue("\(error)".contains("exceeds the limit"), "\(error)")
        }
    }

    func testNaNFlowsThroughArithmeticAndSamplingWithoutCrashing() throws {
        var floats: [Float] = []
        for i in 0..<16 { floats += i % 3 == 0 ? [.nan, .nan, .nan, 1] : [Float(i) / 16, 0.5, 0.25, 1] }
        let depth = Image(buffer: try ImageBuffer(width: 4, height: 4, format: .rgbaf, bytes: floats.withUnsafeBytes { Array($0) }))
        let kernel = try Kernel(source: "kernel vec2 jitter(sampler s) { vec4 c = vec4(0.0); return destCoord() + vec2(0.5, 0.0); }")
        let image = try Image.applying(kernel, arguments: [.image(depth)], extent: depth.extent)
            .applyingFilter("CIColorControls", parameters: ["inputContrast": .number(1.5)])
            .applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(1)])
        let out = try Context().render(image, rect: depth.extent, format: .rgbaf)
        XCTAssertTrue(out.pixel(x: 0, row: 3)[0].isNaN, "a NaN hole stays NaN")
        XCTAssertEqual(out.width, 4)
    }

    func testKernelArgumentMismatchNamesTheParameter() throws {
        let kernel = try Kernel(source: "kernel vec4 darken(__sample s, __sample d, float power) { return vec4(s.rgb * pow(d.r, power), s.a); }")
        let image = Image(color: [1, 1, 1, 1])
        XCTAssertThrowsError(try Image.applying(kernel, arguments: [.image(image), .image(image), .vector([1, 2])])) { error in
            XCTAssertEqual("\(error)", "kernel 'darken' parameter 'power' is float; got a vector of 2")
        }
    }
}

final class KernelRegionOfInterestTests: XCTestCase {
    /// A general kernel whose ROI comes from a Swift callback: a horizontal shift by 7 pixels reads
    /// exactly the shifted rectangle, and renders match the reference for every tile size.
    func testCallbackRegionOfInterest() throws {
        let kernel = try Kernel(source: "kernel vec4 shift(sampler s) { return sample(s, destCoord() + vec2(7.0, 0.0)); }")
        let source = Image(buffer: try makeTestBuffer(width: 90, height: 40, seed: 31))
        let image = try Image.applying(kernel, arguments: [.image(source)], extent: source.extent,
                                       regionOfInterest: .callback { _, rect in
                                           Rect(x: rect.x + 7, y: rect.y, width: rect.width, height: rect.height)
                                       })
        let reference = try ReferenceEvaluator().render(image, rect: source.extent)
        for tile in [16, 64] {
            var options = ContextOptions()
            options.tileSize = tile
            assertClose(bottomUpPixels(try Context(options: options).render(image, format: .rgbaf)), reference, tolerance: 4e-3)
        }
    }
}
