import Foundation
import XCTest
@testable import GraphEngine

/// JPEG files open lazily and decode when rendered, at the DCT scale the render needs.
final class FileSourceTests: XCTestCase {
    func testData(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/testdata/jpeg/libjpeg-turbo/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("shared/testdata is not beside the repository") }
        return path
    }

    func testDownscaledRenderDecodesAtReducedScale() throws {
        let image = try Image(contentsOf: try testData("testorig.jpg"))
        guard case .file(let source) = image.node.kind else { return XCTFail("a JPEG opens lazily") }
        XCTAssertEqual(source.width, 227)
        let quarter = image.transformed(by: AffineTransform(scaleX: 0.25, y: 0.25))
        let dump = try Context().dump(quarter)
        let log = dump.passes.first { $0.pass == "resolve-file-sources" }?.changes ?? []
        XCTAssertTrue(log.contains { $0.contains("decoded at 1/4 (57x38)") }, log.joined(separator: "\n"))

        // The DCT-scaled decode against a full decode shrunk by the same transform: close.
        let reduced = try Context().render(quarter, format: .rgba8)
        let fullBuffer = try source.buffer(scale: 1)
        let full = try Context().render(Image(buffer: fullBuffer).transformed(by: AffineTransform(scaleX: 0.25, y: 0.25)),
                                        rect: quarter.extent, format: .rgba8)
        XCTAssertEqual(reduced.width, full.width)
        var squared = 0.0
        let a = reduced.bytes, b = full.bytes
        for i in 0..<a.count where i % 4 != 3 { squared += pow(Double(a[i]) - Double(b[i]), 2) }
        let psnr = 10 * log10(255 * 255 / (squared / Double(a.count * 3 / 4)))
        XCTAssertGreaterThan(psnr, 24, "PSNR \(psnr)")
        // Unscaled use reads the full decode.
        XCTAssertFalse(try Context().dump(image).passes.contains { $0.changes.contains { $0.contains("decoded at") } })
    }

    func testTruncatedJPEGFailsTheRenderAndWritesNothing() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try testData("testorig.jpg")))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-truncated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let truncated = folder.appendingPathComponent("truncated.jpg")
        try bytes.prefix(bytes.count * 6 / 10).write(to: truncated)
        let image = try Image(contentsOf: truncated.path)
        let output = folder.appendingPathComponent("out.png").path
        XCTAssertThrowsError(try Context().write(image, to: output)) { error in
            XCTAssertTrue("\(error)".contains("could not be decoded"), "\(error)")
            XCTAssertTrue("\(error)".contains("truncated.jpg"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["truncated.jpg"])
    }
}
