/// One pass of a separable convolution: `out(x) = Σ_k w[k]·in(x + k − r)` along one axis, with
/// `r = (w.count − 1)/2`. Gaussian blur is a horizontal pass followed by a vertical one.
///
/// Each output row sums `w[k]·in[x + k]` with `k` ascending, one fused multiply-add per tap (in the
/// `CRowKernels` shim: 256-bit AVX2 and FMA behind a run-time check, bit-identical to its portable
/// `fmaf` loop), so every pixel sums its taps in the same order whatever the tile size or thread
/// count.
package struct Convolution: AreaOperation {
    package enum Axis: String, Hashable, Sendable { case horizontal, vertical }

    package var axis: Axis
    /// Odd-length, centred weights.
    package var weights: [Float]
    /// The filter this pass belongs to (for dumps).
    package var filterName: String

    package init(axis: Axis, weights: [Float], filterName: String) {
        precondition(weights.count % 2 == 1, "convolution weights must have odd length")
        self.axis = axis
        self.weights = weights
        self.filterName = filterName
    }

    package var radius: Int { (weights.count - 1) / 2 }

    package var summary: String { "convolution \(filterName) \(axis.rawValue) taps=\(weights.count)" }
    package var name: String { "\(filterName)_\(axis == .horizontal ? "h" : "v")" }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let r = Double(radius)
        return axis == .horizontal ? rect.outset(dx: r, dy: 0) : rect.outset(dx: 0, dy: r)
    }

    /// The input's extent, grown by the radius along the axis.
    package func outputExtent(inputExtents: [Rect]) -> Rect { regionOfInterest(input: 0, for: inputExtents[0]) }

    /// Opaque when the input is opaque wherever the taps reach (a clamped image, or such a pass).
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }
    /// Each channel is filtered alone: a grey input gives a grey result (one channel computed).
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var sum = SIMD4<Double>.zero
        for (k, w) in weights.enumerated() {
            let offset = k - radius
            let v = axis == .horizontal ? try input(0, x + offset, y) : try input(0, x, y + offset)
            sum += Double(w) * SIMD4<Double>(v)
        }
        return SIMD4<Float>(sum)
    }
}
