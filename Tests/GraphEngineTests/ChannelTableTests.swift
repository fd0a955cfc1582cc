import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import GraphIO
import Kernels

/// The channel lookup table (``ChannelTable``): which programs take it, shown in the dump, and the
/// same results as the program computed per pixel.
final class ChannelTableTests: XCTestCase {
    private let decision = "channel lookup table"

    private func unmanaged() -> Context {
        var options = ContextOptions()
        options.workingColorSpace = nil
        return Context(options: options)
    }

    private func gamma(_ image: Image, _ power: Double = 2.4) throws -> Image {
        try image.applyingFilter("CIGammaAdjust", parameters: ["inputPower": .number(power)])
    }

    /// An opaque RGBA8 buffer, and the same values as an opaque RGBAf buffer (each code read as the
    /// 8-bit load reads it), which no table can serve.
    private func sources(width: Int, height: Int) throws -> (bytes: ImageBuffer, floats: ImageBuffer) {
        let bytes = try makeTestBuffer(width: width, height: height, seed: 9)
        let codes = bytes.storage.assumingMemoryBound(to: UInt8.self)
        let floats = try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque) { storage, rowBytes in
            for row in 0..<height {
                let out = (storage + row * rowBytes).assumingMemoryBound(to: Float.self)
                for i in 0..<(4 * width) { out[i] = Float(codes[row * bytes.rowBytes + i]) * (1 / 255) }
            }
        }
        return (bytes, floats)
    }

    func testGammaOnAnOpaqueEightBitSourceIsLookedUpWithTheProgramsOwnResults() throws {
        // Wider than a span, so rows have a full span and a partial one.
        let (bytes, floats) = try sources(width: 300, height: 5)
        let context = unmanaged()
        for power in [2.4, 0.45] {
            let looked = try gamma(Image(buffer: bytes), power), computed = try gamma(Image(buffer: floats), power)
            let dump = try context.dump(looked)
            XCTAssertTrue(dump.programs.last?.instructions.contains { $0.hasPrefix(decision) } ?? false, dump.text())
            let other = try context.dump(computed)
            XCTAssertFalse(other.programs.contains { $0.instructions.contains { $0.hasPrefix(self.decision) } }, other.text())
            // A plan decision, in the row-kernels pass's log.
            func planned(_ dump: GraphDump) -> Bool {
                dump.planPasses.first { $0.pass == "row-kernels" }?.changes.contains { $0.contains("looked up") } ?? false
            }
            XCTAssertTrue(planned(dump), dump.text(stages: [.plan]))
            XCTAssertFalse(planned(other), other.text(stages: [.plan]))
            // RGB8 goes from source bytes to output bytes (the codes the sink would write).
            for format in [PixelFormat.rgbaf, .rgba8, .rgb8] {
                let a = try context.render(looked, format: format), b = try context.render(computed, format: format)
                for row in 0..<5 {
                    for x in 0..<300 {
                        XCTAssertEqual(a.pixel(x: x, row: row).map(\.bitPattern), b.pixel(x: x, row: row).map(\.bitPattern),
                                       "power \(power) \(format) x \(x) row \(row)")
                    }
                }
            }
        }
    }

    /// RGB8 (the byte-table row kernel's in-order path, four pixels a step and a remainder) and
    /// BGRA8 sources written to RGB8: the looked-up bytes are the ones the program computes per
    /// pixel from the same codes as floats.
    func testEightBitSourcesOfEveryChannelOrderLookUpTheComputedBytes() throws {
        let width = 303, height = 3
        let rgba = try makeTestBuffer(width: width, height: height, seed: 12)
        let codes = rgba.storage.assumingMemoryBound(to: UInt8.self)
        let floats = try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque) { storage, rowBytes in
            for row in 0..<height {
                let out = (storage + row * rowBytes).assumingMemoryBound(to: Float.self)
                for i in 0..<(4 * width) { out[i] = i % 4 == 3 ? 1 : Float(codes[row * rgba.rowBytes + i]) * (1 / 255) }
            }
        }
        let context = unmanaged()
        let computed = try context.render(try gamma(Image(buffer: floats)), format: .rgb8)
        for (format, order) in [(PixelFormat.rgb8, [0, 1, 2]), (.bgra8, [2, 1, 0, 3])] {
            var bytes: [UInt8] = []
            for row in 0..<height {
                for x in 0..<width { bytes += order.map { codes[row * rgba.rowBytes + 4 * x + $0] } }
            }
            let source = try ImageBuffer(width: width, height: height, format: format, alphaMode: .opaque, colorSpace: nil, bytes: bytes)
            let image = try gamma(Image(buffer: source))
            let dump = try context.dump(image)
            XCTAssertTrue(dump.programs.last?.instructions.contains { $0.hasPrefix(decision) } ?? false, dump.text())
            let looked = try context.render(image, format: .rgb8)
            XCTAssertEqual(looked.bytes, computed.bytes, "\(format)")
        }
    }

    /// A region reaching outside the source (zero edge) computes the spans outside per pixel.
    func testSpansOutsideTheSourceAreComputed() throws {
        let (bytes, floats) = try sources(width: 40, height: 3)
        let context = unmanaged()
        let rect = Rect(x: -10, y: -1, width: 60, height: 5)
        let a = try context.render(try gamma(Image(buffer: bytes)).cropped(to: rect), format: .rgbaf)
        let b = try context.render(try gamma(Image(buffer: floats)).cropped(to: rect), format: .rgbaf)
        for row in 0..<a.height {
            for x in 0..<a.width { XCTAssertEqual(a.pixel(x: x, row: row), b.pixel(x: x, row: row), "x \(x) row \(row)") }
        }
    }

    func testProgramsMixingChannelsOrReadingVaryingAlphaAreComputed() throws {
        let context = unmanaged()
        let opaque = Image(buffer: try makeTestBuffer(width: 32, height: 8, seed: 4))
        let mixed = try opaque.applyingFilter("CIColorMatrix", parameters: ["inputRVector": .vector([0.5, 0.5, 0, 0])])
        let translucent = try gamma(Image(buffer: try makeTestBuffer(width: 32, height: 8, seed: 4, alpha: .straight)))
        for image in [try gamma(mixed), translucent] {
            let dump = try context.dump(image)
            XCTAssertFalse(dump.programs.contains { $0.instructions.contains { $0.hasPrefix(self.decision) } }, dump.text())
        }
    }

    /// Colour managed, the table is computed from the sRGB-decoded codes: the result still matches
    /// the reference evaluator.
    func testColourManagedGammaMatchesTheReference() throws {
        let image = try gamma(Image(buffer: try makeTestBuffer(width: 64, height: 4, seed: 6)))
        let dump = try Context().dump(image)
        XCTAssertTrue(dump.programs.last?.instructions.contains { $0.hasPrefix(decision) } ?? false, dump.text())
        let fast = bottomUpPixels(try Context().render(image, format: .rgbaf))
        assertClose(fast, try ReferenceEvaluator().render(image, rect: image.extent), tolerance: 1e-4)
        // The sRGB encode fused into the 8-bit store: output bytes through codes the same as through floats.
        let rgb = try Context().render(image, format: .rgb8), rgba = try Context().render(image, format: .rgba8)
        for row in 0..<4 {
            for x in 0..<64 { XCTAssertEqual(rgb.pixel(x: x, row: row), Array(rgba.pixel(x: x, row: row).prefix(3)), "x \(x) row \(row)") }
        }
    }

    /// A gamma on a JPEG file written as JPEG: the rows go from the decoder through the tables to
    /// the encoder (``RowLookup``, no render), and the file is the one the rendered pixels encode
    /// to. Anything more than the lookup over the whole file renders.
    func testGammaOnAJPEGFileEncodesTheRenderedPixelsWithoutARender() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-lookup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Taller than the transcoder's bands, not a multiple of them or of the MCU.
        let width = 301, height = 75
        let pixels = (0..<(width * height * 3)).map { i -> UInt8 in
            let x = (i / 3) % width, y = (i / 3) / width
            return UInt8(truncatingIfNeeded: x * 3 + y * 5 + (i % 3) * 40 + (i * 7919) % 13)
        }
        let path = folder.appendingPathComponent("photo.jpg").path
        try Data(try JPEGCodec.encode(width: width, height: height, channels: 3, bytes: pixels)).write(to: URL(fileURLWithPath: path))
        let context = unmanaged()
        let image = try gamma(try Image(contentsOf: path))
        let options = ImageWriteOptions(quality: 90, subsampling: .s420)

        func lookup(_ image: Image) throws -> RowLookup? {
            let area = try context.renderRect(image, nil)
            let (root, plan, _) = try context.plan(image, rect: area, destination: .rgb8, sequential: true)
            defer { SequentialSourceReads.stopDecodes(of: root) }
            return try context.backend(for: plan).rowLookup(area: area)
        }
        XCTAssertNotNil(try lookup(image))
        XCTAssertNil(try lookup(image.cropped(to: Rect(x: 0, y: 0, width: 100, height: 75))), "a part of the file renders")
        XCTAssertNil(try lookup(try image.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])))

        let rendered = try context.render(image, format: .rgb8)
        let expected = try JPEGCodec.encode(width: width, height: height, channels: 3, bytes: rendered.bytes)
        XCTAssertEqual(try context.encodedData(image, format: .jpeg, options: options), expected)
        let output = folder.appendingPathComponent("out.jpg").path
        let progress = RenderProgress()
        try context.write(image, to: output, options: options, progress: progress)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))), expected)
        XCTAssertEqual(progress.fraction, 1, "every band counted")
    }
}
