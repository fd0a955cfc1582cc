import Dispatch
import Foundation
import GraphEngine
import GraphRecipes

/// Renders a recipe over every frame of a video and encodes the result: decoding (with the depth
/// match and filter), rendering and encoding run on three threads joined by queues of a few
/// frames, so they overlap and memory stays bounded whatever the video's length.
///
/// ```swift
/// let recipe = try VideoRecipe(path: "Examples/video/backdrop.json")
/// let depth = try DepthSource(video: "depth.mkv", encoding: DepthEncoding())
/// let summary = try VideoRender.run(recipe: recipe, input: "in.mp4", depth: depth, output: "out.mp4")
/// print(summary.frames, summary.framesPerSecond)
/// ```
///
/// Errors name the file and frame at fault; on any error (or SIGINT/SIGTERM once
/// `ImageFile.removeTemporaryFilesOnSignals()` was called) no output file is left, unless
/// ``VideoRenderOptions/keepPartial`` asks for the frames encoded so far as a playable video. A
/// ``VideoRenderOptions/stop`` request ends the run early (``VideoRenderStopped``).
public enum VideoRender {
    private struct Decoded: @unchecked Sendable {
        let frame: DecodedFrame
        let depth: DepthMap?
        let bound: [String: Image]
    }

    /// Renders `recipe` over `input` (its depth from `depth` when the recipe reads depth) into
    /// `output` (`.mp4`, `.mov`, `.mkv`), with the input's frame rate, timestamps, rotation and
    /// colour tags, and its audio copied unless `options.copyAudio` is false.
    public static func run(recipe: VideoRecipe, input: String, depth: DepthSource?, output: String,
                           options: VideoRenderOptions = VideoRenderOptions(), context: Context? = nil) throws -> VideoRenderSummary {
        let start = DispatchTime.now().uptimeNanoseconds
        if recipe.needsDepth, depth == nil {
            throw VideoError("\(recipe.path): the recipe reads depth (\(recipe.depthImages.map(\.name).joined(separator: ", "))); give a depth stream (--depth)")
        }
        let reader = try VideoReader(path: input, threads: options.decodeThreads)
        if let depth { try checkAspect(video: reader.info, depth: depth) }
        let boundReaders: [(name: String, reader: VideoReader)] = try options.boundVideos.sorted { $0.key < $1.key }.map { name, path in
            try recipe.checkBindable(name)
            return (name, try VideoReader(path: path, threads: 1))
        }
        var contextOptions = recipe.contextOptions
        if contextOptions.threads <= 0 { contextOptions.threads = ProcessInfo.processInfo.activeProcessorCount }
        let context = context ?? Context(options: contextOptions)
        let info = reader.info
        let frameDuration = info.frameDuration ?? 1.0 / 25
        let failure = FirstFailure()
        let decoded = BoundedQueue<Decoded>(capacity: options.framesInFlight)
        let rendered = BoundedQueue<PixelStore>(capacity: options.framesInFlight)
        let free = BoundedQueue<PixelStore>(capacity: options.framesInFlight + 2)
        let limit = options.frameLimit ?? Int.max
        let filterBox = FilterBox(options.depthFilter)
        let decodeEnd = DecodeEnd()
        let encoded = EncodedTail()

        // Stage 1: decode, match depth, filter it.
        let decodeDone = DispatchSemaphore(value: 0)
        let decodeThread = Thread {
            defer { decoded.close(); decodeDone.signal() }
            do {
                var count = 0
                while count < limit, failure.value == nil {
                    if let reason = options.stop?.reason {
                        decodeEnd.stoppedBy = reason
                        break
                    }
                    guard let frame = try reader.next() else { break }
                    var map: DepthMap?
                    if recipe.needsDepth, let depth {
                        let raw = try depth.map(frame: frame.index, seconds: frame.seconds, videoFrameDuration: frameDuration)
                        do {
                            map = try filterBox.filter.apply(raw)
                        } catch {
                            throw VideoError(file: depth.path, frame: frame.index, seconds: frame.seconds, "\(error)")
                        }
                    }
                    var bound: [String: Image] = [:]
                    for (name, other) in boundReaders {
                        guard let next = try other.next() else {
                            throw VideoError(file: other.path, frame: frame.index, seconds: frame.seconds,
                                             "the video bound to \"\(name)\" is shorter than the input: it has \(frame.index) frames")
                        }
                        guard case .yuv(let yuv) = next.samples else {
                            throw VideoError(file: other.path, frame: next.index, seconds: next.seconds, "a grey frame; a colour video is expected")
                        }
                        bound[name] = Image(yuv: yuv)
                    }
                    guard decoded.push(Decoded(frame: frame, depth: map, bound: bound)) else { return }
                    count += 1
                }
            } catch {
                failure.record(error)
                // Kept partial output takes the frames decoded before the error (the queue is
                // closed, not dropped, on the way out).
                if !options.keepPartial {
                    decoded.cancel()
                    rendered.cancel()
                    free.cancel()
                }
            }
        }
        decodeThread.name = "graph-video-decode"
        decodeThread.stackSize = 1 << 22
        decodeThread.start()

        // Stage 3 (started once the first frame fixes the output size): encode.
        let encodeDone = DispatchSemaphore(value: 0)
        var writer: VideoWriter?
        var encodeStarted = false
        var size: (width: Int, height: Int)?
        var renderNanoseconds: UInt64 = 0
        var lastPTS = Int64.min
        let stepPTS = ptsStep(info)

        do {
            while let item = decoded.pop() {
                let frame = item.frame
                guard case .yuv(let yuv) = frame.samples else {
                    throw VideoError(file: input, frame: frame.index, seconds: frame.seconds, "the video frame is grey; a colour video is expected")
                }
                let image: Image
                do {
                    image = try recipe.images(frame: Image(yuv: yuv), depth: item.depth, bound: item.bound).output
                } catch {
                    throw VideoError(file: input, frame: frame.index, seconds: frame.seconds, "\(error)")
                }
                let extent = PixelSize(image.extent)
                if let size {
                    guard size == (extent.width, extent.height) else {
                        throw VideoError(file: input, frame: frame.index, seconds: frame.seconds,
                                         "the recipe's output is \(extent.width)x\(extent.height), earlier frames' \(size.width)x\(size.height) (a video's frames share one size)")
                    }
                } else {
                    guard extent.width % 2 == 0, extent.height % 2 == 0 || options.encoding.codec == "ffv1" else {
                        throw VideoError(file: input, frame: frame.index, seconds: frame.seconds,
                                         "the recipe's output is \(extent.width)x\(extent.height); 4:2:0 video needs an even width and height")
                    }
                    size = (extent.width, extent.height)
                    var stream = VideoWriter.Stream(like: info, audioFrom: options.copyAudio ? input : nil)
                    stream.width = extent.width
                    stream.height = extent.height
                    let made = try VideoWriter(path: output, stream: stream, input: .rgba, encoding: options.encoding)
                    writer = made
                    for _ in 0..<(options.framesInFlight + 2) { free.push(PixelStore(rowBytes: extent.width * 4, height: extent.height)) }
                    startEncoder(writer: made, rendered: rendered, free: free, failure: failure, encoded: encoded, done: encodeDone,
                                 total: info.declaredFrames.map { min($0, limit) }, progress: options.progress,
                                 cancel: { decoded.cancel() })
                    encodeStarted = true
                }
                guard let store = free.pop() else { break }
                let renderStart = DispatchTime.now().uptimeNanoseconds
                do {
                    try context.render(image, to: store.bytes, rowBytes: store.rowBytes, rect: image.extent.integral, format: .rgba8)
                } catch {
                    throw VideoError(file: input, frame: frame.index, seconds: frame.seconds, "cannot render: \(error)")
                }
                renderNanoseconds += DispatchTime.now().uptimeNanoseconds - renderStart
                // No later frame reads this frame's intermediates (each reads another frame): drop
                // them now rather than let them fill the context's cache (up to 256 MiB).
                context.removeCachedImages()
                var pts = frame.pts == Int64.min ? Int64(frame.index) * stepPTS : frame.pts
                if pts <= lastPTS { pts = lastPTS + 1 }
                lastPTS = pts
                store.frame = frame.index
                store.pts = pts
                store.seconds = frame.seconds
                guard rendered.push(store) else { break }
            }
        } catch {
            failure.record(error)
        }
        if failure.value != nil {
            decoded.cancel()
            if !options.keepPartial {
                rendered.cancel()
                free.cancel()
            }
        }
        // The frames rendered go on to the encoder (after an error only with keepPartial; an
        // encoder error has cancelled the queue already).
        rendered.close()
        decodeDone.wait()
        if encodeStarted { encodeDone.wait() }
        // A run cut short keeps the audio of the frames it wrote.
        let audioEnd = encoded.lastSeconds + frameDuration
        if let error = failure.value {
            guard options.keepPartial, let writer, writer.frameCount > 0 else {
                writer?.abandon()
                throw error
            }
            throw keep(writer, cause: .failure(error), audioUntil: audioEnd)
        }
        if let reason = decodeEnd.stoppedBy {
            guard options.keepPartial, let writer else {
                let frames = writer?.frameCount ?? 0
                writer?.abandon()
                throw VideoRenderStopped(cause: .request(reason), output: output, framesWritten: frames, kept: false)
            }
            throw keep(writer, cause: .request(reason), audioUntil: audioEnd)
        }
        guard let writer, let size else { throw VideoError(file: input, "the video has no frame") }
        let cut = options.frameLimit.map { writer.frameCount >= $0 } ?? false
        try writer.finish(audioUntil: cut ? audioEnd : .infinity)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return VideoRenderSummary(frames: writer.frameCount, width: size.width, height: size.height, seconds: seconds,
                                  renderSeconds: Double(renderNanoseconds) / 1e9)
    }

