/// How ``VideoRender`` runs: encoder settings, depth smoothing, threads, progress, stopping early.
public struct VideoRenderOptions: Sendable {
    /// The encoder and its settings (default: H.264 via libx264, preset veryfast).
    public var encoding = VideoEncoding()
    /// The depth filter (hole filling and temporal smoothing); `DepthFilter(alpha: 1)` fills
    /// holes without smoothing.
    public var depthFilter = DepthFilter()
    /// Decoder threads (0: FFmpeg's choice).
    public var decodeThreads = 0
    /// Frames each stage may hold ahead of the next (decoded, rendered): memory is bounded by
    /// about twice this many frames. One keeps decode, render and encode overlapped (each stage has
    /// the next item waiting) at 8 MiB less per 1080p frame than two (Backdrop at 1080p: the same
    /// speed within noise).
    public var framesInFlight = 1
    /// Whether the source's audio streams are copied (unchanged) into the output.
    public var copyAudio = true
    /// Other videos whose frames replace recipe images, frame by frame (`graph video --bind
    /// background=beach.mp4`: Backdrop over a video): image name → file. The Nth frame of the
    /// output reads the Nth frame of each; a bound video shorter than the input is an error.
    public var boundVideos: [String: String] = [:]
    /// Stop after this many frames (nil: all).
    public var frameLimit: Int?
    /// Stop early when this is requested (nil: run to the end); the run then throws
    /// ``VideoRenderStopped``.
    public var stop: VideoRenderStop?
    /// Whether a run that stops early (a ``stop`` request, or an error after frames were encoded)
    /// finishes the container with the frames encoded so far, a playable shorter video, instead
    /// of leaving no file. The frames are those before the stop: a stop request lets the frames
    /// already decoded through; an error keeps every frame before the one at fault (an encoder
    /// error: those already encoded). The run still throws ``VideoRenderStopped``, which says how
    /// many frames the file holds.
    public var keepPartial = false
    /// Called on the encoding thread after each frame is encoded: frames done, and the total
    /// when the container declares it.
    public var progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)?

    /// The defaults.
    public init() {}
}
