import Foundation
import GraphEngine
import Kernels
import XCTest

/// Blurs, morphology, small convolutions and sharpening against float64 statements of their
/// formulas written here (zero outside the input unless it is clamped), with their extents.
final class NeighbourhoodFilterTests: XCTestCase {
    func testBoxBlurIsTheMeanOverABoxWithPartialEndTaps() throws {
        let source = try TestImage(width: 23, height: 17, seed: 1, opaque: false)
        let image = try source.image.applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(2.5)])
        // Width 2r + 1 = 6: taps ±2 weigh 1, taps ±3 weigh 0.5; the extent grows by 3.
        XCTAssertEqual(image.extent, Rect(x: -3, y: -3, width: 29, height: 23))
        let w: [Double] = [0.5, 1, 1, 1, 1, 1, 0.5].map { $0 / 6 }
        try assertMatches(image, image.extent, tolerance: 2e-6) { x, y in separable(w, x, y, source.at) }
    }

    func testBoxBlurOfAClampedImageKeepsFlatAreasAndLargeRadii() throws {
        let source = try TestImage(width: 40, height: 9, seed: 2)
        let image = try source.image.clampedToExtent().applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(33)])
            .cropped(to: source.image.extent)
        let w = [Double](repeating: 1.0 / 67, count: 67)
        try assertMatches(image, image.extent, tolerance: 2e-5) { x, y in separable(w, x, y, source.clamped) }
    }

    func testDiscBlurIsTheMeanOverTheDisc() throws {
        let source = try TestImage(width: 19, height: 15, seed: 3, opaque: false)
        let r = 3.5
        let image = try source.image.applyingFilter("CIDiscBlur", parameters: ["inputRadius": .number(r)])
        XCTAssertEqual(image.extent, Rect(x: -3, y: -3, width: 25, height: 21))
        try assertMatches(image, image.extent, tolerance: 2e-6) { x, y in
            var sum = SIMD4<Double>.zero, count = 0.0
            for dy in -3...3 { for dx in -3...3 where Double(dx * dx + dy * dy) <= r * r { sum += source.at(x + dx, y + dy); count += 1 } }
            return sum / count
        }
    }

    /// The bokeh: a disc weighing 1 with its rim (outside radius r·(1 − size)) weighing 1 + 4·amount,
    /// normalised, then the pixel-integrated Gaussian of σ = softness; 0 outside the input.
    func testBokehBlurIsARingWeightedDiscThenSoftened() throws {
        let source = try TestImage(width: 21, height: 16, seed: 9, opaque: false)
        for (r, amount, size, softness) in [(6.5, 1.0, 0.2, 1.0), (4.0, 0.3, 0.1, 0.0), (5.0, 0.0, 0.1, 0.7), (0.5, 1.0, 0.2, 0.5)] {
            let image = try source.image.applyingFilter("CIBokehBlur", parameters: [
                "inputRadius": .number(r), "inputRingAmount": .number(amount), "inputRingSize": .number(size), "inputSoftness": .number(softness)])
            let reach = r >= 1 ? Int(r) : 0, q = r * (1 - size)
            let taps = softness > 0.01 ? gaussianTaps(softness) : [1]
            let grow = Double(reach + (taps.count - 1) / 2)
            XCTAssertEqual(image.extent, source.image.extent.outset(dx: grow, dy: grow), "r \(r)")
            func disc(_ x: Int, _ y: Int) -> SIMD4<Double> {
                guard r >= 1 else { return source.at(x, y) }
                var sum = SIMD4<Double>.zero, total = 0.0
                for dy in -reach...reach {
                    for dx in -reach...reach {
                        let d2 = Double(dx * dx + dy * dy)
                        guard d2 <= r * r else { continue }
                        let w = d2 > q * q ? 1 + 4 * amount : 1
                        sum += w * source.at(x + dx, y + dy)
                        total += w
                    }
                }
                return sum / total
            }
            try assertMatches(image, image.extent, tolerance: 3e-6) { x, y in separable(taps, x, y, disc) }
        }
        try assertAttributes(["CIBokehBlur"])
    }

    /// Max/min per channel over the disc dx² + dy² ≤ r² (outside the image: transparent 0).
    func disc(_ source: TestImage, _ r: Double, _ x: Int, _ y: Int, maximum: Bool) -> SIMD4<Double> {
        var result = source.at(x, y)
        let reach = Int(r)
        for dy in -reach...reach {
            for dx in -reach...reach where Double(dx * dx + dy * dy) <= r * r {
                let v = source.at(x + dx, y + dy)
                for c in 0..<4 { result[c] = maximum ? max(result[c], v[c]) : min(result[c], v[c]) }
            }
        }
        return result
    }

    func testMorphologyMaximumAndMinimumOverADisc() throws {
        let source = try TestImage(width: 21, height: 16, seed: 4, opaque: false)
        for (name, maximum) in [("CIMorphologyMaximum", true), ("CIMorphologyMinimum", false)] {
            let image = try source.image.applyingFilter(name, parameters: ["inputRadius": .number(2.7)])
            XCTAssertEqual(image.extent, Rect(x: -2, y: -2, width: 25, height: 20), name)
            try assertMatches(image, image.extent, tolerance: 1e-7) { x, y in disc(source, 2.7, x, y, maximum: maximum) }
        }
        XCTAssertEqual(try source.image.applyingFilter("CIMorphologyMaximum"), source.image, "radius 0 is the identity")
    }

    func testRectangleMorphologyRoundsToOddSizes() throws {
        let source = try TestImage(width: 30, height: 22, seed: 5)
        // Width 4 rounds to 5 (±2), height 7 stays 7 (±3).
        for (name, maximum) in [("CIMorphologyRectangleMaximum", true), ("CIMorphologyRectangleMinimum", false)] {
            let image = try source.image.clampedToExtent()
                .applyingFilter(name, parameters: ["inputWidth": .number(4), "inputHeight": .number(7)]).cropped(to: source.image.extent)
            try assertMatches(image, image.extent, tolerance: 1e-7) { x, y in
                var result = source.clamped(x, y)
                for dy in -3...3 { for dx in -2...2 {
                    let v = source.clamped(x + dx, y + dy)
                    for c in 0..<4 { result[c] = maximum ? max(result[c], v[c]) : min(result[c], v[c]) }
                } }
                return result
            }
        }
        let grown = try source.image.applyingFilter("CIMorphologyRectangleMinimum", parameters: ["inputWidth": .number(9), "inputHeight": .number(1)])
        XCTAssertEqual(grown.extent, Rect(x: -4, y: 0, width: 38, height: 22))
    }

    func testMorphologyGradientIsMaximumMinusMinimumWithTheMaximumsAlpha() throws {
        let source = try TestImage(width: 17, height: 13, seed: 6)
        let image = try source.image.applyingFilter("CIMorphologyGradient", parameters: ["inputRadius": .number(2)])
        try assertMatches(image, image.extent, tolerance: 1e-6) { x, y in
            let high = disc(source, 2, x, y, maximum: true), low = disc(source, 2, x, y, maximum: false)
            return SIMD4(high[0] - low[0], high[1] - low[1], high[2] - low[2], high[3])
        }
    }

    func testConvolutionWeightsRunFromTheTopRow() throws {
        let source = try TestImage(width: 14, height: 11, seed: 7, opaque: false)
        let weights: [Double] = [0.1, -0.2, 0.3, 0.05, 0.6, -0.1, 0.2, 0.15, -0.05]
        let image = try source.image.applyingFilter("CIConvolution3X3", parameters: ["inputWeights": .vector(weights), "inputBias": .number(0.02)])
        XCTAssertEqual(image.extent, Rect(x: -1, y: -1, width: 16, height: 13))
        func expected(_ x: Int, _ y: Int) -> SIMD4<Double> {
            var sum = SIMD4<Double>(repeating: 0.02)
            // Row i of the weights is i rows below the top: working-space y + 1 − i.
            for i in 0..<3 { for j in 0..<3 { sum += weights[i * 3 + j] * source.at(x + j - 1, y + 1 - i) } }
            return sum
        }
        try assertMatches(image, image.extent, tolerance: 2e-6, expected)
        let rgb = try source.image.applyingFilter("CIConvolutionRGB3X3", parameters: ["inputWeights": .vector(weights), "inputBias": .number(0.02)])
        try assertMatches(rgb, source.image.extent, tolerance: 2e-6) { x, y in
            var value = expected(x, y)
            value[3] = source.at(x, y)[3]
            return value
        }
    }

    /// A sharpen of an opaque 8-bit photo (weights summing to 1) rendered to 8 bits writes its codes
    /// into the destination's rows itself: each the nearest code of its Float32 value (the same
    /// sums as a Float32 render, no half-float planes between), within half a code of the float64
    /// formula, for RGB8, RGBA8 and BGRA8 and any tile size.
    func testAnOpaqueSharpenWritesTheNearestCodes() throws {
        let (width, height) = (37, 29)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let photo = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgb8, alphaMode: .opaque, colorSpace: .sRGB, bytes: bytes))
        let weights: [Double] = [-0.125, -0.125, -0.125, -0.125, 2, -0.125, -0.125, -0.125, -0.125]
        let sharpened = try photo.clampedToExtent().applyingFilter("CIConvolution3X3", parameters: ["inputWeights": .vector(weights)])
            .cropped(to: photo.extent)
        let plan = try Context(options: unmanagedOptions(.rgbah)).dump(sharpened).planPasses.flatMap(\.changes).joined(separator: "\n")
        XCTAssertTrue(plan.contains("writes its codes into the RGBA8 rows"), plan)
        let exact = try Context(options: unmanagedOptions(.rgbaf)).render(sharpened, format: .rgbaf)
        func value(_ x: Int, _ y: Int, _ c: Int) -> Double {  // working-space (x, y), edges repeated
            let column = min(max(x, 0), width - 1), row = height - 1 - min(max(y, 0), height - 1)
            return Double(bytes[(row * width + column) * 3 + c]) / 255
        }
        for format in [PixelFormat.rgb8, .rgba8, .bgra8] {
            for tile in [8, 64] {
                let out = try Context(options: unmanagedOptions(.rgbah, tileSize: tile)).render(sharpened, format: format)
                let (red, blue) = format.redAndBlueIndices
                for row in 0..<height {
                    for x in 0..<width {
                        let y = height - 1 - row
                        for (c, index) in [(0, red), (1, 1), (2, blue)] {
                            let code = out.bytes[(row * width + x) * format.channels + index]
                            let float = exact.pixel(x: x, row: row)[c]
                            XCTAssertEqual(code, UInt8((min(max(float, 0), 1) * 255).rounded(.toNearestOrEven)), "\(format) (\(x), \(row)) \(c)")
                            var v = 0.0
                            for i in 0..<3 { for j in 0..<3 { v += weights[i * 3 + j] * value(x + j - 1, y + 1 - i, c) } }
                            XCTAssertLessThanOrEqual(abs(Double(code) - min(max(v, 0), 1) * 255), 0.5 + 1e-3)
                        }
                        if format.channels == 4 { XCTAssertEqual(out.bytes[(row * width + x) * 4 + 3], 255) }
                    }
                }
            }
        }
    }

    func testOneDimensionalConvolutions() throws {
        let source = try TestImage(width: 20, height: 12, seed: 8)
        let weights: [Double] = [0.05, 0.1, -0.1, 0.2, 0.4, 0.2, 0.1, 0.03, 0.02]
        let horizontal = try source.image.applyingFilter("CIConvolution9Horizontal", parameters: ["inputWeights": .vector(weights)])
        XCTAssertEqual(horizontal.extent, Rect(x: -4, y: 0, width: 28, height: 12))
        try assertMatches(horizontal, horizontal.extent, tolerance: 2e-6) { x, y in
            (0..<9).reduce(SIMD4<Double>.zero) { $0 + weights[$1] * source.at(x + $1 - 4, y) }
        }
        let vertical = try source.image.applyingFilter("CIConvolution9Vertical", parameters: ["inputWeights": .vector(weights)])
        XCTAssertEqual(vertical.extent, Rect(x: 0, y: -4, width: 20, height: 20))
        try assertMatches(vertical, vertical.extent, tolerance: 2e-6) { x, y in
            (0..<9).reduce(SIMD4<Double>.zero) { $0 + weights[$1] * source.at(x, y + 4 - $1) }
        }
    }

    /// The Gaussian (σ) of the image clamped to its extent.
    func clampedGaussian(_ source: TestImage, _ sigma: Double) -> (Int, Int) -> SIMD4<Double> {
        let taps = gaussianTaps(sigma)
        return { x, y in separable(taps, x, y, source.clamped) }
    }

    func testUnsharpMaskAndSharpenLuminance() throws {
        let source = try TestImage(width: 24, height: 18, seed: 9)
        let blur = clampedGaussian(source, 1.5)
        let unsharp = try source.image.applyingFilter("CIUnsharpMask", parameters: ["inputRadius": .number(1.5), "inputIntensity": .number(0.7)])
        XCTAssertEqual(unsharp.extent, source.image.extent)
        try assertMatches(unsharp, unsharp.extent, tolerance: 2e-6) { x, y in
            let s = source.at(x, y), b = blur(x, y)
            var out = s + 0.7 * (s - b)
            out[3] = s[3]
            return out
        }
        let sharpened = try source.image.applyingFilter("CISharpenLuminance", parameters: ["inputRadius": .number(1.5), "inputSharpness": .number(0.8)])
        try assertMatches(sharpened, sharpened.extent, tolerance: 2e-6) { x, y in
            let s = source.at(x, y), delta = 0.8 * (luma(s) - luma(blur(x, y)))
            return SIMD4(s[0] + delta, s[1] + delta, s[2] + delta, s[3])
        }
    }

    func testNoiseReductionSmoothsSmallDetailAndSharpensLargeDetail() throws {
        let source = try TestImage(width: 24, height: 18, seed: 10)
        let blur = clampedGaussian(source, 1)
        let (level, sharpness) = (0.05, 0.5)
        let image = try source.image.applyingFilter("CINoiseReduction", parameters: ["inputNoiseLevel": .number(level), "inputSharpness": .number(sharpness)])
        try assertMatches(image, image.extent, tolerance: 3e-6) { x, y in
            let s = source.at(x, y), b = blur(x, y), d = s - b
            let t0 = min(max((abs(luma(d)) - level) / level, 0), 1), t = t0 * t0 * (3 - 2 * t0)
            var out = b + (1 + sharpness) * t * d
            out[3] = s[3]
            return out
        }
    }

    func testBloomScreensAndGloomMultipliesTheBlur() throws {
        let source = try TestImage(width: 20, height: 16, seed: 11)
        let blur = clampedGaussian(source, 2)
        let bloom = try source.image.applyingFilter("CIBloom", parameters: ["inputRadius": .number(2), "inputIntensity": .number(0.6)])
        try assertMatches(bloom, bloom.extent, tolerance: 2e-6) { x, y in
            let s = source.at(x, y), b = blur(x, y)
            return s + 0.6 * ((s + b - s * b) - s)
        }
        let gloom = try source.image.applyingFilter("CIGloom", parameters: ["inputRadius": .number(2), "inputIntensity": .number(0.6)])
        try assertMatches(gloom, gloom.extent, tolerance: 2e-6) { x, y in
            let s = source.at(x, y), b = blur(x, y)
            var out = s + 0.6 * (s * b - s)
            out[3] = s[3]
            return out
        }
    }

    func testMotionBlurIsAOneDimensionalGaussianAlongTheAngle() throws {
        let source = try TestImage(width: 26, height: 20, seed: 12, opaque: false)
        let taps = gaussianTaps(2), r = (taps.count - 1) / 2
        let along = try source.image.applyingFilter("CIMotionBlur", parameters: ["inputRadius": .number(2)])
        XCTAssertEqual(along.extent, Rect(x: -6, y: 0, width: 38, height: 20))
        try assertMatches(along, along.extent, tolerance: 2e-6) { x, y in
            taps.enumerated().reduce(SIMD4<Double>.zero) { $0 + $1.element * source.at(x + $1.offset - r, y) }
        }
        let upward = try source.image.applyingFilter("CIMotionBlur", parameters: ["inputRadius": .number(2), "inputAngle": .number(Double.pi / 2)])
        try assertMatches(upward, upward.extent, tolerance: 2e-6) { x, y in
            taps.enumerated().reduce(SIMD4<Double>.zero) { $0 + $1.element * source.at(x, y + $1.offset - r) }
        }
        // Other angles: the image is rotated by −θ (bilinear), blurred along rows and rotated back.
        let angle = 0.6
        let slanted = try source.image.clampedToExtent()
            .applyingFilter("CIMotionBlur", parameters: ["inputRadius": .number(2), "inputAngle": .number(angle)])
            .cropped(to: source.image.extent)
        func bilinear(_ px: Double, _ py: Double, _ read: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double> {
            let fx = px - 0.5, fy = py - 0.5, x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
            let tx = fx - Double(x0), ty = fy - Double(y0)
            return (1 - ty) * ((1 - tx) * read(x0, y0) + tx * read(x0 + 1, y0)) + ty * ((1 - tx) * read(x0, y0 + 1) + tx * read(x0 + 1, y0 + 1))
        }
        guard let toSource = AffineTransform(rotationAngle: -angle).inverted, let toRows = AffineTransform(rotationAngle: angle).inverted else {
            return XCTFail("rotations are invertible")
        }
        func rotated(_ i: Int, _ j: Int) -> SIMD4<Double> {
            let p = toSource.apply(x: Double(i) + 0.5, y: Double(j) + 0.5)
            return bilinear(p.x, p.y, source.clamped)
        }
        func streaked(_ i: Int, _ j: Int) -> SIMD4<Double> {
            taps.enumerated().reduce(SIMD4<Double>.zero) { $0 + $1.element * rotated(i + $1.offset - r, j) }
        }
        try assertMatches(slanted, slanted.extent, tolerance: 3e-6) { x, y in
            let p = toRows.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
            return bilinear(p.x, p.y, streaked)
        }
    }

    func testZoomBlurIsItsCascadeOfHalvings() throws {
        let source = try TestImage(width: 16, height: 12, seed: 13)
        let centre = (7.0, 5.0), amount = 25.0
        let image = try source.image.applyingFilter("CIZoomBlur", parameters: ["inputCenter": .vector([centre.0, centre.1]), "inputAmount": .number(amount)])
        // N samples: the smallest power of two with samples ≤ 1 px apart at the farthest corner.
        let smallest = 1 / (1 + amount / 100)
        let far = [(0.0, 0.0), (16.0, 0.0), (0.0, 12.0), (16.0, 12.0)].map { hypot($0.0 - centre.0, $0.1 - centre.1) }.max() ?? 0
        var samples = 2
        while Double(samples - 1) < far * (1 - smallest) { samples *= 2 }
        let ratio = pow(smallest, 1 / Double(samples - 1))
        // Level images on a window of pixels, zero outside each level's extent.
        typealias Level = (extent: (Double, Double, Double, Double), value: [[SIMD4<Double>]])
        let margin = 10, w = 16 + 2 * margin, h = 12 + 2 * margin
        func read(_ level: Level, _ x: Int, _ y: Int) -> SIMD4<Double> {
            let cx = Double(x) + 0.5, cy = Double(y) + 0.5, e = level.extent
            guard cx >= e.0, cx < e.2, cy >= e.1, cy < e.3, x + margin >= 0, y + margin >= 0, x + margin < w, y + margin < h else { return .zero }
            return level.value[y + margin][x + margin]
        }
        var level: Level = ((0, 0, 16, 12), (0..<h).map { y in (0..<w).map { x in source.at(x - margin, y - margin) } })
        var step = ratio, count = samples
        while count > 1 {
            // The level zoomed by 1/step about the centre (its extent scaled too), averaged with itself.
            let e = level.extent
            let zoomed = (centre.0 + (e.0 - centre.0) / step, centre.1 + (e.1 - centre.1) / step,
                          centre.0 + (e.2 - centre.0) / step, centre.1 + (e.3 - centre.1) / step)
            let union = (min(e.0, zoomed.0), min(e.1, zoomed.1), max(e.2, zoomed.2), max(e.3, zoomed.3))
            let previous = level
            let values = (0..<h).map { y in (0..<w).map { x -> SIMD4<Double> in
                let px = Double(x - margin) + 0.5, py = Double(y - margin) + 0.5
                var z = SIMD4<Double>.zero
                if px >= zoomed.0, px < zoomed.2, py >= zoomed.1, py < zoomed.3 {
                    let sx = centre.0 + (px - centre.0) * step - 0.5, sy = centre.1 + (py - centre.1) * step - 0.5
                    let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down)), tx = sx - Double(x0), ty = sy - Double(y0)
                    z = (1 - ty) * ((1 - tx) * read(previous, x0, y0) + tx * read(previous, x0 + 1, y0))
                        + ty * ((1 - tx) * read(previous, x0, y0 + 1) + tx * read(previous, x0 + 1, y0 + 1))
                }
                return (read(previous, x - margin, y - margin) + z) / 2
            } }
            level = (union, values)
            step *= step
            count /= 2
        }
        let final = level
        try assertMatches(image, source.image.extent, tolerance: 2e-5) { x, y in read(final, x, y) }
    }

    func testFilterDescriptorsUseCoreImageKeysAndDefaults() throws {
        let registry = FilterRegistry.standard
        let defaults: [(String, String, Double)] = [
            ("CIBoxBlur", "inputRadius", 10), ("CIDiscBlur", "inputRadius", 8), ("CIMotionBlur", "inputRadius", 20),
            ("CIZoomBlur", "inputAmount", 20), ("CIMaskedVariableBlur", "inputRadius", 5), ("CIMorphologyMaximum", "inputRadius", 0),
            ("CIMorphologyRectangleMinimum", "inputWidth", 5), ("CIMorphologyGradient", "inputRadius", 5),
            ("CIUnsharpMask", "inputRadius", 2.5), ("CIUnsharpMask", "inputIntensity", 0.5), ("CISharpenLuminance", "inputSharpness", 0.4),
            ("CISharpenLuminance", "inputRadius", 1.69), ("CINoiseReduction", "inputNoiseLevel", 0.02), ("CIBloom", "inputRadius", 10),
            ("CIGloom", "inputIntensity", 0.5), ("CIConvolution5X5", "inputBias", 0), ("CILanczosScaleTransform", "inputScale", 1),
            ("CIBicubicScaleTransform", "inputC", 0.75), ("CIEdgePreserveUpsampleFilter", "inputSpatialSigma", 3),
            ("CIEdgePreserveUpsampleFilter", "inputLumaSigma", 0.15), ("CIGuidedFilter", "inputEpsilon", 0.0001),
        ]
        for (name, key, value) in defaults {
            guard case .number(let n)? = try registry.descriptor(named: name).input(key)?.defaultValue else {
                return XCTFail("\(name).\(key) has no number default")
            }
            XCTAssertEqual(n, value, "\(name).\(key)")
        }
        XCTAssertThrowsError(try Image(color: [1, 0, 0, 1]).applyingFilter("CIConvolution3X3", parameters: ["inputWeights": .vector([1, 2])])) {
            XCTAssertEqual("\($0)", "CIConvolution3X3.inputWeights: expected a vector of 9 numbers, got 2")
        }
    }
}
