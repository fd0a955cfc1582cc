import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// PNG inputs decode on a thread of their own while the render reads their rows: the render is the
/// whole decode's, what needs the whole file decodes whole, and corrupt image data fails the
/// render (no file written) instead of the open.
final class PNGBackgroundDecodeTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "png-background-\(UUID().uuidString)"
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

    /// Whether the opened image is a buffer being filled in the background.
    private func decodesInBackground(_ image: Image) -> Bool {
        guard case .buffer(let buffer) = image.node.kind else { return false }
        return buffer.rowProgress != nil
    }

    func testTheRenderIsTheWholeDecodes() throws {
        let (width, height) = (190, 230)
        for (channels, bitDepth) in [(3, 8), (4, 16), (2, 8), (1, 16)] {
            let png = try PNGCodec.encode(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                          bytes: samples(width * height * channels * bitDepth / 8))
            let path = try write(png, "\(channels)x\(bitDepth).png")
            let opened = try Image(contentsOf: path)
            XCTAssertTrue(decodesInBackground(opened), "\(channels) channels, \(bitDepth) bits")
            let whole = Image(buffer: try ImageBuffer(decoded: try ImageFile.decode(png)))
            let context = Context()
            XCTAssertTrue(try context.render(opened, format: .rgba16).bytes == context.render(whole, format: .rgba16).bytes,
                          "\(channels) channels, \(bitDepth) bits")
        }
    }

    /// Interlaced files, an EXIF orientation to apply and chunks after the image data need the
    /// whole file: they decode at open, the late chunk's text in the metadata.
    func testWhatNeedsTheWholeFileDecodesWhole() throws {
        let pixels = samples(40 * 30 * 3)
        let interlaced = try write(try PNGCodec.encode(width: 40, height: 30, channels: 3, bitDepth: 8, bytes: pixels, interlaced: true),
                                   "interlaced.png")
        XCTAssertFalse(decodesInBackground(try Image(contentsOf: interlaced)))
        let rotated = try write(try PNGCodec.encode(width: 40, height: 30, channels: 3, bitDepth: 8, bytes: pixels,
                                                    exif: EXIF.makeOrientationTIFF(6)), "rotated.png")
        let upright = try Image(contentsOf: rotated)
        XCTAssertFalse(decodesInBackground(upright))
        XCTAssertEqual([upright.extent.width, upright.extent.height], [30, 40])
        XCTAssertTrue(decodesInBackground(try Image(contentsOf: rotated, options: ImageReadOptions(applyOrientation: false))))

        let plain = try PNGCodec.encode(width: 40, height: 30, channels: 3, bitDepth: 8, bytes: pixels)
        let text = Array("tEXt".utf8) + Array("Comment\0after the pixels".utf8)
        let chunk = withUnsafeBytes(of: UInt32(text.count - 4).bigEndian) { Array($0) } + text
            + withUnsafeBytes(of: Self.crc32(text).bigEndian) { Array($0) }
        let late = try write(Array(plain.dropLast(12)) + chunk + Array(plain.suffix(12)), "late-text.png")
        let (image, metadata, _) = try Image.decoding(path: late)
        XCTAssertFalse(decodesInBackground(image))
        XCTAssertEqual(metadata.comments, ["Comment: after the pixels"])
    }

    func testCorruptImageDataFailsTheRenderAndWritesNothing() throws {
        let png = try PNGCodec.encode(width: 300, height: 200, channels: 3, bitDepth: 8, bytes: samples(300 * 200 * 3))
        let path = try write(Array(png.prefix(png.count * 6 / 10)), "truncated.png")
        let image = try Image(contentsOf: path)
        let output = folder + "/out.png"
        XCTAssertThrowsError(try Context().write(image, to: output)) { error in
            XCTAssertTrue("\(error)".contains("could not be decoded"), "\(error)")
            XCTAssertTrue("\(error)".contains("truncated.png"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["truncated.png"])
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
