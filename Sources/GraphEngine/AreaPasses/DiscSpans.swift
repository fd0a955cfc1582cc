/// The mean, maximum or minimum of each channel over a disc `dx² + dy² ≤ r²`, by row spans: the
/// disc is the rows `|dy| ≤ R = ⌊r⌋`, row dy spanning `|dx| ≤ w(dy) = ⌊√(r² − dy²)⌋`.
///
/// Every input row is reduced over centred spans of growing half-width h = 0, 1, …, R, each from the
/// previous one by its two new end pixels (`M_{h+1}(x) = M_h(x) ∘ in(x−h−1) ∘ in(x+h+1)`), and each
/// output pixel combines, for every h, the rows dy with w(dy) = h. That is O(R) per pixel instead of
/// the O(R²) of visiting the disc, and each pixel's value depends only on its position (a fixed
/// order of operations), so tiles do not show. The mean divides the sum by the disc's pixel count.
/// Extrema ignore NaN (maxNum/minNum, as ``RectangleMorphology``).
package struct DiscSpans: AreaOperation {
    package enum Reduction: String, Hashable, Sendable { case mean, maximum, minimum }

    package let radius: Double
    package let reduction: Reduction
    package let filterName: String

    package init(radius: Double, reduction: Reduction, filterName: String) {
        self.radius = max(radius, 0)
        self.reduction = reduction
        self.filterName = filterName
    }

    var reach: Int { Int(radius.rounded(.down)) }

    /// Half-width of disc row `dy` (|dy| ≤ R).
    func halfWidth(_ dy: Int) -> Int {
        let squared = radius * radius - Double(dy * dy)
        return squared <= 0 ? 0 : Int(squared.squareRoot().rounded(.down))
    }

    /// Pixels in the disc.
    var count: Int { (-reach...reach).reduce(0) { $0 + 2 * halfWidth($1) + 1 } }

    package var name: String { filterName }
    package var summary: String { "disc \(reduction.rawValue) by row spans radius=\(formatFloat(radius)) (\(count) pixels)" }

    package func outputExtent(inputExtents: [Rect]) -> Rect { regionOfInterest(input: 0, for: inputExtents[0]) }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        rect.outset(dx: Double(reach), dy: Double(reach))
    }

    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaqueEverywhere }
    /// Each channel is filtered alone: a grey input gives a grey result (one channel computed).
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    package func run(_ tile: AreaTile) {
        switch reduction {
        case .mean: run(tile, +, scale: Float(1 / Double(count)))
        case .maximum: run(tile, maximumNumber, scale: nil)
        case .minimum: run(tile, minimumNumber, scale: nil)
        }
    }

    @inline(__always)
    private func run(_ tile: AreaTile, _ combine: (Float, Float) -> Float, scale: Float?) {
        let input = tile.inputs[0], output = tile.output
        let r = reach, inWidth = input.width, rows = input.height, width = output.width
        let spans = tile.scratch.floats(0, count: inWidth * rows)
        let accumulator = tile.scratch.floats(1, count: width * output.height)
        // Rows dy grouped by half-width (ascending dy within each group).
        let byHalfWidth = (0...r).map { h in (-r...r).filter { halfWidth($0) == h } }
        for channel in 0..<tile.channels {
            spans.update(from: input.row(channel, 0), count: inWidth * rows)
            var started = false
            for h in 0...r {
                if h > 0 {
                    // Widen every row's spans by one pixel each side (valid for columns h..<inWidth−h).
                    for y in 0..<rows {
                        let span = spans + y * inWidth, source = input.row(channel, y)
                        for x in h..<(inWidth - h) { span[x] = combine(combine(span[x], source[x - h]), source[x + h]) }
                    }
                }
                for dy in byHalfWidth[h] {
                    for y in 0..<output.height {
                        let span = spans + (y + r + dy) * inWidth + r, target = accumulator + y * width
                        if started {
                            for x in 0..<width { target[x] = combine(target[x], span[x]) }
                        } else {
                            target.update(from: span, count: width)
                        }
                    }
                    started = true
                }
            }
            for y in 0..<output.height {
                let target = accumulator + y * width
                if let scale {
                    for x in 0..<width { target[x] *= scale }
                } else {
                    for x in 0..<width { target[x] += 0 }  // −0 and +0 as one value, as the rectangle passes
                }
                output.store(channel: channel, row: y, from: target)
            }
        }
    }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var sum = SIMD4<Double>.zero
        var extremum = SIMD4<Float>(repeating: .nan)
        for dy in -reach...reach {
            let w = halfWidth(dy)
            for dx in -w...w {
                let v = try input(0, x + dx, y + dy)
                sum += SIMD4<Double>(v)
                for c in 0..<4 {
                    extremum[c] = reduction == .maximum ? maximumNumber(extremum[c], v[c]) : minimumNumber(extremum[c], v[c])
                }
            }
        }
        return reduction == .mean ? SIMD4<Float>(sum / Double(count)) : extremum
    }
}
