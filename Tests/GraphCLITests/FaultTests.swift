import Foundation
import GraphCodecs
import GraphEngine
import XCTest
@testable import GraphCLI

#if canImport(Glibc)
import Glibc
#endif

/// Faults a user meets: a run that fails anywhere writes no file, a FIFO or device as input is an
/// error (never a hang), a read-only or full disk is a clear error, and a run killed at any moment
/// leaves neither the output's name nor a temporary file behind once the next run is done.
final class FaultTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try makeWorkspace() }
    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func files() -> [String] {
        (try? FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()) ?? []
    }

    /// `graph ARGUMENTS` in-process on another thread; fails the test instead of hanging.
    private func graph(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.value = Graph.runInProcess(arguments)
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 60) == .success, let result = box.value else {
            XCTFail("graph \(arguments.joined(separator: " ")) did not finish within 60 s")
            return (-1, "", "")
        }
        return result
    }

    private let invert = #""src": {"file": "in.png"}, "out": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "src"}}}"#

    /// The issue's finding: with two outputs whose second folder cannot be created (its parent is
    /// a file), the first output was written although the run failed. Every output's folder and
    /// temporary file are now prepared before anything is written; the folders a failed run made
    /// are removed.
    func testASecondOutputThatCannotBeWrittenWritesNothing() throws {
        try ImageFile.writeAtomically(Array("not a folder".utf8), to: path("blocked"))
        let before = files()
        let recipe = #"{"version": 1, "images": {\#(invert)}, "outputs": [{"image": "out", "file": "new/deeper/out.png"}, {"image": "out", "file": "blocked/sub/out2.png"}]}"#
        let result = graph(["run", try writeRecipe(recipe, in: folder)])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("outputs[1].file: cannot create the folder '\(path("blocked/sub"))'"), result.err)
        XCTAssertEqual(files(), (before + ["recipe.json"]).sorted(), "no output, temporary file or new folder")
        // A target that is a folder is refused before anything is written, too.
        try FileManager.default.createDirectory(atPath: path("taken.png"), withIntermediateDirectories: false)
        let taken = #"{"version": 1, "images": {\#(invert)}, "outputs": [{"image": "out", "file": "first.png"}, {"image": "out", "file": "taken.png"}]}"#
        let second = graph(["run", try writeRecipe(taken, in: folder)])
        XCTAssertEqual(second.status, 2)
        XCTAssertTrue(second.err.contains("outputs[1].file: '\(path("taken.png"))' is a folder"), second.err)
        XCTAssertFalse(exists(folder, "first.png"))
    }

    /// Opening a FIFO for reading blocks until a writer comes: `graph info` and `graph run` hung
    /// forever. Inputs are opened non-blocking and must be regular files.
    func testAFIFOOrDeviceAsInputIsAnErrorNotAHang() throws {
        guard mkfifo(path("pipe.png"), 0o644) == 0 else { throw XCTSkip("mkfifo failed") }
        let info = graph(["info", path("pipe.png")])
        XCTAssertEqual(info.status, 2)
        XCTAssertEqual(info.err, "graph: error: \(path("pipe.png")): not a regular file (a FIFO)\n")
        let image = #"{"version": 1, "images": {"out": {"file": "pipe.png"}}, "outputs": [{"image": "out", "file": "out.png"}]}"#
        let run = graph(["run", try writeRecipe(image, in: folder)])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.err.contains("images.out.file: \(path("pipe.png")): not a regular file (a FIFO)"), run.err)
        let kernel = #"{"version": 1, "kernels": {"k": {"file": "pipe.png"}}, "images": {\#(invert)}, "outputs": [{"image": "out", "file": "out.png"}]}"#
        let kernelRun = graph(["run", try writeRecipe(kernel, in: folder)])
        XCTAssertTrue(kernelRun.err.contains("kernels.k.file: cannot read kernel file 'pipe.png': not a regular file (a FIFO)"), kernelRun.err)
        let yuv = #"{"version": 1, "images": {"out": {"yuv": "/dev/zero", "size": [16, 16]}}, "outputs": [{"image": "out", "file": "out.png"}]}"#
        let yuvRun = graph(["run", try writeRecipe(yuv, in: folder)])
        XCTAssertTrue(yuvRun.err.contains("cannot read the YUV file '/dev/zero': not a regular file (a character device)"), yuvRun.err)
        let recipeRun = graph(["run", path("pipe.png")])
        XCTAssertEqual(recipeRun.status, 2)
        XCTAssertTrue(recipeRun.err.contains("cannot read the recipe file: not a regular file (a FIFO)"), recipeRun.err)
        XCTAssertFalse(exists(folder, "out.png"))
    }

    /// A JPEG input is read whole when the recipe is built and decoded while it renders: deleting
    /// the file afterwards changes nothing, and one cut short (a file that shrank while it was read)
    /// fails the render with the reason, writing nothing.
    func testAnInputThatVanishesOrShrinks() throws {
        let photo = Image(buffer: try ImageBuffer(width: 64, height: 48, format: .rgb8, alphaMode: .opaque,
                                                  bytes: (0..<(64 * 48 * 3)).map { UInt8(($0 * 37) % 256) }))
        try Context().write(photo, to: path("photo.jpg"))
        let opened = try Image(contentsOf: path("photo.jpg")).applyingColorMatrix(
            ColorMatrix(rgb: [0, 1, 0, 1, 0, 0, 0, 0, 1], sourceName: "swap"))
        let expected = try Context().render(opened).bytes
        let streamed = try Image(contentsOf: path("photo.jpg")).applyingColorMatrix(
            ColorMatrix(rgb: [0, 1, 0, 1, 0, 0, 0, 0, 1], sourceName: "swap"))
        unlink(path("photo.jpg"))
        XCTAssertEqual(try Context().render(streamed).bytes, expected)

        let whole = try Context().encodedData(photo, format: .jpeg)
        try ImageFile.writeAtomically(Array(whole.prefix(whole.count / 2)), to: path("cut.jpg"))
        let recipe = #"{"version": 1, "images": {"src": {"file": "cut.jpg"}, "out": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "src"}}}}, "outputs": [{"image": "out", "file": "out.png"}]}"#
        let result = graph(["run", try writeRecipe(recipe, in: folder)])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("outputs[0]: the source image could not be decoded: \(path("cut.jpg")): JPEG: the JPEG data ends before the image is complete (truncated file)"), result.err)
        XCTAssertFalse(exists(folder, "out.png"))
    }

    /// A read-only folder and a full disk are errors naming the output and the system's reason,
    /// leaving nothing behind. As root, permissions do not stop writes, so both use a small tmpfs
    /// mounted for the test (skipped where mounting is not allowed); /dev/full covers a full disk
    /// everywhere (StreamingWriteTests).
    func testReadOnlyFolderAndFullDiskAreClearErrors() throws {
        var state: UInt64 = 1
        let bytes = (0..<(300 * 300 * 3)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 40)
        }
        let noise = Image(buffer: try ImageBuffer(width: 300, height: 300, format: .rgb8, alphaMode: .opaque, bytes: bytes))
        try Context().write(noise, to: path("noise.png"))
        let recipe = #"{"version": 1, "images": {"out": {"file": "noise.png"}}, "outputs": [{"image": "out", "file": "disk/out.png"}]}"#
        let recipePath = try writeRecipe(recipe, in: folder)
        try FileManager.default.createDirectory(atPath: path("disk"), withIntermediateDirectories: false)

        if geteuid() != 0 {
            chmod(path("disk"), 0o555)
            let result = graph(["run", recipePath])
            chmod(path("disk"), 0o755)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.err.contains("outputs[0].file: \(path("disk/out.png")): cannot create a temporary file in \(path("disk")): Permission denied"), result.err)
            throw XCTSkip("the full-disk half needs a tmpfs mount (root)")
        }
        guard mount(path("disk"), options: "ro,size=64k") else { throw XCTSkip("cannot mount a tmpfs here") }
        let readOnly = graph(["run", recipePath])
        unmount(path("disk"))
        XCTAssertEqual(readOnly.status, 2)
        XCTAssertTrue(readOnly.err.contains("outputs[0].file: \(path("disk/out.png")): cannot create a temporary file in \(path("disk")): Read-only file system"), readOnly.err)

        guard mount(path("disk"), options: "size=64k") else { throw XCTSkip("cannot mount a tmpfs here") }
        defer { unmount(path("disk")) }
        let full = graph(["run", recipePath])
        XCTAssertEqual(full.status, 2)
        XCTAssertTrue(full.err.contains("outputs[0]: \(path("disk/out.png")): PNG: writing the PNG file failed: No space left on device"), full.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("disk")), [], "nothing left on the full disk")
    }

    // MARK: System calls failing (a real `graph` process under strace)

    /// Issue 31's acceptance: every write, fsync, hard link and rename of a 3-output run (two of
    /// its outputs replacing older files) failed in turn by strace's fault injection. After each,
    /// either every output is new or every output is as it was, no temporary file is left, and the
    /// status is 2 with one error line; never a crash. A failed write to standard output (the
    /// report, after the outputs are committed) is an error too, not the crash it was.
    func testEverySystemCallFailingLeavesAllOutputsNewOrAllOld() throws {
        guard let straceBinary = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("strace is not installed")
        }
        let binary = try graphBinary()
        try Context().write(Image(color: [0.3, 0.6, 0.2, 1]).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30)), to: path("src.png"))
        let outputs = ["o/a.png", "o/b.jpg", "o/c.png"]
        func recipe(_ filter: String) -> String {
            #"{"version": 1, "images": {"src": {"file": "src.png"}, "f": {"filter": "\#(filter)", "inputs": {"inputImage": {"image": "src"}}}}, "outputs": [{"image": "f", "file": "o/a.png"}, {"image": "f", "file": "o/b.jpg"}, {"image": "src", "file": "o/c.png"}]}"#
        }
        let newRecipe = try writeRecipe(recipe("CIColorInvert"), in: folder, name: "new.json")
        let oldRecipe = try writeRecipe(recipe("CIPhotoEffectNoir"), in: folder, name: "old.json")
        func contents() -> [Data?] { outputs.map { FileManager.default.contents(atPath: path($0)) } }
        func reset() throws {
            try? FileManager.default.removeItem(atPath: path("o"))
            XCTAssertEqual(graph(["run", oldRecipe]).status, 0)
            unlink(path("o/c.png"))  // a new output besides the two replaced ones
        }
        XCTAssertEqual(graph(["run", newRecipe]).status, 0)
        let new = contents()
        try reset()
        let old = contents()
        XCTAssertNotEqual(new[0], old[0])

        func strace(_ arguments: [String]) throws -> (status: Int32, err: String, signalled: Bool) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: straceBinary)
            process.arguments = ["-f", "-qq", "-o", "/dev/null"] + arguments + [binary, "run", newRecipe]
            let errors = Pipe()
            process.standardOutput = Pipe()
            process.standardError = errors
            try process.run()
            let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, err, process.terminationReason == .uncaughtSignal || process.terminationStatus > 128)
        }
        var failures = 0
        for call in ["write", "fsync", "link", "rename"] {
            for k in 1...8 {
                try reset()
                let run = try strace(["-e", "trace=\(call)", "-e", "inject=\(call):error=EIO:when=\(k)"])
                let after = contents()
                let what = "\(call) #\(k) failing"
                XCTAssertFalse(run.signalled, "\(what): \(run.err)")
                XCTAssertTrue(after == new || after == old, "\(what): a mix of new and old outputs")
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("o")).filter { $0.hasPrefix(".") }, [],
                               "\(what): temporary files or backups left")
                if run.status == 0 {
                    XCTAssertEqual(after, new, what)
                } else {
                    failures += 1
                    XCTAssertEqual(run.status, 2, "\(what): \(run.err)")
                    XCTAssertEqual(run.err.filter { $0 == "\n" }.count, 1, "\(what): \(run.err)")
                    XCTAssertTrue(run.err.hasPrefix("graph: error: "), "\(what): \(run.err)")
                }
            }
        }
        // 3 file writes + 3 report lines, 3 fsyncs, 2 backup links, 3 renames at least failed a run.
        XCTAssertGreaterThanOrEqual(failures, 14)
    }

    // MARK: Signals (a real `graph` process)

    /// SIGTERM and SIGINT while the output is being written: the process removes its temporary file
    /// and dies of the signal; no file has the output's name.
    func testSIGTERMAndSIGINTRemoveTheirTemporaryFile() throws {
        for signal in [SIGTERM, SIGINT] {
            let process = try startSlowRun()
            try waitForTemporaryFile()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "signal \(signal)")
            XCTAssertEqual(process.terminationStatus, signal)
            XCTAssertEqual(outputFolderFiles(), [], "signal \(signal): no output, no temporary file")
        }
    }

    /// A second SIGINT ends a batch at once (issue 31): the summary line is still logged, counting
    /// the file in flight as abandoned, its temporary file is removed, and the process dies of the
    /// signal; no output is partial.
    func testASecondSignalEndsABatchWithItsSummaryAndNoTemporaryFile() throws {
        let binary = URL(fileURLWithPath: try graphBinary())
        try FileManager.default.createDirectory(atPath: path("in"), withIntermediateDirectories: true)
        let plain = Image(color: [0.2, 0.5, 0.7, 1]).cropped(to: Rect(x: 0, y: 0, width: 2400, height: 1800))
        for index in 0..<3 { try Context().write(plain, to: path("in/img\(index).png")) }
        let recipe = #"{"version": 1, "images": {"photo": {"file": "placeholder.png"}, "out": {"filter": "CIGammaAdjust", "inputs": {"inputImage": {"image": "photo"}, "inputPower": 1.3}}}, "outputs": [{"image": "out", "file": "output/out.png"}]}"#
        let process = Process()
        process.executableURL = binary
        process.arguments = ["batch", try writeRecipe(recipe, in: folder, name: "slow.json"), "--glob", path("in/*.png"),
                             "--out", path("output/{stem}.png"), "--log", path("log.jsonl"), "--threads", "1", "--jobs", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !outputFolderFiles().contains(where: { $0.contains(".tmp-") }) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(process.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 0.2)  // two signals at once may arrive as one
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        XCTAssertEqual(outputFolderFiles().filter { $0.contains(".tmp-") }, [], "no temporary file")
        let (entries, summary) = try BatchFixture.readLog(at: path("log.jsonl"))
        XCTAssertEqual(summary["stopped_by"] as? String, "SIGINT")
        XCTAssertEqual(summary["abandoned"] as? Int, 1)
        XCTAssertEqual(summary["not_run"] as? Int, 3 - 1 - entries.count)
    }

    /// SIGKILL cannot be caught: killed at any moment, a run leaves either no output or the whole
    /// output (never a partial file under its name), and the next run writing it removes the
    /// temporary the killed one left.
    func testSIGKILLAtAnyMomentLeavesNoPartialFile() throws {
        for delay in [0.0, 0.05, 0.2, 0.5, 1.0, 2.0, 30] {
            let process = try startSlowRun()
            if delay < 30 { Thread.sleep(forTimeInterval: delay) } else { process.waitUntilExit() }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let left = outputFolderFiles()
            XCTAssertTrue(left.allSatisfy { $0 == "slow.png" || $0.hasPrefix(".slow.png.tmp-") }, "\(left)")
            if left.contains("slow.png") {
                XCTAssertEqual(try ImageFile.info(path: path("output/slow.png")).width, 1200, "complete when present")
            }
            // The next run (here a quick one writing the same output) cleans up after it.
            let quick = #"{"version": 1, "images": {\#(invert)}, "outputs": [{"image": "out", "file": "output/slow.png"}]}"#
            XCTAssertEqual(graph(["run", try writeRecipe(quick, in: folder, name: "quick.json")]).status, 0)
            XCTAssertEqual(outputFolderFiles(), ["slow.png"], "after a kill \(delay) s in")
            unlink(path("output/slow.png"))
        }
    }

    /// The issue's 32768×32768 PNG aborted allocating the whole image (4 GiB) and then a copy of it.
    /// PNGs now render and compress in bands: a 4096×4096 one (64 MiB of RGBA8, so at least twice
    /// that before) peaks far below the size of its pixels. (The full-size case, 49 MB in 51 s in a
    /// release build, is Benchmarks/recipes/big-png.json.)
    func testABigPNGIsWrittenInBoundedMemory() throws {
        let binary = try graphBinary()
        let recipe = #"{"version": 1, "images": {"c": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [0.2, 0.45, 0.7, 1]}, "crop": [0, 0, 4096, 4096]}}, "outputs": [{"image": "c", "file": "big.png"}]}"#
        let recipePath = try writeRecipe(recipe, in: folder, name: "big.json")
        // A process of its own (the test process is hundreds of MiB by now); it reports its own peak
        // (VmHWM: a spawned child's getrusage would count the parent's memory at the spawn).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", recipePath]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try ImageFile.info(path: path("big.png")).width, 4096)
        let peak = output.range(of: #"peak (\d+) MiB"#, options: .regularExpression)
            .flatMap { Int(output[$0].split(separator: " ")[1]) }
        let mebibytes = try XCTUnwrap(peak, "no peak in \(output)")
        XCTAssertLessThan(mebibytes, 100, "peak resident \(mebibytes) MiB for 64 MiB of pixels")
    }

    /// A big PNG input streams too: a 16-pixel column of a 4096×4096 RGB8 file stored uncompressed
    /// (48 MiB of file, 48 MiB of pixels) written as JPEG and as PNG peaks far below either: the
    /// file is read as it decodes (not read whole, nor read again to look for depth data a PNG
    /// cannot carry), and only a window of its rows is held.
    func testABigPNGInputIsReadInBoundedMemory() throws {
        let binary = try graphBinary()
        let side = 4096
        try ImageFile.writeAtomically(try PNGCodec.encode(width: side, height: side, channels: 3, bitDepth: 8,
                                                          bytes: [UInt8](repeating: 0x60, count: side * side * 3),
                                                          compressionLevel: 0), to: path("tall.png"))
        for output in ["column.jpg", "column.png"] {
            let recipe = #"{"version": 1, "images": {"p": {"file": "tall.png", "crop": [0, 0, 16, 4096]}}, "outputs": [{"image": "p", "file": "\#(output)"}]}"#
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["run", try writeRecipe(recipe, in: folder, name: "column.json")]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, output)
            XCTAssertEqual(try ImageFile.info(path: path(output)).height, side)
            let peak = printed.range(of: #"peak (\d+) MiB"#, options: .regularExpression)
                .flatMap { Int(printed[$0].split(separator: " ")[1]) }
            let mebibytes = try XCTUnwrap(peak, "no peak in \(printed)")
            // About 32 MiB for any run of a debug build; the file or its pixels would add 48.
            XCTAssertLessThan(mebibytes, 56, "\(output): peak resident \(mebibytes) MiB")
        }
    }

    private func graphBinary() throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("graph")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("the graph executable is not built beside the tests (\(binary.path))")
        }
        return binary.path
    }

    /// `graph run` of a 1200×900 gamma-adjusted gradient (a second or more in a debug build).
    private func startSlowRun() throws -> Process {
        let binary = URL(fileURLWithPath: try graphBinary())
        let recipe = #"{"version": 1, "images": {"g": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [0.2, 0.5, 0.7, 1]}, "crop": [0, 0, 1200, 900]}, "out": {"filter": "CIGammaAdjust", "inputs": {"inputImage": {"image": "g"}, "inputPower": 1.3}}}, "outputs": [{"image": "out", "file": "output/slow.png"}]}"#
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", try writeRecipe(recipe, in: folder, name: "slow.json"), "--threads", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func outputFolderFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path("output"))) ?? []).sorted()
    }

    private func waitForTemporaryFile() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if outputFolderFiles().contains(where: { $0.hasPrefix(".slow.png.tmp-") }) { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTFail("no temporary file appeared")
    }

    /// Mounts a tmpfs over `target` with `options` (root only); false when it cannot.
    private func mount(_ target: String, options: String) -> Bool {
        run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", target]) == 0
    }

    private func unmount(_ target: String) { _ = run("/bin/umount", [target]) }

    private func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (status: Int32, out: String, err: String)?
    var value: (status: Int32, out: String, err: String)? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
