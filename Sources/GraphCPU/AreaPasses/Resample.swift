import CRowKernels
import Foundation

/// Separable resampling (CILanczosScaleTransform, CIBicubicScaleTransform, decimated Gaussian
/// levels): output pixel X along an axis is centred on input position `u = step·(X + ½) + offset`
/// (input pixel centres at i + ½) and takes `Σ_i w_i·in(i) / Σ_i w_i` over the input pixels within
/// the kernel's support. When shrinking (step > 1) Lanczos and cubic kernels are widened by `step`
/// (antialiasing: the kernel is a low-pass at the output's rate); the Gaussian is given in input
/// pixels and integrated over each input pixel, `w_i = ½(erf((i+1−u)/(√2σ)) − erf((i−u)/(√2σ)))`,
/// out to ⌈3σ⌉.
///
/// Two passes in one stage, vertical first: each output row is first the weighted sum of input rows
/// (across the tile, AVX row kernel), then each pixel the weighted sum of that row's columns (16
/// rows side by side in the vector lanes).
/// Weights depend only on the output position, and taps are summed in ascending order.
package struct Resample: AreaOperation {
    package enum Kernel: Hashable, Sendable {
        /// `sinc(x)·sinc(x/3)` for |x| < 3.
        case lanczos3
        /// Mitchell–Netravali cubic with parameters B and C, |x| < 2.
        case cubic(b: Double, c: Double)
        /// The tent `1 − |x|`, |x| < 1: bilinear when enlarging.
        case linear
        /// A Gaussian of σ input pixels (never widened).
        case gaussian(sigma: Double)
    }

    /// Where one axis of the output reads: `u = step·(X + ½) + offset`.
    package struct AxisMapping: Hashable, Sendable {
        /// Input pixels per output pixel.
        package var step: Double
        package var offset: Double
        package init(step: Double, offset: Double) {
            self.step = step
            self.offset = offset
        }
    }

    package let kernel: Kernel
    package let x: AxisMapping, y: AxisMapping
    package let filterName: String

    package init(kernel: Kernel, x: AxisMapping, y: AxisMapping, filterName: String) {
        self.kernel = kernel
        self.x = x
        self.y = y
        self.filterName = filterName
    }

    package var name: String { filterName }

    /// Output position `X = (u − offset)/step` of input position `u`, on each axis.
    package func geometry(input index: Int) -> GraphCore.AffineTransform? {
        AffineTransform(a: 1 / x.step, b: 0, c: 0, d: 1 / y.step, tx: -x.offset / x.step, ty: -y.offset / y.step)
    }

    package var summary: String {
        let k: String
        switch kernel {
        case .lanczos3: k = "lanczos3"
        case .cubic(let b, let c): k = "cubic B=\(formatFloat(b)) C=\(formatFloat(c))"
        case .linear: k = "linear"
        case .gaussian(let sigma): k = "gaussian sigma=\(formatFloat(sigma))"
        }
        return "separable resample \(k), input step \(formatFloat(x.step))x\(formatFloat(y.step)), vertical then horizontal"
    }

    // MARK: Taps

    /// The kernel's widening and support (in input pixels) along an axis.
    func support(_ axis: AxisMapping) -> (widen: Double, reach: Double) {
        switch kernel {
        case .lanczos3: let w = max(axis.step, 1); return (w, 3 * w)
        case .cubic: let w = max(axis.step, 1); return (w, 2 * w)
        case .linear: let w = max(axis.step, 1); return (w, w)
        case .gaussian(let sigma): return (1, (3 * sigma).rounded(.up) + 0.5)
        }
    }

    /// The first input pixel output `index` reads and how many.
    func taps(_ axis: AxisMapping, _ index: Int) -> (first: Int, count: Int) {
        let u = axis.step * (Double(index) + 0.5) + axis.offset
        let reach = support(axis).reach
        // Pixels i with |i + ½ − u| < reach.
        let first = Int((u - reach - 0.5).rounded(.down)) + 1
        let last = Int((u + reach - 0.5).rounded(.up)) - 1
        return (first, max(last - first + 1, 1))
    }

    /// The kernel's values at input pixels `first, first + 1, …` (`count` of them) for an output
    /// centred on `u`. One loop per kernel, chosen before it: with the choice inside the loop the
    /// compiler computed the cubic's coefficient products ahead of it for every kernel, from the bytes
    /// of a case without them (`.linear`'s read as Doubles are denormals: a microcode assist per
    /// multiply, 5 % of a 1080p video frame's CPU in the mask's upscale).
    private func fill(_ w: UnsafeMutablePointer<Double>, count: Int, first: Double, u: Double, widen: Double) {
        switch kernel {
        case .lanczos3:
            // sin(πx) and sin(πx/3) at x = x₀ + t/widen by the recurrence sin(a + (t+1)δ) =
            // 2cos δ·sin(a + tδ) − sin(a + (t−1)δ) (six trigonometric calls per output instead of
            // two per tap: 3 % of a 24 MP Lanczos-and-sharpen's CPU went to `sin`).
            let x0 = (first + 0.5 - u) / widen, delta = Double.pi / widen
            var (s, previous) = (sin(Double.pi * x0), sin(Double.pi * x0 - delta))
            var (third, previousThird) = (sin(Double.pi * x0 / 3), sin((Double.pi * x0 - delta) / 3))
            let (c, cThird) = (2 * cos(delta), 2 * cos(delta / 3))
            for t in 0..<count {
                let x = x0 + Double(t) / widen, a = abs(x)
                w[t] = a < 1e-12 ? 1 : a >= 3 ? 0 : 3 * s * third / (Double.pi * Double.pi * x * x)
                (s, previous) = (c * s - previous, s)
                (third, previousThird) = (cThird * third - previousThird, third)
            }
        case .cubic(let b, let c):
            for t in 0..<count { w[t] = Resample.cubic((first + Double(t) + 0.5 - u) / widen, b: b, c: c) }
        case .linear:
            for t in 0..<count { w[t] = max(1 - abs(first + Double(t) + 0.5 - u) / widen, 0) }
        case .gaussian(let sigma):
            guard sigma > 0 else {
                for t in 0..<count { w[t] = abs(first + Double(t) + 0.5 - u) < 0.5 ? 1 : 0 }
                return
            }
            let s = 1 / (2.0.squareRoot() * sigma)
            for t in 0..<count {
                let i = first + Double(t)
                w[t] = 0.5 * (erf((i + 1 - u) * s) - erf((i - u) * s))
            }
        }
    }

    /// Writes output `index`'s normalised weights into `out` (at least `count` of ``taps(_:_:)``).
    func weights(_ axis: AxisMapping, _ index: Int, into out: UnsafeMutablePointer<Float>) -> (first: Int, count: Int) {
        let u = axis.step * (Double(index) + 0.5) + axis.offset
        let (first, count) = taps(axis, index)
        let widen = support(axis).widen
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { buffer in
            guard let w = buffer.baseAddress else { return (first, count) }
            fill(w, count: count, first: Double(first), u: u, widen: widen)
            var sum = 0.0
            for t in 0..<count { sum += w[t] }
            let scale = sum != 0 ? 1 / sum : 1
            for t in 0..<count { out[t] = Float(w[t] * scale) }
            return (first, count)
        }
    }

    /// Output `index`'s normalised weights in Double (the reference).
    package func weights(_ axis: AxisMapping, _ index: Int) -> (first: Int, weights: [Double]) {
        let u = axis.step * (Double(index) + 0.5) + axis.offset
        let (first, count) = taps(axis, index)
        let widen = support(axis).widen
        var w = [Double](repeating: 0, count: count)
        w.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { fill(base, count: count, first: Double(first), u: u, widen: widen) }
        }
        let sum = w.reduce(0, +)
        return (first, sum != 0 ? w.map { $0 / sum } : w)
    }

    static func cubic(_ x: Double, b: Double, c: Double) -> Double {
        let a = abs(x)
        if a < 1 { return ((12 - 9 * b - 6 * c) * a * a * a + (-18 + 12 * b + 6 * c) * a * a + (6 - 2 * b)) / 6 }
        if a < 2 { return ((-b - 6 * c) * a * a * a + (6 * b + 30 * c) * a * a + (-12 * b - 48 * c) * a + (8 * b + 24 * c)) / 6 }
        return 0
    }

    // MARK: Extents

    /// Output indices whose taps can reach input pixels `[lower, upper)`.
    func outputRange(_ axis: AxisMapping, _ lower: Double, _ upper: Double) -> (Double, Double) {
        let reach = support(axis).reach
        let lo = ((lower + 0.5 - reach - axis.offset) / axis.step - 0.5).rounded(.down)
        let hi = ((upper - 0.5 + reach - axis.offset) / axis.step - 0.5).rounded(.up) + 1
        return (lo, hi)
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect {
        let e = inputExtents[0]
        if e.isInfinite || e.isEmpty { return e }
        let (x0, x1) = outputRange(x, e.minX, e.maxX), (y0, y1) = outputRange(y, e.minY, e.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let fx = taps(x, Int(rect.minX)), lx = taps(x, Int(rect.maxX) - 1)
        let fy = taps(y, Int(rect.minY)), ly = taps(y, Int(rect.maxY) - 1)
        let x0 = fx.first, x1 = lx.first + lx.count, y0 = fy.first, y1 = ly.first + ly.count
        return Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
    }

    /// Opaque when the input is opaque wherever the taps reach (a clamped image).
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }
    /// Each channel is filtered alone: a grey input gives a grey result (one channel computed).
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    package func referenceValue(x px: Int, y py: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let (fx, wx) = weights(x, px), (fy, wy) = weights(y, py)
        var sum = SIMD4<Double>.zero
        for (j, v) in wy.enumerated() {
            var row = SIMD4<Double>.zero
            for (i, u) in wx.enumerated() { row += u * SIMD4<Double>(try input(0, fx + i, fy + j)) }
            sum += v * row
        }
        return SIMD4<Float>(sum)
    }
}

