import Foundation
import GraphEngine
import Kernels
import XCTest

/// The depth filters (variable blur by a mask, edge-preserving upsampling, the guided filter)
/// against float64 statements of their formulas written here, plus properties a user relies on.
final class GuidedFilterTests: XCTestCase {
    func testMaskedVariableBlurBlendsDecimatedGaussianLevels() throws {
        // Levels σ = 7, 3.5, 1.75, 0.875; each the full-size Gaussian sampled every d pixels
        // (d the largest power of two ≤ σ/2), read bilinearly.
        try assertMaskedVariableBlur(radius: 7, extent: Rect(x: -21, y: -21, width: 82, height: 70),
                                     sigmas: [0.875, 1.75, 3.5, 7.0], decimations: [1, 1, 1, 2])
    }

    /// With a large radius the coarse levels come from the finer decimated ones (a Gaussian
    /// pyramid): σ = 12 from σ = 6 (d = 2), σ = 24 from σ = 12 (d = 4).
    func testMaskedVariableBlurCascadesTheCoarseLevels() throws {
        try assertMaskedVariableBlur(radius: 24, extent: Rect(x: -72, y: -72, width: 184, height: 172),
                                     sigmas: [0.75, 1.5, 3, 6, 12, 24], decimations: [1, 1, 1, 2, 4, 8])
    }

    /// CIMaskedVariableBlur of a 40×28 image by a mask against its formula in float64: per pixel
    /// σ = radius·clamp(luma(mask)), blended linearly between the levels around σ (σ = 0 the image),
    /// each level read bilinearly at its decimation. Level j holds at its pixel (a, b) the full-size
    /// Gaussian of σ_j at input pixel (d_j·a, d_j·b), unless the finer level is decimated: then the
    /// Gaussian of σ' = √(σ_j² − σ_{j−1}²)/d_{j−1} of the finer level's pixels, around its pixel
    /// (s·a, s·b), s = d_j/d_{j−1}.
    func assertMaskedVariableBlur(radius: Double, extent: Rect, sigmas: [Double], decimations: [Int],
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let source = try TestImage(width: 40, height: 28, seed: 31, opaque: false)
        let mask = try TestImage(width: 40, height: 28, seed: 32)
        let image = try source.image.applyingFilter("CIMaskedVariableBlur", parameters: ["inputMask": .image(mask.image), "inputRadius": .number(radius)])
        XCTAssertEqual(image.extent, extent, file: file, line: line)
        let taps = sigmas.map(gaussianTaps)
        let cascadeTaps = sigmas.indices.map { j -> [Double]? in
            guard j > 0, decimations[j - 1] >= 2 else { return nil }
            return gaussianTaps((sigmas[j] * sigmas[j] - sigmas[j - 1] * sigmas[j - 1]).squareRoot() / Double(decimations[j - 1]))
        }
        var known: [SIMD3<Int>: SIMD4<Double>] = [:]
        // Level `j` (0-based among the blurred levels) at its own pixel (a, b).
        func levelPixel(_ j: Int, _ a: Int, _ b: Int) -> SIMD4<Double> {
            if let value = known[SIMD3(j, a, b)] { return value }
            let value: SIMD4<Double>
            if let taps = cascadeTaps[j] {
                let s = decimations[j] / decimations[j - 1]
                value = separable(taps, s * a, s * b) { levelPixel(j - 1, $0, $1) }
            } else {
                value = separable(taps[j], a * decimations[j], b * decimations[j], source.at)
            }
            known[SIMD3(j, a, b)] = value
            return value
        }
        func level(_ j: Int, _ x: Int, _ y: Int) -> SIMD4<Double> {
            if j == 0 { return source.at(x, y) }
            let d = decimations[j - 1]
            let gx = Double(x) / Double(d), gy = Double(y) / Double(d)
            let i = Int(gx.rounded(.down)), k = Int(gy.rounded(.down)), fx = gx - Double(i), fy = gy - Double(k)
            func g(_ a: Int, _ b: Int) -> SIMD4<Double> { levelPixel(j - 1, a, b) }
            return (1 - fy) * ((1 - fx) * g(i, k) + fx * g(i + 1, k)) + fy * ((1 - fx) * g(i, k + 1) + fx * g(i + 1, k + 1))
        }
        try assertMatches(image, Rect(x: -4, y: -4, width: 48, height: 36), tolerance: 2e-6, file: file, line: line) { x, y in
            let sigma = radius * min(max(luma(mask.at(x, y)), 0), 1)
            let knots = [0] + sigmas
            guard sigma < radius else { return level(sigmas.count, x, y) }
            var j = 0
            while knots[j + 1] <= sigma { j += 1 }
            let t = (sigma - knots[j]) / (knots[j + 1] - knots[j])
            return (1 - t) * level(j, x, y) + t * level(j + 1, x, y)
        }
        // Where the mask is 0 the image is untouched.
        let none = try source.image.applyingFilter("CIMaskedVariableBlur", parameters: [
            "inputMask": .image(Image(color: [0, 0, 0, 1]).cropped(to: source.image.extent)), "inputRadius": .number(radius)])
        try assertMatches(none, source.image.extent, tolerance: 1e-7, file: file, line: line) { x, y in source.at(x, y) }
    }

