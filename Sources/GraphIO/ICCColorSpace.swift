import Foundation
import GraphCodecs

extension ColorSpace {
    /// The space of a matrix/TRC ICC profile: its colorants (D50-adapted, so relative to the
    /// profile's white) as a matrix to linear sRGB, and the one curve its channels share. A curve
    /// matching sRGB's becomes ``/GraphCore/ColorSpace/Transfer/sRGB`` and an identity one ``/GraphCore/ColorSpace/Transfer/linear``, so such
    /// profiles take the same fast paths (and cancel) like the built-in spaces. Nil for profiles
    /// that need more than a matrix and one curve, or whose colorants do not span RGB.
    public init?(profile: ICCProfile) {
        guard let matrix = profile.toLinearSRGB, matrix.allSatisfy(\.isFinite), let curve = profile.sharedCurve,
              let transfer = ColorSpace.transfer(of: curve) else { return nil }
        // Colorants that do not span RGB (zero or collinear tags) would flatten every colour.
        guard abs(ColorSpace.determinant(matrix)) > 1e-3 else { return nil }
        let name = profile.description.isEmpty ? "ICC profile" : profile.description
        self.init(name: name, transfer: transfer, toLinearSRGB: matrix)
    }

    /// The transfer of an ICC curve: sRGB's or the identity when it is one of them (within 1e-4),
    /// a gamma or parametric curve as is, a sampled one as the gamma that fits it within 1/1000.
    static func transfer(of curve: ICCProfile.Curve) -> Transfer? {
        let samples = (0...64).map { Double($0) / 64 }
        func matches(_ reference: (Double) -> Double, within tolerance: Double) -> Bool {
            samples.allSatisfy { abs(curve.evaluate($0) - reference($0)) <= tolerance }
        }
        if matches({ $0 }, within: 1e-4) { return .linear }
        if matches(ICCProfile.srgbCurve, within: 1e-4) { return .sRGB }
        switch curve {
        case .identity: return .linear
        case .gamma(let g): return ToneCurve.gamma(g).map(Transfer.curve)
        case .parametric(let type, let parameters):
            return ToneCurve(functionType: type, parameters: parameters).map(Transfer.curve)
        case .table:
            // The gamma through the curve's midpoint, kept only if it follows the whole table.
            let middle = curve.evaluate(0.5)
            guard middle > 0, middle < 1, let fitted = ToneCurve.gamma(log(middle) / log(0.5)),
                  matches(fitted.decode, within: 1e-3) else { return nil }
            return .curve(fitted)
        }
    }
}
