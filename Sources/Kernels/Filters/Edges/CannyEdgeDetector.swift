import Foundation
import GraphEngine

/// CICannyEdgeDetector (CICategoryStylize): thin edges, white on black. Apple publishes the keys,
/// not the steps' details; these are ours, Canny's classic steps on the input clamped to its
/// extent:
///
/// 1. `Y = 0.2126 r + 0.7152 g + 0.0722 b` of the premultiplied colour (linear working space), or
///    with inputPerceptual CIE lightness `L*/100 = (116 f(Y) − 16)/100` (`f` as in CIE Lab);
/// 2. a Gaussian blur of σ = inputGaussianSigma: taps `exp(−k²/2σ²)` normalised, |k| ≤ ⌈3σ⌉;
/// 3. Sobel gradients over 8, so a ramp's derivative (`gx = (right column 1, 2, 1) − (left
///    column)` over 8, `gy` likewise in y, y up), `m = √(gx² + gy²)`;
/// 4. non-maximum suppression across the edge: the gradient direction in one of four sectors
///    (horizontal when `|gy| ≤ tan 22.5°·|gx|`, vertical when `|gx| ≤ tan 22.5°·|gy|`, else the
///    diagonal along `sign(gx·gy)`), kept when `m` is above its neighbour on the lower side (x − 1,
///    or y − 1 for vertical) and at least the one on the upper side;
/// 5. strong where kept and `m ≥ inputThresholdHigh`, weak where kept and `m ≥ inputThresholdLow`;
/// 6. inputHysteresisPasses passes, each promoting the weak pixels with a strong 8-neighbour (as it
///    was before the pass, so the result does not depend on scan order or tiles);
///
/// `out = (e, e, e, 1)`, e = 1 on strong pixels, else 0. Extent the input's. One area pass reads the
/// input over the output grown by ⌈3σ⌉ + 2 + passes pixels.
enum CannyEdgeDetector {
    static let filter = FilterDescriptor(
        name: "CICannyEdgeDetector",
        categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Canny edges (ours in detail): luma (or L*/100), Gaussian blur σ, Sobel/8 magnitude, non-maximum suppression in four "
            + "directions, strong ≥ high and weak ≥ low, hysteresis passes promoting weak pixels next to strong ones; (e, e, e, 1).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputGaussianSigma", .number, default: .number(1.6), minimum: 0, slider: 0...5,
                             "The Gaussian blur's σ in pixels, against noise."),
                 FilterInput("inputPerceptual", .bool, default: .bool(false), "Threshold CIE lightness L*/100 rather than linear luma."),
                 FilterInput("inputThresholdHigh", .number, default: .number(0.05), minimum: 0, slider: 0...0.4,
                             "The gradient magnitude (per pixel) of a strong edge."),
                 FilterInput("inputThresholdLow", .number, default: .number(0.02), minimum: 0, slider: 0...0.2,
                             "The gradient magnitude (per pixel) of a weak edge."),
                 FilterInput("inputHysteresisPasses", .number, default: .number(1), minimum: 0, maximum: 20, slider: 0...5,
                             "How many times weak pixels next to strong ones become strong (a whole number).")]
    ) { args in
        let image = try args.image("inputImage")
        let sigma = try args.number("inputGaussianSigma")
        guard sigma <= 100 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputGaussianSigma", reason: "\(sigma) is above 100 pixels")
        }
        let passes = try PaletteFilters.wholeNumber(args, "inputHysteresisPasses")
        let pass = CannyEdges(sigma: sigma, low: try args.number("inputThresholdLow"), high: try args.number("inputThresholdHigh"),
                              passes: passes, perceptual: try args.bool("inputPerceptual"))
        return image.clampedToExtent().applying(pass).cropped(to: image.extent)
    }
}

/// CICannyEdgeDetector's pass: every step over the loaded window, each valid one pixel (or the
/// blur's reach) further inside than the last.
struct CannyEdges: AreaOperation {
    let sigma: Double
    let low: Double, high: Double
    let passes: Int
    let perceptual: Bool

    /// The blur's reach ⌈3σ⌉.
    var blurRadius: Int { Int((3 * sigma).rounded(.up)) }
    /// How far outside the output the input is read.
    var reach: Int { blurRadius + 2 + passes }

