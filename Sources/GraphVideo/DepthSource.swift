/// Where each video frame's depth comes from, matched to the frame by its timestamp:
/// a second video (grey 8/10/12/16-bit: FFV1, PNG; or the luma of YUV, as lossless H.264/HEVC
/// depth usually is), a depth track of the video's own file (another video stream, as in Azure
/// Kinect MKV recordings), or one still map for a static camera.
///
/// Samples are read as stored (a 10-bit sample is 0...1023) and scaled by ``DepthEncoding``.
///
/// Not thread-safe: one thread asks for maps, in frame order.
public final class DepthSource: @unchecked Sendable {
    /// The file the depth comes from (and the stream, for a track).
    public let path: String
    /// What the samples mean.
    public let encoding: DepthEncoding
    /// The depth stream's description (a still map's too: one frame).
    public let info: VideoStreamInfo
    private let reader: VideoReader?
    private var still: DepthMap?
    /// The last frame read and the one after it (the candidates for the next video frame).
    private var current: (frame: DecodedFrame, map: DepthMap)?
    private var upcoming: (frame: DecodedFrame, map: DepthMap)?
    private var ended = false
    private var size: (width: Int, height: Int)?

    /// A depth video (`stream`: which video stream of the file; nil the main one).
    public init(video path: String, stream: Int? = nil, encoding: DepthEncoding) throws {
        self.path = path
        self.encoding = encoding
        let reader = try VideoReader(path: path, stream: stream, threads: 1, lumaOnly: true)
        self.reader = reader
        self.info = reader.info
    }

    /// A still depth map (an image file: 16-bit PNG in millimetres, 8-bit grey, or a float
    /// format FFmpeg decodes), used for every frame.
    public init(still path: String, encoding: DepthEncoding) throws {
        self.path = path
        self.encoding = encoding
        let reader = try VideoReader(path: path, threads: 1, lumaOnly: true)
        info = reader.info
        guard let frame = try reader.next() else { throw VideoError(file: path, "the depth image has no frame") }
        var filter = DepthFilter(alpha: 1)
        let map = try DepthSource.map(of: frame, encoding: encoding, path: path, info: reader.info)
        do {
            still = try filter.apply(map)
        } catch {
            throw VideoError(file: path, "\(error)")
        }
        self.reader = nil
    }

    /// Whether the map is the same for every frame.
    public var isStill: Bool { still != nil }

    /// The depth map for the video frame at `seconds` (its index `frame`, used when timestamps
    /// are missing), in metres with holes still 0: the depth frame nearest in time. It may be
    /// half a depth frame away (a slower depth stream), plus a quarter of a video frame
    /// (`videoFrameDuration`) for timestamp jitter; farther is an error naming the frame (the
    /// depth stream ended early, started late, or has a gap).
    public func map(frame: Int, seconds: Double, videoFrameDuration: Double) throws -> DepthMap {
        if let still { return still }
        guard let reader else { throw VideoError(file: path, "no depth") }
        if current == nil {
            current = try read(reader)
            guard current != nil else { throw VideoError(file: path, "the depth stream has no frame") }
        }
        guard seconds.isFinite, var chosen = current else { return try byIndex(reader, frame: frame) }
        while true {
            if upcoming == nil, !ended { upcoming = try read(reader) }
            guard let next = upcoming, next.frame.seconds.isFinite else { break }
            if abs(next.frame.seconds - seconds) <= abs(chosen.frame.seconds - seconds) {
                current = next
                chosen = next
                upcoming = nil
            } else {
                break
            }
        }
        let depthDuration = info.frameDuration ?? videoFrameDuration
        let tolerance = 0.5 * depthDuration + 0.25 * videoFrameDuration
        let distance = chosen.frame.seconds - seconds
        if abs(distance) > tolerance {
            let reason: String
            if ended, upcoming == nil, distance < 0 {
                reason = "the depth stream is shorter than the video: its last frame (\(chosen.frame.index)) is at "
                    + VideoError.time(chosen.frame.seconds)
            } else {
                reason = "no depth frame within \(VideoError.time(tolerance)); the nearest (\(chosen.frame.index)) is at "
                    + VideoError.time(chosen.frame.seconds)
            }
            throw VideoError(file: path, frame: frame, seconds: seconds, reason)
        }
        return chosen.map
    }

    /// Matching by position when the video carries no timestamps.
    private func byIndex(_ reader: VideoReader, frame: Int) throws -> DepthMap {
        while let chosen = current, chosen.frame.index < frame {
            guard let next = try upcoming ?? read(reader) else {
                throw VideoError(file: path, frame: frame, "the depth stream is shorter than the video: it has \(chosen.frame.index + 1) frames")
            }
            upcoming = nil
            current = next
        }
        guard let chosen = current else { throw VideoError(file: path, "the depth stream has no frame") }
        return chosen.map
    }

    private func read(_ reader: VideoReader) throws -> (frame: DecodedFrame, map: DepthMap)? {
        guard !ended else { return nil }
        guard let frame = try reader.next() else {
            ended = true
            return nil
        }
        if let size, size != (frame.width, frame.height) {
            throw VideoError(file: path, frame: frame.index, seconds: frame.seconds,
                             "the depth frame is \(frame.width)x\(frame.height), the frames before it \(size.width)x\(size.height)")
        }
        size = (frame.width, frame.height)
        return (frame, try DepthSource.map(of: frame, encoding: encoding, path: path, info: info))
    }

    /// A frame's grey or luma samples (as `VideoReader(lumaOnly:)` gives them) in metres.
    static func map(of frame: DecodedFrame, encoding: DepthEncoding, path: String, info: VideoStreamInfo) throws -> DepthMap {
        guard case .grey(let values, let width, let height) = frame.samples else {
            throw VideoError(file: path, frame: frame.index, seconds: frame.seconds, "a colour frame where depth was expected")
        }
        return try DepthMap(width: width, height: height, metres: encoding.metres(values, bits: info.sampleBits))
    }
}
