import XCTest
import GraphEngine
@testable import Kernels

/// Tone and white-balance filters against float64 references of their documented formulas.
final class ToneFilterTests: XCTestCase {
    func testVibranceWeightsTheSaturationChangeByDullness() throws {
        let (image, pixels) = try randomImage(width: 19, height: 7, seed: 21)
        for amount in [0.7, -0.6] {
            let output = try image.filtered("CIVibrance", ["inputAmount": .number(amount)])
            let expected = pixels.map { p -> [Double] in
                let c = unpremultiplied(p)
                let high = max(c[0], c[1], c[2]), low = min(c[0], c[1], c[2])
                let s: Double = high > 0 ? min(max((high - low) / high, 0), 1) : 0
                let l = luma(c)
                let gain: Double = 1 + amount * (1 - s)
                return premultiplied((0..<3).map { (i: Int) -> Double in l + (c[i] - l) * gain } + [c[3]])
            }
            assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6, "amount \(amount)")
        }
        XCTAssertEqual(try image.filtered("CIVibrance", ["inputAmount": .number(0.0005)]), image)
    }

    /// The natural cubic spline through the points, solved here by Gaussian elimination of the
    /// full system (not the filter's tridiagonal sweep), evaluated in gamma 2.
    func testToneCurveIsTheNaturalSplineInGammaTwo() throws {
        let (image, pixels) = try randomImage(width: 21, height: 6, seed: 22, range: -0.2...1.3)
        let points: [(Double, Double)] = [(0, 0.05), (0.2, 0.3), (0.5, 0.55), (0.8, 0.7), (1, 0.95)]
        let output = try image.filtered("CIToneCurve", Dictionary(uniqueKeysWithValues: points.enumerated().map {
            ("inputPoint\($0.offset)", FilterValue.vector([$0.element.0, $0.element.1]))
        }))
        let n = points.count
        let h = (0..<(n - 1)).map { points[$0 + 1].0 - points[$0].0 }
        // Unknowns M0…M4 with M0 = M4 = 0.
        var system = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        system[0][0] = 1
        system[n - 1][n - 1] = 1
        for i in 1..<(n - 1) {
            system[i][i - 1] = h[i - 1]
            system[i][i] = 2 * (h[i - 1] + h[i])
            system[i][i + 1] = h[i]
            system[i][n] = 6 * ((points[i + 1].1 - points[i].1) / h[i] - (points[i].1 - points[i - 1].1) / h[i - 1])
        }
        for column in 0..<n {
            let pivot = system[column][column]
            for row in 0..<n where row != column {
                let factor = system[row][column] / pivot
                for k in column...n { system[row][k] -= factor * system[column][k] }
            }
        }
        let m = (0..<n).map { system[$0][n] / system[$0][$0] }
        func spline(_ x: Double) -> Double {
            func segment(_ i: Int, _ x: Double) -> Double {
                let a = points[i + 1].0 - x, b = x - points[i].0
                return (m[i] * a * a * a + m[i + 1] * b * b * b) / (6 * h[i]) + (points[i].1 / h[i] - m[i] * h[i] / 6) * a
                    + (points[i + 1].1 / h[i] - m[i + 1] * h[i] / 6) * b
            }
            func slope(_ i: Int, _ x: Double) -> Double {
                let a = points[i + 1].0 - x, b = x - points[i].0
                return (-m[i] * a * a + m[i + 1] * b * b) / (2 * h[i]) - (points[i].1 / h[i] - m[i] * h[i] / 6)
                    + (points[i + 1].1 / h[i] - m[i + 1] * h[i] / 6)
            }
            if x < points[0].0 { return points[0].1 + slope(0, points[0].0) * (x - points[0].0) }
            if x > points[n - 1].0 { return points[n - 1].1 + slope(n - 2, points[n - 1].0) * (x - points[n - 1].0) }
            let i = (0..<(n - 1)).last { points[$0].0 <= x } ?? 0
            return segment(i, x)
        }
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            return premultiplied((0..<3).map { channel -> Double in
                let x = (c[channel] < 0 ? -1 : 1) * abs(c[channel]).squareRoot()
                let y = spline(x)
                return y * abs(y)
            } + [c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 1e-5)
        XCTAssertThrowsError(try image.filtered("CIToneCurve", ["inputPoint2": .vector([0.1, 0.5])])) { error in
            XCTAssertEqual("\(error)", "CIToneCurve.inputPoint2: the points' x must increase: 0.1 is not above 0.25")
        }
        XCTAssertEqual(try image.filtered("CIToneCurve"), image)
    }

    func testHighlightShadowGainInStops() throws {
        let (image, pixels) = try randomImage(width: 17, height: 9, seed: 23)
        let (shadow, highlight) = (0.6, 0.3)
        let output = try image.filtered("CIHighlightShadowAdjust", [
            "inputShadowAmount": .number(shadow), "inputHighlightAmount": .number(highlight)])
        let expected = pixels.map { p -> [Double] in
            let g = min(max(luma(unpremultiplied(p)), 0), 1)
            let gain = pow(2, shadow * (1 - g) * (1 - g) - (1 - highlight) * g * g)
            return [p[0] * gain, p[1] * gain, p[2] * gain, p[3]]
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
        XCTAssertEqual(try image.filtered("CIHighlightShadowAdjust"), image)
    }

    func testHighlightShadowWithRadiusFollowsTheBlurredLuma() throws {
        let (image, pixels) = try randomImage(width: 15, height: 12, seed: 24, opaque: true)
        let sigma = 1.5
        let output = try image.filtered("CIHighlightShadowAdjust", [
            "inputRadius": .number(sigma), "inputShadowAmount": .number(-0.5), "inputHighlightAmount": .number(0.5)])
        XCTAssertEqual(output.extent, image.extent)
        // The guide: a separable pixel-integrated Gaussian of the clamped image, weights to ⌈3σ⌉.
        let radius = Int((3 * sigma).rounded(.up))
        let scale: Double = 1 / (2.0.squareRoot() * sigma)
        var weights = (-radius...radius).map { (k: Int) -> Double in
            let upper: Double = erf((Double(k) + 0.5) * scale), lower: Double = erf((Double(k) - 0.5) * scale)
            return 0.5 * (upper - lower)
        }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        func at(_ x: Int, _ y: Int) -> [Double] { pixels[min(max(y, 0), 11) * 15 + min(max(x, 0), 14)] }
        let expected = mapPixels(pixels, width: 15) { p, x, y in
            var blurred = [0.0, 0, 0, 0]
            for (j, wy) in weights.enumerated() {
                for (i, wx) in weights.enumerated() {
                    let q = at(x + i - radius, y + j - radius)
                    for c in 0..<4 { blurred[c] += wx * wy * q[c] }
                }
            }
            let g = min(max(luma(unpremultiplied(blurred)), 0), 1)
            let gain = pow(2, -0.5 * (1 - g) * (1 - g) - 0.5 * g * g)
            return [p[0] * gain, p[1] * gain, p[2] * gain, p[3]]
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 1e-4)
    }

    /// Kim et al.'s Planckian fit, CIE 1960 uv, the DNG tint scale and Bradford, written again.
    func testTemperatureAndTintIsABradfordAdaptationBetweenTwoWhites() throws {
        let (image, pixels) = try randomImage(width: 9, height: 5, seed: 25)
        let (neutral, target) = ([5000.0, 10.0], [7500.0, -20.0])
        let output = try image.filtered("CITemperatureAndTint", ["inputNeutral": .vector(neutral), "inputTargetNeutral": .vector(target)])
        func planckXY(_ t: Double) -> (Double, Double) {
            let x = t <= 4000 ? -0.2661239e9 / pow(t, 3) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
                : -3.0258469e9 / pow(t, 3) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
            let y = t <= 2222 ? -1.1063814 * pow(x, 3) - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
                : t <= 4000 ? -0.9549476 * pow(x, 3) - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
                : 3.0817580 * pow(x, 3) - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
            return (x, y)
        }
        func uv(_ p: (Double, Double)) -> (Double, Double) {
            let d = -2 * p.0 + 12 * p.1 + 3
            return (4 * p.0 / d, 6 * p.1 / d)
        }
        func whiteXYZ(_ v: [Double]) -> [Double] {
            let (u, w) = uv(planckXY(v[0]))
            let a = uv(planckXY(v[0] * 0.99)), b = uv(planckXY(v[0] * 1.01))
            var normal = (a.1 - b.1, b.0 - a.0)
            let length = hypot(normal.0, normal.1)
            normal = (normal.0 / length, normal.1 / length)
            if normal.1 < 0 { normal = (-normal.0, -normal.1) }
            let (u2, v2) = (u - v[1] / 3000 * normal.0, w - v[1] / 3000 * normal.1)
            let d = 2 * u2 - 8 * v2 + 4
            let (x, y) = (3 * u2 / d, 2 * v2 / d)
            return [x / y, 1, (1 - x - y) / y]
        }
        let toXYZ = [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
        let fromXYZ = [[3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560], [0.0556434, -0.2040259, 1.0572252]]
        let cone = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let coneInverse = [[0.9869929, -0.1470543, 0.1599627], [0.4323053, 0.5183603, 0.0492912], [-0.0085287, 0.0400428, 0.9684867]]
        func apply(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { row in zip(row, v).map(*).reduce(0, +) } }
        let source = apply(cone, whiteXYZ(neutral)), destination = apply(cone, whiteXYZ(target))
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            let lms = apply(cone, apply(toXYZ, Array(c[0..<3])))
            let adapted = (0..<3).map { lms[$0] * destination[$0] / source[$0] }
            return premultiplied(apply(fromXYZ, apply(coneInverse, adapted)) + [c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 1e-5)
        XCTAssertEqual(try image.filtered("CITemperatureAndTint"), image)
        // Warmer: raising the neutral temperature raises red against blue.
        let warm = try renderPixels(try image.filtered("CITemperatureAndTint", ["inputNeutral": .vector([8000, 0])]), image.extent)
        guard let index = pixels.firstIndex(where: { $0[3] > 0.5 }) else { return XCTFail("no opaque pixel") }
        let before = unpremultiplied(pixels[index]), after = unpremultiplied(warm[index])
        XCTAssertGreaterThan(after[0] / after[2], before[0] / before[2])
    }

    func testWhitePointScalesColourByTheWhite() throws {
        let (image, pixels) = try randomImage(width: 11, height: 4, seed: 26)
        let white = [0.9, 0.8, 1.0]
        let linear = try image.filtered("CIWhitePointAdjust", ["inputColor": .color(white + [1], colorSpace: .linearSRGB)])
        assertPixels(try renderPixels(linear, image.extent), pixels.map { [$0[0] * 0.9, $0[1] * 0.8, $0[2], $0[3]] }, tolerance: 1e-6)
    }

    func testColorPolynomialIsACubicPerChannelAndAMatrixAtDegreeOne() throws {
        let (image, pixels) = try randomImage(width: 13, height: 6, seed: 27, range: -0.3...1.2)
        let k = [[0.1, 0.8, 0.3, -0.2], [0, 1.1, -0.4, 0.25], [0.05, 0.9, 0, 0.1], [0, 1, 0.2, -0.2]]
        let output = try image.filtered("CIColorPolynomial", [
            "inputRedCoefficients": .vector(k[0]), "inputGreenCoefficients": .vector(k[1]),
            "inputBlueCoefficients": .vector(k[2]), "inputAlphaCoefficients": .vector(k[3])])
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            return premultiplied((0..<4).map { (i: Int) -> Double in
                let x: Double = c[i]
                return ((k[i][3] * x + k[i][2]) * x + k[i][1]) * x + k[i][0]
            })
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
        let linear = try image.filtered("CIColorPolynomial", ["inputRedCoefficients": .vector([0.1, 0.5, 0, 0])])
        guard case .matrix = linear.node.kind else { return XCTFail("a degree-1 polynomial is a colour matrix") }
    }

    func testColorCrossPolynomialUsesAppleTermOrder() throws {
        let (image, pixels) = try randomImage(width: 10, height: 6, seed: 28)
        let k = [[0.9, 0.1, 0, 0.2, -0.1, 0, 0.3, 0, -0.2, 0.05],
                 [0, 1, 0.1, 0, 0, 0.1, 0, 0.2, 0, -0.02],
                 [0.1, 0, 0.8, -0.1, 0, 0.3, 0, 0, 0.1, 0]]
        let output = try image.filtered("CIColorCrossPolynomial", [
            "inputRedCoefficients": .vector(k[0]), "inputGreenCoefficients": .vector(k[1]), "inputBlueCoefficients": .vector(k[2])])
        let expected = pixels.map { p -> [Double] in
            let c = unpremultiplied(p)
            let (r, g, b) = (c[0], c[1], c[2])
            let terms = [r, g, b, r * r, g * g, b * b, r * g, g * b, b * r, 1]
            return premultiplied((0..<3).map { i in zip(k[i], terms).map(*).reduce(0, +) } + [c[3]])
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
        let linear = try image.filtered("CIColorCrossPolynomial", ["inputRedCoefficients": .vector([0.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 0.1])])
        guard case .matrix = linear.node.kind else { return XCTFail("a first-order cross polynomial is a colour matrix") }
    }

    func testSRGBToneCurvesAreTheSignPreservingTransfer() throws {
        let (image, pixels) = try randomImage(width: 16, height: 5, seed: 29, range: -0.5...1.5)
        let encoded = try image.filtered("CILinearToSRGBToneCurve")
        let decoded = try image.filtered("CISRGBToneCurveToLinear")
        func each(_ f: (Double) -> Double) -> Pixels {
            pixels.map { p in let c = unpremultiplied(p); return premultiplied([f(c[0]), f(c[1]), f(c[2]), c[3]]) }
        }
        assertPixels(try renderPixels(encoded, image.extent), each(srgbEncode), tolerance: 2e-4)
        assertPixels(try renderPixels(decoded, image.extent), each(srgbDecode), tolerance: 2e-4)
    }
}