    /// Normalised Gaussian taps, index k ↔ offset k − ⌈3σ⌉.
    var taps: [Float] {
        guard sigma > 0 else { return [1] }
        let weights = (-blurRadius...blurRadius).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let sum = weights.reduce(0, +)
        return weights.map { Float($0 / sum) }
    }

    var name: String { "CICannyEdgeDetector" }
    var summary: String {
        "canny sigma=\(sigma) thresholds \(low)...\(high), \(passes) hysteresis passes" + (perceptual ? ", perceptual" : "")
    }

    func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }
    func regionOfInterest(input index: Int, for rect: Rect) -> Rect { rect.outset(dx: Double(reach), dy: Double(reach)) }
    func inputChannels(_ index: Int) -> Int { 3 }
    func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }
    func isGrey(inputs: [AreaInputDescription]) -> Bool { true }
    func geometry(input index: Int) -> GraphEngine.AffineTransform? { .identity }

    /// Luma, or CIE lightness over 100.
    @inline(__always)
    func lightness(_ r: Float, _ g: Float, _ b: Float) -> Float {
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        guard perceptual else { return y }
        let f = y > 0.008856451679035631 ? Float(cbrt(Double(y))) : y / 0.12841854934601665 + 0.13793103448275862
        return (116 * f - 16) / 100
    }

    func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        // The same steps plainly over the pixel's own window, (x, y) at its centre.
        let r = reach, size = 2 * r + 1, radius = blurRadius, taps = self.taps
        var grid = [[Float]](repeating: [Float](repeating: 0, count: size), count: size)
        for j in 0..<size {
            for i in 0..<size {
                let v = try input(0, x - r + i, y - r + j)
                grid[j][i] = lightness(v.x, v.y, v.z)
            }
        }
        var across = grid, blurred = grid
        for j in 0..<size {
            for i in radius..<(size - radius) { across[j][i] = (0..<taps.count).reduce(0) { $0 + taps[$1] * grid[j][i + $1 - radius] } }
        }
        for j in radius..<(size - radius) {
            for i in radius..<(size - radius) { blurred[j][i] = (0..<taps.count).reduce(0) { $0 + taps[$1] * across[j + $1 - radius][i] } }
        }
        var magnitude = grid, step = [[(Int, Int)]](repeating: [(Int, Int)](repeating: (0, 0), count: size), count: size)
        for j in (radius + 1)..<(size - radius - 1) {
            for i in (radius + 1)..<(size - radius - 1) {
                let p = { (di: Int, dj: Int) in blurred[j + dj][i + di] }
                let gx = ((p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1))) / 8
                let gy = ((p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1))) / 8
                magnitude[j][i] = (gx * gx + gy * gy).squareRoot()
                let ax = abs(gx), ay = abs(gy)
                step[j][i] = ay <= 0.41421356 * ax ? (1, 0) : (ax <= 0.41421356 * ay ? (0, 1) : (gx * gy > 0 ? (1, 1) : (-1, 1)))
            }
        }
        var state = grid
        for j in (radius + 2)..<(size - radius - 2) {
            for i in (radius + 2)..<(size - radius - 2) {
                let m = magnitude[j][i], (di, dj) = step[j][i]
                let kept = m > magnitude[j - dj][i - di] && m >= magnitude[j + dj][i + di]
                state[j][i] = kept && m >= Float(high) ? 2 : (kept && m >= Float(low) ? 1 : 0)
            }
        }
        for pass in 0..<passes {
            let inner = radius + 3 + pass
            var next = state
            for j in inner..<(size - inner) {
                for i in inner..<(size - inner) where state[j][i] == 1 {
                    if (-1...1).contains(where: { dj in (-1...1).contains { di in state[j + dj][i + di] == 2 } }) { next[j][i] = 2 }
                }
            }
            state = next
        }
        let e: Float = state[r][r] == 2 ? 1 : 0
        return SIMD4(e, e, e, 1)
    }
}

