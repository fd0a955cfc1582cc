import XCTest
@testable import GraphEngine
import Kernels

/// Every area pass renders through the planner and tiled executor (half-float intermediates, small
/// tiles, several threads) as the reference evaluator states it plainly, one pixel at a time: on
/// random sources, random parameters, cropped and clamped or not, alone or followed by a second
/// area filter.
final class AreaPassDifferentialTests: XCTestCase {
    func randomSource(_ rng: inout SeededGenerator) throws -> Image {
        let alpha = [AlphaMode.opaque, .straight, .premultiplied].randomElement(using: &rng) ?? .opaque
        return Image(buffer: try makeTestBuffer(width: Int.random(in: 9...34, using: &rng),
                                                height: Int.random(in: 9...30, using: &rng), seed: rng.next(), alpha: alpha))
    }

    /// One area filter applied to `input` with random parameters.
    func areaStep(_ choice: Int, _ input: Image, _ rng: inout SeededGenerator) throws -> Image {
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }
        switch choice {
        case 0: return try input.applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(r(0.5...7))])
        case 1: return try input.applyingFilter("CIDiscBlur", parameters: ["inputRadius": .number(r(1...6))])
        case 2: return try input.applyingFilter("CIMorphologyMaximum", parameters: ["inputRadius": .number(r(1...5))])
        case 3: return try input.applyingFilter("CIMorphologyMinimum", parameters: ["inputRadius": .number(r(1...5))])
        case 4: return try input.applyingFilter("CIMorphologyRectangleMaximum", parameters: [
            "inputWidth": .number(r(1...12)), "inputHeight": .number(r(1...12))])
        case 5: return try input.applyingFilter("CIMorphologyRectangleMinimum", parameters: [
            "inputWidth": .number(r(1...12)), "inputHeight": .number(r(1...12))])
        case 6: return try input.applyingFilter("CIConvolution3X3", parameters: [
            "inputWeights": .vector((0..<9).map { _ in r(-1...1) }), "inputBias": .number(r(-0.1...0.1))])
        case 7: return try input.applyingFilter("CIConvolutionRGB5X5", parameters: [
            "inputWeights": .vector((0..<25).map { _ in r(-0.3...0.3) }), "inputBias": .number(r(-0.1...0.1))])
        case 8: return try input.applyingFilter("CIConvolution9Vertical", parameters: [
            "inputWeights": .vector((0..<9).map { _ in r(-0.5...0.5) })])
        case 9:
            guard !input.extent.isInfinite else { return input }
            return try input.applyingFilter("CILanczosScaleTransform", parameters: [
                "inputScale": .number(r(0.3...1.6)), "inputAspectRatio": .number(r(0.6...1.4))])
        case 10:
            guard !input.extent.isInfinite else { return input }
            return try input.applyingFilter("CIBicubicScaleTransform", parameters: [
                "inputScale": .number(r(0.3...1.6)), "inputB": .number(r(0...1)), "inputC": .number(r(0...1))])
        case 11:
            let mask = try randomSource(&rng)
            return try input.applyingFilter("CIMaskedVariableBlur", parameters: ["inputMask": .image(mask), "inputRadius": .number(r(1...9))])
        case 12:
            guard !input.extent.isInfinite else { return input }
            let small = try randomSource(&rng).transformed(by: AffineTransform(scaleX: 0.3, y: 0.3))
            return try input.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: [
                "inputSmallImage": .image(small.cropped(to: small.extent.integral)),
                "inputSpatialSigma": .number(r(0...5)), "inputLumaSigma": .number(r(0.05...1))])
        case 13:
            guard !input.extent.isInfinite else { return input }
            return try input.applyingFilter("CIGuidedFilter", parameters: [
                "inputGuideImage": .image(try randomSource(&rng)), "inputRadius": .number(r(1...4)), "inputEpsilon": .number(r(0.001...0.1))])
        case 14: return try input.applyingFilter("CIMorphologyGradient", parameters: ["inputRadius": .number(r(1...4))])
        case 15: return try input.applyingFilter("CIUnsharpMask", parameters: ["inputRadius": .number(r(0.5...3)), "inputIntensity": .number(r(0...1))])
        case 16: return try input.applyingFilter("CISharpenLuminance", parameters: ["inputRadius": .number(r(0.5...3)), "inputSharpness": .number(r(0...2))])
        case 17: return try input.applyingFilter("CINoiseReduction", parameters: ["inputNoiseLevel": .number(r(0.01...0.1)), "inputSharpness": .number(r(0...2))])
        case 18: return try input.applyingFilter("CIBloom", parameters: ["inputRadius": .number(r(0.5...4)), "inputIntensity": .number(r(0...1))])
        case 19: return try input.applyingFilter("CIGloom", parameters: ["inputRadius": .number(r(0.5...4)), "inputIntensity": .number(r(0...1))])
        case 20: return try input.applyingFilter("CIMotionBlur", parameters: ["inputRadius": .number(r(0.5...3)), "inputAngle": .number(r(-3...3))])
        default:
            guard !input.extent.isInfinite else { return input }
            let e = input.extent
            return try input.applyingFilter("CIZoomBlur", parameters: [
                "inputCenter": .vector([e.midX, e.midY]), "inputAmount": .number(r(2...30))])
        }
    }

    func testAreaFiltersMatchTheReference() throws {
        var rng = SeededGenerator(seed: 909)
        var options = ContextOptions()
        options.tileSize = 16
        options.threads = 3
        let context = Context(options: options)
        for index in 0..<176 {
            var image = try randomSource(&rng)
            if Bool.random(using: &rng) {
                // A whole-pixel crop: area passes read it through a window on the source.
                image = image.cropped(to: Rect(x: Double(Int.random(in: 0...4, using: &rng)), y: Double(Int.random(in: 0...4, using: &rng)),
                                               width: Double(Int.random(in: 3...9, using: &rng)), height: Double(Int.random(in: 3...9, using: &rng))))
            }
            if Bool.random(using: &rng) { image = image.clampedToExtent() }
            let first = index % 22
            image = try areaStep(first, image, &rng)
            if Int.random(in: 0..<3, using: &rng) == 0 {
                image = try areaStep(Int.random(in: 0..<22, using: &rng), image, &rng)
            }
            if image.extent.isInfinite { image = image.cropped(to: Rect(x: -3, y: -2, width: 30, height: 26)) }
            let rect = image.extent.intersection(Rect(x: -20, y: -20, width: 80, height: 80))
            guard !PixelRect(rect).isEmpty else { continue }
            let fast = bottomUpPixels(try context.render(image, rect: PixelRect(rect).rect, format: .rgbaf))
            let reference = try ReferenceEvaluator().render(image, rect: PixelRect(rect).rect)
            let before = testRun?.failureCount ?? 0
            assertClose(fast, reference, tolerance: 6e-3)
            if (testRun?.failureCount ?? 0) > before {
                XCTFail("recipe \(index) (first step \(first)):\n\(try context.dump(image, rect: rect).text())")
                return
            }
        }
    }
}

extension Rect {    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }
}
