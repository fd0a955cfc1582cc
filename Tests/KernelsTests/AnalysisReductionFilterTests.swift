import XCTest
import GraphEngine
@testable import Kernels

/// The alpha, red and histogram reductions of issue 25 against float64 formulas written here.
final class AnalysisReductionFilterTests: XCTestCase {
    let width = 19, height = 13

    func source() throws -> (Image, Pixels) { try randomImage(width: width, height: height, seed: 73, range: -0.2...1.2) }

    func render(_ image: Image) throws -> Pixels { try renderPixels(image, image.extent) }

    /// The pixels of `area` (within the image) in row order, bottom row first.
    func inside(_ pixels: Pixels, _ area: Rect) -> Pixels {
        (Int(area.y)..<Int(area.maxY)).flatMap { y in (Int(area.x)..<Int(area.maxX)).map { pixels[y * width + $0] } }
    }

    func testAlphaExtremesAreTheFirstPixelOfLeastAndGreatestAlpha() throws {
        let (image, pixels) = try source()
        let area = Rect(x: 2, y: 3, width: 11, height: 7)
        let values = inside(pixels, area)
        guard let least = values.min(by: { $0[3] < $1[3] }), let greatest = values.max(by: { $0[3] < $1[3] }) else {
            return XCTFail("no pixels")
        }
        let minimum = try image.filtered("CIAreaMinimumAlpha", ["inputExtent": .rect(area)])
        XCTAssertEqual(minimum.extent, Rect(x: 0, y: 0, width: 1, height: 1))
        assertPixels(try render(minimum), [least], tolerance: 0)
        assertPixels(try render(try image.filtered("CIAreaMaximumAlpha", ["inputExtent": .rect(area)])), [greatest], tolerance: 0)
        // The default [0, 0, 0, 0] is the whole image.
        guard let wholeLeast = pixels.min(by: { $0[3] < $1[3] }) else { return XCTFail("no pixels") }
        assertPixels(try render(try image.filtered("CIAreaMinimumAlpha")), [wholeLeast], tolerance: 0)
        // Half outside the image: a transparent pixel is the least.
        assertPixels(try render(try image.filtered("CIAreaMinimumAlpha", ["inputExtent": .rect(Rect(x: -4, y: 0, width: 8, height: 3))])),
                     [[0, 0, 0, 0]], tolerance: 0)
    }