extension CannyEdges: CPUAreaPass {
    func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let w = input.width, h = input.height, count = w * h
        let luma = tile.scratch.floats(0, count: count), across = tile.scratch.floats(1, count: count)
        let blurred = tile.scratch.floats(2, count: count), magnitude = tile.scratch.floats(3, count: count)
        let sector = tile.scratch.floats(4, count: count)
        var state = tile.scratch.floats(5, count: count), next = tile.scratch.floats(6, count: count)
        // A grey input (a mask, a depth map) is loaded as one plane: green and blue are its red.
        let green = input.channelCount >= 3 ? 1 : 0, blue = input.channelCount >= 3 ? 2 : 0
        for y in 0..<h {
            let r = input.row(0, y), g = input.row(green, y), b = input.row(blue, y), out = luma + y * w
            for x in 0..<w { out[x] = lightness(r[x], g[x], b[x]) }
        }
        // The blur, across then up, valid ⌈3σ⌉ inside.
        let weights = taps, radius = blurRadius
        weights.withUnsafeBufferPointer { taps in
            for y in 0..<h {
                let source = luma + y * w, out = across + y * w
                for x in radius..<(w - radius) {
                    var sum: Float = 0
                    for k in 0..<taps.count { sum += taps[k] * source[x + k - radius] }
                    out[x] = sum
                }
            }
            for y in radius..<(h - radius) {
                let out = blurred + y * w
                for x in radius..<(w - radius) {
                    var sum: Float = 0
                    for k in 0..<taps.count { sum += taps[k] * across[(y + k - radius) * w + x] }
                    out[x] = sum
                }
            }
        }
        // Sobel over 8: magnitude and sector, one more pixel inside.
        let tangent: Float = 0.41421356
        for y in (radius + 1)..<(h - radius - 1) {
            let below = blurred + (y - 1) * w, middle = blurred + y * w, above = blurred + (y + 1) * w
            for x in (radius + 1)..<(w - radius - 1) {
                let gx = ((below[x + 1] + 2 * middle[x + 1] + above[x + 1]) - (below[x - 1] + 2 * middle[x - 1] + above[x - 1])) / 8
                let gy = ((above[x - 1] + 2 * above[x] + above[x + 1]) - (below[x - 1] + 2 * below[x] + below[x + 1])) / 8
                magnitude[y * w + x] = (gx * gx + gy * gy).squareRoot()
                let ax = abs(gx), ay = abs(gy)
                sector[y * w + x] = ay <= tangent * ax ? 0 : (ax <= tangent * ay ? 1 : (gx * gy > 0 ? 2 : 3))
            }
        }
        // Non-maximum suppression and the two thresholds: 2 strong, 1 weak, 0 neither.
        let lowF = Float(low), highF = Float(high)
        let margin = radius + 2
        for y in margin..<(h - margin) {
            for x in margin..<(w - margin) {
                let i = y * w + x, m = magnitude[i]
                let step: Int
                switch sector[i] {
                case 0: step = 1
                case 1: step = w
                case 2: step = w + 1
                default: step = w - 1
                }
                // Lower side: i − step (x − 1, y − 1, (x − 1, y − 1), (x + 1, y − 1)).
                let kept = m > magnitude[i - step] && m >= magnitude[i + step]
                state[i] = kept && m >= highF ? 2 : (kept && m >= lowF ? 1 : 0)
            }
        }
        // Hysteresis, each pass one pixel further inside.
        for pass in 0..<passes {
            let inner = margin + pass + 1
            for y in inner..<(h - inner) {
                for x in inner..<(w - inner) {
                    let i = y * w + x
                    var s = state[i]
                    if s == 1 {
                        let strong = state[i - w - 1] == 2 || state[i - w] == 2 || state[i - w + 1] == 2 || state[i - 1] == 2
                            || state[i + 1] == 2 || state[i + w - 1] == 2 || state[i + w] == 2 || state[i + w + 1] == 2
                        if strong { s = 2 }
                    }
                    next[i] = s
                }
            }
            swap(&state, &next)
        }
        let values = tile.scratch.floats(7, count: output.width), ones = tile.scratch.floats(8, count: output.width)
        ones.update(repeating: 1, count: output.width)
        let offsetX = output.x - input.x, offsetY = output.y - input.y
        for row in 0..<output.height {
            let states = state + (row + offsetY) * w + offsetX
            for i in 0..<output.width { values[i] = states[i] == 2 ? 1 : 0 }
            for channel in 0..<tile.channels { output.store(channel: channel, row: row, from: UnsafePointer(channel == 3 ? ones : values)) }
        }
    }
}
