import Foundation
import GraphEngine

/// Distance fields of a mask (CICategoryGradient): CIDistanceGradientFromRedMask and
/// CISignedDistanceGradientFromRedMask. A pixel is in the mask when its red is above 0.5; outside a
/// finite input's extent nothing is (transparent). `d_in(p)` is the Euclidean distance from p's
/// centre to the nearest mask pixel's centre, `d_out(p)` to the nearest pixel not in the mask, and
/// M is inputMaximumDistance. The output is infinite and grey, `(v, v, v, 1)`:
///
/// - unsigned: `v = min(d_in/M, 1)` (0 in the mask);
/// - signed: `v = min((d_in − ½)/M, 1)` outside the mask and `v = −min((d_out − ½)/M, 1)` inside,
///   so the zero lies on the mask's outline, halfway between the pixel centres on either side.
///
/// M = 0 gives the step (0 or ±1). Distances are exact (Felzenszwalb–Huttenlocher's lower envelope
/// of parabolas, one pass down the columns and one along the rows), computed per tile over the tile
/// grown by ⌈M⌉ + 1: only mask pixels that near can give a distance below M, so the result is the
/// same for any tile. Apple does not say where its zero lies, what fills green and blue, or how it
/// measures; the ½ shift, the grey output and exact Euclidean distances are ours.
enum DistanceGradientFilters {
    static let categories = ["CICategoryGradient", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [distance, signedDistance]

    static let inputs = [
        FilterInput("inputImage", .image, "The mask: pixels whose red is above 0.5."),
        FilterInput("inputMaximumDistance", .number, default: .number(10), minimum: 0, maximum: 1000, slider: 1...100,
                    "The distance in pixels that maps to 1; farther is 1."),
    ]

    /// `v = min(d_in/M, 1)`: 0 in the mask, rising to 1 at M pixels from it.
    static let distance = FilterDescriptor(
        name: "CIDistanceGradientFromRedMask", categories: categories,
        summary: "The distance from each pixel's centre to the nearest mask pixel's (red > 0.5), over inputMaximumDistance, at most 1: "
            + "(v, v, v, 1); infinite extent.",
        inputs: inputs
    ) { args in
        try args.image("inputImage").applying(DistanceTransform(maximumDistance: try args.number("inputMaximumDistance"), signed: false))
    }

    /// `v = min((d_in − ½)/M, 1)` outside the mask, `−min((d_out − ½)/M, 1)` inside.
    static let signedDistance = FilterDescriptor(
        name: "CISignedDistanceGradientFromRedMask", categories: categories,
        summary: "The signed distance to the mask's outline (red > 0.5 inside) over inputMaximumDistance, within ±1: outside "
            + "(d_in − ½)/M, inside −(d_out − ½)/M; (v, v, v, 1); infinite extent.",
        inputs: inputs
    ) { args in
        try args.image("inputImage").applying(DistanceTransform(maximumDistance: try args.number("inputMaximumDistance"), signed: true))
    }
}

/// The distance fields' pass (see ``DistanceGradientFilters``): exact squared distances per tile
/// over the tile grown by ``reach``.
struct DistanceTransform: AreaOperation {
    let maximumDistance: Double
    let signed: Bool

    /// How far a mask pixel can be and still give a distance below M (the ½ shift included).
    var reach: Int { Int(maximumDistance.rounded(.up)) + 1 }

    var name: String { signed ? "CISignedDistanceGradientFromRedMask" : "CIDistanceGradientFromRedMask" }
    var summary: String { "exact Euclidean distance\(signed ? ", signed" : ""), maximum \(maximumDistance)" }

    func outputExtent(inputExtents: [Rect]) -> Rect { .infinite }
    func regionOfInterest(input index: Int, for rect: Rect) -> Rect { rect.outset(dx: Double(reach), dy: Double(reach)) }
    func inputChannels(_ index: Int) -> Int { 1 }
    func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }
    func isGrey(inputs: [AreaInputDescription]) -> Bool { true }
    func geometry(input index: Int) -> GraphEngine.AffineTransform? { .identity }

    /// The value of a pixel at distance `d` from the other side (`inside`: in the mask).
    @inline(__always)
    func value(_ d: Float, inside: Bool) -> Float {
        let m = Float(maximumDistance)
        if !signed { return m > 0 ? min(d / m, 1) : (d > 0 ? 1 : 0) }
        let magnitude = m > 0 ? min((d - 0.5) / m, 1) : 1
        return inside ? -magnitude : magnitude
    }

    func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let inside = try input(0, x, y).x > 0.5
        // The sites: the mask, or for a pixel inside it (signed) what is not the mask.
        let sitesInMask = !(signed && inside)
        var best = Float.infinity
        for dy in -reach...reach {
            for dx in -reach...reach {
                if try (input(0, x + dx, y + dy).x > 0.5) == sitesInMask { best = min(best, Float(dx * dx + dy * dy)) }
            }
        }
        let v = value(best.squareRoot(), inside: inside)
        return SIMD4(v, v, v, 1)
    }
}

