import GraphEngine

/// The guided filter's coefficients at the mask's resolution (GEGuidedUpsample's low-resolution
/// part, He et al. 2010), computed in Double from Float32 planes: inputs the mask p (its red
/// channel) and the guide luma Ĩ on the mask's pixel grid, output the opaque `(Ā, B̄, 0)` over the
/// mask grown by the boxes' reach (what a bilinear enlargement reads at the mask's edge).
///
/// Over (2r + 1)² boxes of mask pixels (the whole taps within ⌊r⌋, the two end taps weighing the
/// fraction of r; the mask's edges repeated) with weights `w` that are 0 where p is not finite (a NaN
/// hole is no sample):
/// `a = (mean(Ĩ·p) − mean(Ĩ)·mean(p))/(var(Ĩ) + ε)`, `b = mean(p) − a·mean(Ĩ)`, then `Ā`, `B̄` are the
/// box means of a and b over the boxes' finite b. A box with no sample gives `a = 0, b = NaN`, so a
/// hole wider than the box stays a hole.
///
/// Why not area passes at the working format: `var(Ĩ) = mean(Ĩ²) − mean(Ĩ)²` cancels, and in half
/// floats its rounding (about 1e-4 at Ĩ ≈ 0.5) outweighs a small ε, so `a` turns to noise on
/// textures the mask does not follow (measured on CIDepthBlurEffect's quality benchmark with
/// ε = 1e-5: in-focus PSNR 51.6 dB in half floats against 72.6 dB in Float32). The mask is small
/// (a depth map, a quarter-size matte), so one whole pass in Double costs little.
struct GuidedCoefficients: ImageProcessor {
    /// The mask's extent: p is read over it (edges repeated), Ĩ around it.
    let maskExtent: Rect
    let radius: Double
    let epsilon: Double
    let filterName: String

    /// How far a box reaches: ⌊r⌋, plus one with end taps.
    var reach: Int { Int(radius.rounded(.down)) + (radius > radius.rounded(.down) ? 1 : 0) }
    /// The coefficients are computed over the mask grown by four reaches (the two boxes' reach on
    /// each side of the output), so the output's boxes see Ĩ itself beyond the mask, as the formula
    /// over an unbounded guide does, not a repeated edge.
    var grid: Rect { maskExtent.outset(dx: Double(4 * reach), dy: Double(4 * reach)) }

    var name: String { "\(filterName)_coefficients" }
    var structureKey: String { "guided-coefficients" }
    var uniformValues: [Float] { [Float(radius), Float(epsilon)] }
    var argumentSummary: String {
        "a = cov(Ĩ, p)/(var Ĩ + ε), b = mean p − a·mean Ĩ, then their box means; box radius \(radius) mask px, ε = \(epsilon), in Double (NaN p skipped)"
    }

    /// The mask grown by the two boxes' reach.
    func outputExtent(inputExtents: [Rect]) -> Rect { maskExtent.outset(dx: Double(2 * reach), dy: Double(2 * reach)) }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { index == 0 ? maskExtent : grid }

    /// Only the mask's red and the guide luma are read.
    func readsAlpha(input index: Int) -> Bool { false }

