import Foundation
import GraphEngine
import GraphVideo

/// Shared paths and helpers of the video tests.
enum VideoTestSupport {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Examples/video/NAME`.
    static func example(_ name: String) -> String {
        repository.appendingPathComponent("Examples/video/\(name)").path
    }

    /// A fresh folder, removed by the caller.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("graph-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every frame of `path` decoded.
    static func decodeAll(_ path: String) throws -> (info: VideoStreamInfo, frames: [DecodedFrame]) {
        let reader = try VideoReader(path: path, threads: 1)
        var frames: [DecodedFrame] = []
        while let frame = try reader.next() { frames.append(frame) }
        return (reader.info, frames)
    }

    /// The grey values (0...1, red channel) of `image` rendered, top row first.
    static func greyRows(_ image: Image, context: Context) throws -> (values: [Float], width: Int, height: Int) {
        let buffer = try context.render(image, format: .rgbaf, colorSpace: .data)
        var values = [Float](repeating: 0, count: buffer.width * buffer.height)
        buffer.withUnsafeBytes { raw in
            for y in 0..<buffer.height {
                for x in 0..<buffer.width {
                    values[y * buffer.width + x] = raw.loadUnaligned(fromByteOffset: y * buffer.rowBytes + x * 16, as: Float.self)
                }
            }
        }
        return (values, buffer.width, buffer.height)
    }

    /// The mask the backdrop recipe computes for each frame of a clip, binarised at 0.5, at the
    /// video's size, with `filter` applied to the depth stream as `graph video` does.
    static func masks(recipe: VideoRecipe, video: String, depth: String, filter: DepthFilter) throws -> [[Bool]] {
        let source = try DepthSource(video: depth, encoding: DepthEncoding())
        let reader = try VideoReader(path: video, threads: 1)
        let context = Context()
        var filter = filter
        var masks: [[Bool]] = []
        while let frame = try reader.next() {
            guard case .yuv(let yuv) = frame.samples else { throw VideoError("grey video") }
            let map = try filter.apply(try source.map(frame: frame.index, seconds: frame.seconds, videoFrameDuration: 0.1))
            let images = try recipe.images(frame: Image(yuv: yuv), depth: map).all
            guard let mask = images["mask"] else { throw VideoError("no mask image") }
            masks.append(try greyRows(mask, context: context).values.map { $0 >= 0.5 })
        }
        return masks
    }

    /// `name` on the PATH, if there (tests making streams the FFmpeg libraries here cannot write
    /// use the ffmpeg program).
    static func program(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the ffmpeg program at `ffmpeg` on `arguments` (quiet); throws unless it succeeds.
    static func runFFmpeg(_ ffmpeg: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-loglevel", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw VideoError("ffmpeg \(arguments.joined(separator: " ")) failed") }
    }
}
