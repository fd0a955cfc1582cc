import Foundation

/// The transfer curve of an ICC matrix/TRC profile (Adobe RGB, ProPhoto, Rec. 2020, a gamma 2.2
/// grey...): an ICC parametric function, decoding encoded values to linear light.
///
/// ICC function types, for x ≥ 0 (`g a b c d e f` are the parameters):
/// - 0: `x^g`
/// - 1: `(a·x + b)^g` for `x ≥ −b/a`, else 0
/// - 2: `(a·x + b)^g + c` for `x ≥ −b/a`, else c
/// - 3: `(a·x + b)^g` for `x ≥ d`, else `c·x`
/// - 4: `(a·x + b)^g + e` for `x ≥ d`, else `c·x + f`
///
/// Both directions are sign-preserving (`f(−x) = −f(x)`), like the working space's sRGB curves,
/// so extended-range values survive. `encode` is the exact inverse on the curve's range.
public struct ToneCurve: Hashable, Sendable, CustomStringConvertible {
    /// ICC parametric function type, 0...4.
    public let functionType: Int
    /// `[g, a, b, c, d, e, f]`, parameters the type does not use being 0 (and `a` 1 for type 0).
    public let parameters: [Double]
    /// The decoded value of every 8-bit code (8-bit sources decode with it while they load).
    package let byteTable: [Float]

    /// A curve from an ICC 'para' function type and its parameters in ICC order, or nil when they
    /// do not describe an increasing curve (a non-positive or non-finite gamma, `a` not positive,
    /// a negative linear slope, too few parameters).
    public init?(functionType: Int, parameters given: [Double]) {
        let counts = [1, 3, 4, 5, 7]
        guard (0...4).contains(functionType), given.count >= counts[functionType],
              given.allSatisfy(\.isFinite), given[0] > 0 else { return nil }
        // Normalise to [g, a, b, c, d, e, f].
        var p = [given[0], 1, 0, 0, 0, 0, 0]
        switch functionType {
        case 1: p[1] = given[1]; p[2] = given[2]
        case 2: p[1] = given[1]; p[2] = given[2]; p[5] = given[3]; p[6] = given[3]  // type 2's c: e and f
        case 3: p[1] = given[1]; p[2] = given[2]; p[3] = given[3]; p[4] = given[4]
        case 4: p[1] = given[1]; p[2] = given[2]; p[3] = given[3]; p[4] = given[4]; p[5] = given[5]; p[6] = given[6]
        default: break
        }
        guard p[1] > 0, p[3] >= 0 else { return nil }
        // Types 1 and 2 switch where a·x + b reaches 0.
        if functionType == 1 || functionType == 2 { p[4] = max(0, -p[2] / p[1]) }
        self.functionType = functionType
        parameters = p
        byteTable = (0...255).map { Float(ToneCurve.decode(Double($0) / 255, p)) }
    }

    /// A pure power law, `x^g`.
    public static func gamma(_ g: Double) -> ToneCurve? { ToneCurve(functionType: 0, parameters: [g]) }

    /// Curves are equal when their parameters are.
    public static func == (l: ToneCurve, r: ToneCurve) -> Bool { l.parameters == r.parameters }
    /// Hashes the parameters.
    public func hash(into hasher: inout Hasher) { hasher.combine(parameters) }

    /// The curve's formula with its parameters.
    public var description: String {
        functionType == 0 ? "gamma \(parameters[0])"
            : "para\(functionType)(" + parameters.map { String(format: "%.5g", $0) }.joined(separator: " ") + ")"
    }

    // The parameters by their letters in the formulas (read by the lowering, `Optimizer/ToneCurveLowering.swift`).
    package var g: Double { parameters[0] }
    package var a: Double { parameters[1] }
    package var b: Double { parameters[2] }
    package var c: Double { parameters[3] }
    package var d: Double { parameters[4] }
    /// The offset added to the power segment (type 2's c, type 4's e).
    package var e: Double { parameters[5] }
    package var f: Double { parameters[6] }

    /// Encoded value to linear light.
    public func decode(_ x: Double) -> Double { ToneCurve.decode(x, parameters) }

    private static func decode(_ x: Double, _ p: [Double]) -> Double {
        let m = abs(x)
        let y = m >= p[4] ? pow(max(p[1] * m + p[2], 0), p[0]) + p[5] : p[3] * m + p[6]
        return x < 0 ? -y : y
    }

    /// Linear light to the encoded value: the inverse of ``decode(_:)``.
    public func encode(_ y: Double) -> Double {
        let m = abs(y)
        let x = m >= threshold ? (pow(max(m - e, 0), 1 / g) - b) / a : (c > 0 ? (m - f) / c : d)
        return y < 0 ? -x : x
    }

    /// The linear value where the power segment starts.
    package var threshold: Double { pow(max(a * d + b, 0), g) + e }
}
