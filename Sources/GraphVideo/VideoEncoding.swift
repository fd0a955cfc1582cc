/// How `graph video` encodes its output: the encoder and its speed/quality settings.
public struct VideoEncoding: Sendable, Equatable {
    /// The FFmpeg encoder: `libx264` (H.264, the default), `libx265` (HEVC), or any other
    /// video encoder FFmpeg was built with (`ffv1` for lossless).
    public var codec: String
    /// The x264/x265 preset (`ultrafast` ... `veryslow`); nil leaves the encoder's default.
    public var preset: String?
    /// The x264/x265 constant rate factor (lower is better; nil leaves the encoder's default).
    public var crf: Int?
    /// Encoder threads (0: the encoder's choice).
    public var threads: Int

    /// H.264 through libx264 at preset `veryfast`, CRF 20.
    public init(codec: String = "libx264", preset: String? = "veryfast", crf: Int? = 20, threads: Int = 0) {
        self.codec = codec
        self.preset = preset
        self.crf = crf
        self.threads = threads
    }

    /// The encoder for a short name: `h264` → libx264, `hevc`/`h265` → libx265, others as given.
    public static func encoderName(_ name: String) -> String {
        switch name.lowercased() {
        case "h264", "x264", "avc": return "libx264"
        case "hevc", "h265", "x265": return "libx265"
        default: return name
        }
    }
}
