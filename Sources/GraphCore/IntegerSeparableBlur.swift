/// A separable blur with a symmetric, non-negative kernel (the Gaussian) over an opaque 8-bit
/// image's codes, in 16-bit fixed point: both ``Convolution`` passes in one area pass, as libvips
/// blurs 8-bit images. `out(x, y) = Σ_j Σ_k w[j]·w[k]·in(x + j − r, y + k − r)`.
///
/// The optimizer puts it in place of a horizontal and a vertical ``Convolution`` with the same
/// weights that read an 8-bit buffer clamped to its extent, with no colour conversion between
/// (colour management off, or a photo already in the working space): there every input value is a
/// code `c/255`. Per channel:
///
/// - weights `W[k] = round(w[k]·2^S)`, their sum made exactly `2^S` at the centre tap (`S` ≤ 17,
///   lower when the largest weight needs it to fit in int16);
/// - horizontal: `h = ⌊(Σ W[k]·c + 2^(S−7)) / 2^(S−6)⌋`, the blurred code in 8.6 fixed point (0 ... 16320);
/// - vertical: `out = (Σ W[k]·h) / (255·2^(S+6))` as a float, stored in the working format.
///
/// Sums are exact int32 (taps folded in pairs, `W[k]·(a + b)`; see `CSymmetricConvolve.h`), so the
/// AVX-512, AVX2 and portable paths give the same bits. Against the float64 blur of the codes the
/// error is at most 0.11 of an 8-bit level: each pass's rounded weights move it by at most 0.05
/// (checked when the pass is made: σ up to about 28), the intermediate by 1/128. Measured: 0.018 at
/// most for σ 0.7, 3 and 10. So the 8-bit result is the float64 blur's rounded, or the code next
/// to it where that blur is within a tenth of a level of a half.
package struct IntegerSeparableBlur: AreaOperation {
    /// Odd-length, centred, symmetric weights (those of the passes it replaces).
    package let weights: [Float]
    package let filterName: String
    /// `W[k]`, summing to `2^shift` exactly.
    package let integerWeights: [Int16]
    /// `S`: the weights' fixed-point scale.
    package let shift: Int

    /// The largest `S`: a vertical sum of 8.6 values, `16320·2^S`, stays below 2^31.
    static let maximumShift = 17
    /// The most the rounded weights may move one pass's result, in 8-bit levels.
    static let maximumWeightError = 0.05

    /// nil unless `weights` can run in 16-bit fixed point: an odd count, symmetric, non-negative,
    /// summing to 1 (to float rounding), a tap radius under 4096, and rounded weights that move a
    /// pass by at most ``maximumWeightError`` levels.
    package init?(weights: [Float], filterName: String) {
        let count = weights.count
        guard count % 2 == 1, count >= 3, count < 8192,
              weights.allSatisfy({ $0 >= 0 && $0.isFinite }),
              zip(weights, weights.reversed()).allSatisfy({ $0 == $1 }) else { return nil }
        let total = weights.reduce(0.0) { $0 + Double($1) }
        guard abs(total - 1) < 1e-5, let largest = weights.max(), largest > 0 else { return nil }
        // The centre absorbs the rounding (up to count/2 units): keep it within int16.
        var shift = Self.maximumShift
        while shift > 7, Double(largest) * Double(1 << shift) + Double(count) > 32767 { shift -= 1 }
        guard Double(largest) * Double(1 << shift) + Double(count) <= 32767 else { return nil }
        var fixed = weights.map { Int((Double($0) * Double(1 << shift)).rounded()) }
        fixed[count / 2] += (1 << shift) - fixed.reduce(0, +)
        guard fixed.allSatisfy({ $0 >= 0 && $0 <= 32767 }) else { return nil }
        // The most the weights' rounding can move one pass, in 8-bit levels (values 255 where a weight
        // rounded up, 0 where it rounded down): at most 0.05, or the float passes stay (σ above about
        // 28, where thousands of rounded taps add up).
        let errors = zip(fixed, weights).map { Double($0) - Double($1) * Double(1 << shift) }
        let worst = max(errors.reduce(0) { $0 + max($1, 0) }, errors.reduce(0) { $0 - min($1, 0) })
        guard 255 * worst / Double(1 << shift) <= Self.maximumWeightError else { return nil }
        self.weights = weights
        self.filterName = filterName
        self.integerWeights = fixed.map { Int16($0) }
        self.shift = shift
    }

    package var radius: Int { (weights.count - 1) / 2 }

    package var summary: String { "integer separable convolution \(filterName) taps=\(weights.count) 8-bit codes, weights/2^\(shift)" }
    package var name: String { "\(filterName)_int" }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        rect.outset(dx: Double(radius), dy: Double(radius))
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { regionOfInterest(input: 0, for: inputExtents[0]) }

    /// Red, green and blue: the input is opaque (alpha is not read).
    package func inputChannels(_ index: Int) -> Int { 3 }
    /// The codes themselves, not code / 255 as floats, where the input has them.
    package func readsCodes(input index: Int) -> Bool { true }
    /// The vertical sums rounded to codes: `(Σ W[k]·h + 2^(S+5)) / 2^(S+6)`, halves up.
    package var writesCodes: Bool { true }
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    /// The blur of the input as it is (float64 sums of the float weights), what the integer passes approximate.
    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var sum = SIMD4<Double>.zero
        for (j, wy) in weights.enumerated() {
            for (k, wx) in weights.enumerated() {
                sum += Double(wy) * Double(wx) * SIMD4<Double>(try input(0, x + k - radius, y + j - radius))
            }
        }
        return SIMD4<Float>(sum)
    }
}
