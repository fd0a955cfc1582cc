/// What the samples of a depth stream or still depth map mean.
///
/// A sample of 0 (or NaN) is a hole: no measurement. Otherwise a depth sample `v` is
/// `v · scale` metres from the camera, a disparity sample `v · scale` in 1/m; samples in video
/// range are first stretched to full range (``SampleRange``).
public struct DepthEncoding: Sendable, Equatable {
    /// Depth (distance) or disparity (its reciprocal).
    public enum Kind: String, Sendable, CaseIterable {
        /// Larger is farther (Azure Kinect, RealSense: 16-bit millimetres).
        case depth
        /// Larger is nearer (1/m; phone portrait maps).
        case disparity
    }

    /// How integer samples span their bits.
    public enum SampleRange: String, Sendable, CaseIterable {
        /// Every code is a value as it is (grey formats; depth written straight into YUV luma, as
        /// x264 and x265 keep it losslessly whatever range the stream is tagged with).
        case full
        /// Luma in video range, black at 16·2^(bits−8) and white at 235·2^(bits−8), as FFmpeg's
        /// conversion of a grey map to yuv420p stores it: stretched back as
        /// `(v − 16·2^(bits−8)) · (2^bits − 1) / (219·2^(bits−8))`, so black (and below) is a
        /// hole and white full scale.
        case video
    }

    /// Depth or disparity.
    public var kind: Kind
    /// Units per sample value: metres for depth, 1/m for disparity. nil: 0.001 (millimetres)
    /// for integer depth, 1 for float samples, and for integer disparity `1/(2^bits − 1)` (1/255
    /// at 8 bits, 1/1023 at 10, 1/65535 at 16), so a full-scale sample is 1/m.
    public var scale: Double?

    /// The range of integer samples (float samples are taken as they are).
    public var range: SampleRange

    /// Depth in millimetres, codes as stored, unless `scale` and `range` say otherwise.
    public init(kind: Kind = .depth, scale: Double? = nil, range: SampleRange = .full) {
        self.kind = kind
        self.scale = scale
        self.range = range
    }

    /// The scale for samples of `bits` bits (32: float).
    func scale(bits: Int) -> Double {
        if let scale { return scale }
        if bits == 32 { return 1 }
        switch kind {
        case .depth: return 0.001
        case .disparity: return 1 / Double((1 << bits) - 1)
        }
    }

    /// Metres for each sample of `values` (holes stay 0).
    func metres(_ values: [Float], bits: Int) -> [Float] {
        let values = range == .video && (8...16).contains(bits) ? DepthEncoding.fullRange(values, bits: bits) : values
        let scale = Float(self.scale(bits: bits))
        switch kind {
        case .depth:
            return values.map { $0.isFinite && $0 > 0 ? $0 * scale : 0 }
        case .disparity:
            return values.map { $0.isFinite && $0 > 0 ? 1 / ($0 * scale) : 0 }
        }
    }

    /// Video-range codes of `bits` bits stretched to full range (``SampleRange/video``); black and
    /// below become 0.
    static func fullRange(_ values: [Float], bits: Int) -> [Float] {
        let step = Double(1 << (bits - 8))
        let black = Float(16 * step), gain = Float(Double((1 << bits) - 1) / (219 * step))
        return values.map { $0 > black ? ($0 - black) * gain : 0 }
    }
}
