/// One pass of a separable convolution: `out(x) = Σ_k w[k]·in(x + k − r)` along one axis, with
/// `r = (w.count − 1)/2`. Gaussian blur is a horizontal pass followed by a vertical one; dedicated
/// span loops run it (a kernel-language version would be one `sample` per tap).
public struct Convolution: Hashable, Sendable {
    public enum Axis: String, Hashable, Sendable { case horizontal, vertical }

    public var axis: Axis
    /// Odd-length, centred weights.
    public var weights: [Float]
    /// The filter this pass belongs to (for dumps).
    public var filterName: String

    public init(axis: Axis, weights: [Float], filterName: String) {
        precondition(weights.count % 2 == 1, "convolution weights must have odd length")
        self.axis = axis
        self.weights = weights
        self.filterName = filterName
    }

    public var radius: Int { (weights.count - 1) / 2 }

    var label: String { "convolution \(filterName) \(axis.rawValue) taps=\(weights.count)" }
    var shortName: String { "\(filterName)_\(axis == .horizontal ? "h" : "v")" }

    /// The input rectangle the output `rect` reads.
    func regionOfInterest(for rect: Rect) -> Rect {
        let r = Double(radius)
        return axis == .horizontal ? rect.outset(dx: r, dy: 0) : rect.outset(dx: 0, dy: r)
    }

    /// The output extent: the input's, grown by the radius along the axis.
    func outputExtent(input: Rect) -> Rect { regionOfInterest(for: input) }
}
