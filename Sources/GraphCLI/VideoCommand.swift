import ArgumentParser
import Foundation
import GraphCodecs
import GraphEngine
import GraphVideo

/// `graph video RECIPE --input IN.mp4 [--depth DEPTH.mkv] --out OUT.mp4`: the recipe applied to
/// every frame (the work is `GraphVideo.VideoRender`; this parses the options and prints).
struct VideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Apply a recipe to every frame of a video, with a depth stream, and encode the result.",
        discussion: """
            The recipe's photo image is bound to each frame; its "auxiliary": "depth" images to the frame's depth \
            map in metres and "auxiliary": "disparity" images to 1/m. Depth comes from --depth (a grey or YUV-luma \
            video matched by timestamps, or an image for a static camera) or --depth-track (a video stream of the \
            input). Holes are filled and the map smoothed over time unless --no-smoothing. The output keeps the \
            input's frame rate, timestamps, rotation and colour tags; audio is copied unchanged. An interrupted or \
            failing run leaves no output file, unless --keep-partial: then SIGINT or SIGTERM (or an error after the first \
            frame) ends the video properly with the frames encoded so far, and the exit status is 130 or 143 (2 for an \
            error). Examples: Examples/video/*.json.
            """)

    @Argument(help: "The recipe JSON file.") var recipe: String
    @Option(help: "The video to read.") var input: String
    @Option(help: "A depth or disparity video (grey 8-16 bit, or the luma of YUV: FFV1, PNG, lossless H.264/HEVC) or a still depth image.") var depth: String?
    @Option(name: .customLong("depth-track"), help: "Read depth from this stream index of the input file instead.")
    var depthTrack: Int?
    @Option(name: .customLong("depth-kind"), help: "What the depth samples are: depth (larger is farther) or disparity.")
    var depthKind: String = "depth"
    @Option(name: .customLong("depth-scale"), help: "Metres (depth) or 1/m (disparity) per sample value (default: 0.001 for integer depth, i.e. millimetres).")
    var depthScale: Double?
    @Option(name: .customLong("depth-range"), help: "How integer depth samples span their bits: full (codes as stored, the default) or video (luma in 16-235, as ffmpeg's conversion of a grey map to yuv420p stores it; stretched back).")
    var depthRange: String = "full"
    @Flag(name: .customLong("still-depth"), help: "Use the first frame of --depth for every frame (implied for image files).")
    var stillDepth = false
    @Option(help: "Temporal smoothing weight of a new depth measurement, 0.01...1 (1: off).") var smoothing: Double = 0.3
    @Option(name: .customLong("smoothing-gate"), help: "Depth changes above this many metres are taken at once, not averaged.")
    var smoothingGate: Double = 0.15
    @Flag(name: .customLong("no-smoothing"), help: "Fill holes only; no temporal smoothing.") var noSmoothing = false
    @Option(name: .customLong("out"), help: "The video to write (.mp4, .mov or .mkv).") var out: String
    @Option(help: "Encoder: h264 (libx264), hevc (libx265) or any FFmpeg encoder name.") var codec: String = "h264"
    @Option(help: "x264/x265 preset.") var preset: String = "veryfast"
    @Option(help: "x264/x265 constant rate factor.") var crf: Int = 20
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a parameter: IMAGE.KEY=VALUE (VALUE is JSON).", valueName: "IMAGE.KEY=VALUE"))
    var settings: [String] = []
    @Option(name: .customLong("photo-image"), help: "The recipe image each frame replaces (default: photo).") var photoImage: String?
    @Option(name: .customLong("output-image"), help: "The recipe image encoded (default: the first output's).") var outputImage: String?
    @Option(name: .customLong("bind"), help: ArgumentHelp("Bind a file image of the recipe to another video, frame by frame (Backdrop over a video: --bind background=beach.mp4).", valueName: "IMAGE=VIDEO"))
    var bindings: [String] = []
    @Option(help: "Stop after this many frames.") var frames: Int?
    @Flag(name: .customLong("no-audio"), help: "Do not copy the input's audio.") var noAudio = false
    @Option(help: "Worker threads for rendering.") var threads: Int?
    @Option(name: .customLong("decoder-threads"), help: "Decoder threads (0: FFmpeg's choice).") var decoderThreads: Int = 1
    @Option(name: .customLong("encoder-threads"), help: "Encoder threads (0: the encoder's choice). Each x264 frame thread holds frames: at 1080p a second one costs about 50 MiB and gains little while the render uses every core.") var encoderThreads: Int = 1
    @Flag(name: .customLong("keep-partial"), help: "On SIGINT or SIGTERM, or an error after the first frame, finish the output with the frames encoded so far (a playable, shorter video) instead of removing it. A second signal stops at once, leaving no file.")
    var keepPartial = false
    @Flag(help: "Print the plan and timings of the first frame's render, and write nothing.") var profile = false

    func run() throws {
        try Graph.reportingErrors {
            ImageFile.removeTemporaryFilesOnSignals()
            guard let kind = DepthEncoding.Kind(rawValue: depthKind) else {
                throw ValidationError("--depth-kind: expected depth or disparity, got '\(depthKind)'")
            }
            guard let range = DepthEncoding.SampleRange(rawValue: depthRange) else {
                throw ValidationError("--depth-range: expected full or video, got '\(depthRange)'")
            }
            guard depth == nil || depthTrack == nil else { throw ValidationError("give --depth or --depth-track, not both") }
            let encoding = DepthEncoding(kind: kind, scale: depthScale, range: range)
            let videoRecipe = try VideoRecipe(path: recipe, overrides: settings, photoImage: photoImage, outputImage: outputImage)
            var source: DepthSource?
            if let depth {
                let still = stillDepth || ["png", "jpg", "jpeg", "tif", "tiff", "exr", "pgm"].contains((depth as NSString).pathExtension.lowercased())
                source = still ? try DepthSource(still: depth, encoding: encoding) : try DepthSource(video: depth, encoding: encoding)
            } else if let depthTrack {
                source = try DepthSource(video: input, stream: depthTrack, encoding: encoding)
            }
            var options = VideoRenderOptions()
            options.encoding = VideoEncoding(codec: VideoEncoding.encoderName(codec), preset: preset, crf: crf, threads: encoderThreads)
            options.decodeThreads = decoderThreads
            options.depthFilter = DepthFilter(alpha: noSmoothing ? 1 : Float(smoothing), gate: Float(smoothingGate))
            options.copyAudio = !noAudio
            options.frameLimit = frames
            for binding in bindings {
                guard let equals = binding.firstIndex(of: "="), equals != binding.startIndex, binding.index(after: equals) != binding.endIndex else {
                    throw ValidationError("--bind: expected IMAGE=VIDEO, got '\(binding)'")
                }
                options.boundVideos[String(binding[..<equals])] = String(binding[binding.index(after: equals)...])
            }
            let line = VideoProgressLine(label: (out as NSString).lastPathComponent)
            options.progress = { done, total in line.update(done: done, total: total) }
            options.keepPartial = keepPartial
            var signals: StopSignals?
            if keepPartial && !profile {
                // The first signal only asks the render to stop; a second removes the temporary
                // file and ends the process of the signal.
                let stop = VideoRenderStop()
                options.stop = stop
                let name = out
                signals = StopSignals(stop: { number in
                    stop.request(StopSignals.name(number))
                    line.finish()
                    Terminal.shared.err("graph: video: \(StopSignals.name(number)): finishing \(name) with the frames encoded (again to stop at once, leaving no file)")
                }, abandon: { _ in })
            }
            var context: Context?
            if let threads {
                var contextOptions = videoRecipe.contextOptions
                contextOptions.threads = threads
                context = Context(options: contextOptions)
            }
            if profile {
                let dump = try VideoRender.profileFirstFrame(recipe: videoRecipe, input: input, depth: source,
                                                             filter: options.depthFilter, context: context)
                Terminal.shared.out(dump.text(stages: [.programs, .timing]))
                return
            }
            let summary: VideoRenderSummary
            do {
                defer {
                    line.finish()
                    signals?.restore()
                }
                summary = try VideoRender.run(recipe: videoRecipe, input: input, depth: source, output: out, options: options,
                                              context: context)
            } catch let stopped as VideoRenderStopped {
                guard case .request(let reason) = stopped.cause else { throw stopped }
                Terminal.shared.err("graph: video: \(stopped)")
                throw ExitCode(128 + (reason == StopSignals.name(SIGTERM) ? SIGTERM : SIGINT))
            }
            let peakMiB = Double(peakResidentBytes()) / 1_048_576
            Terminal.shared.out("\(out) \(summary.width)x\(summary.height) \(summary.frames) frames "
                                + String(format: "%.2f s, %.1f fps (render %.2f s), peak %.0f MiB", summary.seconds,
                                         summary.framesPerSecond, summary.renderSeconds, peakMiB))
        }
    }
}

/// `graph: video OUT frame N/M  F fps` on stderr, rewritten in place, only when stderr is a terminal.
final class VideoProgressLine: @unchecked Sendable {
    private let label: String
    private let lock = NSLock()
    private let start = Date()
    private let enabled = isatty(STDERR_FILENO) == 1
    private var shown = false
    private var lastDraw = Date.distantPast

    init(label: String) {
        self.label = label
    }

    /// Redraws at most five times a second.
    func update(done: Int, total: Int?) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        shown = true
        let fps = Double(done) / max(now.timeIntervalSince(start), 0.001)
        let count = total.map { "\(done)/\($0)" } ?? "\(done)"
        Terminal.shared.rawErr(String(format: "\rgraph: video %@ frame %@ %.1f fps", label as NSString, count as NSString, fps))
    }

    /// Erases the line.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        if shown { Terminal.shared.rawErr("\r\u{1B}[K") }
    }
}
