import Foundation
import GraphVideo
import XCTest
@testable import GraphCLI

/// `graph video`'s command line: errors name what is wrong, and no output file appears; SIGINT
/// leaves no file, or with --keep-partial a finished shorter video. (Rendering itself is
/// GraphVideoTests', on a clip those tests make.)
final class VideoCommandTests: XCTestCase {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testBadInputsAreOneLineErrorsAndWriteNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-video-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = repository.appendingPathComponent("Examples/video/backdrop.json").path
        let out = folder.appendingPathComponent("out.mp4").path
        let notVideo = folder.appendingPathComponent("notes.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: notVideo))
        let cases: [([String], String)] = [
            (["--input", folder.appendingPathComponent("missing.mp4").path, "--depth", folder.appendingPathComponent("missing.mp4").path],
             "missing.mp4: cannot open the file: No such file or directory"),
            (["--input", notVideo, "--depth", notVideo], "notes.mp4: cannot open the file: Invalid data found when processing input"),
            (["--input", notVideo], "the recipe reads depth (depth); give a depth stream (--depth)"),
            (["--input", notVideo, "--depth", notVideo, "--depth-kind", "distance"], "--depth-kind: expected depth or disparity"),
        ]
        for (arguments, message) in cases {
            let result = Graph.runInProcess(["video", recipe] + arguments + ["--out", out])
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(result.err.split(separator: "\n").count, 1, result.err)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["notes.mp4"], "\(arguments)")
        }
    }

    /// SIGINT to a real `graph video` process once frames are being written: with --keep-partial
    /// it finishes the video with the frames encoded so far, says how many, and exits with 130;
    /// without it the process dies of the signal and leaves no file.
    func testSIGINTFinishesAPlayableVideoOnlyWithKeepPartial() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("graph")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("the graph executable is not built beside the tests (\(binary.path))")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-video-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (video, depth) = (folder.appendingPathComponent("in.mp4").path, folder.appendingPathComponent("depth.png").path)
        let frames = 400
        try writeNoiseClip(video: video, depth: depth, frames: frames)
        for keep in [true, false] {
            let out = folder.appendingPathComponent("out.mp4").path
            let process = Process()
            process.executableURL = binary
            // Lossless noise: each frame is about 30 KB, so the muxer's buffer reaches the file
            // after a few frames, and a growing temporary file shows frames were encoded.
            process.arguments = ["video", repository.appendingPathComponent("Examples/video/color-highlight.json").path,
                                 "--input", video, "--depth", depth, "--out", out, "--crf", "0", "--threads", "1"]
                + (keep ? ["--keep-partial"] : [])
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, temporaryBytes(in: folder) < 100_000, process.isRunning { Thread.sleep(forTimeInterval: 0.01) }
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("out.mp4") }
            guard keep else {
                XCTAssertEqual(process.terminationReason, .uncaughtSignal, err)
                XCTAssertEqual(process.terminationStatus, SIGINT, err)
                XCTAssertEqual(left, [], "no output, no temporary file")
                continue
            }
            XCTAssertEqual(process.terminationReason, .exit, err)
            XCTAssertEqual(process.terminationStatus, 128 + SIGINT, err)
            let lines = err.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "graph: video: SIGINT: finishing \(out) with the frames encoded (again to stop at once, leaving no file)")
            let prefix = "graph: video: \(out): stopped by SIGINT after ", suffix = " frames, which the file holds (a finished, playable video)"
            guard let last = lines.last, last.hasPrefix(prefix), last.hasSuffix(suffix),
                  let written = Int(last.dropFirst(prefix.count).dropLast(suffix.count)) else {
                return XCTFail(err)
            }
            XCTAssertEqual(left, ["out.mp4"])
            XCTAssertGreaterThanOrEqual(written, 3)
            XCTAssertLessThan(written, frames)
            let reader = try VideoReader(path: out, threads: 1)
            XCTAssertEqual(reader.info.declaredFrames, written, "the container's index declares the frames")
            var decoded = 0
            while let frame = try reader.next() {
                XCTAssertEqual(frame.seconds * 25, Double(decoded), accuracy: 1e-6)
                decoded += 1
            }
            XCTAssertEqual(decoded, written)
            try FileManager.default.removeItem(atPath: out)
        }
    }

    /// Bytes in `folder`'s temporary files (the output being written).
    private func temporaryBytes(in folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.contains(".tmp-") }.reduce(0) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]) as? Int
            return total + (size ?? 0)
        }
    }

    /// A 160×120 H.264 clip of grey noise at 25 fps, and a still 16-bit depth PNG (a ramp from
    /// 1 m), both written with the FFmpeg libraries `graph video` uses.
    private func writeNoiseClip(video: String, depth: String, frames: Int) throws {
        let (width, height) = (160, 120)
        let writer = try VideoWriter(path: video, stream: VideoWriter.Stream(width: width, height: height, timeBase: (1, 25), frameRate: (25, 1)),
                                     input: .i420, encoding: VideoEncoding(codec: "libx264", preset: "ultrafast", crf: 0, threads: 1))
        var state: UInt32 = 12345
        var bytes = [UInt8](repeating: 128, count: width * height * 3 / 2)
        for index in 0..<frames {
            for i in 0..<(width * height) {
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[i] = UInt8(truncatingIfNeeded: state >> 24)
            }
            try bytes.withUnsafeBytes { try writer.write($0.baseAddress!, rowBytes: width, pts: Int64(index)) }
        }
        try writer.finish()
        var stream = VideoWriter.Stream(width: 80, height: 60, timeBase: (1, 25), frameRate: (25, 1))
        stream.colorRange = 2
        let png = try VideoWriter(path: depth, stream: stream, input: .gray16, encoding: VideoEncoding(codec: "png", preset: nil, crf: nil))
        let ramp: [UInt16] = (0..<(80 * 60)).map { (index: Int) -> UInt16 in UInt16(1000 + (index % 80) * 20) }
        try ramp.withUnsafeBytes { try png.write($0.baseAddress!, rowBytes: 160, pts: 0) }
        try png.finish()
    }
}
