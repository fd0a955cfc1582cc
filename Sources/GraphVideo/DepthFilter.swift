/// Fills a depth stream's holes and smooths it over time, so masks thresholded from it do not
/// flicker.
///
/// Per pixel, for a new measurement `d` (metres; 0 or NaN is a hole) and the previous filtered
/// value `p`:
/// - a hole takes `p` (the last value seen there); with no `p`, the spatial fill below;
/// - with smoothing on, when `|d − p| ≤ gate` the output is the exponential average
///   `p + α·(d − p)`; a larger change is taken as it is (`d`: something moved there), so moving
///   edges do not lag or smear;
/// - holes left (the first frame, or smoothing off) are filled along their row from the nearest
///   measured pixels on either side, taking the farther of the two (holes sit mostly on the far
///   side of depth edges, in the shadow of a nearer object), then rows with no measurement from
///   the nearest row above or below.
///
/// A frame with no measurement at all repeats the previous filtered frame; the first frame of a
/// stream must have one.
public struct DepthFilter: Sendable {
    /// Weight of the new measurement in the exponential average (1: no smoothing).
    public var alpha: Float
    /// Largest change in metres still averaged; larger changes are taken at once.
    public var gate: Float
    private var previous: DepthMap?

    /// Smoothing with weight `alpha` (0 < α ≤ 1; 1 is off) for changes up to `gate` metres.
    public init(alpha: Float = 0.3, gate: Float = 0.15) {
        self.alpha = min(max(alpha, 0.01), 1)
        self.gate = max(gate, 0)
    }

    /// Whether frames are averaged over time.
    public var smooths: Bool { alpha < 1 }

    /// The filtered map of `map` (holes filled, smoothed with the maps before it).
    public mutating func apply(_ map: DepthMap) throws -> DepthMap {
        var out = map
        var holes = 0
        if let previous, previous.width == map.width, previous.height == map.height {
            let alpha = self.alpha, gate = self.gate, smooth = smooths
            out.metres.withUnsafeMutableBufferPointer { values in
                previous.metres.withUnsafeBufferPointer { last in
                    for i in 0..<values.count {
                        let d = values[i], p = last[i]
                        if !(d > 0) || !d.isFinite {
                            values[i] = p
                        } else if smooth, abs(d - p) <= gate {
                            values[i] = p + alpha * (d - p)
                        }
                    }
                }
            }
        } else {
            holes = out.metres.reduce(0) { $0 + ($1 > 0 && $1.isFinite ? 0 : 1) }
            if holes == out.metres.count {
                throw VideoError("the depth map has no measurement (every sample is 0 or NaN)")
            }
        }
        if holes > 0 || previous == nil { Self.fillHoles(&out) }
        previous = out
        return out
    }

    /// Fills zero/NaN samples from the nearest measured samples of their row (the farther of the
    /// left and right ones), then empty rows from the nearest filled row.
    static func fillHoles(_ map: inout DepthMap) {
        let width = map.width, height = map.height
        var rowFilled = [Bool](repeating: false, count: height)
        map.metres.withUnsafeMutableBufferPointer { values in
            for y in 0..<height {
                let row = y * width
                var lastValid = -1
                var x = 0
                while x < width {
                    let v = values[row + x]
                    if v > 0, v.isFinite { lastValid = x; x += 1; continue }
                    var end = x
                    while end < width, !(values[row + end] > 0 && values[row + end].isFinite) { end += 1 }
                    let left: Float = lastValid >= 0 ? values[row + lastValid] : 0
                    let right: Float = end < width ? values[row + end] : 0
                    let fill = max(left, right)
                    if fill > 0 { for i in x..<end { values[row + i] = fill } }
                    x = end
                }
                rowFilled[y] = lastValid >= 0 || (width > 0 && values[row] > 0)
            }
            guard rowFilled.contains(true) else { return }
            // Rows with no measurement: copy the nearest filled row (above first).
            var nearest = [Int](repeating: -1, count: height)
            var last = -1
            for y in 0..<height { if rowFilled[y] { last = y }; nearest[y] = last }
            last = -1
            for y in stride(from: height - 1, through: 0, by: -1) {
                if rowFilled[y] { last = y }
                if nearest[y] < 0 || (last >= 0 && last - y < y - nearest[y]) { nearest[y] = last }
            }
            for y in 0..<height where !rowFilled[y] {
                let source = nearest[y]
                guard source >= 0 else { continue }
                for x in 0..<width { values[y * width + x] = values[source * width + x] }
            }
        }
    }
}
