import Foundation
import XCTest
@testable import GraphEngine

/// An image processor that asks for the working format gets half-float planes when that is half
/// (8 bytes a pixel instead of 16) and its result carries colour, Float32 otherwise (data keeps its
/// precision), and the context's thread count; its output buffer becomes the stage's result
/// without a copy.
final class ProcessorSamplesTests: XCTestCase {
    /// What the processor saw, per run.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var runs: [(inputs: [PlanarBuffer.Samples], output: PlanarBuffer.Samples, threads: Int)] = []
        func add(_ inputs: [PlanarBuffer.Samples], _ output: PlanarBuffer.Samples, _ threads: Int) {
            lock.lock()
            runs.append((inputs, output, threads))
            lock.unlock()
        }
        var all: [(inputs: [PlanarBuffer.Samples], output: PlanarBuffer.Samples, threads: Int)] {
            lock.lock()
            defer { lock.unlock() }
            return runs
        }
    }

    /// Input 0 mirrored left to right, read and written a row at a time in whatever samples it
    /// gets; input 1 (asked for as Float32) only recorded.
    struct Mirror: ImageProcessor {
        let seen: Seen
        var name: String { "mirror" }
        var structureKey: String { "mirror \(ObjectIdentifier(seen).hashValue)" }
        var uniformValues: [Float] { [] }
        var argumentSummary: String { "" }
        func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }
        func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }
        func samples(input index: Int) -> ProcessorSamples { index == 0 ? .workingFormat : .float32 }
        var outputSamples: ProcessorSamples { .workingFormat }
        func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
            try process(inputs: inputs, output: output, threads: 1)
        }
        func process(inputs: [PlanarBuffer], output: PlanarBuffer, threads: Int) throws {
            seen.add(inputs.map(\.samples), output.samples, threads)
            let input = inputs[0], width = input.width
            var row = [Float](repeating: 0, count: width)
            for channel in 0..<4 {
                for y in 0..<input.height {
                    row.withUnsafeMutableBufferPointer { input.readRow(channel: channel, row: y, count: width, into: $0.baseAddress!) }
                    row.reverse()
                    row.withUnsafeBufferPointer { output.writeRow(channel: channel, row: y, count: width, from: $0.baseAddress!) }
                }
            }
        }
    }

    private static let width = 70, height = 40

    private func render(_ workingFormat: WorkingFormat, data: Bool = false, seen: Seen) throws
        -> (pixels: [SIMD4<Float>], reference: [SIMD4<Float>], profile: RenderProfile)
    {
        // Colour (sRGB) buffers, or the same bytes as data (no colour space).
        func buffer(_ width: Int, _ height: Int, seed: UInt64) throws -> Image {
            let colour = try makeTestBuffer(width: width, height: height, seed: seed)
            return Image(buffer: data ? try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .opaque,
                                                        colorSpace: nil, bytes: colour.bytes) : colour)
        }
        let source = try buffer(Self.width, Self.height, seed: 5), other = try buffer(3, 2, seed: 6)
        let image = source.applying(Mirror(seen: seen), with: [other])
        var options = ContextOptions()
        options.workingFormat = workingFormat
        options.workingColorSpace = nil
        options.threads = 3
        options.outputColorSpace = nil
        let (buffer, profile) = try Context(options: options).renderWithProfile(image, format: .rgbaf)
        let reference = try ReferenceEvaluator().render(image, rect: image.extent, options: options)
        return (bottomUpPixels(buffer), reference, profile)
    }

    func testHalfWorkingFormatGivesHalfPlanesAndKeepsTheOutputWithoutACopy() throws {
        let seen = Seen()
        let (pixels, reference, profile) = try render(.rgbah, seen: seen)
        // The reference evaluator passes Float32 (its own run); the render, half where asked.
        let runs = seen.all
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(runs[0].inputs, [.half, .float32])
        XCTAssertEqual(runs[0].output, .half)
        XCTAssertEqual(runs[0].threads, 3)
        XCTAssertEqual(runs[1].inputs, [.float32, .float32])
        XCTAssertEqual(runs[1].output, .float32)
        // The stage's result is the half output buffer: 8 bytes a pixel.
        let stage = try XCTUnwrap(profile.plan.stages.firstIndex { if case .processor = $0.work { true } else { false } })
        XCTAssertEqual(profile.timings.peakBytes[stage], Self.width * Self.height * 8)
        // 8-bit values through half planes: within half's rounding (2^-11 relative).
        assertClose(pixels, reference, tolerance: 1.0 / 2048)
        XCTAssertEqual(pixels.count, Self.width * Self.height)
    }

    func testDataKeepsFloat32PlanesInAHalfWorkingFormat() throws {
        let seen = Seen()
        let (pixels, reference, profile) = try render(.rgbah, data: true, seen: seen)
        XCTAssertEqual(seen.all.first?.inputs, [.float32, .float32])
        XCTAssertEqual(seen.all.first?.output, .float32)
        let stage = try XCTUnwrap(profile.plan.stages.firstIndex { if case .processor = $0.work { true } else { false } })
        XCTAssertEqual(profile.timings.peakBytes[stage], Self.width * Self.height * 16)
        assertClose(pixels, reference, tolerance: 0)
    }

    func testFloatWorkingFormatGivesFloat32Planes() throws {
        let seen = Seen()
        let (pixels, reference, profile) = try render(.rgbaf, seen: seen)
        XCTAssertEqual(seen.all.first?.inputs, [.float32, .float32])
        XCTAssertEqual(seen.all.first?.output, .float32)
        let stage = try XCTUnwrap(profile.plan.stages.firstIndex { if case .processor = $0.work { true } else { false } })
        XCTAssertEqual(profile.timings.peakBytes[stage], Self.width * Self.height * 16)
        assertClose(pixels, reference, tolerance: 0)
    }

    /// Copies input 0's colour and counts the pixels of its alpha plane, when it has one; it says it
    /// reads no alpha of input 0 unless `readsAlpha`.
    struct AlphaProbe: ImageProcessor {
        let readsInputAlpha: Bool
        let alphas: ProcessorRecomputationTests.PixelCounter
        var name: String { "alpha-probe" }
        var structureKey: String { "alpha-probe \(readsInputAlpha) \(ObjectIdentifier(alphas).hashValue)" }
        var uniformValues: [Float] { [] }
        var argumentSummary: String { "" }
        func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }
        func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }
        func readsAlpha(input index: Int) -> Bool { readsInputAlpha }
        func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
            let input = inputs[0]
            for y in input.y..<(input.y + input.height) {
                for x in input.x..<(input.x + input.width) {
                    if input.stores(channel: 3) { alphas.add(1) }
                    for c in 0..<3 { output.setValue(input.value(channel: c, x: x, y: y), channel: c, x: x, y: y) }
                    output.setValue(1, channel: 3, x: x, y: y)
                }
            }
        }
    }

    /// A processor that reads no alpha of an input (not opaque) gets no alpha plane, the colour
    /// planes as one that reads it gets them.
    func testAnInputsAlphaIsRenderedOnlyForAProcessorThatReadsIt() throws {
        let source = Image(buffer: try makeTestBuffer(width: Self.width, height: Self.height, seed: 9, alpha: .premultiplied))
        var options = ContextOptions()
        options.workingColorSpace = nil
        options.outputColorSpace = nil
        var results: [[SIMD4<Float>]] = []
        for reads in [true, false] {
            let alphas = ProcessorRecomputationTests.PixelCounter()
            let image = source.applying(AlphaProbe(readsInputAlpha: reads, alphas: alphas))
            results.append(bottomUpPixels(try Context(options: options).render(image, format: .rgbaf)))
            XCTAssertEqual(alphas.pixels, reads ? Self.width * Self.height : 0, "reads alpha: \(reads)")
        }
        XCTAssertEqual(results[0], results[1])
    }
}
