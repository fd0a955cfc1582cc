import Foundation
import GraphCodecs
import GraphEngine
import XCTest
@testable import GraphCLI

/// `graph batch`: each input gets what a single `graph run` gives it, bad files are logged and
/// skipped, bad command lines run nothing, `--skip-existing` redoes exactly the stale outputs.
final class BatchCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Good generated inputs and the corrupt files of the shared test data, in one batch: every
    /// input's log line and output are those of `graph run` on that input alone.
    func testEveryInputGetsWhatASingleRunGivesIt() throws {
        let good = try BatchFixture.makeInputs(12, in: folder)
        let bad = path("in/bad")
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        let pngSuite = try BatchFixture.sharedTestData("pngsuite")
        let crashTests = try BatchFixture.sharedTestData("jpeg/jpeg-decoder/crashtest/images")
        var corrupt: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: pngSuite) where name.hasPrefix("x") {
            corrupt.append(pngSuite + "/" + name)
        }
        // All but the one large file (slow in debug builds).
        for name in try FileManager.default.contentsOfDirectory(atPath: crashTests)
        where name.hasSuffix(".jpg") && name != "extraneous-bytes-after-sos.jpg" {
            corrupt.append(crashTests + "/" + name)
        }
        for file in corrupt {
            try FileManager.default.copyItem(atPath: file, toPath: bad + "/" + (file as NSString).lastPathComponent)
        }
        let recipe = try writeRecipe(BatchFixture.sepiaRecipe, in: folder)
        let log = path("log.jsonl")
        let result = Graph.runInProcess(["batch", recipe, "--dir", path("in"), "--recursive", "--jobs", "3",
                                         "--out", path("out/{dir}/{stem}.png"), "--log", log])
        XCTAssertEqual(result.status, 1, result.err)
        let (entries, summary) = try BatchFixture.readLog(at: log)
        let inputs = good + corrupt.map { bad + "/" + ($0 as NSString).lastPathComponent }
        XCTAssertEqual(entries.count, inputs.count)
        var failures = 0
        for input in inputs {
            guard let entry = entries[input] else { XCTFail("no log line for \(input)"); continue }
            let folderName = input.hasPrefix(bad) ? "bad" : "."
            let output = OutputTemplate.tidy(path("out/\(folderName)/\(((input as NSString).lastPathComponent as NSString).deletingPathExtension).png"))
            XCTAssertEqual(entry["output"] as? String, output)
            let reference = path("reference.png")
            let single = Graph.runInProcess(["run", recipe, "--set", "photo.file=\(input)", "-o", reference])
            if single.status == 0 {
                XCTAssertEqual(entry["status"] as? String, "ok", "\(input): \(entry)")
                XCTAssertEqual(BatchFixture.bytes(output), BatchFixture.bytes(reference), input)
                try FileManager.default.removeItem(atPath: reference)
            } else {
                failures += 1
                XCTAssertEqual(entry["status"] as? String, "failed", input)
                let message = single.err.split(separator: "\n").first.map { String($0.dropFirst("graph: error: ".count)) }
                XCTAssertEqual(entry["error"] as? String, message, input)
                XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(output) of a failed input")
            }
            XCTAssertGreaterThan(entry["peak_bytes"] as? Int ?? 0, 1_000_000)
            XCTAssertNotNil(entry["ms"] as? Double)
        }
        XCTAssertGreaterThanOrEqual(failures, 14 + 8, "every corrupt PNG and most crash-test JPEGs fail")
        XCTAssertEqual(summary["failed"] as? Int, failures)
        XCTAssertEqual(summary["ok"] as? Int, inputs.count - failures)
        XCTAssertEqual(summary["total"] as? Int, inputs.count)
        XCTAssertTrue(result.err.contains("graph: batch: \(inputs.count) files: \(inputs.count - failures) ok, 0 skipped, \(failures) failed"), result.err)
    }

    /// `--skip-existing` skips inputs whose outputs are up to date, and redoes an input that is
    /// newer than its output, a missing output, and everything after the recipe changes.
    func testSkipExistingRedoesExactlyTheStaleOutputs() throws {
        let inputs = try BatchFixture.makeInputs(4, in: folder)
        let recipe = try writeRecipe(BatchFixture.sepiaRecipe, in: folder)
        let log = path("log.jsonl")
        let arguments = ["batch", recipe, "--glob", path("in/*"), "--out", path("out/{stem}.png"), "--log", log, "--skip-existing"]
        func statuses() throws -> [String] {
            let (entries, _) = try BatchFixture.readLog(at: log)
            return inputs.map { entries[$0]?["status"] as? String ?? "none" }
        }
        func setModificationTime(_ file: String, secondsFromNow: Double) throws {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: secondsFromNow)], ofItemAtPath: file)
        }
        XCTAssertEqual(Graph.runInProcess(arguments).status, 0)
        XCTAssertEqual(try statuses(), ["ok", "ok", "ok", "ok"])
        XCTAssertEqual(Graph.runInProcess(arguments).status, 0)
        XCTAssertEqual(try statuses(), ["skipped", "skipped", "skipped", "skipped"])
        try setModificationTime(inputs[1], secondsFromNow: 60)
        try FileManager.default.removeItem(atPath: path("out/img003.png"))
        XCTAssertEqual(Graph.runInProcess(arguments).status, 0)
        XCTAssertEqual(try statuses(), ["skipped", "ok", "skipped", "ok"])
        try setModificationTime(recipe, secondsFromNow: 120)
        XCTAssertEqual(Graph.runInProcess(arguments).status, 0)
        XCTAssertEqual(try statuses(), ["ok", "ok", "ok", "ok"])
        XCTAssertEqual(Graph.runInProcess(Array(arguments.dropLast())).status, 0)
        XCTAssertEqual(try statuses(), ["ok", "ok", "ok", "ok"], "without --skip-existing everything is redone")
    }

    /// A bad recipe or command line exits with status 2 before any file is written or logged.
    func testBadRecipesAndCommandLinesRunNothing() throws {
        try BatchFixture.makeInputs(3, in: folder)
        // The first input (by name) is corrupt: the recipe check must look past it.
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("in/a-corrupt.png"))
        let sepia = try writeRecipe(BatchFixture.sepiaRecipe, in: folder)
        let unknownFilter = try writeRecipe(BatchFixture.sepiaRecipe.replacingOccurrences(of: "CISepiaTone", with: "CISepiaTon"),
                                            in: folder, name: "unknown.json")
        let twoFiles = try writeRecipe(#"""
            {"version": 1, "images": {"a": {"file": "x.png"}, "b": {"file": "y.png"},
              "c": {"filter": "CISourceOverCompositing", "inputs": {"inputImage": {"image": "a"}, "inputBackgroundImage": {"image": "b"}}}},
             "outputs": [{"image": "c", "file": "c.png"}]}
            """#, in: folder, name: "two-files.json")
        let twoOutputs = try writeRecipe(#"""
            {"version": 1, "images": {"a": {"file": "x.png"}},
             "outputs": [{"image": "a", "file": "one.png"}, {"image": "a", "file": "two.jpg"}]}
            """#, in: folder, name: "two-outputs.json")
        let glob = path("in/*")
        let out = path("out/{stem}.png")
        let cases: [([String], String)] = [
            ([unknownFilter, "--glob", glob, "--out", out], #"images.toned.filter: unknown filter "CISepiaTon""#),
            ([sepia, "--glob", glob, "--out", path("out/{name}.png")], "--out: unknown placeholder {name}"),
            ([sepia, "--glob", glob, "--out", path("out/{stem.png")], "--out: unclosed '{'"),
            ([sepia, "--glob", glob, "--out", path("out/same.png")], "would both write"),
            ([sepia, "--glob", glob, "--out", path("out/{stem}.tif")],
             "--out: unknown output format \".tif\" in '\(path("out/{stem}.tif"))'; use .png, .jpg, .jpeg or .heic"),
            ([sepia, "--glob", glob, "--out", path("in/{stem}.{ext}")], "refusing to overwrite"),
            ([sepia, "--out", out], "inputs: none given"),
            ([sepia, "--manifest", path("missing.txt"), "--out", out], "--manifest: cannot read"),
            ([sepia, "--dir", path("missing"), "--out", out], "--dir: "),
            ([sepia, "--glob", glob, "--out", out, "--jobs", "0"], "--jobs: expected 1...256"),
            ([sepia, "--glob", glob, "--out", out, "--jobs", "many"], "invalid for '--jobs"),
            ([sepia, "--glob", glob, "--out", out, "--threads", "0"], "--threads: expected 1...1024"),
            ([sepia, "--glob", glob, "--out", out, "--set", "nope.inputIntensity=1"], #"no image named "nope""#),
            ([sepia, "--glob", glob, "--out", out, "--input-image", "toned"], #"image "toned" is not a "file" image"#),
            ([twoFiles, "--glob", glob, "--out", out], "the recipe reads several files (a, b)"),
            ([twoOutputs, "--glob", glob, "--out", out], "the recipe has 2 outputs"),
        ]
        for (arguments, expected) in cases {
            let result = Graph.runInProcess(["batch"] + arguments + ["--log", path("log.jsonl")])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains(expected), "\(arguments): expected \"\(expected)\" in \(result.err)")
            XCTAssertFalse(exists(folder, "out"), "\(arguments) wrote outputs")
            XCTAssertFalse(exists(folder, "log.jsonl"), "\(arguments) wrote a log")
        }
    }

    /// Every file image reading the bound file follows the input (a mask made from the photo
    /// itself, as a depth map of the photo would); a file image reading another file stays.
    func testEveryFileImageOfTheInputFollowsIt() throws {
        let inputs = try BatchFixture.makeInputs(3, in: folder)
        let logo = try BatchFixture.makeInputs(1, in: folder, sub: "fixed")[0]
        let recipe = try writeRecipe(#"""
            {"version": 1,
             "images": {"photo": {"file": "in/img000.png"}, "mask": {"file": "in/img000.png", "colorSpace": "data"},
                        "logo": {"file": "fixed/img000.png"},
                        "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}}},
                        "blend": {"filter": "CIBlendWithMask", "inputs": {"inputImage": {"image": "toned"},
                                  "inputBackgroundImage": {"image": "logo"}, "inputMaskImage": {"image": "mask"}}},
                        "out": {"filter": "CICrop", "inputs": {"inputImage": {"image": "blend"}, "inputRectangle": [0, 0, 6, 5]}}},
             "outputs": [{"image": "out", "file": "out.png"}]}
            """#, in: folder)
        let result = Graph.runInProcess(["batch", recipe, "--input-image", "photo", "--out", path("out/{stem}.png"),
                                         "--log", path("log.jsonl")] + inputs)
        XCTAssertEqual(result.status, 0, result.err)
        for input in inputs {
            let reference = path("reference.png")
            let single = Graph.runInProcess(["run", recipe, "--set", "photo.file=\(input)", "--set", "mask.file=\(input)",
                                             "--set", "logo.file=\(logo)", "-o", reference])
            XCTAssertEqual(single.status, 0, single.err)
            let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            XCTAssertEqual(BatchFixture.bytes(path("out/\(name).png")), BatchFixture.bytes(reference), input)
            // `run --set photo.file=` moves the mask with the photo too, as batch does.
            let photoOnly = Graph.runInProcess(["run", recipe, "--set", "photo.file=\(input)", "-o", reference])
            XCTAssertEqual(photoOnly.status, 0, photoOnly.err)
            XCTAssertEqual(BatchFixture.bytes(path("out/\(name).png")), BatchFixture.bytes(reference), input)
            // Keeping the mask on the first file gives another image: the mask really follows.
            let maskKept = Graph.runInProcess(["run", recipe, "--set", "photo.file=\(input)", "--set", "mask.file=\(inputs[0])",
                                               "-o", reference])
            XCTAssertEqual(maskKept.status, 0, maskKept.err)
            if input != inputs[0] {
                XCTAssertNotEqual(BatchFixture.bytes(path("out/\(name).png")), BatchFixture.bytes(reference), input)
            }
        }
    }

    /// Several outputs: one template each, or one with `{output}`; formats follow the extensions.
    func testSeveralOutputsFollowTheirTemplates() throws {
        let inputs = try BatchFixture.makeInputs(2, in: folder)
        let recipe = try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "in/img000.png"},
              "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}}}},
             "outputs": [{"image": "photo", "file": "plain.png"}, {"image": "toned", "file": "sepia.jpg", "quality": 70}]}
            """#, in: folder)
        let each = Graph.runInProcess(["batch", recipe, "--out", path("each/{stem}-a.jpg"), "--out", path("each/{stem}-b.png"),
                                       "--log", path("each.jsonl")] + inputs)
        XCTAssertEqual(each.status, 0, each.err)
        let one = Graph.runInProcess(["batch", recipe, "--out", path("one/{stem}-{output}.png"), "--log", path("one.jsonl")] + inputs)
        XCTAssertEqual(one.status, 0, one.err)
        for name in ["img000", "img001"] {
            XCTAssertEqual(try ImageFile.info(path: path("each/\(name)-a.jpg")).format, .jpeg)
            XCTAssertEqual(try ImageFile.info(path: path("each/\(name)-b.png")).format, .png)
            XCTAssertEqual(try ImageFile.info(path: path("one/\(name)-plain.png")).format, .png)
            XCTAssertEqual(try ImageFile.info(path: path("one/\(name)-sepia.png")).format, .png)
            // The same output image, whatever the template: the sepia PNGs match.
            XCTAssertEqual(BatchFixture.bytes(path("each/\(name)-b.png")), BatchFixture.bytes(path("one/\(name)-sepia.png")))
        }
        let (entries, _) = try BatchFixture.readLog(at: path("one.jsonl"))
        XCTAssertEqual(entries[inputs[1]]?["outputs"] as? [String], [path("one/img001-plain.png"), path("one/img001-sepia.png")])
        XCTAssertEqual(entries[inputs[1]]?["output"] as? String, path("one/img001-plain.png"))
    }

    /// Without `--out`, the recipe's own output files are the templates.
    func testRecipeOutputFilesAreTemplatesWithoutOut() throws {
        let inputs = try BatchFixture.makeInputs(2, in: folder)
        let recipe = try writeRecipe(BatchFixture.sepiaRecipe.replacingOccurrences(of: "out/toned.png", with: "out/{stem}-{index:3}.png"),
                                     in: folder)
        let result = Graph.runInProcess(["batch", recipe, "--first-index", "7", "--log", path("log.jsonl")] + inputs)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(exists(folder, "out/img000-007.png"))
        XCTAssertTrue(exists(folder, "out/img001-008.png"))
    }

    /// `--fail-fast` starts no file after the first failure.
    func testFailFastStopsAfterTheFirstFailure() throws {
        let inputs = try BatchFixture.makeInputs(5, in: folder)
        let corrupt = path("in/a-corrupt.png")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: corrupt))
        let recipe = try writeRecipe(BatchFixture.sepiaRecipe, in: folder)
        let result = Graph.runInProcess(["batch", recipe, "--jobs", "1", "--fail-fast", "--out", path("out/{stem}.png"),
                                         "--log", path("log.jsonl"), corrupt] + inputs)
        XCTAssertEqual(result.status, 1, result.err)
        let (entries, summary) = try BatchFixture.readLog(at: path("log.jsonl"))
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries[corrupt]?["status"] as? String, "failed")
        XCTAssertEqual(summary["not_run"] as? Int, 5)
        XCTAssertEqual(summary["stopped_by"] as? String, "fail-fast")
        XCTAssertFalse(exists(folder, "out"))
    }

    /// The log goes to stdout without `--log`: one object per input with the documented keys,
    /// then the summary.
    func testLogOnStandardOutput() throws {
        let inputs = try BatchFixture.makeInputs(3, in: folder)
        let recipe = try writeRecipe(BatchFixture.sepiaRecipe, in: folder)
        let result = Graph.runInProcess(["batch", recipe, "--out", path("out/{stem}.jpg")] + inputs)
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.out.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        for line in lines.dropLast() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            XCTAssertEqual(Set(object.keys), ["input", "index", "output", "outputs", "status", "error", "ms", "peak_bytes", "warnings"])
            XCTAssertTrue(object["error"] is NSNull)
        }
        let summary = try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any]
        XCTAssertEqual((summary?["summary"] as? [String: Any])?["ok"] as? Int, 3)
        XCTAssertTrue(result.err.hasPrefix("graph: batch: 3 files: 3 ok, 0 skipped, 0 failed in "), result.err)
    }

    /// Temporaries that a killed writer left beside the batch's outputs are removed when the
    /// batch starts; those of a live process, or of files it does not write, stay.
    func testTemporariesOfKilledWritersAreRemoved() throws {
        let inputs = try BatchFixture.makeInputs(1, in: folder)
        let recipe = try writeRecipe(BatchFixture.sepiaRecipe, in: folder)
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        var dead: pid_t = 4_000_000
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let stale = path("out/.img000.png.tmp-\(dead)-12345-0")
        let live = path("out/.img000.png.tmp-\(getpid())-12345-0")
        let other = path("out/.unrelated.png.tmp-\(dead)-12345-0")
        for file in [stale, live, other] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file)) }
        let result = Graph.runInProcess(["batch", recipe, "--out", path("out/{stem}.png"), "--log", path("log.jsonl")] + inputs)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other))
    }
}
