import Foundation
import GraphEngine
import GraphVideo
import XCTest

/// `VideoRender` end to end on a synthetic RGB-D clip: frame count, timestamps, the backdrop
/// following the moving square, the output decoding; and errors that leave no file.
final class VideoRenderTests: XCTestCase {
    func testSyntheticClipDecodesWithItsFramesAndTimestamps() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = SyntheticClip()
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        let (info, frames) = try VideoTestSupport.decodeAll(video)
        XCTAssertEqual(info.codec, "h264")
        XCTAssertEqual(frames.count, 10)
        XCTAssertEqual(frames.map { ($0.seconds * 10).rounded() }, (0..<10).map(Double.init))
        XCTAssertEqual(info.framesPerSecond, 10, accuracy: 1e-9)
        let (depthInfo, depthFrames) = try VideoTestSupport.decodeAll(depth)
        XCTAssertEqual(depthInfo.codec, "ffv1")
        XCTAssertEqual(depthInfo.pixelFormat, "gray16le")
        XCTAssertEqual(depthFrames.count, 10)
        // FFV1 is lossless: the square's centre is at 1000 mm, the wall at 3000 mm.
        guard case .grey(let values, let width, _) = depthFrames[3].samples else { return XCTFail("depth is not grey") }
        let s = clip.square(3)
        XCTAssertEqual(values[(s.y + s.size / 2) / 2 * width + (s.x + s.size / 2) / 2], 1000)
        XCTAssertEqual(values[2 * width + width - 2], 3000)
    }

    /// 10-bit 4:2:0 video (HDR phone video is 10-bit HEVC) is reduced to 8-bit I420 row by row:
    /// rows of rising luma stay rising. (The conversion buffers were declared with three planes
    /// where FFmpeg fills four, which zeroed the row stride: every row read as the first.)
    func testTenBitVideoKeepsItsRows() throws {
        guard let ffmpeg = VideoTestSupport.program("ffmpeg") else { throw XCTSkip("no ffmpeg program to make the 10-bit clip") }
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (width, height) = (32, 16)
        var raw: [UInt8] = []
        for y in 0..<height { for _ in 0..<width { raw += [UInt8((64 + 40 * y) & 0xFF), UInt8((64 + 40 * y) >> 8)] } }
        for _ in 0..<(width * height / 2) { raw += [0x00, 0x02] }  // Cb and Cr at 512: grey
        let rawPath = folder.appendingPathComponent("in.raw").path, video = folder.appendingPathComponent("in.mkv").path
        try Data(raw).write(to: URL(fileURLWithPath: rawPath))
        try VideoTestSupport.runFFmpeg(ffmpeg, ["-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s", "\(width)x\(height)", "-r", "10",
                                                "-i", rawPath, "-c:v", "ffv1", video])
        let reader = try VideoReader(path: video)
        XCTAssertEqual(reader.info.pixelFormat, "yuv420p10le")
        guard let frame = try reader.next(), case .yuv(let yuv) = frame.samples else { return XCTFail("no colour frame") }
        let rendered = try Context().render(Image(yuv: yuv), format: .rgba8)
        let rows = (0..<height).map { rendered.pixel(x: width / 2, row: $0)[1] }
        for y in 1..<height { XCTAssertGreaterThan(rows[y], rows[y - 1] + 0.02, "row \(y) of \(rows)") }
    }

    func testBackdropRendersEveryFrameWithTheInputsTimestamps() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = SyntheticClip()
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        let output = folder.appendingPathComponent("out.mp4").path
        let recipe = try VideoRecipe(path: VideoTestSupport.example("backdrop.json"))
        XCTAssertEqual(recipe.photoImage, "photo")
        XCTAssertEqual(recipe.depthImages.map(\.name), ["depth"])
        let summary = try VideoRender.run(recipe: recipe, input: video,
                                          depth: try DepthSource(video: depth, encoding: DepthEncoding()), output: output)
        XCTAssertEqual(summary.frames, 10)
        XCTAssertEqual(summary.width, 96)
        let (inputs, outputs) = (try VideoTestSupport.decodeAll(video).frames, try VideoTestSupport.decodeAll(output))
        XCTAssertEqual(outputs.info.codec, "h264")
        XCTAssertEqual(outputs.frames.count, 10)
        XCTAssertEqual(outputs.frames.map(\.seconds), inputs.map(\.seconds))
        XCTAssertEqual(outputs.info.framesPerSecond, 10, accuracy: 1e-9)
        // Inside the square the frame is kept (its red colour), outside it the gradient replaces
        // the checkered background: compare the output with the input's rendering.
        let context = Context()
        for (index, (input, out)) in zip(inputs, outputs.frames).enumerated() {
            guard case .yuv(let a) = input.samples, case .yuv(let b) = out.samples else { return XCTFail("not colour") }
            let before = try context.render(Image(yuv: a), format: .rgba8), after = try context.render(Image(yuv: b), format: .rgba8)
            let s = clip.square(index)
            let centre = (x: s.x + s.size / 2, y: s.y + s.size / 2)
            let kept = zip(before.pixel(x: centre.x, row: centre.y), after.pixel(x: centre.x, row: centre.y)).map { abs($0 - $1) }.max() ?? 1
            XCTAssertLessThan(kept, 0.06, "frame \(index): the square's centre changed")
            // Far right of the frame: background, replaced (the checker is gone: two columns 6 px
            // apart differ in the input, not in the output).
            let x0 = 84, x1 = 90, y = 60
            let inputStep = abs(before.pixel(x: x0, row: y)[1] - before.pixel(x: x1, row: y)[1])
            let outputStep = abs(after.pixel(x: x0, row: y)[1] - after.pixel(x: x1, row: y)[1])
            XCTAssertGreaterThan(inputStep, 0.1, "frame \(index)")
            XCTAssertLessThan(outputStep, 0.03, "frame \(index): the background was not replaced")
        }
    }

    func testErrorsNameTheProblemAndLeaveNoFile() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try SyntheticClip().write(video: video, depth: depth)
        let recipe = try VideoRecipe(path: VideoTestSupport.example("backdrop.json"))
        let output = folder.appendingPathComponent("out.mp4").path
        func expectFailure(_ what: String, _ needle: String, _ body: () throws -> Void) {
            XCTAssertThrowsError(try body(), what) { error in
                XCTAssertTrue("\(error)".contains(needle), "\(what): \(error)")
            }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            XCTAssertFalse(left.contains { $0.contains("out.mp4") }, "\(what) left \(left)")
        }
        // Not a video.
        let bad = folder.appendingPathComponent("bad.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: bad))
        expectFailure("bad input", "bad.mp4: cannot") {
            _ = try VideoRender.run(recipe: recipe, input: bad, depth: try DepthSource(video: depth, encoding: DepthEncoding()), output: output)
        }
        // Depth shorter than the video: the error names the first frame without depth.
        let short = folder.appendingPathComponent("short.mkv").path
        var shortClip = SyntheticClip()
        shortClip.depthFrames = 6
        try shortClip.write(video: folder.appendingPathComponent("unused.mp4").path, depth: short)
        expectFailure("short depth", "short.mkv: frame 6 at 0.600 s: the depth stream is shorter than the video: its last frame (5) is at 0.500 s") {
            _ = try VideoRender.run(recipe: recipe, input: video, depth: try DepthSource(video: short, encoding: DepthEncoding()), output: output)
        }
        // A depth map of another shape (a portrait map under a landscape video).
        let tall = folder.appendingPathComponent("tall.mkv").path
        var tallClip = SyntheticClip()
        (tallClip.depthWidth, tallClip.depthHeight) = (20, 48)
        try tallClip.write(video: folder.appendingPathComponent("unused2.mp4").path, depth: tall)
        expectFailure("mismatched sizes", "the depth map is 20x48 but the video is 96x72") {
            _ = try VideoRender.run(recipe: recipe, input: video, depth: try DepthSource(video: tall, encoding: DepthEncoding()), output: output)
        }
        // An encoder this FFmpeg does not have.
        var options = VideoRenderOptions()
        options.encoding = VideoEncoding(codec: "no-such-encoder")
        expectFailure("unsupported codec", "no encoder named 'no-such-encoder'") {
            _ = try VideoRender.run(recipe: recipe, input: video, depth: try DepthSource(video: depth, encoding: DepthEncoding()),
                                    output: output, options: options)
        }
        // A recipe reading depth, given none.
        expectFailure("no depth", "give a depth stream") {
            _ = try VideoRender.run(recipe: recipe, input: video, depth: nil, output: output)
        }
    }

    func testStillDepthMapServesEveryFrame() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = SyntheticClip()
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        // One 16-bit PNG (written through FFmpeg's PNG encoder) for a static camera.
        let still = folder.appendingPathComponent("depth.png").path
        var stream = VideoWriter.Stream(width: 48, height: 36, timeBase: (1, 10), frameRate: (10, 1))
        stream.colorRange = 2
        let png = try VideoWriter(path: still, stream: stream, input: .gray16, encoding: VideoEncoding(codec: "png", preset: nil, crf: nil))
        var random = SeededRandom(seed: 1)
        var samples = clip.depthFrame(0, random: &random)
        try samples.withUnsafeMutableBytes { try png.write($0.baseAddress!, rowBytes: 96, pts: 0) }
        try png.finish()
        let source = try DepthSource(still: still, encoding: DepthEncoding())
        XCTAssertTrue(source.isStill)
        let first = try source.map(frame: 0, seconds: 0, videoFrameDuration: 0.1)
        let late = try source.map(frame: 9, seconds: 0.9, videoFrameDuration: 0.1)
        XCTAssertEqual(first.metres, late.metres)
        XCTAssertEqual(first.metres[0], 3, accuracy: 1e-6)
        // Every row as written (the PNG's big-endian samples are unpacked row by row).
        XCTAssertEqual(first.metres, samples.map { Float($0) * Float(0.001) })
        let output = folder.appendingPathComponent("out.mkv").path
        let summary = try VideoRender.run(recipe: try VideoRecipe(path: VideoTestSupport.example("color-highlight.json")),
                                          input: video, depth: source, output: output)
        XCTAssertEqual(summary.frames, 10)
        XCTAssertEqual(try VideoTestSupport.decodeAll(output).frames.count, 10)
    }

    func testRotationAndColourTagsCarryOver() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clip = SyntheticClip()
        clip.frames = 3
        clip.rotation = 90
        clip.colorTags = (range: 1, primaries: 1, transfer: 1, space: 1)
        let video = folder.appendingPathComponent("in.mov").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        XCTAssertEqual(try VideoReader(path: video).info.rotation, 90)
        let output = folder.appendingPathComponent("out.mp4").path
        _ = try VideoRender.run(recipe: try VideoRecipe(path: VideoTestSupport.example("background-blur.json")), input: video,
                                depth: try DepthSource(video: depth, encoding: DepthEncoding()), output: output)
        let info = try VideoReader(path: output).info
        XCTAssertEqual(info.rotation, 90)
        XCTAssertEqual([info.colorRange, info.colorPrimaries, info.colorTransfer, info.colorSpace], [1, 1, 1, 1])
    }

    func testDepthTrackMustBeAVideoStreamOfTheFile() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("in.mkv").path, depth = folder.appendingPathComponent("depth.mkv").path
        var clip = SyntheticClip()
        clip.frames = 2
        try clip.write(video: video, depth: depth)
        XCTAssertEqual(try VideoReader.videoStreams(of: video), [0])
        XCTAssertThrowsError(try DepthSource(video: video, stream: 3, encoding: DepthEncoding())) { error in
            XCTAssertEqual("\(error)", "\(video): stream 3 is not a video stream (the file has 1 streams)")
        }
        // Stream 0 of the depth file is its depth track.
        let track = try DepthSource(video: depth, stream: 0, encoding: DepthEncoding())
        XCTAssertEqual(try track.map(frame: 0, seconds: 0, videoFrameDuration: 0.1).metres[0], 3, accuracy: 1e-6)
    }

    /// An RGB-D recording in one container (as Azure Kinect MKVs are: colour in stream 0, 16-bit
    /// depth in stream 1), muxed by the ffmpeg program without re-encoding: `--depth-track 1`
    /// reads the same maps, frame by frame, as the separate depth file, and renders the same bytes.
    func testADepthTrackInTheSameContainerMatchesTheSeparateDepthFile() throws {
        guard let ffmpeg = VideoTestSupport.program("ffmpeg") else { throw XCTSkip("no ffmpeg program to mux the two-track file") }
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("in.mkv").path, depth = folder.appendingPathComponent("depth.mkv").path
        let combined = folder.appendingPathComponent("rgbd.mkv").path
        var clip = SyntheticClip()
        clip.frames = 6
        try clip.write(video: video, depth: depth)
        try VideoTestSupport.runFFmpeg(ffmpeg, ["-i", video, "-i", depth, "-map", "0:v", "-map", "1:v", "-c", "copy", combined])
        XCTAssertEqual(try VideoReader.videoStreams(of: combined), [0, 1])
        let track = try DepthSource(video: combined, stream: 1, encoding: DepthEncoding())
        let separate = try DepthSource(video: depth, encoding: DepthEncoding())
        for frame in 0..<6 {
            let seconds = Double(frame) / 10
            let a = try track.map(frame: frame, seconds: seconds, videoFrameDuration: 0.1)
            let b = try separate.map(frame: frame, seconds: seconds, videoFrameDuration: 0.1)
            XCTAssertEqual(a.metres, b.metres, "frame \(frame)")
        }
        let recipe = try VideoRecipe(path: VideoTestSupport.example("backdrop.json"))
        let fromTrack = folder.appendingPathComponent("track.mkv").path, fromFile = folder.appendingPathComponent("file.mkv").path
        let options = VideoRenderOptions()
        let summary = try VideoRender.run(recipe: recipe, input: combined,
                                          depth: try DepthSource(video: combined, stream: 1, encoding: DepthEncoding()),
                                          output: fromTrack, options: options)
        XCTAssertEqual(summary.frames, 6)
        _ = try VideoRender.run(recipe: recipe, input: video, depth: try DepthSource(video: depth, encoding: DepthEncoding()),
                                output: fromFile, options: options)
        let a = try VideoTestSupport.decodeAll(fromTrack).frames, b = try VideoTestSupport.decodeAll(fromFile).frames
        XCTAssertEqual(a.count, 6)
        for (index, (x, y)) in zip(a, b).enumerated() {
            guard case .yuv(let p) = x.samples, case .yuv(let q) = y.samples else { return XCTFail("not colour") }
            let context = Context()
            let pa = try context.render(Image(yuv: p), format: .rgba8), pb = try context.render(Image(yuv: q), format: .rgba8)
            XCTAssertEqual(pa.pixel(x: 40, row: 36), pb.pixel(x: 40, row: 36), "frame \(index)")
            XCTAssertEqual(pa.pixel(x: 90, row: 60), pb.pixel(x: 90, row: 60), "frame \(index)")
        }
    }

    func testABoundVideoReplacesTheBackdropFrameByFrame() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clip = SyntheticClip()
        clip.frames = 4
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        // The input itself as the background: the backdrop then gives the input back (the checker
        // the gradient would hide stays).
        var options = VideoRenderOptions()
        options.boundVideos = ["background": video]
        let output = folder.appendingPathComponent("out.mp4").path
        let recipe = try VideoRecipe(path: VideoTestSupport.example("backdrop.json"))
        _ = try VideoRender.run(recipe: recipe, input: video, depth: try DepthSource(video: depth, encoding: DepthEncoding()),
                                output: output, options: options)
        let context = Context()
        for (index, out) in try VideoTestSupport.decodeAll(output).frames.enumerated() {
            guard case .yuv(let frame) = out.samples else { return XCTFail("not colour") }
            let after = try context.render(Image(yuv: frame), format: .rgba8)
            XCTAssertGreaterThan(abs(after.pixel(x: 84, row: 60)[1] - after.pixel(x: 90, row: 60)[1]), 0.1, "frame \(index)")
        }
        options.boundVideos = ["photo": video]
        XCTAssertThrowsError(try VideoRender.run(recipe: recipe, input: video, depth: try DepthSource(video: depth, encoding: DepthEncoding()),
                                                 output: output, options: options)) { error in
            XCTAssertTrue("\(error)".contains("--bind: image \"photo\" is bound to the input"), "\(error)")
        }
    }
}