    /// sRGB encode of a linear value (the guide luma).
    func encode(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    func testEdgePreserveUpsampleIsTheBilateralGridOfItsFormula() throws {
        let small = try TestImage(width: 10, height: 8, seed: 34)
        try assertEdgePreserveUpsampleFormula(small: small.image, value: small.clamped)
    }

    /// A grey small image (a depth map in a one-channel Float32 buffer) takes the engine's
    /// one-channel path: the same formula, with R = G = B.
    func testEdgePreserveUpsampleOfAGreyMapIsTheSameFormula() throws {
        let small = try TestImage(width: 10, height: 8, seed: 34)
        var floats: [Float] = []
        for row in (0..<8).reversed() { for x in 0..<10 { floats.append(Float(small.at(x, row)[0])) } }
        let grey = Image(buffer: try ImageBuffer(width: 10, height: 8, format: .grayf, colorSpace: nil,
                                                 bytes: floats.withUnsafeBytes { Array($0) }))
        try assertEdgePreserveUpsampleFormula(small: grey) { x, y in
            let v = Double(Float(small.clamped(x, y)[0]))
            return SIMD4(v, v, v, 1)
        }
    }

    /// The upsample of `small` (10×8, `value` its clamped pixels) guided by a 30×24 image, against
    /// the float64 formula.
    func assertEdgePreserveUpsampleFormula(small: Image, value: (Int, Int) -> SIMD4<Double>,
                                           file: StaticString = #filePath, line: UInt = #line) throws {
        let guide = try TestImage(width: 30, height: 24, seed: 33)
        let (spatial, lumaSigma) = (1.2, 0.2)
        let image = try guide.image.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: [
            "inputSmallImage": .image(small), "inputSpatialSigma": .number(spatial), "inputLumaSigma": .number(lumaSigma)])
        XCTAssertEqual(image.extent, guide.image.extent)
        let scale = 3.0  // 30/10 and 24/8
        // Guide luma G, sRGB-encoded; g: G clamped, Gaussian σ = 0.4·scale (pixel-integrated),
        // at small-pixel centres (small pixel i ↔ guide position 3i + 1.5).
        func G(_ x: Int, _ y: Int) -> Double { encode(luma(guide.clamped(x, y))) }
        var lowLuma: [SIMD2<Int>: Double] = [:]
        func g(_ i: Int, _ j: Int) -> Double {
            if let known = lowLuma[SIMD2(i, j)] { return known }
            let sigma = 0.4 * scale, reach = (3 * sigma).rounded(.up) + 0.5, s = 1 / (2.0.squareRoot() * sigma)
            let u = 3 * Double(i) + 1.5, v = 3 * Double(j) + 1.5
            func taps(_ c: Double) -> [(Int, Double)] {
                let first = Int((c - reach - 0.5).rounded(.down)) + 1, last = Int((c + reach - 0.5).rounded(.up)) - 1
                let w = (first...last).map { (k: Int) -> (Int, Double) in
                    let upper: Double = erf((Double(k) + 1 - c) * s), lower: Double = erf((Double(k) - c) * s)
                    return (k, 0.5 * (upper - lower))
                }
                let sum = w.reduce(0) { $0 + $1.1 }
                return w.map { ($0.0, $0.1 / sum) }
            }
            var total = 0.0
            for (b, wy) in taps(v) { for (a, wx) in taps(u) { total += wx * wy * G(a, b) } }
            lowLuma[SIMD2(i, j)] = total
            return total
        }
        let levels = 6  // ⌈1/0.2⌉ + 1
        let spatialWeights = (-2...2).map { exp(-Double($0 * $0) / (2 * spatial * spatial)) }
        var cells: [SIMD3<Int>: (SIMD4<Double>, Double)] = [:]
        func cell(_ k: Int, _ i: Int, _ j: Int) -> (SIMD4<Double>, Double) {
            if let known = cells[SIMD3(k, i, j)] { return known }
            var n = SIMD4<Double>.zero, d = 0.0
            for b in -2...2 {
                for a in -2...2 {
                    let diff = Double(k) / Double(levels - 1) - g(i + a, j + b)
                    let w = spatialWeights[a + 2] * spatialWeights[b + 2] * exp(-diff * diff / (2 * lumaSigma * lumaSigma))
                    n += w * value(i + a, j + b)
                    d += w
                }
            }
            cells[SIMD3(k, i, j)] = (n, d)
            return (n, d)
        }
        try assertMatches(image, Rect(x: 2, y: 2, width: 26, height: 20), tolerance: 2e-5, file: file, line: line) { x, y in
            let gx = (Double(x) + 0.5) / scale - 0.5, gy = (Double(y) + 0.5) / scale - 0.5
            let i = Int(gx.rounded(.down)), j = Int(gy.rounded(.down)), fx = gx - Double(i), fy = gy - Double(j)
            let position = min(max(G(x, y), 0), 1) * Double(levels - 1)
            let k = min(Int(position), levels - 2), fk = position - Double(k)
            var n = SIMD4<Double>.zero, d = 0.0
            for (level, wk) in [(k, 1 - fk), (k + 1, fk)] {
                for (b, wy) in [(j, 1 - fy), (j + 1, fy)] {
                    for (a, wx) in [(i, 1 - fx), (i + 1, fx)] {
                        let (cn, cd) = cell(level, a, b)
                        n += wk * wy * wx * cn
                        d += wk * wy * wx * cd
                    }
                }
            }
            return n / d
        }
    }

