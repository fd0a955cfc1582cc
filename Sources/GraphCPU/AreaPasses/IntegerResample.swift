import Foundation

/// A ``Resample`` (CILanczosScaleTransform, CIBicubicScaleTransform) over an opaque 8-bit image's
/// codes in 16-bit fixed point, as libvips' reducev and reduceh resample 8-bit images: the same
/// taps and normalised weights `w`, rounded.
///
/// Planning (the `integer-resample-of-codes` rewrite) puts it in place of a Lanczos or cubic
/// ``Resample`` that reads an 8-bit buffer clamped to its extent, with no colour conversion between
/// (colour management off, or a photo already in the working space): there every input value is a
/// code `c/255`. Per channel, with
/// each output's weights `W = round(w·2^S)` made to sum to exactly `2^S` at its largest tap (`S`
/// per axis, at most 16):
///
/// - vertical: `h = ⌊(Σ W_y·c + 2^(S_y−7)) / 2^(S_y−6)⌋`, the resampled code in 8.6 fixed point
///   (negative or above 255 where the kernel rings);
/// - horizontal: `out = (Σ W_x·h) / (255·2^(S_x+6))` as a float, stored in the working format.
///
/// Sums are exact int32 (`CResampleCodes.h`), so the AVX-512, AVX2 and portable paths give the
/// same bits. Against the float64 resample of the codes each pass's rounded weights move its
/// result by at most `255·taps/2^S` levels (at most ``maximumWeightError``, checked when the pass
/// is made; the horizontal one's input rings up to about 15 % past the codes' range, and the
/// vertical error carries through the horizontal weights, `Σ|w_x|` ≈ 1.3), the intermediate's
/// rounding by `Σ|w_x|/128`: under 0.4 of an 8-bit level in all, so the 8-bit result is within
/// one level of the float64 resample.
package struct IntegerResample: AreaOperation {
    /// The float resample it computes.
    package let resample: Resample
    /// `S_x`, `S_y`: the weights' fixed-point scale on each axis.
    package let shiftX: Int, shiftY: Int

    /// The most one pass's rounded weights may move its result, in 8-bit levels (`255·taps/2^S`).
    static let maximumWeightError = 0.15

    /// nil unless `resample` is a Lanczos or cubic resample whose weights fit the integer passes:
    /// each rounded weight within int16, the 8.6 intermediate within int16 and the horizontal sums
    /// within int32 (checked on the weights of 64 output positions, with 10 % to spare: the weights
    /// change smoothly with the position), and at most ``maximumWeightError`` from rounding. `S` is
    /// the largest (at most 16) that keeps the sums in range.
    package init?(_ resample: Resample) {
        switch resample.kernel {
        case .lanczos3: break
        case .cubic(let b, let c): guard (0...1).contains(b), (0...1).contains(c) else { return nil }
        case .linear, .gaussian: return nil
        }
        guard resample.x.step.isFinite, resample.x.step > 0, resample.y.step.isFinite, resample.y.step > 0 else { return nil }
        /// The largest weight, the largest sum of absolute weights, the larger of the positive and
        /// negative weights' sums, and the most taps, over 64 output positions.
        func extremes(_ axis: Resample.AxisMapping) -> (largest: Double, absolute: Double, side: Double, taps: Int) {
            let samples = (0..<64).map { resample.weights(axis, $0).weights }
            return (samples.map { $0.map(abs).max() ?? 0 }.max() ?? 0,
                    samples.map { $0.map(abs).reduce(0, +) }.max() ?? 0,
                    samples.map { w in max(w.filter { $0 > 0 }.reduce(0, +), -w.filter { $0 < 0 }.reduce(0, +)) }.max() ?? 0,
                    samples.map(\.count).max() ?? 0)
        }
        let x = extremes(resample.x), y = extremes(resample.y)
        // The 8.6 intermediate: at most 255·64 times the larger of the weight sums of either sign.
        let middle = 255 * 64 * y.side * 1.1 + 1
        guard middle <= 32767 else { return nil }
        func shift(_ e: (largest: Double, absolute: Double, side: Double, taps: Int), bound: Double) -> Int? {
            var shift = 16
            while shift > 8, e.largest * Double(1 << shift) * 1.1 + Double(e.taps) > 32767
                    || e.absolute * Double(1 << shift) * 1.1 * bound >= Double(Int32.max) { shift -= 1 }
            guard 255 * Double(e.taps) / Double(1 << shift) <= Self.maximumWeightError else { return nil }
            return shift
        }
        guard let shiftX = shift(x, bound: middle), let shiftY = shift(y, bound: 255) else { return nil }
        self.resample = resample
        self.shiftX = shiftX
        self.shiftY = shiftY
    }

    /// Output `index`'s weights on `axis` in fixed point, written to `out` (as many as
    /// ``Resample/taps(_:_:)`` gives): `W = round(w·2^shift)` of the normalised weights, the
    /// rounding's remainder added to the largest so they sum to exactly `2^shift`. `scratch` holds
    /// the float weights (as many).
    func integerWeights(_ axis: Resample.AxisMapping, _ index: Int, shift: Int, scratch: UnsafeMutablePointer<Float>,
                        into out: UnsafeMutablePointer<Int16>) -> (first: Int, count: Int) {
        let (first, count) = resample.weights(axis, index, into: scratch)
        let scale = Double(1 << shift)
        var sum = 0, largest = 0
        for t in 0..<count {
            let fixed = Int((Double(scratch[t]) * scale).rounded())
            out[t] = Int16(clamping: fixed)
            sum += fixed
            if abs(scratch[t]) > abs(scratch[largest]) { largest = t }
        }
        out[largest] = Int16(clamping: Int(out[largest]) + (1 << shift) - sum)
        return (first, count)
    }

    package var name: String { "\(resample.filterName)_int" }
    package var summary: String {
        resample.summary.replacingOccurrences(of: "separable resample", with: "integer separable resample")
            + ", 8-bit codes, weights/2^\(shiftX)x2^\(shiftY)"
    }

    package func geometry(input index: Int) -> GraphCore.AffineTransform? { resample.geometry(input: index) }
    package func outputExtent(inputExtents: [Rect]) -> Rect { resample.outputExtent(inputExtents: inputExtents) }
    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect { resample.regionOfInterest(input: index, for: rect) }

    /// Red, green and blue: the input is opaque (alpha is not read).
    package func inputChannels(_ index: Int) -> Int { 3 }
    /// The codes themselves, not code / 255 as floats, where the input has them.
    package func readsCodes(input index: Int) -> Bool { true }
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    /// The float64 resample of the input as it is, what the integer passes approximate.
    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        try resample.referenceValue(x: x, y: y, input: input)
    }
}
