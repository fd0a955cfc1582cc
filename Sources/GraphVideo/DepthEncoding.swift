/// What the samples of a depth stream or still depth map mean.
///
/// A sample of 0 (or NaN) is a hole: no measurement. Otherwise a depth sample `v` is
/// `v · scale` metres from the camera, a disparity sample `v · scale` in 1/m.
public struct DepthEncoding: Sendable, Equatable {
    /// Depth (distance) or disparity (its reciprocal).
    public enum Kind: String, Sendable, CaseIterable {
        /// Larger is farther (Azure Kinect, RealSense: 16-bit millimetres).
        case depth
        /// Larger is nearer (1/m; phone portrait maps).
        case disparity
    }

    /// Depth or disparity.
    public var kind: Kind
    /// Units per sample value: metres for depth, 1/m for disparity. nil: 0.001 (millimetres)
    /// for integer depth, 1 for float samples, and for integer disparity 1/255 (8-bit) or
    /// 1/65535 (16-bit), so a full-scale sample is 1/m.
    public var scale: Double?

    /// Depth in millimetres unless `scale` says otherwise.
    public init(kind: Kind = .depth, scale: Double? = nil) {
        self.kind = kind
        self.scale = scale
    }

    /// The scale for samples of `bits` bits (32: float).
    func scale(bits: Int) -> Double {
        if let scale { return scale }
        if bits == 32 { return 1 }
        switch kind {
        case .depth: return 0.001
        case .disparity: return bits == 8 ? 1.0 / 255 : 1.0 / 65535
        }
    }

    /// Metres for each sample of `values` (holes stay 0).
    func metres(_ values: [Float], bits: Int) -> [Float] {
        let scale = Float(self.scale(bits: bits))
        switch kind {
        case .depth:
            return values.map { $0.isFinite && $0 > 0 ? $0 * scale : 0 }
        case .disparity:
            return values.map { $0.isFinite && $0 > 0 ? 1 / ($0 * scale) : 0 }
        }
    }
}
