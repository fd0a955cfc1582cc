import XCTest

@testable import GraphCodecs

#if canImport(Glibc)
import Glibc
#endif

/// ImageFile.writeAtomically: all or nothing.
final class AtomicWriteTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/graphcodecs-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("mkdtemp failed") }
        folder = String(cString: made)
    }

    override func tearDown() {
        for name in TestPaths.listFiles(folder) { unlink(folder + "/" + name) }
        rmdir(folder)
    }

    func testMissingDirectoryFailsCleanly() {
        let target = folder + "/missing/out.png"
        let error = expectCodecError { () throws(CodecError) in try ImageFile.writeAtomically([1, 2, 3], to: target) }
        XCTAssertEqual(error?.kind, .io)
        XCTAssertEqual(error?.path, target)
        XCTAssertTrue(TestPaths.listFiles(folder).isEmpty, "nothing left behind: \(TestPaths.listFiles(folder))")
    }

    func testWriteReplacesAndLeavesNoTemporaryFiles() throws {
        let target = folder + "/image.bin"
        try ImageFile.writeAtomically([1, 2, 3], to: target)
        XCTAssertEqual(try ImageFile.read(path: target), [1, 2, 3])
        try ImageFile.writeAtomically([4, 5], to: target)
        XCTAssertEqual(try ImageFile.read(path: target), [4, 5])
        XCTAssertEqual(TestPaths.listFiles(folder), ["image.bin"])
        // Refusing to overwrite keeps the old content and leaves nothing else.
        let error = expectCodecError { () throws(CodecError) in try ImageFile.writeAtomically([9], to: target, allowOverwriting: false) }
        XCTAssertTrue(error?.message.contains("exists") == true)
        XCTAssertEqual(try ImageFile.read(path: target), [4, 5])
        XCTAssertEqual(TestPaths.listFiles(folder), ["image.bin"])
        try ImageFile.writeAtomically([7], to: folder + "/new.bin", allowOverwriting: false)
        XCTAssertEqual(try ImageFile.read(path: folder + "/new.bin"), [7])
        XCTAssertEqual(TestPaths.listFiles(folder), ["image.bin", "new.bin"])
    }

    func testEncodeWriteDecode() throws {
        let target = folder + "/round.png"
        let pixels: [UInt8] = [0, 64, 128, 255]
        try ImageFile.writeAtomically(try PNGCodec.encode(width: 2, height: 2, channels: 1, bitDepth: 8, bytes: pixels), to: target)
        XCTAssertEqual(try ImageFile.decode(path: target).bytes, pixels)
        XCTAssertEqual(try ImageFile.info(path: target).format, .png)
    }
}
