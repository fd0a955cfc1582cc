import XCTest

@testable import GraphCodecs

#if canImport(Glibc)
import Glibc
#endif

/// PendingFileGroup.commit: several files change together or not at all, whichever step fails.
final class PendingFileGroupTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/graphcodecs-group-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("mkdtemp failed") }
        folder = String(cString: made)
    }

    override func tearDown() {
        CommitFaults.injector = nil
        for name in TestPaths.listFiles(folder) {
            let path = folder + "/" + name
            if unlink(path) != 0 { rmdir(path) }
        }
        rmdir(folder)
    }

    /// `a` and `c` exist before, `b` is new: the group writes new bytes to all three.
    private func prepareGroup() throws -> [PendingFile] {
        try ImageFile.writeAtomically([1, 1], to: folder + "/a")
        try ImageFile.writeAtomically([3, 3, 3], to: folder + "/c")
        return try ["a", "b", "c"].enumerated().map { index, name in
            let file = try PendingFile(path: folder + "/" + name)
            try file.write([UInt8(10 + index)])
            return file
        }
    }

    private func contents() -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in TestPaths.listFiles(folder) { result[name] = try? ImageFile.read(path: folder + "/" + name) }
        return result
    }

    private let before: [String: [UInt8]] = ["a": [1, 1], "c": [3, 3, 3]]
    private let after: [String: [UInt8]] = ["a": [10], "b": [11], "c": [12]]

    func testEveryStepSucceedingWritesAllAndLeavesNoBackup() throws {
        let files = try prepareGroup()
        var steps: [String] = []
        CommitFaults.injector = { step, path in
            steps.append("\(step.rawValue) \(path.split(separator: "/").last ?? "")")
            return nil
        }
        try PendingFileGroup.commit(files)
        XCTAssertEqual(contents(), after, "all new, no temporary or backup left")
        // fsync of every temporary first, a backup of `a` only (`b` is new, `c` is last), renames.
        XCTAssertEqual(steps, ["fsync a", "fsync b", "fsync c", "link a", "rename a", "rename b", "rename c"])
    }

    /// The issue's acceptance: fail the k-th fsync, link or rename for every k; after each, either
    /// every output is new or none changed, and no temporary or backup is left.
    func testFailingAnyStepChangesNothing() throws {
        for k in 0..<7 {
            CommitFaults.injector = nil
            for name in TestPaths.listFiles(folder) { unlink(folder + "/" + name) }
            let files = try prepareGroup()
            var calls = 0
            var failed = ""
            CommitFaults.injector = { step, path in
                defer { calls += 1 }
                guard calls == k else { return nil }
                failed = "\(step.rawValue) \(path.split(separator: "/").last ?? "")"
                return EIO
            }
            let error = expectCodecError { () throws(CodecError) in try PendingFileGroup.commit(files) }
            XCTAssertEqual(contents(), before, "step \(k) (\(failed)) failed: nothing changed, nothing left behind")
            XCTAssertEqual(error?.kind, .io)
            XCTAssertTrue(error?.message.hasSuffix(": Input/output error; none of the 3 outputs was changed") == true,
                          "step \(k) (\(failed)): \(error?.description ?? "no error")")
        }
    }

    /// A real failure, no errno injected: a folder appears at the second target's path while the
    /// group commits. `a` gets its old bytes back from the backup, `c` is untouched.
    func testAFolderAppearingAtASecondTargetRollsBackTheFirst() throws {
        let files = try prepareGroup()
        CommitFaults.injector = { [folder] step, path in
            if step == .rename, path == folder + "/b" { mkdir(path, 0o755) }
            return nil
        }
        let error = expectCodecError { () throws(CodecError) in try PendingFileGroup.commit(files) }
        XCTAssertEqual(error?.path, folder + "/b")
        XCTAssertEqual(error?.message, "cannot rename the temporary file over the target: Is a directory; none of the 3 outputs was changed")
        XCTAssertEqual(TestPaths.listFiles(folder), ["a", "b", "c"])
        XCTAssertEqual(try ImageFile.read(path: folder + "/a"), [1, 1])
        XCTAssertEqual(try ImageFile.read(path: folder + "/c"), [3, 3, 3])
        XCTAssertEqual(TestPaths.listFiles(folder + "/b"), [], "b is the folder the test made")
    }
}
