import Foundation
import XCTest
@testable import GraphEngine

/// Image processors get and produce only the planes they need (``ProcessorPlanes``): an input
/// known grey and opaque in one plane, one known opaque (or whose alpha is not read) in three; an
/// output the processor says is opaque in three, also grey in one. The pixels, and those of a
/// program reading the result (one register for a grey result, alpha the constant 1 for an opaque
/// one), are the reference evaluator's, which passes four planes in and out.
final class ProcessorPlanesTests: XCTestCase {
    /// The planes each run saw.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var runs: [(inputs: [Int], output: Int)] = []
        func add(_ inputs: [Int], _ output: Int) {
            lock.lock()
            runs.append((inputs, output))
            lock.unlock()
        }
        var all: [(inputs: [Int], output: Int)] {
            lock.lock()
            defer { lock.unlock() }
            return runs
        }
    }

    /// Input 0 mirrored left to right, a row at a time through the buffers' accessors; when
    /// `tells`, its output is opaque and grey when input 0 is (else four planes). Alpha 1 when it
    /// does not read the input's.
    struct Mirror: ImageProcessor {
        let readsInputAlpha: Bool
        var tells = true
        let seen: Seen
        var name: String { "planes-mirror" }
        var structureKey: String { "planes-mirror \(readsInputAlpha) \(tells) \(ObjectIdentifier(seen).hashValue)" }
        var uniformValues: [Float] { [] }
        var argumentSummary: String { "" }
        func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }
        func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }
        func readsAlpha(input index: Int) -> Bool { readsInputAlpha }
        func isOpaque(inputs: [AreaInputDescription]) -> Bool { tells && inputs[0].isOpaque }
        func isGrey(inputs: [AreaInputDescription]) -> Bool { tells && inputs[0].isGrey }
        func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
            seen.add(inputs.map(\.channels), output.channels)
            let input = inputs[0], width = input.width
            var row = [Float](repeating: 0, count: width)
            for channel in 0..<4 {
                if channel == 3 && !readsInputAlpha {
                    output.fill(channel: 3, with: 1)
                    continue
                }
                for y in 0..<input.height {
                    row.withUnsafeMutableBufferPointer { input.readRow(channel: channel, row: y, count: width, into: $0.baseAddress!) }
                    row.reverse()
                    row.withUnsafeBufferPointer { output.writeRow(channel: channel, row: y, count: width, from: $0.baseAddress!) }
                }
            }
        }
    }

    private static let width = 37, height = 23

    /// A data buffer of `format` (no colour space) with random samples, premultiplied unless
    /// `opaque`.
    private static func source(_ format: PixelFormat, opaque: Bool, seed: UInt64) throws -> Image {
        var rng = SeededGenerator(seed: seed)
        let channels = format.channels
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        for pixel in 0..<(width * height) {
            let alpha = opaque || channels % 2 == 1 ? 255 : Int.random(in: 0...255, using: &rng)
            for c in 0..<channels {
                let isAlpha = !opaque && channels % 2 == 0 && c == channels - 1
                bytes[pixel * channels + c] = UInt8(isAlpha ? alpha : Int.random(in: 0...255, using: &rng) * alpha / 255)
            }
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: format,
                                             alphaMode: opaque ? .opaque : .premultiplied, colorSpace: nil, bytes: bytes))
    }

    /// Each kind of input, read with and without its alpha: the planes the processor got and made;
    /// its result as the reference evaluator's; a matrix mixing the result's channels (alpha
    /// included) the same bytes as when the processor does not tell (four planes, four loads).
    func testInputsAndOutputsHaveThePlanesTheyNeedAndRenderAsFourPlanes() throws {
        let cases: [(name: String, format: PixelFormat, opaque: Bool, readsAlpha: Bool, input: Int, output: Int)] = [
            ("grey, opaque", .gray8, true, true, 1, 1),
            ("grey, opaque, alpha not read", .gray8, true, false, 1, 1),
            ("grey with alpha", .grayAlpha8, false, true, 4, 4),
            ("grey with alpha, alpha not read", .grayAlpha8, false, false, 1, 4),
            ("colour, opaque", .rgb8, true, true, 3, 3),
            ("colour with alpha", .rgba8, false, true, 4, 4),
            ("colour with alpha, alpha not read", .rgba8, false, false, 3, 4),
        ]
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.workingColorSpace = nil
        options.outputColorSpace = nil
        options.threads = 3
        options.tileSize = 16
        let matrix = ColorMatrix(r: [0.5, 0.25, 0.125, 0.0625], g: [0.1, 0.2, 0.3, 0.4], b: [0.3, 0.3, 0.3, 0],
                                 a: [0, 0, 0, 1], bias: [0.01, 0, 0.02, 0], sourceName: "mix")
        for (index, test) in cases.enumerated() {
            let seen = Seen(), untold = Seen()
            let source = try Self.source(test.format, opaque: test.opaque, seed: UInt64(index + 1))
            let mirrored = source.applying(Mirror(readsInputAlpha: test.readsAlpha, seen: seen))
            let (buffer, profile) = try Context(options: options).renderWithProfile(mirrored, format: .rgbaf, colorSpace: .data)
            let pixels = bottomUpPixels(buffer)
            let reference = try ReferenceEvaluator().render(mirrored, rect: mirrored.extent, options: options)
            // The stage's result is the output buffer, its planes adopted as they are.
            let stage = try XCTUnwrap(profile.plan.stages.firstIndex { if case .processor = $0.work { true } else { false } })
            XCTAssertEqual(profile.timings.peakBytes[stage], Self.width * Self.height * 4 * test.output, test.name)
            assertClose(pixels, reference, tolerance: 0)
            XCTAssertEqual(pixels.count, Self.width * Self.height, test.name)
            // Runs: the render's, then the reference's (four planes in and out).
            XCTAssertEqual(seen.all.map(\.inputs), [[test.input], [4]], test.name)
            XCTAssertEqual(seen.all.map(\.output), [test.output, 4], test.name)

            let mixed = mirrored.applyingColorMatrix(matrix)
            let fourPlanes = source.applying(Mirror(readsInputAlpha: test.readsAlpha, tells: false, seen: untold)).applyingColorMatrix(matrix)
            let bytes = try Context(options: options).render(mixed, format: .rgbaf, colorSpace: .data).bytes
            XCTAssertEqual(bytes, try Context(options: options).render(fourPlanes, format: .rgbaf, colorSpace: .data).bytes, test.name)
            XCTAssertEqual(untold.all.map(\.output), [4], test.name)
            let dump = try Context(options: options).dump(mixed), untoldDump = try Context(options: options).dump(fourPlanes)
            let planes = test.output == 1 ? " (grey: 1 plane)" : test.output == 3 ? " (opaque: 3 planes)" : ""
            XCTAssertEqual(dump.programs.filter { $0.kind == "processor" }.map(\.format), ["RGBAf" + planes], test.name)
            // The matrix's program: alpha 1 folds its unpremultiply and premultiply away, a grey
            // result is unpremultiplied once (one register).
            let instructions = dump.programs.filter { $0.kind == "program" }.map(\.instructions.count).reduce(0, +)
            let untoldInstructions = untoldDump.programs.filter { $0.kind == "program" }.map(\.instructions.count).reduce(0, +)
            if test.output < 4 || test.format.channels <= 2 {
                XCTAssertLessThan(instructions, untoldInstructions, test.name)
            } else {
                XCTAssertEqual(instructions, untoldInstructions, test.name)
            }
        }
    }
}
