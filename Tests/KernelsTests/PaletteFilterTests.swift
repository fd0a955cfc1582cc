import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIKMeans, CIPalettize and CIPaletteCentroid against float64 k-means, nearest-colour and centroid
/// references written here (colours unpremultiplied, weighted by alpha; Lab from the CIE formulas).
final class PaletteFilterTests: XCTestCase {
    /// The float64 values as the engine holds them (rounded to Float32).
    func asFloat(_ v: SIMD4<Double>) -> SIMD4<Double> { SIMD4<Double>(SIMD4<Float>(v)) }

    /// The largest magnitude of a difference.
    func largest(_ d: SIMD4<Double>) -> Double { max(d.max(), -d.min()) }

    /// An image of `colors` as stored (R, G, B, A; not premultiplied by anything), `width` per row,
    /// rows from the bottom.
    func palette(_ colors: [SIMD4<Double>], width: Int) throws -> Image {
        let height = colors.count / width
        var floats: [Float] = []
        for row in (0..<height).reversed() {
            for x in 0..<width { for c in 0..<4 { floats.append(Float(colors[row * width + x][c])) } }
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .premultiplied, colorSpace: nil,
                                             bytes: floats.withUnsafeBytes { Array($0) }))
    }

    /// CIE Lab of linear sRGB, D65 (the textbook formulas).
    static func lab(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let m: [[Double]] = [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
        let white: [Double] = [0.95047, 1, 1.08883]
        let xyz: [Double] = (0..<3).map { (i: Int) -> Double in (m[i][0] * c.x + m[i][1] * c.y + m[i][2] * c.z) / white[i] }
        let e: Double = pow(6.0 / 29, 3), slope: Double = 3 * pow(6.0 / 29, 2)
        let f: [Double] = xyz.map { (t: Double) -> Double in t > e ? pow(t, 1.0 / 3) : t / slope + 4.0 / 29 }
        return SIMD3(116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))
    }

    /// The inverse of ``lab(_:)``, by Newton's method on the forward formula (no closed form used).
    static func rgb(fromLab target: SIMD3<Double>) -> SIMD3<Double> {
        var c = SIMD3<Double>(0.5, 0.5, 0.5)
        for _ in 0..<50 {
            let f0 = lab(c) - target
            var jacobian = [[Double]](repeating: [0, 0, 0], count: 3)
            for k in 0..<3 {
                var d = c
                d[k] += 1e-7
                let fk = (lab(d) - lab(c)) / 1e-7
                for i in 0..<3 { jacobian[i][k] = fk[i] }
            }
            // Solve J·δ = f0 by Cramer's rule.
            func det(_ a: [[Double]]) -> Double {
                a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                    + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
            }
            let d0 = det(jacobian)
            var delta = SIMD3<Double>.zero
            for k in 0..<3 {
                var a = jacobian
                for i in 0..<3 { a[i][k] = f0[i] }
                delta[k] = det(a) / d0
            }
            c -= delta
        }
        return c
    }

    /// The image's weighted colours in row order (Float32 values, as the engine reads them), in Lab when perceptual.
    func colors(_ source: TestImage, area: (x: Range<Int>, y: Range<Int>), perceptual: Bool) -> [(SIMD3<Double>, Double, Int, Int)] {
        var result: [(SIMD3<Double>, Double, Int, Int)] = []
        for y in area.y {
            for x in area.x {
                let v = asFloat(source.at(x, y))
                guard v[3] > 0 else { continue }
                let c = SIMD3(v[0], v[1], v[2]) / v[3]
                result.append((perceptual ? Self.lab(c) : c, v[3], x, y))
            }
        }
        return result
    }

    static func nearest(_ c: SIMD3<Double>, _ means: [SIMD3<Double>]) -> Int {
        var best = 0
        for j in means.indices where ((c - means[j]) * (c - means[j])).sum() < ((c - means[best]) * (c - means[best])).sum() { best = j }
        return best
    }

    /// Float64 Lloyd k-means with farthest-point completion of the seeds; (mean, share) per cluster.
    static func kMeans(_ points: [(SIMD3<Double>, Double, Int, Int)], seeds: [SIMD3<Double>], count: Int, passes: Int)
        -> [(SIMD3<Double>, Double)]
    {
        var means = seeds
        if means.isEmpty {
            let w = points.reduce(0) { $0 + $1.1 }
            means = [points.reduce(SIMD3<Double>.zero) { $0 + $1.0 * $1.1 } / w]
        }
        while means.count < count {
            var best = -1.0, chosen = SIMD3<Double>.zero
            for p in points {
                let d = means.map { ((p.0 - $0) * (p.0 - $0)).sum() }.min() ?? 0
                if d > best { best = d; chosen = p.0 }
            }
            means.append(chosen)
        }
        func assign() -> [(SIMD3<Double>, Double)] {
            var sums = [(SIMD3<Double>, Double)](repeating: (.zero, 0), count: count)
            for p in points {
                let j = nearest(p.0, means)
                sums[j].0 += p.0 * p.1
                sums[j].1 += p.1
            }
            return sums
        }
        for _ in 0..<passes {
            for (j, s) in assign().enumerated() where s.1 > 0 { means[j] = s.0 / s.1 }
        }
        let sums = assign(), total = sums.reduce(0) { $0 + $1.1 }
        return (0..<count).map { (means[$0], sums[$0].1 / total) }
    }

    func assertMeans(_ image: Image, _ want: [(SIMD3<Double>, Double)], perceptual: Bool, tolerance: Double,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: Double(want.count), height: 1), file: file, line: line)
        let row = try renderExactly(image, image.extent)[0]
        for (j, (mean, share)) in want.enumerated() {
            let color = perceptual ? Self.rgb(fromLab: mean) : mean
            let expected = SIMD4(color.x, color.y, color.z, share)
            XCTAssertLessThanOrEqual(largest(row[j] - expected), tolerance, "mean \(j): \(row[j]) vs \(expected)", file: file, line: line)
        }
    }

    let seeds: [SIMD4<Double>] = [[0.2, 0.6, 0.3, 1], [0.8, 0.5, 0.2, 1], [0.3, 0.3, 0.6, 1]]

    func testKMeansFromGivenSeedsIsLloydWeightedByAlpha() throws {
        let source = try TestImage(width: 24, height: 18, seed: 31, opaque: false)
        let image = try source.image.applyingFilter("CIKMeans", parameters: [
            "inputMeans": .image(try palette(seeds, width: 3)), "inputCount": .number(3), "inputPasses": .number(4)])
        let want = Self.kMeans(colors(source, area: (0..<24, 0..<18), perceptual: false),
                               seeds: seeds.map { SIMD3($0.x, $0.y, $0.z) }, count: 3, passes: 4)
        try assertMeans(image, want, perceptual: false, tolerance: 1e-5)
    }

    /// An independent implementation: SciPy 1.17's `kmeans2(data, seeds, iter=3, minit='matrix')` on
    /// these 24 opaque colours (rows from the bottom, 6 wide), shares from `vq` of its result.
    func testKMeansMatchesSciPyKMeans2() throws {
        let data: [[Double]] = [
            [0.1, 0.2, 0.3], [0.33, 0.24, 0.4], [0.56, 0.28, 0.5], [0.54, 0.32, 0.51], [0.77, 0.2, 0.61], [0.75, 0.24, 0.71],
            [0.25, 0.41, 0.43], [0.23, 0.45, 0.44], [0.46, 0.49, 0.54], [0.69, 0.37, 0.64], [0.67, 0.41, 0.65], [0.9, 0.45, 0.75],
            [0.15, 0.62, 0.47], [0.38, 0.66, 0.57], [0.36, 0.54, 0.58], [0.59, 0.58, 0.68], [0.82, 0.62, 0.78], [0.8, 0.66, 0.79],
            [0.3, 0.83, 0.51], [0.28, 0.71, 0.61], [0.51, 0.75, 0.71], [0.49, 0.79, 0.72], [0.72, 0.83, 0.82], [0.95, 0.71, 0.92],
        ]
        let image = try palette(data.map { SIMD4($0[0], $0[1], $0[2], 1) }, width: 6)
        let seedColors: [SIMD4<Double>] = [[0.2, 0.3, 0.4, 1], [0.7, 0.5, 0.3, 1], [0.5, 0.8, 0.6, 1]]
        let means = try image.applyingFilter("CIKMeans", parameters: [
            "inputMeans": .image(try palette(seedColors, width: 3)), "inputCount": .number(3), "inputPasses": .number(3)])
        let scipy: [(SIMD3<Double>, Double)] = [(SIMD3(0.212, 0.384, 0.408), 5.0 / 24), (SIMD3(0.6971428571, 0.3242857143, 0.6242857143), 7.0 / 24),
                                                (SIMD3(0.555, 0.6808333333, 0.6858333333), 12.0 / 24)]
        try assertMeans(means, scipy, perceptual: false, tolerance: 2e-6)
    }

    func testKMeansSeedsItselfByFarthestPoint() throws {
        let source = try TestImage(width: 21, height: 15, seed: 8, opaque: false)
        for passes in [0, 3] {
            let image = try source.image.applyingFilter("CIKMeans", parameters: ["inputCount": .number(5), "inputPasses": .number(Double(passes))])
            let want = Self.kMeans(colors(source, area: (0..<21, 0..<15), perceptual: false), seeds: [], count: 5, passes: passes)
            try assertMeans(image, want, perceptual: false, tolerance: 1e-5)
        }
    }

    func testKMeansPerceptualClustersInLab() throws {
        let source = try TestImage(width: 20, height: 16, seed: 17, opaque: false)
        // Four seeds given on a 2×2 image (row order from the bottom), a fifth by farthest point.
        let four = seeds + [[0.9, 0.9, 0.8, 1]]
        let image = try source.image.applyingFilter("CIKMeans", parameters: [
            "inputMeans": .image(try palette(four, width: 2)), "inputCount": .number(5), "inputPasses": .number(2),
            "inputPerceptual": .bool(true)])
        let want = Self.kMeans(colors(source, area: (0..<20, 0..<16), perceptual: true),
                               seeds: four.map { Self.lab(SIMD3($0.x, $0.y, $0.z)) }, count: 5, passes: 2)
        try assertMeans(image, want, perceptual: true, tolerance: 1e-4)
    }

    /// inputExtent partly outside the image: the transparent part does not count; inputCount 0
    /// takes inputMeans' pixels; bad values are errors naming the key.
    func testKMeansAreaCountAndErrors() throws {
        let source = try TestImage(width: 16, height: 12, seed: 4)
        let image = try source.image.applyingFilter("CIKMeans", parameters: [
            "inputExtent": .rect(Rect(x: 5, y: -3, width: 20, height: 9)), "inputMeans": .image(try palette(seeds, width: 3)),
            "inputCount": .number(0), "inputPasses": .number(3)])
        let want = Self.kMeans(colors(source, area: (5..<16, 0..<6), perceptual: false),
                               seeds: seeds.map { SIMD3($0.x, $0.y, $0.z) }, count: 3, passes: 3)
        try assertMeans(image, want, perceptual: false, tolerance: 1e-5)
        for (parameters, key) in [(["inputCount": FilterValue.number(2.5)], "inputCount"), (["inputCount": .number(0)], "inputCount"),
                                  (["inputPasses": .number(1.5)], "inputPasses")] {
            XCTAssertThrowsError(try source.image.applyingFilter("CIKMeans", parameters: parameters)) { error in
                XCTAssertTrue("\(error)".contains("CIKMeans") && "\(error)".contains(key), "\(error)")
            }
        }
        XCTAssertThrowsError(try source.image.clampedToExtent().applyingFilter("CIKMeans")) { error in
            XCTAssertTrue("\(error)".contains("inputExtent"), "\(error)")
        }
    }

    let colorsOfPalette: [SIMD4<Double>] = [[0.1, 0.2, 0.3, 0.4], [0.7, 0.6, 0.1, 0.1], [0.3, 0.7, 0.5, 0.2],
                                            [0.9, 0.2, 0.6, 0.1], [0.4, 0.4, 0.4, 0.1], [0.2, 0.5, 0.9, 0.1]]

    func testPalettizeTakesTheNearestPaletteColourAndKeepsAlpha() throws {
        let source = try TestImage(width: 19, height: 13, seed: 6, opaque: false)
        let stored = colorsOfPalette.map { SIMD3<Double>(SIMD3<Float>(SIMD3($0.x, $0.y, $0.z))) }
        for perceptual in [false, true] {
            let image = try source.image.applyingFilter("CIPalettize", parameters: [
                "inputPaletteImage": .image(try palette(colorsOfPalette, width: 3)), "inputPerceptual": .bool(perceptual)])
            XCTAssertEqual(image.extent, source.image.extent)
            let compared = stored.map { perceptual ? Self.lab($0) : $0 }
            try assertMatches(image, image.extent, tolerance: 1e-6) { x, y in
                let v = asFloat(source.at(x, y))
                let c = SIMD3(v[0], v[1], v[2]) / v[3]
                let p = stored[Self.nearest(perceptual ? Self.lab(c) : c, compared)]
                return SIMD4(p.x * v[3], p.y * v[3], p.z * v[3], v[3])
            }
        }
    }

    func testPaletteCentroidIsTheMeanPositionOfEachColoursPixels() throws {
        let source = try TestImage(width: 17, height: 11, seed: 13, opaque: false)
        let stored = colorsOfPalette.map { SIMD3<Double>(SIMD3<Float>(SIMD3($0.x, $0.y, $0.z))) }
        for perceptual in [false, true] {
            let image = try source.image.applyingFilter("CIPaletteCentroid", parameters: [
                "inputPaletteImage": .image(try palette(colorsOfPalette, width: 2)), "inputPerceptual": .bool(perceptual)])
            XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 6, height: 1))
            var sums = [SIMD3<Double>](repeating: .zero, count: 6)
            let compared = stored.map { perceptual ? Self.lab($0) : $0 }
            for (c, a, x, y) in colors(source, area: (0..<17, 0..<11), perceptual: perceptual) {
                sums[Self.nearest(c, compared)] += SIMD3((Double(x) + 0.5) * a, (Double(y) + 0.5) * a, a)
            }
            let total = sums.reduce(0) { $0 + $1.z }
            let row = try renderExactly(image, image.extent)[0]
            for j in 0..<6 {
                let s = sums[j]
                let want = s.z > 0 ? SIMD4(s.x / s.z, s.y / s.z, 0, s.z / total) : .zero
                XCTAssertLessThanOrEqual(largest(row[j] - want), 2e-5, "colour \(j), perceptual \(perceptual): \(row[j]) vs \(want)")
            }
            XCTAssertGreaterThan(sums.filter { $0.z > 0 }.count, 2)
        }
    }

    /// KMeans then Palettize: every output colour is one of the means; tiles and the reference evaluator agree.
    func testKMeansThenPalettize() throws {
        let source = try TestImage(width: 30, height: 22, seed: 2)
        let means = try source.image.applyingFilter("CIKMeans", parameters: ["inputCount": .number(4)])
        let painted = try source.image.applyingFilter("CIPalettize", parameters: ["inputPaletteImage": .image(means)])
        let palette = try renderExactly(means, means.extent)[0].map { SIMD3($0.x, $0.y, $0.z) }
        for row in try renderExactly(painted, painted.extent) {
            for v in row { XCTAssertTrue(palette.contains { largest(SIMD4($0 - SIMD3(v.x, v.y, v.z), 0)) < 1e-6 }, "\(v)") }
        }
        XCTAssertEqual(try renderExactly(painted, painted.extent, tileSize: 8), try renderExactly(painted, painted.extent, tileSize: 128))
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.workingColorSpace = nil
        let reference = try ReferenceEvaluator().render(painted, rect: painted.extent, options: options)
        for (i, v) in try renderExactly(painted, painted.extent).joined().enumerated() {
            let r = reference[i]
            XCTAssertLessThanOrEqual(largest(v - SIMD4<Double>(r)), 1e-6)
        }
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIKMeans", "CIPalettize", "CIPaletteCentroid"])
    }
}
