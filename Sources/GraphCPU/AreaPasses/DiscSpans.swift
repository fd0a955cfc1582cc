/// The mean, maximum or minimum of each channel over a disc `dx² + dy² ≤ r²`, by row spans: the
/// disc is the rows `|dy| ≤ R = ⌊r⌋`, row dy spanning `|dx| ≤ w(dy) = ⌊√(r² − dy²)⌋`.
///
/// Every input row is reduced over centred spans of growing half-width h = 0, 1, …, R, each from the
/// previous one by its two new end pixels (`M_{h+1}(x) = M_h(x) ∘ in(x−h−1) ∘ in(x+h+1)`), and each
/// output pixel combines, for every h, the rows dy with w(dy) = h. That is O(R) per pixel instead of
/// the O(R²) of visiting the disc, and each pixel's value depends only on its position (a fixed
/// order of operations), so tiles do not show. The mean divides the sum by the disc's pixel count.
/// Extrema ignore NaN (``maximumNumber(_:_:)``/``minimumNumber(_:_:)``, as the rectangle morphology in Kernels). A grey pass (maps) reduces the
/// red channel only and writes it to R, G and B, alpha 1.
package struct DiscSpans: AreaOperation {
    package enum Reduction: String, Hashable, Sendable { case mean, maximum, minimum }

    package let radius: Double
    package let reduction: Reduction
    package let grey: Bool
    package let filterName: String

    package init(radius: Double, reduction: Reduction, grey: Bool = false, filterName: String) {
        self.radius = max(radius, 0)
        self.reduction = reduction
        self.grey = grey
        self.filterName = filterName
    }

    var reach: Int { Int(radius.rounded(.down)) }

    /// Half-width of disc row `dy` (|dy| ≤ R).
    func halfWidth(_ dy: Int) -> Int {
        let squared = radius * radius - Double(dy * dy)
        return squared <= 0 ? 0 : Int(squared.squareRoot().rounded(.down))
    }

    /// Pixels in the disc.
    package var count: Int { (-reach...reach).reduce(0) { $0 + 2 * halfWidth($1) + 1 } }

    /// The mean's spread: the variance of its taps' offsets along one axis (the mean of the two
    /// axes' variances), in pixels². A continuous disc of radius r has r²/4.
    package var variance: Double {
        var sum = 0.0
        for dy in -reach...reach {
            let w = halfWidth(dy)
            // Σ dx² over the row (2·Σ_{1…w} k²) and dy² for each of its 2w + 1 taps.
            sum += Double(w * (w + 1) * (2 * w + 1)) / 3 + Double((2 * w + 1) * dy * dy)
        }
        return sum / Double(2 * count)
    }

    package var name: String { filterName }
    package var summary: String {
        "disc \(reduction.rawValue) by row spans radius=\(formatFloat(radius)) (\(count) pixels)\(grey ? ", red only" : "")"
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { regionOfInterest(input: 0, for: inputExtents[0]) }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        rect.outset(dx: Double(reach), dy: Double(reach))
    }

    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { grey || inputs[0].isOpaqueEverywhere }
    /// Each channel is filtered alone: a grey input gives a grey result (one channel computed); a
    /// grey pass is grey whatever its input.
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { grey || inputs[0].isGrey }

    package func inputChannels(_ index: Int) -> Int { grey ? 1 : 4 }

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
        let value = reduction == .mean ? SIMD4<Float>(sum / Double(count)) : extremum
        return grey ? SIMD4(value[0], value[0], value[0], 1) : value
    }
}

