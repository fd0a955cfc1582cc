import GraphEngine

/// Core Image's newer reductions (issue 25): alpha extremes, red statistics and bounds, and the
/// alpha-weighted and logarithmic histograms. They share `AreaReduction` with the other
/// reductions (fixed summation order, NaN skipped, pixels outside the extent transparent), and take
/// Core Image's inputExtent default `[0, 0, 0, 0]`, which means the image's extent (ours).
enum AnalysisReductionFilters {
    static let categories = ["CICategoryReduction", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [
        areaMinimumAlpha, areaMaximumAlpha, areaAverageMaximumRed, areaBoundsRed, areaAlphaWeightedHistogram, areaLogarithmicHistogram,
    ]

    /// A 1×1 image: the area's pixel `p` of least alpha (all four channels), the first in row order
    /// (bottom row first, left to right) on ties.
    static let areaMinimumAlpha = ReductionFilters.reduction(
        "CIAreaMinimumAlpha", categories: categories, coreImageExtent: true,
        summary: "The pixel of least alpha in an area (first in row order on ties).") { _ in .minimumAlpha }

    /// A 1×1 image: the area's pixel of greatest alpha, the first in row order on ties.
    static let areaMaximumAlpha = ReductionFilters.reduction(
        "CIAreaMaximumAlpha", categories: categories, coreImageExtent: true,
        summary: "The pixel of greatest alpha in an area (first in row order on ties).") { _ in .maximumAlpha }

    /// A 1×1 image `(mean(red), max(red), 0, 1)` over the area (premultiplied red). Ours: blue 0
    /// and alpha 1, as CIAreaMinMaxRed.
    static let areaAverageMaximumRed = ReductionFilters.reduction(
        "CIAreaAverageMaximumRed", categories: categories, coreImageExtent: true,
        summary: "The average (r) and maximum (g) red value of an area.") { _ in .averageMaximumRed }

    /// A 1×1 image `(x₀/W, y₀/H, (x₁ − x₀ + 1)/W, (y₁ − y₀ + 1)/H)`: the smallest box of the
    /// area's columns `x₀…x₁` and rows `y₀…y₁` (from the area's bottom-left) holding every pixel
    /// with red > 0, normalised by the area's size `W × H`; `(0, 0, 0, 0)` when no red is positive.
    /// Ours: Apple calls its box approximate; this one is exact.
    static let areaBoundsRed = ReductionFilters.reduction(
        "CIAreaBoundsRed", categories: categories, coreImageExtent: true,
        summary: "The normalised bounding box (x, y, w, h) of the pixels with red > 0.") { _ in .boundsRed }

    static let scaleInput = FilterInput("inputScale", .number, default: .number(1), minimum: 0, slider: 0...1, "Scales every bin.")
    static let countInput = FilterInput("inputCount", .number, default: .number(64), minimum: 1, maximum: 2048, slider: 10...1000,
                                        "The number of bins (a whole number).")

    static func bins(_ args: FilterArguments, _ name: String) throws -> Int {
        let count = try args.number("inputCount")
        guard count == count.rounded() else {
            throw GraphError.invalidParameter(filter: name, key: "inputCount", reason: "expected a whole number, got \(count)")
        }
        return Int(count)
    }

    /// An inputCount×1 image: for c in R, G, B, bin `i` holds `scale·Σ α/N` over the area's pixels
    /// with `α > 0` and `clamp(⌊(c/α)·count⌋, 0, count − 1) = i`, `N` the area's pixel count (so
    /// an opaque area's bins sum to scale). Ours: alpha 1 (Apple outputs RGB histograms only).
    static let areaAlphaWeightedHistogram = ReductionFilters.reduction(
        "CIAreaAlphaWeightedHistogram", categories: ["CICategoryReduction", "CICategoryVideo", "CICategoryStillImage"],
        coreImageExtent: true, summary: "Alpha-weighted histograms of an area's unpremultiplied RGB, count pixels wide.",
        extraInputs: [scaleInput, countInput]
    ) { args in
        .alphaWeightedHistogram(bins: try bins(args, "CIAreaAlphaWeightedHistogram"), scale: try args.number("inputScale"))
    }

    /// An inputCount×1 image: for R, G, B bin `i` holds `scale·n_i/N` where `n_i` counts values `v`
    /// with `clamp(⌊(log₂ v − minStop)/(maxStop − minStop)·count⌋, 0, count − 1) = i` (v ≤ 0 in
    /// bin 0), and alpha is binned linearly as in CIAreaHistogram; `N` the values counted.
    /// Ours: Apple does not say how alpha or out-of-range stops are binned.
    static let areaLogarithmicHistogram = ReductionFilters.reduction(
        "CIAreaLogarithmicHistogram", categories: categories, coreImageExtent: true,
        summary: "Histograms of log₂ R, G, B between two stops (and of alpha), count pixels wide.",
        extraInputs: [scaleInput, countInput,
                      FilterInput("inputMinimumStop", .number, default: .number(-10), slider: -12...(-4), "The stop (log₂ value) of bin 0's start."),
                      FilterInput("inputMaximumStop", .number, default: .number(4), slider: 0...8, "The stop of the last bin's end.")]
    ) { args in
        let low = try args.number("inputMinimumStop"), high = try args.number("inputMaximumStop")
        guard high > low else {
            throw GraphError.invalidParameter(filter: "CIAreaLogarithmicHistogram", key: "inputMaximumStop",
                                              reason: "must be greater than inputMinimumStop (\(low)), got \(high)")
        }
        return .logarithmicHistogram(bins: try bins(args, "CIAreaLogarithmicHistogram"), scale: try args.number("inputScale"),
                                     minimumStop: low, maximumStop: high)
    }
}
