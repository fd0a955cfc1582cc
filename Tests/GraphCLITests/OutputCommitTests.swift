import Foundation
import GraphEngine
import XCTest
@testable import GraphCLI
@testable import GraphCodecs

#if canImport(Glibc)
import Glibc
#endif

/// A run's (and a batch file's) outputs change together or not at all, even when the last step,
/// renaming them into place, fails part-way (issue 31, item 1). Failures are staged through the
/// commit's failure-injection point (`CommitFaults`).
final class OutputCommitTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try makeWorkspace() }
    override func tearDown() {
        CommitFaults.injector = nil
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func bytes(_ name: String) -> [UInt8]? { try? ImageFile.read(path: path(name)) }

    /// Three outputs: `out/a.png` and `c.jpg` exist with known bytes, `b.png` is new.
    private func threeOutputRecipe() throws -> String {
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        try ImageFile.writeAtomically(Array("old a".utf8), to: path("out/a.png"))
        try ImageFile.writeAtomically(Array("old c".utf8), to: path("c.jpg"))
        return try writeRecipe(#"""
            {"version": 1, "images": {"src": {"file": "in.png"},
              "out": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "src"}}}},
             "outputs": [{"image": "out", "file": "out/a.png"}, {"image": "src", "file": "b.png"}, {"image": "out", "file": "c.jpg"}]}
            """#, in: folder)
    }

    private func listing() -> [String] {
        (try? FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()) ?? []
    }

    /// The issue's reproducer: a folder appears at the second output's path while the run
    /// commits. Exit 2 naming that output; `out/a.png`, already renamed, gets its old bytes back,
    /// `c.jpg` is untouched, no temporary or backup is left.
    func testAFolderAtTheSecondOutputDuringTheCommitLeavesEveryOutputAsItWas() throws {
        let recipe = try threeOutputRecipe()
        let before = listing()
        let target = path("b.png")
        CommitFaults.injector = { step, path in
            if step == .rename, path == target { mkdir(path, 0o755) }
            return nil
        }
        let result = Graph.runInProcess(["run", recipe])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "graph: error: outputs[1].file: \(target): cannot rename the temporary file over the target: Is a directory; none of the 3 outputs was changed\n")
        XCTAssertEqual(bytes("out/a.png"), Array("old a".utf8))
        XCTAssertEqual(bytes("c.jpg"), Array("old c".utf8))
        XCTAssertEqual(listing(), (before + ["b.png"]).sorted(), "only the folder the test made is new")
    }

    /// Every fsync, backup link and rename of the commit failed in turn: after each, every output
    /// is as before (byte for byte) and nothing else is left; with no failure, all three are new.
    func testFailingEachCommitStepInTurnChangesNoOutput() throws {
        let recipe = try threeOutputRecipe()
        let before = listing()
        var k = 0
        while true {
            var calls = 0
            var failed = ""
            CommitFaults.injector = { step, path in
                defer { calls += 1 }
                guard calls == k else { return nil }
                failed = "\(step.rawValue) \(path)"
                return ENOSPC
            }
            let result = Graph.runInProcess(["run", recipe])
            if calls <= k {
                // Every step ran: the run succeeded and wrote all three.
                XCTAssertEqual(result.status, 0, result.err)
                XCTAssertEqual(k, 7, "3 fsyncs, 1 backup link (out/a.png; b.png is new, c.jpg last), 3 renames")
                break
            }
            XCTAssertEqual(result.status, 2, "step \(k): \(failed)")
            XCTAssertTrue(result.err.hasSuffix("No space left on device; none of the 3 outputs was changed\n"), "step \(k): \(result.err)")
            XCTAssertEqual(bytes("out/a.png"), Array("old a".utf8), "step \(k): \(failed)")
            XCTAssertEqual(bytes("c.jpg"), Array("old c".utf8), "step \(k): \(failed)")
            XCTAssertEqual(listing(), before, "step \(k): \(failed)")
            k += 1
        }
        XCTAssertEqual(try ImageFile.info(path: path("out/a.png")).format, .png)
        XCTAssertEqual(try ImageFile.info(path: path("b.png")).format, .png)
        XCTAssertEqual(try ImageFile.info(path: path("c.jpg")).format, .jpeg)
    }

    /// `graph batch`: a file whose second output cannot be renamed into place keeps neither output
    /// (its first one, renamed already, is removed again); the other files are written.
    func testABatchFileWhoseSecondOutputFailsKeepsNeither() throws {
        let inputs = try BatchFixture.makeInputs(3, in: folder)
        let recipe = try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "in/img000.png"},
              "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}}}},
             "outputs": [{"image": "photo", "file": "plain.png"}, {"image": "toned", "file": "sepia.png"}]}
            """#, in: folder)
        let blocked = path("out/img001-b.png")
        CommitFaults.injector = { step, path in step == .rename && path == blocked ? EACCES : nil }
        let result = Graph.runInProcess(["batch", recipe, "--jobs", "1", "--out", path("out/{stem}-a.png"),
                                         "--out", path("out/{stem}-b.png"), "--log", path("log.jsonl")] + inputs)
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")).sorted(),
                       ["img000-a.png", "img000-b.png", "img002-a.png", "img002-b.png"])
        let (entries, summary) = try BatchFixture.readLog(at: path("log.jsonl"))
        XCTAssertEqual(entries[inputs[1]]?["status"] as? String, "failed")
        XCTAssertEqual(entries[inputs[1]]?["error"] as? String,
                       "outputs[1].file: \(blocked): cannot rename the temporary file over the target: Permission denied; none of the 2 outputs was changed")
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["ok"] as? Int, 2)
    }
}