    func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }

    /// Both inputs are on the mask's pixel grid, as the output is: carried depth maps follow.
    func geometry(input index: Int) -> AffineTransform? { .identity }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let mask = inputs[0], guide = inputs[1]
        let mx0 = Int(maskExtent.minX), my0 = Int(maskExtent.minY)
        let mw = Int(maskExtent.width), mh = Int(maskExtent.height)
        let x0 = Int(grid.minX), y0 = Int(grid.minY), width = Int(grid.width), height = Int(grid.height)
        guard mw > 0, mh > 0 else { return }
        let count = width * height
        // Per pixel: w, w·Ĩ, w·p, w·Ĩ², w·Ĩ·p.
        var moments = [[Double]](repeating: [Double](repeating: 0, count: count), count: 5)
        for row in 0..<height {
            let maskRow = my0 + min(max(y0 + row - my0, 0), mh - 1)
            for column in 0..<width {
                let p = Double(mask.value(channel: 0, x: mx0 + min(max(x0 + column - mx0, 0), mw - 1), y: maskRow))
                let i = Double(guide.value(channel: 0, x: x0 + column, y: y0 + row))
                guard p.isFinite, i.isFinite else { continue }
                let k = row * width + column
                moments[0][k] = 1
                moments[1][k] = i
                moments[2][k] = p
                moments[3][k] = i * i
                moments[4][k] = i * p
            }
        }
        let box = BoxSums(radius: radius, width: width, height: height)
        for index in moments.indices { box.apply(&moments[index]) }
        // a, b and the weight in the planes of w·Ĩ, w·p and w (each pixel reads its moments first).
        for k in 0..<count {
            let n = moments[0][k]
            guard n > 0 else { (moments[1][k], moments[2][k]) = (0, 0); continue }
            let meanI = moments[1][k] / n, meanP = moments[2][k] / n
            let variance = max(moments[3][k] / n - meanI * meanI, 0)
            let slope = (moments[4][k] / n - meanI * meanP) / (variance + epsilon)
            (moments[0][k], moments[1][k], moments[2][k]) = (1, slope, meanP - slope * meanI)
        }
        moments.removeLast(2)
        // Ā and B̄: the box means over the boxes that had a sample.
        for index in moments.indices { box.apply(&moments[index]) }
        let (weight, a, b) = (moments[0], moments[1], moments[2])
        for row in 0..<output.height {
            let r = min(max(output.y + row - y0, 0), height - 1)
            for column in 0..<output.width {
                let k = r * width + min(max(output.x + column - x0, 0), width - 1)
                let n = weight[k]
                output.setValue(n > 0 ? Float(a[k] / n) : 0, channel: 0, x: output.x + column, y: output.y + row)
                output.setValue(n > 0 ? Float(b[k] / n) : .nan, channel: 1, x: output.x + column, y: output.y + row)
            }
        }
    }
}

/// Box sums over (2r + 1)² pixels of a plane, edges repeated: the whole taps within ⌊r⌋ weigh 1 and
/// the two end taps weigh the fraction of r (running sums, per row then per column).
struct BoxSums {
    let whole: Int
    let fraction: Double
    let width: Int, height: Int

    init(radius: Double, width: Int, height: Int) {
        whole = Int(radius.rounded(.down))
        fraction = radius - radius.rounded(.down)
        self.width = width
        self.height = height
    }

    func apply(_ plane: inout [Double]) {
        guard whole > 0 || fraction > 0 else { return }
        var line = [Double](repeating: 0, count: max(width, height))
        for row in 0..<height {
            for x in 0..<width { line[x] = plane[row * width + x] }
            sum(line, count: width) { plane[row * width + $0] = $1 }
        }
        for column in 0..<width {
            for y in 0..<height { line[y] = plane[y * width + column] }
            sum(line, count: height) { plane[$0 * width + column] = $1 }
        }
    }

    /// The box sums of `values[0..<count]` (edges repeated), handed to `store` position by position.
    private func sum(_ values: [Double], count: Int, store: (Int, Double) -> Void) {
        let reach = whole + 1
        func at(_ i: Int) -> Double { values[min(max(i, 0), count - 1)] }
        // prefix[j] = Σ of the extended values at positions −reach ..< j − reach.
        var prefix = [Double](repeating: 0, count: count + 2 * reach + 1)
        for j in 0..<(count + 2 * reach) { prefix[j + 1] = prefix[j] + at(j - reach) }
        for i in 0..<count {
            let inner = prefix[i + whole + 1 + reach] - prefix[i - whole + reach]
            store(i, inner + fraction * (at(i - whole - 1) + at(i + whole + 1)))
        }
    }
}
