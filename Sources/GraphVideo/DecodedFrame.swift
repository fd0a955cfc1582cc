import GraphEngine

/// One frame as decoded: its position in the stream and its samples.
public struct DecodedFrame: @unchecked Sendable {
    /// What the frame holds.
    public enum Samples {
        /// A colour frame in the codec's own 4:2:0 layout (NV12 or I420; 10-bit reduced to 8),
        /// read natively by the engine (`Image(yuv:)`).
        case yuv(YUVFrame)
        /// A grey frame (a depth or disparity map; with `VideoReader(lumaOnly:)` any frame's
        /// luma): one value per pixel, top row first, as stored (0...2^bits − 1 for integer
        /// formats; floats as they are).
        case grey([Float], width: Int, height: Int)
    }

    /// The frame's index in decoding output order (0 first).
    public let index: Int
    /// The presentation timestamp in the stream's time base.
    public let pts: Int64
    /// Seconds from the stream's start (NaN when the frame carries no timestamp).
    public let seconds: Double
    /// The samples.
    public let samples: Samples

    /// Frame width in pixels.
    public var width: Int {
        switch samples {
        case .yuv(let frame): return frame.width
        case .grey(_, let width, _): return width
        }
    }

    /// Frame height in pixels.
    public var height: Int {
        switch samples {
        case .yuv(let frame): return frame.height
        case .grey(_, _, let height): return height
        }
    }
}
