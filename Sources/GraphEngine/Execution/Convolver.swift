import CRowKernels

/// Runs one separable convolution pass over a tile (the Gaussian blur's engine).
///
/// The input region is first converted once into Float32 planes, then each output row sums
/// `w[k]·in[x + k]` with `k` ascending (in the `CRowKernels` shim: 256-bit AVX behind a run-time
/// check, bit-identical to its portable loop), so every pixel sums its taps in the same order
/// whatever the tile size or thread count.
final class Convolver {
    private var scratch: UnsafeMutablePointer<Float>
    private var scratchCapacity = 0
    private var accumulator: UnsafeMutablePointer<Float>
    private var accumulatorCapacity = 0

    init() {
        scratch = .allocate(capacity: 1)
        accumulator = .allocate(capacity: 1)
    }

    deinit {
        scratch.deallocate()
        accumulator.deallocate()
    }

    private func reserve(scratch count: Int, accumulator accumulatorCount: Int) {
        if count > scratchCapacity {
            scratch.deallocate()
            scratch = .allocate(capacity: count)
            scratchCapacity = count
        }
        if accumulatorCount > accumulatorCapacity {
            accumulator.deallocate()
            accumulator = .allocate(capacity: accumulatorCount)
            accumulatorCapacity = accumulatorCount
        }
    }

    /// Computes `area` (default: all of `output.rect`) of the convolution of `input`.
    /// With `opaque`, alpha is known to be 1: it is written, not convolved.
    func run(_ convolution: Convolution, input: InputView, output: PlaneSet, area: PixelRect? = nil, opaque: Bool = false) {
        let rect = area ?? output.rect
        guard !rect.isEmpty else { return }
        let rowOffset = rect.y - output.rect.y, columnOffset = rect.x - output.rect.x
        let radius = convolution.radius
        let horizontal = convolution.axis == .horizontal
        // The input region: the output widened along the axis.
        let inWidth = horizontal ? rect.width + 2 * radius : rect.width
        let inHeight = horizontal ? rect.height : rect.height + 2 * radius
        let inX = horizontal ? rect.x - radius : rect.x
        let inY = horizontal ? rect.y : rect.y - radius
        let plane = inWidth * inHeight
        reserve(scratch: plane * 4, accumulator: max(rect.width, 1))

        // Convert the input once into four Float32 planes.
        for row in 0..<inHeight {
            let base = scratch + row * inWidth
            var x = 0
            while x < inWidth {
                let n = min(SpanInterpreter.spanWidth, inWidth - x)
                input.load(x0: inX + x, y: inY + row, count: n,
                           into: (base + x, base + plane + x, base + 2 * plane + x, base + 3 * plane + x))
                x += n
            }
        }

        let weights = convolution.weights
        let acc = accumulator
        let width = rect.width
        weights.withUnsafeBufferPointer { w in
            guard let taps = w.baseAddress else { return }
            for channel in 0..<(opaque ? 3 : 4) {
                let channelBase = scratch + channel * plane
                for row in 0..<rect.height {
                    let source = channelBase + row * inWidth
                    // Σ_k taps[k]·source[i + k·stride], k ascending (C shim: AVX when available).
                    graph_convolve_row(source, horizontal ? 1 : inWidth, taps, Int32(w.count), Int32(width), acc)
                    output.write(channel: channel, row: row + rowOffset, column: columnOffset, count: width, from: acc)
                }
            }
            if opaque {
                acc.update(repeating: 1, count: width)
                for row in 0..<rect.height {
                    output.write(channel: 3, row: row + rowOffset, column: columnOffset, count: width, from: acc)
                }
            }
        }
    }
}
