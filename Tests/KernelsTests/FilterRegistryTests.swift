import XCTest
import GraphEngine
@testable import Kernels

final class FilterRegistryTests: XCTestCase {
    let source = Image(color: [0.5, 0.25, 0.125, 1]).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))

    func testUnknownFilterNamesTheFilter() {
        XCTAssertThrowsError(try source.applyingFilter("CIHueAdjustt")) { error in
            XCTAssertEqual("\(error)", #"unknown filter "CIHueAdjustt" (did you mean "CIHueAdjust"?)"#)
        }
    }

    func testUnknownKeyNamesFilterAndKey() {
        XCTAssertThrowsError(try source.applyingFilter("CIHueAdjust", parameters: ["inputAngel": .number(1)])) { error in
            XCTAssertEqual("\(error)", #"CIHueAdjust has no input "inputAngel" (did you mean "inputAngle"?)"#)
        }
    }

    func testWrongTypeAndRangeAreErrors() {
        XCTAssertThrowsError(try source.applyingFilter("CIHueAdjust", parameters: ["inputAngle": .vector([1, 2])])) { error in
            XCTAssertEqual("\(error)", "CIHueAdjust.inputAngle: expected a number, got a vector of 2")
        }
        XCTAssertThrowsError(try source.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(2)])) { error in
            XCTAssertEqual("\(error)", "CISepiaTone.inputIntensity: 2.0 is above the maximum 1.0")
        }
        XCTAssertThrowsError(try source.applyingFilter("CIColorMatrix", parameters: ["inputRVector": .vector([1, 0])])) { error in
            XCTAssertEqual("\(error)", "CIColorMatrix.inputRVector: expected a vector of 4 numbers, got 2")
        }
        XCTAssertThrowsError(try Image.filter("CIBlendWithMask", parameters: ["inputImage": .image(source)])) { error in
            XCTAssertEqual("\(error)", "CIBlendWithMask.inputBackgroundImage: an input image is required")
        }
    }

    func testIdentityParametersReturnTheInput() throws {
        XCTAssertEqual(try source.applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(0)]), source)
        XCTAssertEqual(try source.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(0)]), source)
    }

    /// CIColorControls against Apple's formula written out: `c·mix(L, rgb, s) + 0.5·(1−c) + b`.
    func testColorControlsMatchesTheFormula() throws {
        let rgb: [Double] = [0.5, 0.25, 0.125]
        let (s, b, c) = (0.6, 0.05, 1.3)
        let image = try source.applyingFilter("CIColorControls", parameters: [
            "inputSaturation": .number(s), "inputBrightness": .number(b), "inputContrast": .number(c)])
        let out = try Context(options: { var o = ContextOptions(); o.workingFormat = .rgbaf; return o }())
            .render(image, format: .rgbaf).pixel(x: 1, row: 1)
        let luma = 0.2125 * rgb[0] + 0.7154 * rgb[1] + 0.0721 * rgb[2]
        for channel in 0..<3 {
            let expected = c * (luma + (rgb[channel] - luma) * s) + 0.5 * (1 - c) + b
            XCTAssertEqual(Double(out[channel]), expected, accuracy: 1e-5)
        }
        XCTAssertEqual(out[3], 1)
    }

    func testGaussianWeightsArePixelIntegralsThatSumToOne() {
        let w = BlurFilters.gaussianWeights(sigma: 10)
        XCTAssertEqual(w.count, 61)
        XCTAssertEqual(Double(w.reduce(0, +)), 1, accuracy: 1e-5)
        // Centre tap: erf(0.5/(√2·10)) normalised by the mass within ±30.5.
        let centre = erf(0.5 / (2.0.squareRoot() * 10)) / erf(30.5 / (2.0.squareRoot() * 10))
        XCTAssertEqual(Double(w[30]), centre, accuracy: 1e-6)
        XCTAssertEqual(BlurFilters.gaussianWeights(sigma: 0), [1])
    }

    func testAreaMinMaxRedSkipsNaNHoles() throws {
        var floats: [Float] = []
        for v: Float in [0.25, .nan, 3.5, -1, 0.5, .nan] { floats += [v, 0, 0, 1] }
        let bytes = floats.withUnsafeBytes { Array($0) }
        let depth = Image(buffer: try ImageBuffer(width: 3, height: 2, format: .rgbaf, colorSpace: nil, bytes: bytes))
        let result = try depth.applyingFilter("CIAreaMinMaxRed")
        let pixel = try Context().render(result, format: .rgbaf).pixel(x: 0, row: 0)
        XCTAssertEqual(pixel[0], -1)
        XCTAssertEqual(pixel[1], 3.5)
    }
}
