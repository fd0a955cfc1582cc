import XCTest
@testable import GraphEngine
import Kernels

/// Randomly generated recipes render the same through the optimizer, planner and tiled executor
/// (half-float intermediates) as through the node-by-node reference evaluator (Float32).
final class DifferentialTests: XCTestCase {
    static let tintKernel = try? Kernel(source: """
        kernel vec4 tint(__sample s, __sample t, float k) {
            vec4 c = unpremultiply(s);
            c.rgb = mix(c.rgb, t.rgb, k * t.a);
            if (c.r > 0.8) { c.g = c.g * 0.5; }
            return premultiply(c);
        }
        """)
    static let swirlKernel = try? Kernel(source: """
        kernel vec2 swirl(float amount) {
            vec2 d = destCoord() - vec2(20.0, 15.0);
            float r = length(d);
            float a = amount * exp(-r * 0.05);
            return vec2(20.0, 15.0) + vec2(d.x * cos(a) - d.y * sin(a), d.x * sin(a) + d.y * cos(a));
        }
        """)
    static let edgeKernel = try? Kernel(source: """
        kernel vec4 edges(sampler src, float strength) {
            vec2 p = destCoord();
            vec4 c = sample(src, p);
            vec4 l = sample(src, p + vec2(-1.0, 0.0));
            vec4 u = sample(src, p + vec2(0.0, 1.5));
            return c + strength * (2.0 * c - l - u);
        }
        """)

    /// A random source buffer: opaque, straight or premultiplied alpha, of a random small size.
    func randomSource(_ rng: inout SeededGenerator) throws -> Image {
        let alpha = [AlphaMode.opaque, .straight, .premultiplied].randomElement(using: &rng) ?? .opaque
        return Image(buffer: try makeTestBuffer(width: Int.random(in: 8...40, using: &rng),
                                                height: Int.random(in: 8...30, using: &rng), seed: rng.next(), alpha: alpha))
    }

    func testThreeHundredRandomRecipesMatchTheReference() throws {
        var rng = SeededGenerator(seed: 2026)
        let context = Context()
        var checked = 0
        for index in 0..<300 {
            var image = try randomSource(&rng)
            var lastWasAffine = false
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                var choice = Int.random(in: 0..<14, using: &rng)
                // Two resamples in a row fold into one on purpose (sharper, as in Core Image), which
                // changes pixels; the fold has its own test.
                if choice == 9 && lastWasAffine { choice = 10 }
                (image, lastWasAffine) = try step(choice, image, &rng)
            }
            let extent = image.extent.isInfinite ? Rect(x: 0, y: 0, width: 24, height: 24) : image.extent
            let rect = extent.intersection(Rect(x: -20, y: -20, width: 90, height: 90))
            if PixelRect(rect).isEmpty { continue }
            let fast = bottomUpPixels(try context.render(image, rect: rect, format: .rgbaf))
            let reference = try ReferenceEvaluator().render(image, rect: PixelRect(rect).rect)
            let before = testRun?.failureCount ?? 0
            assertClose(fast, reference, tolerance: 6e-3)
            if (testRun?.failureCount ?? 0) > before {
                XCTFail("recipe \(index):\n\(try context.dump(image, rect: rect).text())")
                return
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 290)
    }

    /// One random recipe step on `input`; returns whether it was a resampling step.
    func step(_ choice: Int, _ input: Image, _ rng: inout SeededGenerator) throws -> (Image, Bool) {
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }
        switch choice {
        case 0: return (try input.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(r(0...1))]), false)
        case 1: return (try input.applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(r(-3...3))]), false)
        case 2: return (try input.applyingFilter("CIColorControls", parameters: [
            "inputSaturation": .number(r(0...2)), "inputBrightness": .number(r(-0.3...0.3)), "inputContrast": .number(r(0.5...1.5))]), false)
        case 3: return (try input.applyingFilter("CIExposureAdjust", parameters: ["inputEV": .number(r(-1...1))]), false)
        case 4: return (try input.applyingFilter("CIColorInvert"), false)
        case 5: return (try input.applyingFilter("CIGammaAdjust", parameters: ["inputPower": .number(r(0.5...2))]), false)
        case 6: return (try input.applyingFilter("CIColorClamp", parameters: [
            "inputMinComponents": .vector([0.1, 0, 0.2, 0]), "inputMaxComponents": .vector([0.9, 0.7, 1, 1])]), false)
        case 7:
            let other = try randomSource(&rng)
            return (input.composited(over: other.transformed(by: AffineTransform(translationX: r(-5...5), y: r(-5...5)))), false)
        case 8:
            let background = try randomSource(&rng)
            let mask = try randomSource(&rng)
            return (try input.applyingFilter("CIBlendWithMask", parameters: [
                "inputBackgroundImage": .image(background), "inputMaskImage": .image(mask)]), false)
        case 9:
            let t = AffineTransform(rotationAngle: r(-0.6...0.6)).concatenating(AffineTransform(scaleX: r(0.6...1.5), y: r(0.6...1.5)))
                .concatenating(AffineTransform(translationX: r(-4...4), y: r(-4...4)))
            return (input.transformed(by: t, filter: Bool.random(using: &rng) ? .linear : .nearest), true)
        case 10: return (try input.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(r(0.4...2.5))]), false)
        case 11:
            let e = input.extent.isInfinite ? Rect(x: 0, y: 0, width: 30, height: 30) : input.extent
            return (input.cropped(to: Rect(x: e.minX + r(0...6), y: e.minY + r(0...6), width: r(4...30), height: r(4...30))), false)
        case 12:
            guard !input.extent.isInfinite else { return (input, false) }
            let blurred = try input.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(r(0.5...2))])
            return (blurred.cropped(to: input.extent), false)
        default:
            guard let tint = Self.tintKernel, let swirl = Self.swirlKernel, let edge = Self.edgeKernel else {
                throw XCTSkip("kernels failed to compile")
            }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let other = try randomSource(&rng)
                return (try Image.applying(tint, arguments: [.image(input), .image(other), .number(r(0...1))]), false)
            case 1 where !input.extent.isInfinite:
                return (try Image.applying(swirl, arguments: [.image(input), .number(r(-1...1))]), true)
            default:
                guard !input.extent.isInfinite else { return (input, false) }
                return (try Image.applying(edge, arguments: [.image(input), .number(r(0...0.5))], extent: input.extent,
                                           regionOfInterest: .radius(2)), false)
            }
        }
    }
}
