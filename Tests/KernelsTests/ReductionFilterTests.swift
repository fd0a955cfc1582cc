import XCTest
import GraphEngine
@testable import Kernels

/// Reductions against float64 sums written here, and their determinism.
final class ReductionFilterTests: XCTestCase {
    let width = 23, height = 17

    func source() throws -> (Image, Pixels) { try randomImage(width: width, height: height, seed: 71, range: -0.2...1.2) }

    func render(_ image: Image) throws -> Pixels { try renderPixels(image, image.extent) }

    func testAreaAverageMaximumMinimumAndMinMax() throws {
        let (image, pixels) = try source()
        let area = Rect(x: 3, y: 2, width: 12, height: 9)
        let inside = (2..<11).flatMap { y in (3..<15).map { pixels[y * width + $0] } }
        func column(_ c: Int) -> [Double] { inside.map { $0[c] } }
        let mean = (0..<4).map { column($0).reduce(0, +) / Double(inside.count) }
        let low = (0..<4).map { column($0).min() ?? 0 }, high = (0..<4).map { column($0).max() ?? 0 }
        let extent: [String: FilterValue] = ["inputExtent": .rect(area)]
        let average = try image.filtered("CIAreaAverage", extent)
        XCTAssertEqual(average.extent, Rect(x: 0, y: 0, width: 1, height: 1))
        assertPixels(try render(average), [mean], tolerance: 1e-6)
        assertPixels(try render(try image.filtered("CIAreaMaximum", extent)), [high], tolerance: 0)
        assertPixels(try render(try image.filtered("CIAreaMinimum", extent)), [low], tolerance: 0)
        let minMax = try image.filtered("CIAreaMinMax", extent)
        XCTAssertEqual(minMax.extent, Rect(x: 0, y: 0, width: 2, height: 1))
        assertPixels(try render(minMax), [low, high], tolerance: 0)
        assertPixels(try render(try image.filtered("CIAreaMinMaxRed", extent)), [[low[0], high[0], 0, 1]], tolerance: 0)
    }

    /// Rows longer than the sixteen lanes the extremes run in, with a tail, NaN holes (no sample)
    /// and a grey buffer (its channels one plane): min and max of the finite values, per channel.
    func testMinMaxOfWideGreyRowsSkipsNaNHoles() throws {
        let w = 53, h = 5
        var rng = TestRandom(seed: 5)
        let values: [Float] = (0..<(w * h)).map { i in i % 11 == 3 ? .nan : Float(-2 + 5 * rng.unit()) }
        let bytes = values.withUnsafeBytes { Array($0) }
        let image = Image(buffer: try ImageBuffer(width: w, height: h, format: .grayf, alphaMode: .opaque, colorSpace: nil, bytes: bytes))
        let finite = values.filter { !$0.isNaN }.map(Double.init)
        let low = finite.min() ?? 0, high = finite.max() ?? 0
        let out = try render(try image.filtered("CIAreaMinMaxRed", ["inputExtent": .rect(image.extent)]))
        assertPixels(out, [[low, high, 0, 1]], tolerance: 0)
        assertPixels(try render(try image.filtered("CIAreaMinMax", ["inputExtent": .rect(image.extent)])),
                     [[low, low, low, 1], [high, high, high, 1]], tolerance: 0)
    }

    func testAnAreaBeyondTheImageCountsTransparentPixels() throws {
        let (image, pixels) = try source()
        let area = Rect(x: -5, y: 0, width: 10, height: 4)  // half outside
        let inside = (0..<4).flatMap { y in (0..<5).map { pixels[y * width + $0] } }
        let mean = (0..<4).map { c in inside.map { $0[c] }.reduce(0, +) / 40 }
        assertPixels(try render(try image.filtered("CIAreaAverage", ["inputExtent": .rect(area)])), [mean], tolerance: 1e-6)
        let maximum = try render(try image.filtered("CIAreaMaximum", ["inputExtent": .rect(area)]))
        XCTAssertEqual(maximum[0][0], max(inside.map { $0[0] }.max() ?? 0, 0), accuracy: 0)
        XCTAssertThrowsError(try Image.filter("CIRandomGenerator").filtered("CIAreaAverage"))
    }

