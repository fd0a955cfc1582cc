import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import GraphCore
@testable import GraphIO

/// PNG inputs open lazily (``PNGFileSource``) and decode on a thread of their own while the render
/// reads their rows: whole for a render that may read them in any order, windowed for a streamed
/// encode (only a window of rows held), the same samples either way. What needs the whole file
/// decodes whole at open, and corrupt image data fails the render (no file written) instead of the
/// open.
final class PNGFileSourceTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "png-source-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    private func samples(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 311) }
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = folder + "/" + name
        try ImageFile.writeAtomically(bytes, to: path)
        return path
    }

    /// The PNG file source of an opened image, if it opened lazily.
    private func pngSource(_ image: Image) -> PNGFileSource? {
        guard case .file(let source) = image.node.kind else { return nil }
        return source as? PNGFileSource
    }

    private func pngSuite(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/testdata/pngsuite/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("shared/testdata is not beside the repository") }
        return path
    }

    /// Every row of a buffer being filled (a windowed one demanded to the end).
    private func filledBytes(_ buffer: ImageBuffer) -> [UInt8] {
        buffer.rowProgress?.demand(rows: buffer.height)
        return buffer.bytes
    }

    func testTheRenderIsTheWholeDecodes() throws {
        let (width, height) = (190, 230)
        for (channels, bitDepth) in [(3, 8), (4, 16), (2, 8), (1, 16)] {
            let png = try PNGCodec.encode(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                          bytes: samples(width * height * channels * bitDepth / 8))
            let path = try write(png, "\(channels)x\(bitDepth).png")
            let opened = try Image(contentsOf: path)
            XCTAssertNotNil(pngSource(opened), "\(channels) channels, \(bitDepth) bits")
            let whole = Image(buffer: try ImageBuffer(decoded: try ImageFile.decode(png)))
            let context = Context()
            XCTAssertTrue(try context.render(opened, format: .rgba16).bytes == context.render(whole, format: .rgba16).bytes,
                          "\(channels) channels, \(bitDepth) bits")
        }
    }

    /// A windowed decode (a streamed encode's) gives the whole decoder's samples (PNGCodec.decode:
    /// libpng reading every row in one call) for grey, grey+alpha, RGB, RGBA and palette files of 1
    /// to 16 bits, with and without tRNS, read from the file or from bytes in memory; so does the
    /// whole decode.
    func testWindowedDecodeGivesTheWholeDecodersSamples() throws {
        let names = ["basn0g01.png", "basn0g04.png", "basn0g16.png", "basn2c08.png", "basn2c16.png", "basn3p04.png",
                     "basn4a08.png", "basn4a16.png", "basn6a08.png", "basn6a16.png", "tbrn2c08.png", "tbbn3p08.png"]
        for name in names {
            let path = try pngSuite(name)
            let bytes = try ImageFile.read(path: path)
            let expected = try PNGCodec.decode(bytes).bytes
            for image in [try Image(contentsOf: path), try Image.decoding(bytes: bytes, path: name).image] {
                let source = try XCTUnwrap(pngSource(image), name)
                let windowed = try source.sequentialBuffer(scale: 1)
                XCTAssertEqual(windowed.rowProgress?.isWindowed, true, name)
                XCTAssertTrue(filledBytes(windowed) == expected, name)
                XCTAssertTrue(try source.buffer(scale: 1).bytes == expected, name)
            }
        }
    }

    /// Streamed encodes (PNG and JPEG, rendered in bands, reading the PNG windowed) of tall images in
    /// four layouts, plain, blurred (bands reading rows above and below) and flipped (read bottom
    /// first: every row kept), have the bytes of the same encodes of the whole decode, and leave no
    /// whole decode behind.
    func testStreamedEncodesOfWindowedDecodesAreThoseOfTheWholeDecode() throws {
        let (width, height) = (24, 600)
        var options = ContextOptions()
        options.workingColorSpace = nil
        options.tileSize = 64  // bands of 64 rows, blurred too
        let context = Context(options: options)
        let recipes: [(name: String, make: (Image) throws -> Image)] = [
            ("plain", { $0 }),
            ("blurred", { try $0.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(5)])
                .cropped(to: $0.extent) }),
            ("flipped", { $0.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: Double(height))) }),
        ]
        for (channels, bitDepth) in [(1, 8), (3, 8), (2, 16), (4, 16)] {
            let png = try PNGCodec.encode(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                          bytes: samples(width * height * channels * bitDepth / 8))
            let path = try write(png, "\(channels)x\(bitDepth).png")
            let whole = Image(buffer: try ImageBuffer(decoded: try ImageFile.decode(png)))
            for recipe in recipes {
                for format in [OutputFileFormat.png, .jpeg] {
                    let opened = try Image(contentsOf: path)
                    let streamed = try context.encodedData(recipe.make(opened), format: format)
                    let label = "\(channels) channels, \(bitDepth) bits, \(recipe.name), \(format.name)"
                    XCTAssertNil(try XCTUnwrap(pngSource(opened)).wholeDecodes.existing(scale: 1), label)
                    XCTAssertEqual(streamed, try context.encodedData(recipe.make(whole), format: format), label)
                }
            }
        }
    }

    /// A streamed encode holds a window of the PNG's rows, not the image: a 16-pixel column of a
    /// 1024×8192 RGBA16 file (64 MiB decoded; the render itself is small) written as JPEG and PNG
    /// grows the process by a few MiB. A whole decode would hold all 64 MiB.
    func testAStreamedEncodeHoldsAWindowOfRows() throws {
        let (width, height) = (1024, 8192)
        let png = try PNGCodec.encode(width: width, height: height, channels: 4, bitDepth: 16,
                                      bytes: [UInt8](repeating: 0x5A, count: width * height * 8), compressionLevel: 1)
        let path = try write(png, "tall.png")
        for format in ["jpg", "png"] {
            let column = try Image(contentsOf: path).cropped(to: Rect(x: 0, y: 0, width: 16, height: Double(height)))
            guard ResidentMemory.resetPeak(), let before = ResidentMemory.currentBytes else {
                throw XCTSkip("no /proc/self/clear_refs here")
            }
            try Context().write(column, to: folder + "/column." + format)
            let grown = try XCTUnwrap(ResidentMemory.peakBytes) - before
            XCTAssertLessThan(grown, 16 << 20, "\(format): the process grew by \(grown >> 20) MiB")
        }
    }

    /// A streamed encode's plan reads a windowed decode of its own; other renders read the whole
    /// decode, kept, which a later streamed encode reuses rather than decoding the file again.
    func testStreamedPlansDecodeWindowedUnlessDecodedWhole() throws {
        let path = try write(try PNGCodec.encode(width: 50, height: 40, channels: 3, bitDepth: 8, bytes: samples(50 * 40 * 3)),
                             "small.png")
        let image = try Image(contentsOf: path)
        let source = try XCTUnwrap(pngSource(image))
        let context = Context()
        func plannedBuffer(sequential: Bool) throws -> ImageBuffer? {
            let root = try context.plan(image, rect: PixelRect(x: 0, y: 0, width: 50, height: 40), sequential: sequential).root
            for node in RegionOfInterest.topologicalOrder(root) {
                if case .buffer(let buffer) = node.kind { return buffer }
            }
            return nil
        }
        let windowed = try XCTUnwrap(plannedBuffer(sequential: true))
        XCTAssertEqual(windowed.rowProgress?.isWindowed, true)
        XCTAssertNil(source.wholeDecodes.existing(scale: 1))
        let whole = try XCTUnwrap(plannedBuffer(sequential: false))
        XCTAssertEqual(whole.rowProgress?.isWindowed, false)
        XCTAssertTrue(whole === source.wholeDecodes.existing(scale: 1))
        XCTAssertTrue(try plannedBuffer(sequential: true) === whole)
        windowed.rowProgress?.stop()
    }

    /// Interlaced files, an EXIF orientation to apply and chunks after the image data need the
    /// whole file: they decode at open (a buffer, not a file source), the late chunk's text in the
    /// metadata.
    func testWhatNeedsTheWholeFileDecodesWhole() throws {
        let pixels = samples(40 * 30 * 3)
        let interlaced = try write(try PNGCodec.encode(width: 40, height: 30, channels: 3, bitDepth: 8, bytes: pixels, interlaced: true),
                                   "interlaced.png")
        XCTAssertNil(pngSource(try Image(contentsOf: interlaced)))
        let rotated = try write(try PNGCodec.encode(width: 40, height: 30, channels: 3, bitDepth: 8, bytes: pixels,
                                                    exif: EXIF.makeOrientationTIFF(6)), "rotated.png")
        let upright = try Image(contentsOf: rotated)
        XCTAssertNil(pngSource(upright))
        XCTAssertEqual([upright.extent.width, upright.extent.height], [30, 40])
        XCTAssertNotNil(pngSource(try Image(contentsOf: rotated, options: ImageReadOptions(applyOrientation: false))))

        let plain = try PNGCodec.encode(width: 40, height: 30, channels: 3, bitDepth: 8, bytes: pixels)
        let text = Array("tEXt".utf8) + Array("Comment\0after the pixels".utf8)
        let chunk = withUnsafeBytes(of: UInt32(text.count - 4).bigEndian) { Array($0) } + text
            + withUnsafeBytes(of: Self.crc32(text).bigEndian) { Array($0) }
        let late = try write(Array(plain.dropLast(12)) + chunk + Array(plain.suffix(12)), "late-text.png")
        let (image, metadata, _) = try Image.decoding(path: late)
        XCTAssertNil(pngSource(image))
        XCTAssertEqual(metadata.comments, ["Comment: after the pixels"])
    }

    /// A file cut short and one with a damaged byte in its image data open (the header is fine) but
    /// fail the streamed encode that reads them, as PNG or JPEG, naming the file, and write nothing.
    func testCorruptImageDataFailsTheRenderAndWritesNothing() throws {
        let png = try PNGCodec.encode(width: 300, height: 200, channels: 3, bitDepth: 8, bytes: samples(300 * 200 * 3))
        var damaged = png
        damaged[png.count / 2] ^= 0x40
        for (name, bytes) in [("truncated.png", Array(png.prefix(png.count * 6 / 10))), ("damaged.png", damaged)] {
            let path = try write(bytes, name)
            for output in ["out.png", "out.jpg"] {
                let image = try Image(contentsOf: path)
                XCTAssertThrowsError(try Context().write(image, to: folder + "/" + output)) { error in
                    XCTAssertTrue("\(error)".contains("could not be decoded"), "\(error)")
                    XCTAssertTrue("\(error)".contains(name), "\(error)")
                }
            }
            try FileManager.default.removeItem(atPath: path)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
        }
    }

    /// A streamed encode that fails before its first band (here: a memory limit it cannot fit)
    /// stops the windowed decodes it started, of a PNG and of a JPEG: their threads end and close
    /// the files instead of waiting for demand forever.
    func testAFailedStreamedEncodeStopsItsDecodes() throws {
        let pixels = samples(400 * 300 * 3)
        let png = try write(try PNGCodec.encode(width: 400, height: 300, channels: 3, bitDepth: 8, bytes: pixels), "limited.png")
        let jpeg = try write(try JPEGCodec.encode(width: 400, height: 300, channels: 3, bytes: pixels), "limited.jpg")
        var options = ContextOptions()
        options.memoryLimit = 64 << 10
        let context = Context(options: options)
        func openFiles() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        let before = openFiles()
        for path in [png, jpeg, png, jpeg] {
            for format in [OutputFileFormat.png, .jpeg] {
                let cropped = try Image(contentsOf: path).cropped(to: Rect(x: 0, y: 0, width: 400, height: 299))  // rendered
                XCTAssertThrowsError(try context.encodedData(cropped, format: format)) { error in
                    XCTAssertTrue("\(error)".contains("above the context's memory limit"), "\(error)")
                }
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while openFiles() > before && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(openFiles(), before, "decodes left waiting with their files open")
    }

    /// A file rewritten in place after it was opened (now another size) fails the render, naming
    /// it, instead of decoding rows of another layout into the buffer.
    func testAFileChangedSinceItWasOpenedFailsTheRender() throws {
        let path = try write(try PNGCodec.encode(width: 300, height: 200, channels: 3, bitDepth: 8, bytes: samples(300 * 200 * 3)),
                             "changing.png")
        let image = try Image(contentsOf: path)
        let other = try PNGCodec.encode(width: 300, height: 400, channels: 4, bitDepth: 8, bytes: samples(300 * 400 * 4))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: other)
        try handle.close()
        XCTAssertThrowsError(try Context().write(image, to: folder + "/out.png")) { error in
            XCTAssertTrue("\(error)".contains("changed since it was opened"), "\(error)")
            XCTAssertTrue("\(error)".contains("changing.png"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["changing.png"])
    }

    /// Opening a file reads the JPEG header walk's first 64 KiB and, for a PNG, stops there (it
    /// read 64 KiB, 256 KiB, 1 MiB... up to the whole file before the whole file was read again).
    func testTheJPEGHeaderWalkStopsAtAFileThatIsNoJPEG() throws {
        let png = try PNGCodec.encode(width: 400, height: 300, channels: 3, bitDepth: 8, bytes: samples(400 * 300 * 3),
                                      compressionLevel: 0)
        XCTAssertGreaterThan(png.count, 4 << 16)
        let file = try InputFile(path: try write(png, "big.png"))
        XCTAssertEqual(try file.jpegHeader(), Array(png.prefix(1 << 16)))
    }

    /// CRC-32 (PNG's, bitwise), for the chunk written by hand.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
