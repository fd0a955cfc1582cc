/// An RGB colour space: primaries (as a matrix to linear sRGB, D65) and a transfer function.
///
/// The default working space is extended-range linear sRGB; inputs tagged sRGB or Display P3 (what
/// iPhones write), or with any other matrix/TRC ICC profile (Adobe RGB, ProPhoto, a grey gamma...),
/// are converted into it and the output is converted back, with sign-preserving transfer
/// functions so negative and above-1 values survive.
public struct ColorSpace: Hashable, Sendable, CustomStringConvertible {
    /// How encoded values map to linear light.
    public enum Transfer: Hashable, Sendable {
        /// The sRGB curve (also Display P3's), sign-preserving.
        case sRGB
        /// Linear: encoded values are linear light.
        case linear
        /// An ICC profile's curve (gamma or parametric), sign-preserving.
        case curve(ToneCurve)
    }

    /// The name dumps and errors use (`sRGB`, `Display P3`, an ICC profile's description).
    public let name: String
    /// The space's transfer function (its tone curve).
    public let transfer: Transfer
    /// Linear RGB in this space to linear sRGB, row-major 3×3.
    public let toLinearSRGB: [Double]

    /// A space with `transfer` whose linear RGB goes to linear sRGB through the 3×3 matrix `toLinearSRGB` (row-major).
    public init(name: String, transfer: Transfer, toLinearSRGB: [Double]) {
        self.name = name
        self.transfer = transfer
        self.toLinearSRGB = toLinearSRGB
    }

    /// sRGB (IEC 61966-2-1): the default for files without a profile and for outputs.
    public static let sRGB = ColorSpace(name: "sRGB", transfer: .sRGB, toLinearSRGB: identity3)
    /// Linear sRGB: sRGB primaries, linear light; the default working space.
    public static let linearSRGB = ColorSpace(name: "linear sRGB", transfer: .linear, toLinearSRGB: identity3)
    /// Display P3: DCI-P3 primaries, D65 white, the sRGB transfer curve.
    public static let displayP3 = ColorSpace(
        name: "Display P3", transfer: .sRGB,
        toLinearSRGB: ColorSpace.primariesMatrix(
            from: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)],
            to: [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)], white: (0.3127, 0.3290)))

    /// The space's name.
    public var description: String { name }

    static let identity3: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

    /// The 3×3 matrix converting linear RGB with primaries `source` to primaries `destination`,
    /// both relative to the same white (`M_dest⁻¹ · M_source`, each built from xy chromaticities).
    static func primariesMatrix(from source: [(Double, Double)], to destination: [(Double, Double)],
                                white: (Double, Double)) -> [Double] {
        multiply(invert(rgbToXYZ(destination, white)), rgbToXYZ(source, white))
    }

    static func rgbToXYZ(_ primaries: [(Double, Double)], _ white: (Double, Double)) -> [Double] {
        // Columns are the primaries' XYZ (Y = 1), scaled so RGB (1,1,1) maps to the white point.
        let columns: [[Double]] = primaries.map { (x, y) -> [Double] in [x / y, 1, (1 - x - y) / y] }
        var m = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 { m[row * 3 + column] = columns[column][row] }
        }
        let w: [Double] = [white.0 / white.1, 1, (1 - white.0 - white.1) / white.1]
        let s = apply(invert(m), w)
        return (0..<9).map { m[$0] * s[$0 % 3] }
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var product = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[i * 3 + k] * b[k * 3 + j] }
                product[i * 3 + j] = sum
            }
        }
        return product
    }

    package static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { i in m[i * 3] * v[0] + m[i * 3 + 1] * v[1] + m[i * 3 + 2] * v[2] }
    }

    /// The inverse by cofactors (the matrices here are well conditioned primaries matrices).
    static func invert(_ m: [Double]) -> [Double] {
        let adjugate = adjugate(m)
        let det = determinant(m, adjugate: adjugate)
        let d = det == 0 ? 1 : det
        return adjugate.map { $0 / d }
    }

    /// The determinant (by the first row's cofactors).
    package static func determinant(_ m: [Double]) -> Double { determinant(m, adjugate: adjugate(m)) }

    private static func determinant(_ m: [Double], adjugate: [Double]) -> Double {
        m[0] * adjugate[0] + m[1] * adjugate[3] + m[2] * adjugate[6]
    }

    private static func adjugate(_ m: [Double]) -> [Double] {
        func cofactor(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double { m[a] * m[b] - m[c] * m[d] }
        return [
            cofactor(4, 8, 5, 7), cofactor(2, 7, 1, 8), cofactor(1, 5, 2, 4),
            cofactor(5, 6, 3, 8), cofactor(0, 8, 2, 6), cofactor(2, 3, 0, 5),
            cofactor(3, 7, 4, 6), cofactor(1, 6, 0, 7), cofactor(0, 4, 1, 3),
        ]
    }
}

/// A conversion between two colour spaces: decode `from`'s transfer, change primaries, encode
/// `to`'s transfer (on unpremultiplied colour; alpha untouched).
public struct ColorConversion: Hashable, Sendable {
    /// The space converted from.
    public let from: ColorSpace
    /// The space converted to.
    public let to: ColorSpace

    /// The conversion from `from` to `to`.
    public init(from: ColorSpace, to: ColorSpace) {
        self.from = from
        self.to = to
    }

    /// The primaries change, or nil when both spaces share primaries.
    package var primariesMatrix: [Double]? {
        if from.toLinearSRGB == to.toLinearSRGB { return nil }
        return ColorSpace.multiply(ColorSpace.invert(to.toLinearSRGB), from.toLinearSRGB)
    }

    package var isIdentity: Bool { from.transfer == to.transfer && primariesMatrix == nil }

    var label: String { "\"\(from.name)\"-to-\"\(to.name)\"" }
    package var shortName: String {
        func code(_ space: ColorSpace) -> String {
            switch space {
            case .sRGB: return "srgb"
            case .linearSRGB: return "linear"
            case .displayP3: return "p3"
            default: return space.name.lowercased().replacingOccurrences(of: " ", with: "_")
            }
        }
        return "\(code(from))_to_\(code(to))"
    }
}
