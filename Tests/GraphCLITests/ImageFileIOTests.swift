import Foundation
import GraphEngine
import XCTest

/// The codec bridge: straight alpha on write, 16-bit round trips, atomic refusal.
final class ImageFileIOTests: XCTestCase {
    func testTranslucentPNGIsWrittenUnpremultiplied() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("half.png").path
        try Context().write(Image(color: [1, 0, 0, 0.5]).cropped(to: Rect(x: 0, y: 0, width: 2, height: 2)), to: path)
        let image = try Image(contentsOf: path)
        let buffer = try Context().render(image, format: .rgba8)
        let pixel = buffer.pixel(x: 0, row: 0)
        // Rendered back premultiplied: red ≈ alpha ≈ 0.5.
        XCTAssertEqual(pixel[0], 0.5, accuracy: 0.01)
        XCTAssertEqual(pixel[3], 0.5, accuracy: 0.01)
    }

    func testSixteenBitRoundTrip() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("deep.png").path
        let value = 0.123456
        try Context().write(Image(color: [value, value, value, 1]).cropped(to: Rect(x: 0, y: 0, width: 3, height: 1)),
                            to: path, options: ImageWriteOptions(bitDepth: 16))
        // Read back within 1e-3 (8 bits would be 0.0019 off).
        let pixel = try Context().render(try Image(contentsOf: path), format: .rgbaf).pixel(x: 0, row: 0)
        XCTAssertEqual(Double(pixel[0]), value, accuracy: 1e-3)
    }

    func testRefusesProtectedPathAndUnknownExtension() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png").path
        let image = try Image(contentsOf: input)
        XCTAssertThrowsError(try Context().write(image, to: input, protectedPaths: [input]))
        XCTAssertThrowsError(try Context().write(image, to: folder.appendingPathComponent("x.bmp").path))
        XCTAssertFalse(exists(folder, "x.bmp"))
    }

    func testInfiniteImageWritesNoFile() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertThrowsError(try Context().write(Image(color: [1, 1, 1, 1]), to: folder.appendingPathComponent("inf.png").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(leftovers, ["in.png"])
    }
}