    /// A reduction's input is the working-space colour once: an sRGB photo is decoded, not decoded
    /// twice and encoded again (the processor input used to be colour-managed a second time).
    func testReductionsOfAColourManagedImageSeeTheWorkingSpace() throws {
        let bytes: [UInt8] = [10, 128, 250, 255, 200, 30, 90, 255, 64, 64, 64, 255, 255, 0, 128, 255]
        let photo = Image(buffer: try ImageBuffer(width: 2, height: 2, format: .rgba8, alphaMode: .opaque, colorSpace: .sRGB, bytes: bytes))
        var options = ContextOptions()
        options.workingFormat = .rgbaf  // output sRGB: the mean of the linear values, encoded once
        let average = try renderPixels(try photo.filtered("CIAreaAverage"), Rect(x: 0, y: 0, width: 1, height: 1),
                                       context: Context(options: options))
        let expected = (0..<3).map { c in srgbEncode((0..<4).reduce(0.0) { $0 + srgbDecode(Double(bytes[$1 * 4 + c]) / 255) } / 4) } + [1]
        assertPixels(average, [expected], tolerance: 1e-6)
    }

    func testRowAndColumnAverages() throws {
        let (image, pixels) = try source()
        let rows = try image.filtered("CIRowAverage")
        XCTAssertEqual(rows.extent, Rect(x: 0, y: 0, width: Double(height), height: 1))
        assertPixels(try render(rows), (0..<height).map { y in
            (0..<4).map { c in (0..<width).reduce(0.0) { $0 + pixels[y * width + $1][c] } / Double(width) }
        }, tolerance: 1e-6)
        let columns = try image.filtered("CIColumnAverage")
        XCTAssertEqual(columns.extent, Rect(x: 0, y: 0, width: Double(width), height: 1))
        assertPixels(try render(columns), (0..<width).map { x in
            (0..<4).map { c in (0..<height).reduce(0.0) { $0 + pixels[$1 * width + x][c] } / Double(height) }
        }, tolerance: 1e-6)
    }

    func testHistogramBinsAndDisplay() throws {
        let (image, pixels) = try source()
        let bins = 10, scale = 2.0
        let histogram = try image.filtered("CIAreaHistogram", ["inputCount": .number(Double(bins)), "inputScale": .number(scale)])
        XCTAssertEqual(histogram.extent, Rect(x: 0, y: 0, width: 10, height: 1))
        var counts = [[Double]](repeating: [Double](repeating: 0, count: bins), count: 4)
        for p in pixels {
            for c in 0..<4 { counts[c][min(max(Int((Float(p[c]) * Float(bins)).rounded(.down)), 0), bins - 1)] += 1 }
        }
        let expected = (0..<bins).map { bin in (0..<4).map { counts[$0][bin] / Double(pixels.count) * scale } }
        let rendered = try render(histogram)
        assertPixels(rendered, expected, tolerance: 1e-6)
        let display = try histogram.filtered("CIHistogramDisplayFilter", ["inputHeight": .number(8), "inputHighLimit": .number(0.6),
                                                                          "inputLowLimit": .number(0.1)])
        XCTAssertEqual(display.extent, Rect(x: 0, y: 0, width: 10, height: 8))
        var bars = Pixels()
        for y in 0..<8 {
            for x in 0..<bins {
                let h = rendered[x]
                bars.append((0..<3).map { c in Double(y) + 0.5 < min(max((h[c] - 0.1) / 0.5, 0), 1) * 8 ? 1 : 0 } + [1])
            }
        }
        assertPixels(try render(display), bars, tolerance: 0)
    }

    func testReductionsGiveTheSameBytesForAnyThreadsAndTiles() throws {
        let (big, _) = try randomImage(width: 300, height: 211, seed: 72)
        let blurred = try big.clampedToExtent().filtered("CIGaussianBlur", ["inputRadius": .number(2)]).cropped(to: big.extent)
        let reductions = try ["CIAreaAverage", "CIAreaMinMax", "CIRowAverage", "CIColumnAverage", "CIAreaHistogram"].map {
            try blurred.filtered($0)
        } + [try blurred.filtered("CIColorThresholdOtsu")]
        for image in reductions {
            let area = image.extent
            let reference = try exactContext(threads: 1, tileSize: 512).render(image, rect: area, format: .rgbaf).bytes
            for (threads, tile) in [(4, 64), (3, 100), (2, 37)] {
                let other = try exactContext(threads: threads, tileSize: tile).render(image, rect: area, format: .rgbaf).bytes
                XCTAssertEqual(other, reference, "\(image) threads \(threads) tile \(tile)")
            }
        }
    }
}