    func testAverageMaximumRedAndBoundsRed() throws {
        let (image, pixels) = try source()
        let area = Rect(x: 1, y: 2, width: 15, height: 9)
        let reds = inside(pixels, area).map { $0[0] }
        let average = try image.filtered("CIAreaAverageMaximumRed", ["inputExtent": .rect(area)])
        XCTAssertEqual(average.extent, Rect(x: 0, y: 0, width: 1, height: 1))
        assertPixels(try render(average), [[reds.reduce(0, +) / Double(reds.count), reds.max() ?? 0, 0, 1]], tolerance: 1e-6)

        // Red > 0 at three pixels (and negative elsewhere in a corner, which does not count).
        var floats = [Float](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) { floats[i * 4 + 3] = 1 }
        for (x, y) in [(4, 3), (9, 5), (6, 8)] { floats[((height - 1 - y) * width + x) * 4] = 0.5 }
        floats[((height - 1 - 10) * width + 14) * 4] = -0.5
        let mask = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .premultiplied,
                                                 colorSpace: nil, bytes: floats.withUnsafeBytes { Array($0) }))
        let bounds = try mask.filtered("CIAreaBoundsRed", ["inputExtent": .rect(area)])
        XCTAssertEqual(bounds.extent, Rect(x: 0, y: 0, width: 1, height: 1))
        // Area columns 3…8 (x 4…9), rows 1…6 (y 3…8).
        assertPixels(try render(bounds), [[3.0 / 15, 1.0 / 9, 6.0 / 15, 6.0 / 9]], tolerance: 1e-7)
        let empty = try mask.filtered("CIAreaBoundsRed", ["inputExtent": .rect(Rect(x: 0, y: 0, width: 3, height: 3))])
        assertPixels(try render(empty), [[0, 0, 0, 0]], tolerance: 0)
    }

    func testAlphaWeightedHistogram() throws {
        let (image, pixels) = try source()
        let bins = 12, scale = 0.5
        let histogram = try image.filtered("CIAreaAlphaWeightedHistogram", ["inputCount": .number(Double(bins)), "inputScale": .number(scale)])
        XCTAssertEqual(histogram.extent, Rect(x: 0, y: 0, width: Double(bins), height: 1))
        var counts = [[Double]](repeating: [Double](repeating: 0, count: bins), count: 3)
        for p in pixels where p[3] > 0 {
            for c in 0..<3 { counts[c][min(max(Int((p[c] / p[3] * Double(bins)).rounded(.down)), 0), bins - 1)] += p[3] }
        }
        let expected = (0..<bins).map { bin in (0..<3).map { counts[$0][bin] / Double(pixels.count) * scale } + [1] }
        assertPixels(try render(histogram), expected, tolerance: 1e-6)
        XCTAssertThrowsError(try image.filtered("CIAreaAlphaWeightedHistogram", ["inputCount": .number(2.5)]))
    }

    func testLogarithmicHistogram() throws {
        let (image, pixels) = try source()
        let bins = 16, low = -6.0, high = 1.0
        let histogram = try image.filtered("CIAreaLogarithmicHistogram", ["inputCount": .number(Double(bins)),
                                                                          "inputMinimumStop": .number(low), "inputMaximumStop": .number(high)])
        XCTAssertEqual(histogram.extent, Rect(x: 0, y: 0, width: Double(bins), height: 1))
        var counts = [[Double]](repeating: [Double](repeating: 0, count: bins), count: 4)
        for p in pixels {
            for c in 0..<4 {
                let scaled = c == 3 ? p[c] * Double(bins) : (p[c] > 0 ? (log2(p[c]) - low) / (high - low) * Double(bins) : -1)
                counts[c][scaled < 1 ? 0 : min(Int(scaled), bins - 1)] += 1
            }
        }
        let expected = (0..<bins).map { bin in (0..<4).map { counts[$0][bin] / Double(pixels.count) } }
        assertPixels(try render(histogram), expected, tolerance: 1e-6)
        XCTAssertThrowsError(try image.filtered("CIAreaLogarithmicHistogram", ["inputMinimumStop": .number(2), "inputMaximumStop": .number(1)]))
    }

    /// The bin table of the logarithmic histogram gives the formula's bin for values all over the
    /// Float range and beside every bin edge (where the table defers to the formula).
    func testLogarithmicBinsTableIsTheFormula() {
        var rng = TestRandom(seed: 11)
        for (count, low, high) in [(64, -10.0, 4.0), (16, -6.0, 1.0), (2048, -12.0, 8.0), (1, -1.0, 0.0), (7, 0.3, 0.9)] {
            let bins = LogarithmicBins(count: count, minimumStop: low, maximumStop: high)
            var values: [Float] = [0, -0.0, -1, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1]
            for _ in 0..<20_000 { values.append(Float(bitPattern: UInt32(rng.unit() * Double(0x7F80_0000)))) }
            for edge in 0...count {
                let centre = Float(exp2(low + Double(edge) * (high - low) / Double(count)))
                for step in -6...6 { values.append(Float(bitPattern: UInt32(Int(centre.bitPattern) + step))) }
            }
            var mismatches = 0
            for v in values where bins.bin(v) != bins.computed(v) { mismatches += 1 }
            XCTAssertEqual(mismatches, 0, "\(count) bins over \(low)…\(high)")
            XCTAssertEqual(bins.bin(Float(exp2(low)) * 0.5), 0)
            XCTAssertEqual(bins.bin(Float(exp2(high)) * 2), count - 1)
        }
    }

    /// Counted in row chunks on several workers (an area taller than a chunk, partly outside the
    /// image, with negative and zero values): the same bytes as on one, and the formula's counts.
    func testLogarithmicHistogramIsTheSameOnEveryThreadCount() throws {
        let (image, pixels) = try randomImage(width: 23, height: 150, seed: 5, range: -0.2...1.2)
        let area = Rect(x: -4, y: 10, width: 31, height: 135)
        let histogram = try image.filtered("CIAreaLogarithmicHistogram", ["inputExtent": .rect(area)])
        let reference = try exactContext(threads: 1).render(histogram, format: .rgbaf).bytes
        for threads in [2, 5] {
            XCTAssertTrue(try exactContext(threads: threads).render(histogram, format: .rgbaf).bytes == reference, "\(threads) threads")
        }
        // Float64 counts: 64 bins over stops −10…4; pixels of the area outside the image are 0 (bin 0).
        var counts = [[Double]](repeating: [Double](repeating: 0, count: 64), count: 4)
        for y in 10..<145 {
            for x in -4..<27 {
                let p = x >= 0 && x < 23 ? pixels[y * 23 + x] : [0, 0, 0, 0]
                for c in 0..<4 {
                    let scaled = c == 3 ? p[c] * 64 : (p[c] > 0 ? (log2(p[c]) + 10) / 14 * 64 : -1)
                    counts[c][scaled < 1 ? 0 : min(Int(scaled), 63)] += 1
                }
            }
        }
        let expected = (0..<64).map { bin in (0..<4).map { counts[$0][bin] / Double(31 * 135) } }
        assertPixels(try renderPixels(histogram, histogram.extent), expected, tolerance: 1e-6)
    }

    func testInfiniteInputsNeedAnExtent() throws {
        let infinite = try Image.filter("CIRandomGenerator")
        XCTAssertThrowsError(try infinite.filtered("CIAreaMaximumAlpha"))
        let reduced = try infinite.filtered("CIAreaMaximumAlpha", ["inputExtent": .rect(Rect(x: 1e6, y: -1e6, width: 4, height: 4))])
        XCTAssertEqual(reduced.extent, Rect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(try render(reduced).count, 1)
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIAreaMinimumAlpha", "CIAreaMaximumAlpha", "CIAreaAverageMaximumRed", "CIAreaBoundsRed",
                              "CIAreaAlphaWeightedHistogram", "CIAreaLogarithmicHistogram"])
    }
}
