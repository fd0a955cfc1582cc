import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// JPEG and PNG inputs are read as the render decodes them (issue 31, item 6): an input written in
/// place between opening and rendering fails the render with an error naming it, instead of a
/// silently different output; an input replaced by a rename, or left alone, renders as opened; and
/// one file named by many images is opened and decoded once.
final class InputFileChangeTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "input-change-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    private let (width, height) = (160, 240)

    /// An uncompressed PNG (so every variant has the same size) with samples shifted by `seed`.
    private func png(seed: Int) throws -> [UInt8] {
        let bytes = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 311 + seed) }
        return try PNGCodec.encode(width: width, height: height, channels: 3, bitDepth: 8, bytes: bytes, compressionLevel: 0)
    }

    private func jpeg(seed: Int) throws -> [UInt8] {
        let bytes = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: ($0 / 3 % width) + $0 / (3 * width) + seed * 40) }
        return try JPEGCodec.encode(width: width, height: height, channels: 3, bytes: bytes)
    }

    /// Overwrites the file's bytes in place (same inode, no truncation when the sizes match), as an
    /// editor saving over it would.
    private func rewriteInPlace(_ path: String, with bytes: [UInt8]) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = folder + "/" + name
        try ImageFile.writeAtomically(bytes, to: path)
        return path
    }

    func testAPNGWrittenInPlaceBeforeTheRenderFailsIt() throws {
        let original = try png(seed: 0), edited = try png(seed: 1)
        XCTAssertEqual(original.count, edited.count)
        let path = try write(original, "in.png")
        let image = try Image(contentsOf: path)
        guard case .file = image.node.kind else { return XCTFail("the PNG did not open as a file source") }
        Thread.sleep(forTimeInterval: 0.01)  // a new modification time even on coarse clocks
        try rewriteInPlace(path, with: edited)
        XCTAssertThrowsError(try Context().render(image)) { error in
            XCTAssertTrue("\(error)".contains("the file changed while it was being read"), "\(error)")
            XCTAssertTrue("\(error)".contains("in.png"), "\(error)")
        }
    }

    func testAJPEGWrittenInPlaceFailsTheWrite() throws {
        let path = try write(try jpeg(seed: 0), "in.jpg")
        let image = try Image(contentsOf: path)
        Thread.sleep(forTimeInterval: 0.01)
        try rewriteInPlace(path, with: try jpeg(seed: 2))
        let output = folder + "/out.png"
        XCTAssertThrowsError(try Context().write(image, to: output)) { error in
            XCTAssertTrue("\(error)".contains("the file changed while it was being read"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "a failed render left its output")
    }

    /// Replacing the path by a rename leaves the open file as it was: the render is the original's.
    func testAnInputReplacedByARenameRendersAsOpened() throws {
        let original = try png(seed: 0)
        let path = try write(original, "in.png")
        let image = try Image(contentsOf: path)
        _ = try write(try png(seed: 3), "in.png")  // atomic: a new file renamed over the path
        let expected = Image(buffer: try ImageBuffer(decoded: try ImageFile.decode(original)))
        let context = Context()
        XCTAssertEqual(try context.render(image).bytes, try context.render(expected).bytes)
    }

    /// Images of one file share its source (one decode, one node after deduplication): 200 images
    /// of one 4 MP PNG decoded it 200 times (2.5 GB). Other decode settings get a source of their own.
    func testImagesOfOneFileShareOneSource() throws {
        let path = try write(try png(seed: 0), "in.png")
        func source(_ image: Image) -> AnyObject? {
            guard case .file(let source) = image.node.kind else { return nil }
            return source
        }
        let first = try Image(contentsOf: path), second = try Image(contentsOf: path)
        XCTAssertNotNil(source(first))
        XCTAssertTrue(source(first) === source(second))
        let asData = try Image(dataContentsOf: path)
        XCTAssertFalse(source(first) === source(asData), "a data image (no colour space) is opened apart")
        let context = Context()
        let over = second.composited(over: first)
        XCTAssertEqual(try context.render(over).bytes, try context.render(first).bytes)
    }

    /// Opening one file for many images holds one descriptor; it closes with the last image.
    func testOneFileOpenedManyTimesHoldsOneDescriptor() throws {
        let path = try write(try png(seed: 0), "in.png")
        func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { throw XCTSkip("no /proc/self/fd here") }
        let before = try openDescriptors()
        var images = try (0..<200).map { _ in try Image(contentsOf: path) }
        XCTAssertEqual(try openDescriptors() - before, 1)
        // A file written since is another file: it gets a descriptor of its own.
        Thread.sleep(forTimeInterval: 0.01)
        try rewriteInPlace(path, with: try png(seed: 1))
        images.append(try Image(contentsOf: path))
        XCTAssertEqual(try openDescriptors() - before, 2)
        do {
            let context = Context()
            XCTAssertThrowsError(try context.render(images[0]))
            XCTAssertNoThrow(try context.render(images[200]))
        }
        images.removeAll()
        XCTAssertEqual(try openDescriptors() - before, 0)
    }
}
