/// A ``VideoRender`` that ended before the input's last frame: stopped on request
/// (``VideoRenderOptions/stop``), or by an error when ``VideoRenderOptions/keepPartial`` asked
/// for the frames encoded until then. Says how many frames were encoded and whether they were
/// kept: with `keepPartial` the container is finished (encoder flushed, trailer written) and
/// renamed into place, a playable video of those frames; without it no file is left.
public struct VideoRenderStopped: Error, CustomStringConvertible, Sendable {
    /// Why the run stopped.
    public enum Cause: Sendable {
        /// A stop request, with its reason (`SIGINT`).
        case request(String)
        /// An error (the one the run would have thrown without `keepPartial`).
        case failure(any Error)
    }

    /// Why the run stopped.
    public let cause: Cause
    /// The output file asked for.
    public let output: String
    /// Frames encoded before the stop.
    public let framesWritten: Int
    /// Whether ``output`` now holds those frames as a finished, playable video.
    public let kept: Bool
    /// Why frames encoded could not be kept (finishing the container failed), if so.
    public let keepFailure: (any Error)?

    /// The stop's description, naming the output.
    public init(cause: Cause, output: String, framesWritten: Int, kept: Bool, keepFailure: (any Error)? = nil) {
        self.cause = cause
        self.output = output
        self.framesWritten = framesWritten
        self.kept = kept
        self.keepFailure = keepFailure
    }

    /// `OUT: stopped by SIGINT after 42 frames, which the file holds (a finished, playable video)`, or
    /// the error followed by what became of the frames encoded before it.
    public var description: String {
        let frames = framesWritten == 1 ? "1 frame" : "\(framesWritten) frames"
        // A request's message starts with the output's name; an error's names its own file.
        let holder: String
        if case .request = cause { holder = "the file" } else { holder = output }
        let outcome: String
        if framesWritten == 0 {
            outcome = "before any frame was encoded; no file was written"
        } else if kept {
            outcome = "after \(frames), which \(holder) holds (a finished, playable video)"
        } else if let keepFailure {
            outcome = "after \(frames), which could not be kept (\(keepFailure)); no file was written"
        } else {
            outcome = "after \(frames); no file was written (keepPartial keeps them)"
        }
        switch cause {
        case .request(let reason): return "\(output): stopped by \(reason) \(outcome)"
        case .failure(let error): return "\(error); stopped \(outcome)"
        }
    }
}