extension DistanceTransform: CPUAreaPass {
    func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let width = input.width
        let offsetX = output.x - input.x, offsetY = output.y - input.y
        let toMask = tile.scratch.floats(0, count: output.height * width)
        let toOutside = tile.scratch.floats(1, count: signed ? output.height * width : 1)
        let envelope = Envelope(scratch: tile.scratch, count: width)
        columnDistances(input, offsetY: offsetY, rows: output.height, inMask: true, into: toMask, scratch: tile.scratch)
        if signed { columnDistances(input, offsetY: offsetY, rows: output.height, inMask: false, into: toOutside, scratch: tile.scratch) }
        let rowIn = tile.scratch.floats(5, count: width), rowOut = tile.scratch.floats(6, count: width)
        let values = tile.scratch.floats(7, count: output.width), ones = tile.scratch.floats(8, count: output.width)
        ones.update(repeating: 1, count: output.width)
        let alpha = UnsafePointer(ones)
        for row in 0..<output.height {
            let red = input.row(0, row + offsetY) + offsetX
            envelope.distances(toMask + row * width, into: rowIn)
            if signed { envelope.distances(toOutside + row * width, into: rowOut) }
            for i in 0..<output.width {
                let inside = red[i] > 0.5
                let squared = inside && signed ? rowOut[offsetX + i] : rowIn[offsetX + i]
                values[i] = value(squared.squareRoot(), inside: inside)
            }
            for channel in 0..<tile.channels { output.store(channel: channel, row: row, from: channel == 3 ? alpha : UnsafePointer(values)) }
        }
    }

    /// For rows `offsetY ..< offsetY + rows` of the window, each column's squared vertical distance
    /// to the nearest site in that column (sites: pixels in the mask, or not in it), or +∞.
    private func columnDistances(_ input: AreaPlanes, offsetY: Int, rows: Int, inMask: Bool, into result: UnsafeMutablePointer<Float>,
                                 scratch: AreaScratch) {
        let width = input.width, height = input.height
        // The nearest site at or below each row, then at or above, one row at a time across all columns.
        let below = scratch.integers(3, count: width), above = scratch.integers(4, count: width)
        let none = Int.min / 4
        below.update(repeating: none, count: width)
        let lastBelow = scratch.integers(5, count: rows * width)
        for y in 0..<min(offsetY + rows, height) {
            let red = input.row(0, y)
            for x in 0..<width where (red[x] > 0.5) == inMask { below[x] = y }
            if y >= offsetY { (lastBelow + (y - offsetY) * width).update(from: below, count: width) }
        }
        above.update(repeating: Int.max / 4, count: width)
        var y = height - 1
        while y >= offsetY {
            let red = input.row(0, y)
            for x in 0..<width where (red[x] > 0.5) == inMask { above[x] = y }
            if y < offsetY + rows {
                let r = y - offsetY, nearestBelow = lastBelow + r * width, out = result + r * width
                for x in 0..<width {
                    let d = min(y - nearestBelow[x], above[x] - y)
                    out[x] = d < height ? Float(d * d) : .infinity
                }
            }
            y -= 1
        }
    }
}

/// Felzenszwalb–Huttenlocher's 1-D squared distance: `d(i) = min_q ((i − q)² + f(q))` over the
/// finite `f(q)`, by the lower envelope of the parabolas rooted at them (O(n)). Values are whole
/// numbers below 2²⁴, exact in Float32; the crossing points are compared with whole positions only.
struct Envelope {
    let count: Int
    let roots: UnsafeMutablePointer<Int>
    let bounds: UnsafeMutablePointer<Float>

    init(scratch: AreaScratch, count: Int) {
        self.count = count
        roots = scratch.integers(0, count: count)
        bounds = scratch.floats(2, count: count + 1)
    }

    func distances(_ f: UnsafePointer<Float>, into d: UnsafeMutablePointer<Float>) {
        var k = -1
        for q in 0..<count where f[q].isFinite {
            let fq = f[q] + Float(q * q)
            var s = -Float.infinity
            while k >= 0 {
                let v = roots[k]
                s = (fq - (f[v] + Float(v * v))) / Float(2 * (q - v))
                if s <= bounds[k] { k -= 1 } else { break }
            }
            k += 1
            roots[k] = q
            bounds[k] = k == 0 ? -.infinity : s
            bounds[k + 1] = .infinity
        }
        if k < 0 { return d.update(repeating: .infinity, count: count) }
        k = 0
        for i in 0..<count {
            while bounds[k + 1] < Float(i) { k += 1 }
            let v = roots[k], offset = i - v
            d[i] = Float(offset * offset) + f[v]
        }
    }
}
