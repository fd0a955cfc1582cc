import Foundation
import GraphCodecs
import Kernels
import XCTest
@testable import GraphEngine

/// Image processors run once per render, over their region for the whole render, and what they
/// read is computed once: a reduction whose input is also used per pixel (CIColorThresholdOtsu)
/// used to make every tile compute that input, and everything below it, over the whole image
/// (70 s for a 12 MP background replacement), and a processor the output reads point by point ran
/// again for every band of a streamed encode (the dolly zoom: minutes).
final class ProcessorRecomputationTests: XCTestCase {
    /// Pixels computed, summed over threads and renders.
    final class PixelCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var total = 0
        func add(_ pixels: Int) {
            lock.lock()
            total += pixels
            lock.unlock()
        }
        var pixels: Int {
            lock.lock()
            defer { lock.unlock() }
            return total
        }
    }

    /// An area pass that copies its input and counts the pixels it computes.
    struct CountingCopy: CPUAreaPass {
        let counter: PixelCounter
        static func == (a: CountingCopy, b: CountingCopy) -> Bool { a.counter === b.counter }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(counter)) }
        var name: String { "counting-copy" }
        var summary: String { "copy, counting the pixels computed" }
        func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }
        func regionOfInterest(input index: Int, for rect: Rect) -> Rect { rect }
        func run(_ tile: AreaTile) {
            let input = tile.inputs[0], output = tile.output
            for channel in 0..<tile.channels {
                for row in 0..<output.height {
                    output.store(channel: channel, row: row, from: input.pointer(channel, x: output.x, y: output.y + row))
                }
            }
            counter.add(output.width * output.height)
        }
        func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
            try input(0, x, y)
        }
    }

    /// A whole-image processor: the input mirrored left to right; counts its runs.
    struct CountingMirror: ImageProcessor {
        let runs: PixelCounter
        var name: String { "counting-mirror" }
        var structureKey: String { "counting-mirror \(ObjectIdentifier(runs).hashValue)" }
        var uniformValues: [Float] { [] }
        var argumentSummary: String { "" }
        func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }
        func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }
        func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
            runs.add(1)
            let input = inputs[0]
            for y in output.y..<(output.y + output.height) {
                for x in output.x..<(output.x + output.width) {
                    let mirrored = input.x + input.width - 1 - (x - input.x)
                    for c in 0..<4 { output.setValue(input.value(channel: c, x: mirrored, y: y), channel: c, x: x, y: y) }
                }
            }
        }
    }

    private static let width = 300, height = 200

    private func context(tileSize: Int = 64) -> Context {
        var options = ContextOptions()
        options.tileSize = tileSize
        options.threads = 2
        options.workingFormat = .rgbaf
        return Context(options: options)
    }

    /// A copy (counted), darkened by a matrix (two consumers: a stage of its own), thresholded at
    /// its Otsu level: the reduction renders the darkened image whole, and the tiles read that
    /// rendering: the copy runs once per pixel, the darkening stage not at all in the tiles.
    func testAReductionsInputIsComputedOnceAndSharedWithThePixelStages() throws {
        let counter = PixelCounter()
        let source = Image(buffer: try makeTestBuffer(width: Self.width, height: Self.height, seed: 21))
        let darkened = source.applying(CountingCopy(counter: counter))
            .applyingColorMatrix(ColorMatrix(rgb: [0.5, 0.2, 0, 0, 0.7, 0, 0.1, 0, 0.9], sourceName: "darken"))
        let image = try darkened.applyingFilter("CIColorThresholdOtsu")
        let (buffer, profile) = try context().renderWithProfile(image, format: .rgbaf)
        XCTAssertEqual(counter.pixels, Self.width * Self.height, "the copy runs once per pixel")
        // The profile's counters: the reduction ran once; no stage of the tiles computed more than
        // the image (with the recomputation, each of the 20 tiles computed the whole image).
        let plan = profile.plan
        for (index, stage) in plan.stages.enumerated() {
            if case .processor = stage.work { XCTAssertEqual(profile.timings.units[index], 1, "\(stage.node.shortName)") }
            XCTAssertLessThanOrEqual(profile.timings.pixels[index], Self.width * Self.height, "\(stage.node.shortName)")
        }
        let reference = try ReferenceEvaluator().render(image, rect: image.extent)
        assertClose(bottomUpPixels(buffer), reference, tolerance: 1e-6)
        // Thresholded: both classes present.
        let reds = Set(bottomUpPixels(buffer).map { $0[0].rounded() })
        XCTAssertEqual(reds, [0, 1])
    }

    /// A streamed PNG encode renders in bands; the processor under its output runs once for all
    /// of them, and what it reads is computed once.
    func testAProcessorUnderABandedEncodeRunsOnce() throws {
        let counter = PixelCounter(), runs = PixelCounter()
        let bytes = try makeTestBuffer(width: Self.width, height: Self.height, seed: 22)
        let image = Image(buffer: bytes).applying(CountingCopy(counter: counter)).applying(CountingMirror(runs: runs))
        let context = context(tileSize: 32)
        let png = try context.encodedData(image, format: .png)
        XCTAssertEqual(runs.pixels, 1, "one run for every band")
        XCTAssertEqual(counter.pixels, Self.width * Self.height)
        // The file holds the source mirrored (8-bit sRGB through linear Float32 and back: exact).
        let decoded = try PNGCodec.decode(png)
        XCTAssertEqual([decoded.width, decoded.height, decoded.channels], [Self.width, Self.height, 3])
        let source = bytes.bytes
        for row in 0..<Self.height {
            for x in 0..<Self.width {
                let got = Array(decoded.bytes[((row * Self.width + x) * 3)..<((row * Self.width + x) * 3 + 3)])
                let at = (row * Self.width + Self.width - 1 - x) * 4
                XCTAssertEqual(got, Array(source[at..<(at + 3)]), "\(x), \(row)")
            }
        }
    }
}