extension Resample: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        let columns = table(x, start: output.x, count: output.width, scratch: tile.scratch, slot: 0)
        let rows = table(y, start: output.y, count: output.height, scratch: tile.scratch, slot: 2)
        // Column taps relative to the tile's first input column.
        for i in 0..<output.width { columns.firsts[i] -= Int32(input.x) }
        let uniformStep = isUniform(x) ? Int(x.step) : 0
        let lanes = RowBlocks.lanes
        // Up to `lanes` output rows after the vertical pass, one after another, then side by side.
        let between = tile.scratch.floats(4, count: input.width * lanes)
        let block = tile.scratch.floats(5, count: input.width * lanes)
        let results = tile.scratch.floats(6, count: output.width * lanes)
        let row = tile.scratch.floats(7, count: output.width)
        // With uniform columns, the horizontal pass runs at the input's rate (the row kernel) and
        // keeps every step-th value.
        let fullRate = tile.scratch.floats(8, count: uniformStep > 0 ? (output.width - 1) * uniformStep + 1 : 1)
        for channel in 0..<tile.channels {
            var first = 0
            while first < output.height {
                let count = min(lanes, output.height - first)
                // Vertical: each output row's taps over every input column of the tile.
                for j in 0..<count {
                    let r = first + j
                    graph_convolve_row(input.row(channel, Int(rows.firsts[r]) - input.y), input.width, rows.weights + r * rows.stride,
                                       rows.counts[r], Int32(input.width), between + j * input.width)
                }
                if uniformStep > 0 {
                    for j in 0..<count {
                        let n = (output.width - 1) * uniformStep + 1
                        graph_convolve_row(between + j * input.width + Int(columns.firsts[0]), 1, columns.weights, columns.counts[0],
                                           Int32(n), uniformStep == 1 ? row : fullRate)
                        if uniformStep > 1 { for i in 0..<output.width { row[i] = fullRate[i * uniformStep] } }
                        output.store(channel: channel, row: first + j, from: row)
                    }
                } else {
                    // Horizontal: the rows side by side, each output column one short weighted sum.
                    graph_interleave_rows(between, Int32(input.width), Int32(count), Int32(input.width), block)
                    graph_resample_columns(block, Int32(count), columns.firsts, columns.counts, columns.weights, Int32(columns.stride),
                                           Int32(output.width), results, Int32(output.width))
                    for j in 0..<count { output.store(channel: channel, row: first + j, from: results + j * output.width) }
                }
                first += count
            }
        }
    }

    /// An integral step: every output index has the same weights, its first tap `step` further on.
    func isUniform(_ axis: AxisMapping) -> Bool { axis.step >= 1 && axis.step == axis.step.rounded() }

    /// Tap tables for output indices `start ..< start + count`: first tap and tap count per index,
    /// and Float32 weights, `stride` apart per index (0 when ``isUniform(_:)``: one row serves all).
    private func table(_ axis: AxisMapping, start: Int, count: Int, scratch: AreaScratch, slot: Int)
        -> (firsts: UnsafeMutablePointer<Int32>, counts: UnsafeMutablePointer<Int32>, weights: UnsafeMutablePointer<Float>, stride: Int)
    {
        let maxTaps = Int((2 * support(axis).reach).rounded(.up)) + 2
        let firsts = scratch.int32s(slot, count: count)
        let counts = scratch.int32s(slot + 1, count: count)
        if isUniform(axis) {
            let weights = scratch.floats(slot, count: maxTaps)
            let (first, taps) = self.weights(axis, start, into: weights)
            let step = Int(axis.step)
            for i in 0..<count {
                firsts[i] = Int32(first + i * step)
                counts[i] = Int32(taps)
            }
            return (firsts, counts, weights, 0)
        }
        let weights = scratch.floats(slot, count: count * maxTaps)
        for i in 0..<count {
            let (first, taps) = self.weights(axis, start + i, into: weights + i * maxTaps)
            firsts[i] = Int32(first)
            counts[i] = Int32(taps)
        }
        return (firsts, counts, weights, maxTaps)
    }
}

extension Resample {
    /// For a shrinking Lanczos or cubic resample, the largest JPEG DCT scale 1/k (k = 8, 4, 2) that
    /// still leaves the kernel a shrink of at least 2 on both axes (libvips's thumbnail rule: the
    /// DCT scaling is a plain block reduction, the kernel does the antialiasing); nil otherwise.
    var sourceReduction: Int? {
        if case .gaussian = kernel { return nil }
        let step = min(x.step, y.step)
        return [8, 4, 2].first { step >= 2 * Double($0) - 1e-9 }
    }

    /// The same resampling reading an input that is `fx`, `fy` times the size (a reduced decode of
    /// the same picture over the same extent origin at 0).
    func readingInput(scaledBy fx: Double, _ fy: Double) -> Resample {
        Resample(kernel: kernel, x: AxisMapping(step: x.step * fx, offset: x.offset * fx),
                 y: AxisMapping(step: y.step * fy, offset: y.offset * fy), filterName: filterName)
    }
}