    /// What the filter is for: a depth map known only at 1/8 resolution (each small pixel the mean
    /// of a step at x = 37) comes back with its step on the guide's edge, much closer to the true
    /// step than bilinear upsampling; a flat map stays flat.
    func testEdgePreserveUpsampleFollowsTheGuidesEdge() throws {
        func data(_ width: Int, _ height: Int, _ value: (Int) -> Float) throws -> Image {
            var floats: [Float] = []
            for _ in 0..<height { for x in 0..<width { let v = value(x); floats += [v, v, v, 1] } }
            return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                                 bytes: floats.withUnsafeBytes { Array($0) }))
        }
        let truth = { (x: Int) -> Double in x < 37 ? 0 : 1 }
        let guide = try data(64, 16) { $0 < 37 ? 0.05 : 0.8 }
        let small = try data(8, 2) { i in Float((0..<8).reduce(0) { $0 + truth(8 * i + $1) } / 8) }
        let image = try guide.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(small), "inputSpatialSigma": .number(1)])
        let row = try renderExactly(image, Rect(x: 0, y: 8, width: 64, height: 1))[0].map { $0[0] }
        let bilinear = try renderExactly(small.transformed(by: AffineTransform(scaleX: 8, y: 8)).clampedToExtent()
            .cropped(to: guide.extent), Rect(x: 0, y: 8, width: 64, height: 1))[0].map { $0[0] }
        let error = (0..<64).reduce(0) { $0 + abs(row[$1] - truth($1)) }
        let bilinearError = (0..<64).reduce(0) { $0 + abs(bilinear[$1] - truth($1)) }
        XCTAssertLessThan(error, 0.5 * bilinearError, "\(row)")
        XCTAssertLessThan(row[35], 0.3, "\(row)")
        XCTAssertGreaterThan(row[38], 0.9, "\(row)")
        let flat = try guide.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(try data(8, 2) { _ in 0.625 })])
        try assertMatches(flat, flat.extent, tolerance: 1e-6) { _, _ in SIMD4(0.625, 0.625, 0.625, 1) }
    }

    func testGuidedFilterMeansOverBoxes() throws {
        let guide = try TestImage(width: 26, height: 20, seed: 35)
        let input = try TestImage(width: 26, height: 20, seed: 36)
        let (r, epsilon) = (2, 0.01)
        let image = try input.image.applyingFilter("CIGuidedFilter", parameters: [
            "inputGuideImage": .image(guide.image), "inputRadius": .number(Double(r)), "inputEpsilon": .number(epsilon)])
        XCTAssertEqual(image.extent, guide.image.extent)
        // Scalars as four equal lanes, so one box mean serves all.
        func I(_ x: Int, _ y: Int) -> SIMD4<Double> { SIMD4(repeating: luma(guide.clamped(x, y))) }
        func mean(_ x: Int, _ y: Int, _ f: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double> {
            var sum = SIMD4<Double>.zero
            for dy in -r...r { for dx in -r...r { sum += f(x + dx, y + dy) } }
            return sum / Double((2 * r + 1) * (2 * r + 1))
        }
        var known: [SIMD2<Int>: (a: SIMD4<Double>, b: SIMD4<Double>)] = [:]
        func coefficients(_ x: Int, _ y: Int) -> (a: SIMD4<Double>, b: SIMD4<Double>) {
            if let done = known[SIMD2(x, y)] { return done }
            let mp = mean(x, y, input.clamped), mip = mean(x, y) { I($0, $1) * input.clamped($0, $1) }
            let mi = mean(x, y, I), mii = mean(x, y) { I($0, $1) * I($0, $1) }
            let a = (mip - mi * mp) / (mii - mi * mi + epsilon)
            known[SIMD2(x, y)] = (a, mp - a * mi)
            return (a, mp - a * mi)
        }
        try assertMatches(image, image.extent, tolerance: 5e-5) { x, y in
            // p and I repeat their edges; a and b are computed wherever the second boxes reach.
            let ma = mean(x, y) { coefficients($0, $1).a }, mb = mean(x, y) { coefficients($0, $1).b }
            return ma * I(x, y) + mb
        }
    }
}
