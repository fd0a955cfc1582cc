/// What a finished ``VideoRender`` did.
public struct VideoRenderSummary: Sendable {
    /// Frames encoded.
    public let frames: Int
    /// The output's size in pixels.
    public let width: Int, height: Int
    /// Seconds the whole run took (open to rename).
    public let seconds: Double
    /// Seconds spent rendering (the recipe's programs), summed over frames.
    public let renderSeconds: Double
    /// Frames per second over the whole run.
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}
