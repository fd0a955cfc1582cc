import GraphCodecs

/// Stored samples to values: the formulas of depth-formats.md 1.4, 2.3 and 3.2 in one place.
enum DepthValues {
    /// The value of stored sample `v` (0...`maximum`):
    /// - Apple: `FloatMin + (v − IntMin)·(FloatMax − FloatMin)/(IntMax − IntMin)`.
    /// - HEVC depth SEI: uniform between the range of ``range(of:)`` (disparity d_min...d_max,
    ///   inverse Z 1/z_far...1/z_near, Z z_near...z_far).
    /// - GDepth: `dn = v / maximum`, then the Format's formula (``GDepthMetadata/depth(normalized:)``).
    static func value(of v: Double, maximum: Double, encoding: DepthData.StoredEncoding) -> Double {
        switch encoding {
        case .apple(let floatMin, let floatMax, let intMin, let intMax, _, _):
            return floatMin + (v - Double(intMin)) * (floatMax - floatMin) / Double(intMax - intMin)
        case .depthRepresentation(let info):
            guard let (low, high) = range(of: info) else { return .nan }
            return low + v / maximum * (high - low)
        case .gDepth(let format, let near, let far, let units):
            return GDepthMetadata(format: format, near: near, far: far, units: units, mime: "", data: []).depth(normalized: v / maximum)
        }
    }

    /// The values a depth SEI's samples span from 0 to the maximum, or nil when the SEI lacks
    /// what its type needs (or is non-uniform).
    static func range(of info: HEVCDepthRepresentation) -> (Double, Double)? {
        switch info.type {
        case 1:
            guard let low = info.dMin, let high = info.dMax else { return nil }
            return (low, high)
        case 0:
            guard let near = info.zNear, let far = info.zFar, near != 0, far != 0 else { return nil }
            return (1 / far, 1 / near)
        case 2:
            guard let near = info.zNear, let far = info.zFar else { return nil }
            return (near, far)
        default:
            return nil
        }
    }

    /// A table of the value of every stored sample 0...`maximum`.
    static func table(maximum: Double, encoding: DepthData.StoredEncoding) -> [Float] {
        (0...Int(maximum)).map { Float(value(of: Double($0), maximum: maximum, encoding: encoding)) }
    }
}
