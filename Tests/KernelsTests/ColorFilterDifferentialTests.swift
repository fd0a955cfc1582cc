import XCTest
import GraphEngine
@testable import Kernels

/// Random recipes of the colour filters render the same through the optimizer, fused programs,
/// tiles and threads as through the node-by-node reference evaluator.
final class ColorFilterDifferentialTests: XCTestCase {
    /// An 8-bit sRGB-tagged source (straight, premultiplied or opaque alpha) or a float data one.
    func source(_ rng: inout TestRandom, width: Int, height: Int) throws -> Image {
        if rng.next() % 2 == 0 { return try randomImage(width: width, height: height, seed: rng.next(), range: -0.1...1.1).image }
        let modes: [AlphaMode] = [.opaque, .straight, .premultiplied]
        let alpha = modes[Int(rng.next() % 3)]
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let a = alpha == .opaque ? 255 : Int(rng.next() % 256)
            for c in 0..<3 { bytes[i * 4 + c] = UInt8(alpha == .premultiplied ? Int(rng.next() % 256) * a / 255 : Int(rng.next() % 256)) }
            bytes[i * 4 + 3] = UInt8(a)
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: alpha, colorSpace: .sRGB, bytes: bytes))
    }

    func step(_ choice: Int, _ image: Image, _ other: Image, _ rng: inout TestRandom) throws -> (Image, ends: Bool) {
        func r(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * rng.unit() }
        func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
        /// Premultiplied texels: alpha in 0.2…1 (a negative alpha is not a colour), colour a little beyond 0…1.
        func table(_ d: Int) -> FilterValue {
            .floats((0..<(d * d * d)).flatMap { _ -> [Float] in
                let a = r(0.2...1)
                return [r(-0.1...1.1) * a, r(-0.1...1.1) * a, r(-0.1...1.1) * a, a].map { Float($0) }
            })
        }
        func color() -> FilterValue { rng.next() % 2 == 0 ? .vector([r(0...1), r(0...1), r(0...1), r(0.3...1)]) : .color([r(0...1), r(0...1), r(0...1), 1], colorSpace: .linearSRGB) }
        switch choice {
        case 0:
            let d = pick([2, 3, 5])
            return (try image.filtered("CIColorCube", ["inputCubeDimension": .number(Double(d)), "inputCubeData": table(d),
                                                       "inputExtrapolate": .bool(rng.next() % 2 == 0)]), false)
        case 1:
            return (try image.filtered("CIColorCubeWithColorSpace", ["inputCubeDimension": .number(3), "inputCubeData": table(3),
                                                                     "inputColorSpace": .string(pick(["sRGB", "displayP3"]))]), false)
        case 2:
            return (try image.filtered("CIColorCubesMixedWithMask", ["inputMaskImage": .image(other), "inputCubeDimension": .number(2),
                                                                     "inputCube0Data": table(2), "inputCube1Data": table(2)]), false)
        case 3: return (try image.filtered("CIVibrance", ["inputAmount": .number(r(-1...1))]), false)
        case 4:
            var x = 0.0
            let points = (0..<5).map { _ -> FilterValue in x += r(0.05...0.3); return .vector([x, r(0...1)]) }
            return (try image.filtered("CIToneCurve", Dictionary(uniqueKeysWithValues: points.enumerated().map { ("inputPoint\($0.offset)", $0.element) })), false)
        case 5:
            return (try image.filtered("CIHighlightShadowAdjust", ["inputRadius": .number(pick([0, 1.2])),
                                                                   "inputShadowAmount": .number(r(-1...1)), "inputHighlightAmount": .number(r(0...1))]), false)
        case 6: return (try image.filtered("CITemperatureAndTint", ["inputNeutral": .vector([r(3000...9000), r(-50...50)])]), false)
        case 7: return (try image.filtered("CIWhitePointAdjust", ["inputColor": color()]), false)
        case 8:
            return (try image.filtered("CIColorPolynomial", ["inputRedCoefficients": .vector([r(-0.1...0.1), r(0.5...1.5), r(-0.5...0.5), r(-0.5...0.5)]),
                                                             "inputAlphaCoefficients": .vector([0, 1, r(-0.2...0.2), 0])]), false)
        case 9:
            return (try image.filtered("CIColorCrossPolynomial", ["inputGreenCoefficients": .vector((0..<10).map { $0 == 1 ? 1 : r(-0.2...0.2) })]), false)
        case 10: return (try image.filtered(pick(["CILinearToSRGBToneCurve", "CISRGBToneCurveToLinear"])), false)
        case 11: return (try image.filtered("CIColorMonochrome", ["inputColor": color(), "inputIntensity": .number(r(0...1))]), false)
        case 12: return (try image.filtered("CIColorPosterize", ["inputLevels": .number(Double(pick([2, 4, 9])))]), false)
        case 13: return (try image.filtered("CIFalseColor", ["inputColor0": color(), "inputColor1": color()]), false)
        case 14:
            let gradient = try Image.filter("CILinearGradient", parameters: ["inputPoint0": .vector([0, 0]), "inputPoint1": .vector([16, 0]),
                                                                             "inputColor0": color(), "inputColor1": color()])
                .cropped(to: Rect(x: 0, y: 0, width: 16, height: 1))
            return (try image.filtered("CIColorMap", ["inputGradientImage": .image(gradient)]), false)
        case 15: return (try image.filtered(pick(["CIMaximumComponent", "CIMinimumComponent"])), false)
        case 16: return (try image.filtered("CIColorThreshold", ["inputThreshold": .number(r(0.2...0.8))]), false)
        case 17: return (try image.filtered("CIColorThresholdOtsu"), false)
        case 18: return (try image.filtered("CIDither", ["inputIntensity": .number(r(0...0.5))]), false)
        case 19: return (try image.filtered(pick(LookFilters.photoEffects.map(\.name))), false)
        case 20:
            if rng.next() % 2 == 0 { return (try image.filtered("CIVignette", ["inputIntensity": .number(r(-1...1))]), false) }
            return (try image.filtered("CIVignetteEffect", ["inputCenter": .vector([r(0...30), r(0...30)]), "inputRadius": .number(r(2...20)),
                                                            "inputFalloff": .number(r(0...1))]), false)
        case 21: return (try image.filtered(pick(BlendModeFilters.modes.map(\.name)), ["inputBackgroundImage": .image(other)]), false)
        case 22: return (try image.filtered(pick(CompositingFilters.operators.map(\.name)), ["inputBackgroundImage": .image(other)]), false)
        case 23:
            return (try image.filtered(pick(["CIBlendWithAlphaMask", "CIBlendWithRedMask", "CIBlendWithBlueMask"]),
                                       ["inputBackgroundImage": .image(other), "inputMaskImage": .image(other)]), false)
        case 24:
            let generator = try Image.filter(pick(["CIRadialGradient", "CIGaussianGradient", "CICheckerboardGenerator", "CIStripesGenerator",
                                                   "CIRandomGenerator", "CISmoothLinearGradient", "CIConstantColorGenerator"]))
            return (try image.filtered(pick(["CIMultiplyBlendMode", "CIScreenBlendMode", "CISourceAtopCompositing"]),
                                       ["inputBackgroundImage": .image(generator.cropped(to: image.extent))]), false)
        case 25:
            let histogram = try image.filtered("CIAreaHistogram", ["inputCount": .number(12)])
            return (try histogram.filtered("CIHistogramDisplayFilter", ["inputHeight": .number(6)]), true)
        case 26: return (try image.filtered(pick(["CIAreaAverage", "CIAreaMinMax", "CIRowAverage", "CIColumnAverage"])), true)
        default: return (try image.filtered("CIDepthToDisparity"), false)
        }
    }

    func testRandomColourRecipesMatchTheReference() throws {
        // Sources are 8-bit sRGB (converted at load, by table) or float data; Float32 intermediates,
        // 3 threads, 16-pixel tiles.
        var rng = TestRandom(seed: 2027)
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.threads = 3
        options.tileSize = 16
        let context = Context(options: options)
        var checked = 0
        for index in 0..<150 {
            var image = try source(&rng, width: 8 + Int(rng.next() % 24), height: 8 + Int(rng.next() % 20))
            let other = try source(&rng, width: 20, height: 18)
            var steps: [Int] = []
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let choice = Int(rng.next() % 28)
                steps.append(choice)
                let (next, ends) = try step(choice, image, other, &rng)
                image = next
                if ends { break }
            }
            let rect = image.extent.intersection(Rect(x: -3, y: -3, width: 60, height: 60))
            let fast = try renderPixels(image, rect, context: context)
            let reference = try ReferenceEvaluator().render(image, rect: rect, options: options).map { v in (0..<4).map { Double(v[$0]) } }
            // Steps with a threshold (posterize, thresholds, histograms, the dodge/burn/divide blends)
            // may flip a pixel whose value sits on the threshold within float rounding: at most 1%.
            // Large values are compared relatively (5e-4: reciprocals amplify the sRGB tables' 2e-5).
            let discontinuous = !Set(steps).isDisjoint(with: [12, 16, 17, 21, 25])
            let mismatches = zip(fast, reference).filter { a, e in
                (0..<4).contains { !((a[$0].isNaN && e[$0].isNaN) || abs(a[$0] - e[$0]) <= 2e-4 * max(1, 2.5 * abs(e[$0]))) }
            }
            let allowed = discontinuous ? fast.count / 100 : 0
            XCTAssertEqual(fast.count, reference.count)
            if mismatches.count > allowed {
                assertPixels(fast, reference, tolerance: 2e-4, "recipe \(index) steps \(steps)")
                XCTFail("recipe \(index):\n\(try context.dump(image, rect: rect).text())")
                return
            }
            checked += 1
        }
        XCTAssertEqual(checked, 150)
    }
}
