import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// `Image.oriented(_:)` against the codecs' own orientation (an independent implementation), and
/// the options of `Image(contentsOf:options:)`.
final class ImageReadOptionsTests: XCTestCase {
    /// A 5×3 image whose every pixel differs, written as PNG with EXIF orientation `orientation`.
    private func writeTagged(_ orientation: Int, in folder: URL) throws -> String {
        let width = 5, height = 3
        var bytes: [UInt8] = []
        for index in 0..<(width * height) { bytes += [UInt8(index * 16), UInt8(255 - index * 8), UInt8(index * 3), 255] }
        let buffer = try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .premultiplied, bytes: bytes)
        var metadata = ImageMetadata(format: .png)
        metadata.exif = EXIF.makeOrientationTIFF(1)
        let path = folder.appendingPathComponent("o\(orientation).png").path
        try Context().write(Image(buffer: buffer), to: path,
                            options: ImageWriteOptions(metadata: metadata, exifOrientation: orientation, colorSpace: .data))
        return path
    }

    func testOrientedMatchesTheDecodersOrientationForAllEight() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oriented-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = Context()
        for orientation in 1...8 {
            let path = try writeTagged(orientation, in: folder)
            XCTAssertEqual(try ImageFile.info(path: path).metadata.exifOrientation, orientation)
            let upright = try Image(contentsOf: path, options: ImageReadOptions(color: .data))
            let stored = try Image(contentsOf: path, options: ImageReadOptions(color: .data, applyOrientation: false))
            XCTAssertEqual(stored.extent, Rect(x: 0, y: 0, width: 5, height: 3))
            let turned = try stored.oriented(orientation)
            XCTAssertEqual(turned.extent, upright.extent, "orientation \(orientation)")
            XCTAssertEqual(try context.render(turned, format: .rgba8, colorSpace: .data).bytes,
                           try context.render(upright, format: .rgba8, colorSpace: .data).bytes, "orientation \(orientation)")
        }
        // An extent away from the origin keeps its origin.
        let moved = Image(color: [1, 0, 0, 1]).cropped(to: Rect(x: 10, y: 20, width: 4, height: 2))
        XCTAssertEqual(try moved.oriented(6).extent, Rect(x: 10, y: 20, width: 2, height: 4))
        XCTAssertThrowsError(try moved.oriented(9)) { XCTAssertTrue("\($0)".contains("expected an EXIF orientation 1...8, got 9")) }
    }

    func testColorOptions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeTagged(1, in: folder)
        func colorSpace(_ image: Image) -> ColorSpace?? {
            switch image.node.kind {
            case .buffer(let buffer): return .some(buffer.colorSpace)
            case .file(let source): return .some(source.colorSpace)
            default: return nil
            }
        }
        XCTAssertEqual(colorSpace(try Image(contentsOf: path)), .some(.sRGB))
        XCTAssertEqual(colorSpace(try Image(contentsOf: path, options: ImageReadOptions(color: .data))), .some(nil))
        XCTAssertEqual(colorSpace(try Image(contentsOf: path, options: ImageReadOptions(color: .assume(.displayP3)))), .some(.displayP3))
        XCTAssertThrowsError(try Image(contentsOf: path, options: ImageReadOptions(maximumPixelCount: 14))) {
            XCTAssertTrue("\($0)".contains("above the limit of 14 pixels"), "\($0)")
        }
        XCTAssertThrowsError(try Image(contentsOf: path, options: ImageReadOptions(auxiliary: .disparity)))
    }
}