extension DiscSpans: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0]
        switch reduction {
        case .mean: run(tile, SpanSum.self, scale: Float(1 / Double(count))) { UnsafePointer(input.row($0, 0)) }
        case .maximum: run(tile, SpanMaximum.self, scale: nil) { UnsafePointer(input.row($0, 0)) }
        case .minimum: run(tile, SpanMinimum.self, scale: nil) { UnsafePointer(input.row($0, 0)) }
        }
    }

    /// The disc mean of every channel of the tile's input, read from `plane(channel)` as
    /// ``run(_:_:scale:plane:)`` reads it: for a pass in another module that transforms its input
    /// before the disc (the depth blur's `DepthLayerDisc` in Kernels), with the span loops specialised
    /// here. Uses scratch slots 0 and 1.
    package func runMean(_ tile: AreaTile, plane: (Int) -> UnsafePointer<Float>) {
        run(tile, SpanSum.self, scale: Float(1 / Double(count)), plane: plane)
    }

    /// The disc of every channel of the tile's input, read from `plane(channel)` (the channel's
    /// values over the input's rectangle, rows `input.width` apart): the input's own planes, or a
    /// pass's transform of them (``runMean(_:plane:)``). Uses scratch slots 0 and 1.
    @inline(__always)
    func run<Combiner: SpanCombiner>(_ tile: AreaTile, _: Combiner.Type, scale: Float?, plane: (Int) -> UnsafePointer<Float>) {
        let input = tile.inputs[0], output = tile.output
        let r = reach, inWidth = input.width, rows = input.height, width = output.width
        let spans = tile.scratch.floats(0, count: inWidth * rows)
        let accumulator = tile.scratch.floats(1, count: width * output.height)
        // Rows dy grouped by half-width (ascending dy within each group).
        let byHalfWidth = (0...r).map { h in (-r...r).filter { halfWidth($0) == h } }
        for channel in 0..<(grey ? 1 : tile.channels) {
            let source = plane(channel)
            spans.update(from: source, count: inWidth * rows)
            var started = false
            for h in 0...r {
                if h > 0 {
                    // Widen every row's spans by one pixel each side (valid for columns h..<inWidth−h).
                    for y in 0..<rows {
                        Combiner.widen(spans + y * inWidth, source + y * inWidth, by: h, columns: h..<(inWidth - h))
                    }
                }
                for dy in byHalfWidth[h] {
                    for y in 0..<output.height {
                        let span = spans + (y + r + dy) * inWidth + r, target = accumulator + y * width
                        if started {
                            Combiner.combine(into: target, span, count: width)
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
                if grey {
                    for c in 0..<tile.channels { output.store(channel: c, row: y, from: target) }
                } else {
                    output.store(channel: channel, row: y, from: target)
                }
            }
        }
    }
}

/// How ``DiscSpans`` combines two values (sum, NaN-ignoring maximum or minimum), on one float and
/// on eight at a time with the same result in every lane, so its row loops run eight lanes a step.
protocol SpanCombiner {
    static func combine(_ a: Float, _ b: Float) -> Float
    static func combine(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float>
}

extension SpanCombiner {
    /// `span[x] = (span[x] ∘ source[x − h]) ∘ source[x + h]` for x in `columns`.
    @inline(__always)
    static func widen(_ span: UnsafeMutablePointer<Float>, _ source: UnsafePointer<Float>, by h: Int, columns: Range<Int>) {
        var x = columns.lowerBound
        while x + 8 <= columns.upperBound {
            let value = combine(combine(load(span + x), load(source + x - h)), load(source + x + h))
            UnsafeMutableRawPointer(span + x).storeBytes(of: value, as: SIMD8<Float>.self)
            x += 8
        }
        while x < columns.upperBound {
            span[x] = combine(combine(span[x], source[x - h]), source[x + h])
            x += 1
        }
    }

    /// `target[x] = target[x] ∘ values[x]` for x in 0..<count.
    @inline(__always)
    static func combine(into target: UnsafeMutablePointer<Float>, _ values: UnsafePointer<Float>, count: Int) {
        var x = 0
        while x + 8 <= count {
            UnsafeMutableRawPointer(target + x).storeBytes(of: combine(load(target + x), load(values + x)), as: SIMD8<Float>.self)
            x += 8
        }
        while x < count {
            target[x] = combine(target[x], values[x])
            x += 1
        }
    }

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }
}

enum SpanSum: SpanCombiner {
    @inline(__always) static func combine(_ a: Float, _ b: Float) -> Float { a + b }
    @inline(__always) static func combine(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a + b }
}

/// ``maximumNumber``: b where a is NaN or b > a.
enum SpanMaximum: SpanCombiner {
    @inline(__always) static func combine(_ a: Float, _ b: Float) -> Float { maximumNumber(a, b) }
    @inline(__always) static func combine(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: (a .!= a) .| (b .> a))
    }
}

/// ``minimumNumber``: b where a is NaN or b < a.
enum SpanMinimum: SpanCombiner {
    @inline(__always) static func combine(_ a: Float, _ b: Float) -> Float { minimumNumber(a, b) }
    @inline(__always) static func combine(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: (a .!= a) .| (b .< a))
    }
}
