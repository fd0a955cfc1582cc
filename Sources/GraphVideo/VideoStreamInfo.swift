import CVideoShims

/// What a video stream holds, as its container and codec declare it.
public struct VideoStreamInfo: Sendable, Equatable {
    /// Coded frame size in pixels (before any display rotation).
    public let width: Int, height: Int
    /// The stream's index in its file.
    public let streamIndex: Int
    /// The codec's name (`h264`, `hevc`, `ffv1`, `png`).
    public let codec: String
    /// The decoder's pixel format name (`yuv420p`, `nv12`, `gray16le`).
    public let pixelFormat: String
    /// Timestamps count `timeBase.numerator / timeBase.denominator` seconds.
    public let timeBase: (numerator: Int, denominator: Int)
    /// Frames per second as a fraction (the average rate; 0/1 when unknown).
    public let frameRate: (numerator: Int, denominator: Int)
    /// Frames the container declares (nil when it does not say).
    public let declaredFrames: Int?
    /// Clockwise display rotation in degrees (0, 90, 180 or 270) from the stream's display matrix.
    public let rotation: Int
    /// Colour tags as FFmpeg numbers them (`AVColorRange`, `AVColorPrimaries`,
    /// `AVColorTransferCharacteristic`, `AVColorSpace`, `AVChromaLocation`; 0 or 2 mean unspecified).
    public let colorRange: Int, colorPrimaries: Int, colorTransfer: Int, colorSpace: Int, chromaLocation: Int
    /// Bits per grey or luma sample as stored (8, 10, 12, 16; 32 for float grey).
    public let sampleBits: Int
    /// Audio streams in the same file.
    public let audioStreams: Int
    /// Video streams in the same file (a depth track is a second one).
    public let videoStreams: Int

    init(_ info: gv_stream_info) {
        width = Int(info.width)
        height = Int(info.height)
        streamIndex = Int(info.stream_index)
        codec = withUnsafeBytes(of: info.codec_name) { VideoStreamInfo.string($0) }
        pixelFormat = withUnsafeBytes(of: info.pixel_format_name) { VideoStreamInfo.string($0) }
        timeBase = (Int(info.time_base_num), Int(max(info.time_base_den, 1)))
        frameRate = info.frame_rate_num > 0 && info.frame_rate_den > 0
            ? (Int(info.frame_rate_num), Int(info.frame_rate_den)) : (0, 1)
        declaredFrames = info.declared_frames > 0 ? Int(info.declared_frames) : nil
        rotation = Int(info.rotation)
        colorRange = Int(info.color_range)
        colorPrimaries = Int(info.color_primaries)
        colorTransfer = Int(info.color_transfer)
        colorSpace = Int(info.color_space)
        chromaLocation = Int(info.chroma_location)
        sampleBits = Int(info.sample_bits)
        audioStreams = Int(info.audio_streams)
        videoStreams = Int(info.video_streams)
    }

    /// Seconds per frame (nil when the rate is unknown).
    public var frameDuration: Double? {
        frameRate.numerator > 0 ? Double(frameRate.denominator) / Double(frameRate.numerator) : nil
    }

    /// Frames per second (0 when unknown).
    public var framesPerSecond: Double {
        frameRate.numerator > 0 ? Double(frameRate.numerator) / Double(frameRate.denominator) : 0
    }

    /// Compares every field (tuples are not Equatable).
    public static func == (a: VideoStreamInfo, b: VideoStreamInfo) -> Bool {
        a.width == b.width && a.height == b.height && a.streamIndex == b.streamIndex && a.codec == b.codec
            && a.pixelFormat == b.pixelFormat && a.timeBase == b.timeBase && a.frameRate == b.frameRate
            && a.declaredFrames == b.declaredFrames && a.rotation == b.rotation && a.colorRange == b.colorRange
            && a.colorPrimaries == b.colorPrimaries && a.colorTransfer == b.colorTransfer && a.colorSpace == b.colorSpace
            && a.chromaLocation == b.chromaLocation && a.sampleBits == b.sampleBits
            && a.audioStreams == b.audioStreams && a.videoStreams == b.videoStreams
    }

    static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