    /// Finishes `writer` with the frames it encoded (a run stopped early, with keepPartial): the
    /// stop, saying whether the file could be finished.
    private static func keep(_ writer: VideoWriter, cause: VideoRenderStopped.Cause, audioUntil: Double) -> VideoRenderStopped {
        let frames = writer.frameCount
        do {
            try writer.finish(audioUntil: audioUntil)
            return VideoRenderStopped(cause: cause, output: writer.path, framesWritten: frames, kept: true)
        } catch {
            return VideoRenderStopped(cause: cause, output: writer.path, framesWritten: frames, kept: false, keepFailure: error)
        }
    }

    /// The encoding thread: writes each rendered frame and hands its memory back to the pool.
    private static func startEncoder(writer: VideoWriter, rendered: BoundedQueue<PixelStore>, free: BoundedQueue<PixelStore>,
                                     failure: FirstFailure, encoded: EncodedTail, done: DispatchSemaphore, total: Int?,
                                     progress: (@Sendable (Int, Int?) -> Void)?, cancel: @escaping @Sendable () -> Void) {
        let thread = Thread {
            defer { done.signal() }
            var count = 0
            while let store = rendered.pop() {
                do {
                    try writer.write(store.bytes, rowBytes: store.rowBytes, pts: store.pts)
                } catch {
                    failure.record(error)
                    cancel()
                    rendered.cancel()
                    free.cancel()
                    return
                }
                count += 1
                if store.seconds.isFinite { encoded.lastSeconds = store.seconds }
                progress?(count, total)
                free.push(store)
            }
        }
        thread.name = "graph-video-encode"
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Timestamp units per frame, for frames that carry none.
    private static func ptsStep(_ info: VideoStreamInfo) -> Int64 {
        let rate = info.frameRate.numerator > 0 ? info.frameRate : (25, 1)
        let step = Double(info.timeBase.denominator) * Double(rate.1) / (Double(info.timeBase.numerator) * Double(rate.0))
        return max(Int64(step.rounded()), 1)
    }

    /// A depth map whose aspect ratio differs from the video's by more than 1.5 times (a map of
    /// another camera, or one rotated) is refused: stretched over the frame it would not line up.
    /// 4:3 depth under 16:9 video (1.33 times) passes.
    static func checkAspect(video: VideoStreamInfo, depth: DepthSource) throws {
        let videoAspect = Double(video.width) / Double(max(video.height, 1))
        let depthAspect = Double(depth.info.width) / Double(max(depth.info.height, 1))
        let ratio = max(videoAspect, depthAspect) / min(videoAspect, depthAspect)
        guard ratio <= 1.5 else {
            throw VideoError(file: depth.path, "the depth map is \(depth.info.width)x\(depth.info.height) but the video is \(video.width)x\(video.height): "
                             + "their shapes differ by \(String(format: "%.2f", ratio)) times (at most 1.5 is stretched to fit)")
        }
    }
}

/// Why the decoding stage stopped reading before the end: the stop request's reason. Written by
/// the decoding thread, read once it has ended.
private final class DecodeEnd: @unchecked Sendable {
    var stoppedBy: String?
}

/// The start time of the last frame encoded (0 before any): where the audio of a run cut short
/// ends. Written by the encoding thread, read once it has ended.
private final class EncodedTail: @unchecked Sendable {
    var lastSeconds = 0.0
}

/// The depth filter, owned by the decoding thread.
private final class FilterBox: @unchecked Sendable {
    var filter: DepthFilter
    init(_ filter: DepthFilter) { self.filter = filter }
}
