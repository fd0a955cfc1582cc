import Foundation
import GraphVideo
import XCTest

/// `VideoRenderOptions.keepPartial`: a run stopped by a request or by an error mid-stream
/// finishes the container with the frames encoded so far (it decodes, and its index declares
/// them); without it, no file is left.
final class PartialOutputTests: XCTestCase {
    /// A depth stream of 6 frames under a 10-frame video fails at frame 6: kept, the file holds
    /// exactly frames 0...5 with the input's timestamps.
    func testAnErrorMidStreamKeepsEveryFrameBeforeIt() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clip = SyntheticClip()
        clip.depthFrames = 6
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("short.mkv").path
        try clip.write(video: video, depth: depth)
        let output = folder.appendingPathComponent("out.mp4").path
        var options = VideoRenderOptions()
        options.keepPartial = true
        XCTAssertThrowsError(try VideoRender.run(recipe: try VideoRecipe(path: VideoTestSupport.example("backdrop.json")), input: video,
                                                 depth: try DepthSource(video: depth, encoding: DepthEncoding()), output: output,
                                                 options: options)) { error in
            guard let stopped = error as? VideoRenderStopped, case .failure(let cause) = stopped.cause else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue("\(cause)".hasPrefix("\(depth): frame 6 at 0.600 s: the depth stream is shorter than the video"), "\(cause)")
            XCTAssertEqual(stopped.framesWritten, 6)
            XCTAssertTrue(stopped.kept)
            XCTAssertTrue("\(stopped)".hasSuffix("; stopped after 6 frames, which \(output) holds (a finished, playable video)"), "\(stopped)")
        }
        let (info, frames) = try VideoTestSupport.decodeAll(output)
        XCTAssertEqual(info.declaredFrames, 6, "the trailer (moov) declares the frames")
        XCTAssertEqual(frames.map { ($0.seconds * 10).rounded() }, (0..<6).map(Double.init))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }, [])
    }

    /// A stop requested after 3 frames were encoded: the frames already decoded go through, and
    /// the file holds exactly the frames the error reports, the first of the input's. Without
    /// keepPartial the same stop leaves no file (nor a temporary).
    func testAStopRequestKeepsTheFramesEncodedSoFar() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clip = SyntheticClip()
        clip.frames = 20
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        let recipe = try VideoRecipe(path: VideoTestSupport.example("color-highlight.json"))
        for keep in [true, false] {
            let output = folder.appendingPathComponent("out-\(keep).mkv").path
            let stop = VideoRenderStop()
            var options = VideoRenderOptions()
            options.keepPartial = keep
            options.stop = stop
            options.progress = { done, _ in if done == 3 { stop.request("a test") } }
            var written = 0
            XCTAssertThrowsError(try VideoRender.run(recipe: recipe, input: video,
                                                     depth: try DepthSource(video: depth, encoding: DepthEncoding()),
                                                     output: output, options: options)) { error in
                guard let stopped = error as? VideoRenderStopped, case .request(let reason) = stopped.cause else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(reason, "a test")
                XCTAssertEqual(stopped.kept, keep)
                written = stopped.framesWritten
                let ending = keep ? "which the file holds (a finished, playable video)" : "no file was written (keepPartial keeps them)"
                XCTAssertTrue("\(stopped)".hasPrefix("\(output): stopped by a test after \(written) frames"), "\(stopped)")
                XCTAssertTrue("\(stopped)".hasSuffix(ending), "\(stopped)")
            }
            // Frames 3... were at most decoded, rendered or queued when the request came.
            XCTAssertGreaterThanOrEqual(written, 3, "keep: \(keep)")
            XCTAssertLessThan(written, 10, "keep: \(keep)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("out") || $0.hasPrefix(".out") }
            if keep {
                XCTAssertEqual(left, ["out-true.mkv"])
                let frames = try VideoTestSupport.decodeAll(output).frames
                XCTAssertEqual(frames.count, written)
                XCTAssertEqual(frames.map { ($0.seconds * 10).rounded() }, (0..<written).map(Double.init))
                try FileManager.default.removeItem(atPath: output)
            } else {
                XCTAssertEqual(left, [], "no file without keepPartial")
            }
        }
    }

    /// A stop requested before the first frame: nothing to keep, no file.
    func testAStopBeforeAnyFrameLeavesNoFile() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clip = SyntheticClip()
        clip.frames = 2
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        let output = folder.appendingPathComponent("out.mp4").path
        var options = VideoRenderOptions()
        options.keepPartial = true
        options.stop = VideoRenderStop()
        options.stop?.request("SIGTERM")
        XCTAssertThrowsError(try VideoRender.run(recipe: try VideoRecipe(path: VideoTestSupport.example("backdrop.json")), input: video,
                                                 depth: try DepthSource(video: depth, encoding: DepthEncoding()), output: output,
                                                 options: options)) { error in
            XCTAssertEqual("\(error)", "\(output): stopped by SIGTERM before any frame was encoded; no file was written")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["depth.mkv", "in.mp4"])
    }
}
