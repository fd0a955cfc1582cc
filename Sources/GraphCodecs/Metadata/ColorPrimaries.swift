/// RGB colour-space primaries and white point (CIE xy), and the D50-adapted RGB→XYZ matrix
/// an ICC profile stores (Bradford chromatic adaptation to the ICC PCS white).
public struct ColorPrimaries: Sendable, Equatable {
    /// The red primary's CIE xy chromaticity.
    public var red: (x: Double, y: Double)
    /// The green primary's CIE xy chromaticity.
    public var green: (x: Double, y: Double)
    /// The blue primary's CIE xy chromaticity.
    public var blue: (x: Double, y: Double)
    /// The white point's CIE xy chromaticity.
    public var white: (x: Double, y: Double)

    /// Primaries and white point from their xy chromaticities.
    public init(red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
    }

    /// Equal when every chromaticity is.
    public static func == (l: ColorPrimaries, r: ColorPrimaries) -> Bool {
        l.red == r.red && l.green == r.green && l.blue == r.blue && l.white == r.white
    }

    /// ITU-R BT.709 / sRGB primaries, D65.
    public static let sRGB = ColorPrimaries(red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), white: (0.3127, 0.3290))
    /// DCI-P3 primaries with a D65 white (Display P3).
    public static let displayP3 = ColorPrimaries(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.3127, 0.3290))

    /// The ICC PCS illuminant (D50), XYZ.
    public static let d50: [Double] = [0.9642, 1.0, 0.8249]

    /// RGB→XYZ matrix (row-major) for the colour space's own white point.
    public var matrix: [Double] {
        func xyz(_ p: (x: Double, y: Double)) -> [Double] { [p.x / p.y, 1, (1 - p.x - p.y) / p.y] }
        let r = xyz(red), g = xyz(green), b = xyz(blue), w = xyz(white)
        let m = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]]
        let s = Matrix3.multiply(Matrix3.inverse(m), w)
        return [m[0] * s[0], m[1] * s[1], m[2] * s[2], m[3] * s[0], m[4] * s[1], m[5] * s[2], m[6] * s[0], m[7] * s[1], m[8] * s[2]]
    }

    /// Bradford matrix adapting this white point to D50.
    public var adaptationToD50: [Double] {
        let bradford = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]
        let source = Matrix3.multiply(bradford, [white.x / white.y, 1, (1 - white.x - white.y) / white.y])
        let target = Matrix3.multiply(bradford, ColorPrimaries.d50)
        let scale = [target[0] / source[0], 0, 0, 0, target[1] / source[1], 0, 0, 0, target[2] / source[2]]
        return Matrix3.multiply(Matrix3.inverse(bradford), Matrix3.multiply(scale, bradford))
    }

    /// RGB→XYZ(D50) matrix as stored in ICC rXYZ/gXYZ/bXYZ (columns), row-major.
    public var matrixD50: [Double] { Matrix3.multiply(adaptationToD50, matrix) }
}

/// Tiny 3x3 (row-major) matrix helpers.
enum Matrix3 {
    static func multiply(_ a: [Double], _ v: [Double]) -> [Double] {
        if v.count == 3 {
            return (0..<3).map { r in a[r * 3] * v[0] + a[r * 3 + 1] * v[1] + a[r * 3 + 2] * v[2] }
        }
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 { out[r * 3 + c] = (0..<3).reduce(0) { $0 + a[r * 3 + $1] * v[$1 * 3 + c] } }
        }
        return out
    }

    static func inverse(_ m: [Double]) -> [Double] {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        let inv = [
            e * i - f * h, c * h - b * i, b * f - c * e,
            f * g - d * i, a * i - c * g, c * d - a * f,
            d * h - e * g, b * g - a * h, a * e - b * d,
        ]
        return inv.map { $0 / det }
    }
}
