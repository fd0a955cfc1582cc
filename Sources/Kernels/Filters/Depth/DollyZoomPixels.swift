import GraphEngine

/// The dolly zoom's output being built (``DollyZoomReprojection``): per pixel the winning disparity
/// (−∞: a hole), the colours in the output's planes.
///
/// The z-buffer and colour passes run in ranges of output rows on up to `threads` workers, and
/// each output pixel is computed by one worker in the order a single one would use, so the bytes
/// are the same for any worker count and any split: the z-buffer gives every band of output rows
/// the source rows that can reach it, visited in order; colours are per output pixel. The torn
/// pixels and the hole fill (``DollyZoomFill``) are made the same way.
final class DollyZoomPixels: @unchecked Sendable {
    let width: Int, height: Int, count: Int
    let threads: Int
    /// The winning disparity per output pixel; −∞ for a hole.
    let depth: UnsafeMutablePointer<Float>

    init(width: Int, height: Int, threads: Int) {
        self.width = width
        self.height = height
        self.threads = max(1, threads)
        count = width * height
        depth = .allocate(capacity: count)
    }

    func deallocate() { depth.deallocate() }

    /// Runs `body` for `0..<ranges` on up to `threads` workers (see ``ProcessorWorkers``).
    func forEach(_ ranges: Int, _ body: (Int) -> Void) { ProcessorWorkers.forEach(ranges, threads: threads, body) }

    /// The rows of range `k` of `ranges`.
    func rows(_ k: Int, of ranges: Int) -> Range<Int> { (k * height / ranges)..<((k + 1) * height / ranges) }

    /// The first pixel (of `count`) whose centre i + ½ is at or after an edge, from `x` = the
    /// edge − ½ (relative to the first pixel's left edge): ⌈x⌉ clamped to 0...count, by truncation
    /// (a library call otherwise) after clamping x to −1...count so it fits an Int. Remembers the
    /// x that give the same answer, so the next edge costs comparisons when it gives the same or
    /// the next one (the rows a source pixel covers change rarely along a row, its columns by one).
    struct FirstCentre {
        let count: Int
        private var value = 0
        /// The answer stands for x in (low, high] (none yet).
        private var low = Double.infinity, high = -Double.infinity

        init(count: Int) { self.count = count }

        @inline(__always)
        mutating func callAsFunction(_ x: Double) -> Int {
            if x > low && x <= high { return value }
            // The next pixel's (the edges of consecutive source pixels are about a pixel apart).
            if x > high && x <= high + 1 {
                value += 1
                low = high
                high = value == count ? .infinity : high + 1
                return value
            }
            let clamped = min(max(x, -1), Double(count)), truncated = Int(clamped)
            value = max(Double(truncated) < clamped ? truncated + 1 : truncated, 0)
            low = value == 0 ? -.infinity : Double(value - 1)
            high = value == count ? .infinity : Double(value)
            return value
        }
    }

    // MARK: z-buffer

    /// The z-buffer: every source pixel's scaled square, nearest wins. Each band of output rows
    /// visits, bottom first and left to right, the source rows that can reach it (from the range of
    /// σ their disparities allow, a row wider), and writes only its own rows. Two bands per worker:
    /// source rows reaching two bands are visited twice (most where the edge is far from the
    /// centre: a few percent more work), and a worker slowed by the system leaves the other bands
    /// to the rest.
    func splat(_ geometry: DollyZoomReprojection.Geometry, disparity: DollyZoomReprojection.StretchedDisparity) {
        let own = UnsafeMutablePointer<Range<Int>>.allocate(capacity: height), reach = UnsafeMutablePointer<Range<Int>>.allocate(capacity: height)
        defer { own.deallocate(); reach.deallocate() }
        for row in 0..<height { own[row] = reachedRows(row, geometry, disparity) }
        // A square may stretch to its neighbours' rows (``stretched(_:_:_:_:_:)``).
        for row in 0..<height {
            let near = [own[row], own[max(row - 1, 0)], own[min(row + 1, height - 1)]].filter { !$0.isEmpty }
            reach[row] = near.isEmpty ? 0..<0 : (near.map(\.lowerBound).min() ?? 0)..<(near.map(\.upperBound).max() ?? 0)
        }
        let ranges = threads == 1 ? 1 : min(height, 2 * threads)
        forEach(ranges) { k in
            let band = rows(k, of: ranges)
            (depth + band.lowerBound * width).initialize(repeating: -.infinity, count: band.count * width)
            let values = UnsafeMutablePointer<Float>.allocate(capacity: 3 * width)
            defer { values.deallocate() }
            for row in 0..<height where reach[row].overlaps(band) {
                disparity.fill(row: max(row - 1, 0), into: values)
                disparity.fill(row: row, into: values + width)
                disparity.fill(row: min(row + 1, height - 1), into: values + 2 * width)
                splat(row: row, values: values + width, below: row > 0 ? values : nil,
                      above: row + 1 < height ? values + 2 * width : nil, band: band, geometry)
            }
        }
    }

    /// The most two neighbouring source pixels' disparities may differ, relative to the larger,
    /// for them to be one surface: a smooth surface changes far less between pixels (a slanted floor
    /// or cushion seen up close: well under 0.5 %), a depth edge far more (the map's ramp across it:
    /// several percent per pixel).
    static let surface: Float = 0.01

    /// An edge of a square (`e·s`, e the edge relative to c in source pixels, s its scale) moved
    /// out to where the neighbour across it puts the same edge (`e·n`, n the neighbour's scale) when
    /// the two are one surface (``surface``) and the neighbour's lies beyond (`outward`: the larger
    /// e·n for a right or top edge, the smaller for a left or bottom one). The zoom scales pixels by
    /// their own σ, so on a surface magnified unevenly (strongly, far from the centre) their squares
    /// drift apart and leave cracks that are not disocclusions; stretched to meet, they cover it.
    @inline(__always)
    private static func stretched(_ e: Double, _ s: Double, _ d: Float, neighbour n: Float?, outward: Bool,
                                  _ geometry: DollyZoomReprojection.Geometry) -> Double {
        guard let n, abs(n - d) <= surface * max(n, d), let sn = geometry.scale(n) else { return e * s }
        return outward ? max(e * s, e * sn) : min(e * s, e * sn)
    }

    /// The output rows source row `row` can cover, from the least and greatest σ of its map rows'
    /// disparities (σ moves a row's edges monotonically), widened by a row for rounding.
    private func reachedRows(_ row: Int, _ geometry: DollyZoomReprojection.Geometry,
                             _ disparity: DollyZoomReprojection.StretchedDisparity) -> Range<Int> {
        let range = disparity.range(row: row)
        guard let (least, greatest) = geometry.scaleBounds(low: range.low, high: range.high) else { return 0..<0 }
        guard greatest.isFinite else { return 0..<height }
        let bottom = geometry.y0 + Double(row) - geometry.cy
        var first = FirstCentre(count: height)
        func firstRow(_ s: Double) -> Int { first(geometry.cy + bottom * s - geometry.y0 - 0.5) }
        func endRow(_ s: Double) -> Int { first(geometry.cy + (bottom + 1) * s - geometry.y0 - 0.5) }
        return max(min(firstRow(least), firstRow(greatest)) - 1, 0)..<min(max(endRow(least), endRow(greatest)) + 1, height)
    }

    /// Source row `row` (its disparities in `values`, its neighbour rows' in `below` and `above`)
    /// into the output rows of `band`: each pixel covers the output pixels whose centres lie in
    /// [c + e·s, c + (e + 1)·s), e its square's edges relative to c, each edge moved out to meet the
    /// neighbour across it on the same surface (``stretched(_:_:_:neighbour:outward:_:)``).
    @inline(__always)
    private func splat(row: Int, values: UnsafeMutablePointer<Float>, below: UnsafeMutablePointer<Float>?,
                       above: UnsafeMutablePointer<Float>?, band: Range<Int>, _ geometry: DollyZoomReprojection.Geometry) {
        let (x0, y0, cx, cy) = (geometry.x0, geometry.y0, geometry.cx, geometry.cy)
        let bottom = y0 + Double(row) - cy
        // The edges are no longer in order from pixel to pixel: plain ceilings.
        func first(_ v: Double, _ count: Int) -> Int { max(Int(min(max(v, -1), Double(count)).rounded(.up)), 0) }
        for column in 0..<width {
            let d = values[column]
            guard let s = geometry.scale(d) else { continue }
            let low = Self.stretched(bottom, s, d, neighbour: below?[column], outward: false, geometry)
            let high = Self.stretched(bottom + 1, s, d, neighbour: above?[column], outward: true, geometry)
            let lowest = max(first(cy + low - y0 - 0.5, height), band.lowerBound)
            let end = min(first(cy + high - y0 - 0.5, height), band.upperBound)
            guard lowest < end else { continue }
            let left = x0 + Double(column) - cx
            let l = Self.stretched(left, s, d, neighbour: column > 0 ? values[column - 1] : nil, outward: false, geometry)
            let r = Self.stretched(left + 1, s, d, neighbour: column + 1 < width ? values[column + 1] : nil, outward: true, geometry)
            let firstColumn = first(cx + l - x0 - 0.5, width)
            let columns = firstColumn..<max(first(cx + r - x0 - 0.5, width), firstColumn)
            for target in lowest..<end {
                let line = depth + target * width
                for i in columns { line[i] = d > line[i] ? d : line[i] }
            }
        }
    }

    // MARK: Colours

    /// Pixels per span of the colour pass: its scratch stays in the first-level cache.
    static let span = 256

    /// Each pixel's colour: the covered ones' by ``sampleColours(_:photo:into:)``, then the holes'
    /// by ``DollyZoomFill``.
    func colour(_ geometry: DollyZoomReprojection.Geometry, photo: PlanarBuffer, into colour: PlanarBuffer) {
        sampleColours(geometry, photo: photo, into: colour)
        DollyZoomFill(self, geometry).fill(colour)
    }

    /// Each covered pixel's colour: the photo at its point in the winner's square; holes 0; alpha 1
    /// everywhere, written only where `colour` has an alpha plane (each range of rows writes its
    /// own: the fresh pages are touched by all workers). By spans of a row: the taps of every pixel
    /// (a plane offset, and whether the right and upper neighbours are other pixels or the same one,
    /// at the photo's edges), then the four samples of each channel gathered as two adjacent pairs,
    /// half samples converted at once, and blended, `low + (high − low)·fy` with
    /// `low = p₀₀ + (p₁₀ − p₀₀)·fx`. A grey photo or result (one plane: a depth map or matte
    /// following the photo) is sampled once, red alone, and its value written to each colour plane
    /// `colour` stores.
    func sampleColours(_ geometry: DollyZoomReprojection.Geometry, photo: PlanarBuffer, into colour: PlanarBuffer) {
        switch photo.samples {
        case .float32: sampleColours(geometry, planes: photo.planes, photo: photo, into: colour)
        case .half: sampleColours(geometry, planes: photo.halfPlanes, photo: photo, into: colour)
        }
    }

    private func sampleColours<Sample: PlaneSample>(_ geometry: DollyZoomReprojection.Geometry, planes: [UnsafeMutablePointer<Sample>],
                                                    photo: PlanarBuffer, into colour: PlanarBuffer) {
        let channels = photo.channels == 1 || colour.channels == 1 ? 1 : 3
        // The planes a grey value goes to: red alone in a grey result, all three otherwise.
        let greyTargets = 0..<(colour.channels == 1 ? 1 : 3)
        let ranges = min(height, 8 * threads), span = Self.span
        forEach(ranges) { k in
            let taps = TapScratch(span: span)
            // Each output column's centre relative to c: q + ½ − c.
            let centres = UnsafeMutablePointer<Double>.allocate(capacity: width)
            for column in 0..<width { centres[column] = geometry.x0 + Double(column) + 0.5 - geometry.cx }
            // Per channel and pixel the four samples p₀₀, p₁₀, p₀₁, p₁₁, then as Float32.
            let samples = UnsafeMutablePointer<Sample>.allocate(capacity: 12 * span)
            let floats = UnsafeMutablePointer<Float>.allocate(capacity: 4 * span)
            let values = UnsafeMutablePointer<Float>.allocate(capacity: span)
            let sources = UnsafeMutablePointer<UnsafeMutablePointer<Sample>>.allocate(capacity: 3)
            defer {
                taps.deallocate()
                centres.deallocate()
                samples.deallocate()
                floats.deallocate()
                values.deallocate()
                sources.deallocate()
            }
            for channel in 0..<channels { sources[channel] = planes[channel] }
            if colour.stores(channel: 3) { colour.fill(channel: 3, rows: rows(k, of: ranges), with: 1) }
            for row in rows(k, of: ranges) {
                for start in stride(from: 0, to: width, by: span) {
                    let n = min(span, width - start)
                    let holes = samplePoints(row: row, columns: start..<(start + n), geometry, taps: taps, centres: centres)
                    Self.gather(sources, channels: channels, taps: taps, count: n, into: samples)
                    for channel in 0..<channels {
                        let p = Sample.floats(samples + 4 * span * channel, count: 4 * n, scratch: floats)
                        for i in 0..<n {
                            let fx = taps.fx[i]
                            let low = p[4 * i] + (p[4 * i + 1] - p[4 * i]) * fx
                            let high = p[4 * i + 2] + (p[4 * i + 3] - p[4 * i + 2]) * fx
                            values[i] = low + (high - low) * taps.fy[i]
                        }
                        if holes > 0 {
                            let line = depth + row * width + start
                            for i in 0..<n where line[i] == -.infinity { values[i] = 0 }
                        }
                        for target in (channels == 1 ? greyTargets : channel..<(channel + 1)) {
                            colour.writeRow(channel: target, row: row, column: start, count: n, from: values)
                        }
                    }
                }
            }
        }
    }

    /// The taps of a span of pixels: a plane offset (of p₀₀), the steps to p₁₀ (1, or 0 at the
    /// photo's right edge) and to p₀₁ (a row, or 0 at its top edge), and the weights.
    struct TapScratch {
        let offset: UnsafeMutablePointer<Int>, right: UnsafeMutablePointer<Int>, up: UnsafeMutablePointer<Int>
        let fx: UnsafeMutablePointer<Float>, fy: UnsafeMutablePointer<Float>

        init(span: Int) {
            offset = .allocate(capacity: span)
            right = .allocate(capacity: span)
            up = .allocate(capacity: span)
            fx = .allocate(capacity: span)
            fy = .allocate(capacity: span)
        }

        func deallocate() {
            for pointer in [offset, right, up] { pointer.deallocate() }
            fx.deallocate()
            fy.deallocate()
        }
    }

    /// The four samples of each of the first `channels` planes for `count` pixels, channel after
    /// channel, four per pixel: two adjacent pairs (one load each) where the right neighbour is
    /// the next sample, the same sample twice at the right edge.
    @inline(__always)
    private static func gather<Sample: PlaneSample>(_ planes: UnsafeMutablePointer<UnsafeMutablePointer<Sample>>, channels: Int,
                                                    taps: TapScratch, count: Int, into samples: UnsafeMutablePointer<Sample>) {
        let stride = 4 * span
        for i in 0..<count {
            let offset = taps.offset[i], up = taps.up[i]
            if taps.right[i] != 0 {
                for channel in 0..<channels {
                    let source = UnsafeRawPointer(planes[channel] + offset), out = UnsafeMutableRawPointer(samples + channel * stride + 4 * i)
                    out.storeBytes(of: source.loadUnaligned(as: Sample.Pair.self), as: Sample.Pair.self)
                    (out + 2 * MemoryLayout<Sample>.stride).storeBytes(
                        of: (source + up * MemoryLayout<Sample>.stride).loadUnaligned(as: Sample.Pair.self), as: Sample.Pair.self)
                }
            } else {
                for channel in 0..<channels {
                    let source = planes[channel] + offset, out = samples + channel * stride + 4 * i
                    out[0] = source[0]
                    out[1] = source[0]
                    out[2] = source[up]
                    out[3] = source[up]
                }
            }
        }
    }

    /// The taps of the pixels `columns` of output row `row` (see ``TapScratch``), from
    /// `c + (q + ½ − c)/σ(d)` clamped to the photo's pixel centres (1/σ as a product: no division
    /// per pixel); a hole reads the point 1/σ = 0 gives (its colour is replaced by 0). Returns the
    /// holes. Without branches or checked conversions, so the loop vectorises: whole numbers are
    /// floored and turned into integers through the bits of x + 2⁵² (exact below 2⁵²).
    @inline(__always)
    private func samplePoints(row: Int, columns: Range<Int>, _ geometry: DollyZoomReprojection.Geometry,
                              taps: TapScratch, centres: UnsafePointer<Double>) -> Int {
        let line = depth + row * width + columns.lowerBound, centres = centres + columns.lowerBound
        let (x0, y0, cx, cy) = (geometry.x0, geometry.y0, geometry.cx, geometry.cy)
        let (amount, inverseNumerator) = (geometry.amount, geometry.inverseNumerator)
        let lastColumn = Double(width - 1), lastRow = Double(height - 1), rowStep = Double(width)
        let qy = y0 + Double(row) + 0.5 - cy
        let twoTo52 = 0x1p52, wholeBits: UInt64 = 0x000F_FFFF_FFFF_FFFF
        @inline(__always) func floor(_ x: Double) -> Double {
            let nearest = (x + twoTo52) - twoTo52
            return nearest > x ? nearest - 1 : nearest
        }
        var holes = 0
        for i in 0..<columns.count {
            let d = line[i]
            // Covered pixels hold the disparity of a source pixel with a valid σ.
            let hole = d == -.infinity
            holes &+= hole ? 1 : 0
            // 1/σ(d) as a product, (1 − t·d)·(1/numerator): a rounding or two from the quotient. (The
            // geometry's fields are read into locals first: read through it here, the loop does not
            // vectorise.)
            let inverse = hole ? 0 : (1 - amount * Double(d)) * inverseNumerator
            // Source position, relative to the photo's first pixel centre.
            let u = centres[i] * inverse + cx - x0 - 0.5
            let v = qy * inverse + cy - y0 - 0.5
            let cu = min(max(u, 0), lastColumn), cv = min(max(v, 0), lastRow)
            let column = floor(cu), sourceRow = floor(cv)
            taps.fx[i] = Float(cu - column)
            taps.fy[i] = Float(cv - sourceRow)
            taps.offset[i] = Int(truncatingIfNeeded: (sourceRow * rowStep + column + twoTo52).bitPattern & wholeBits)
            taps.right[i] = column < lastColumn ? 1 : 0
            taps.up[i] = sourceRow < lastRow ? width : 0
        }
        return holes
    }
}

/// A sample type of planes (Float32 or binary16 bits): loaded two at a time, made Float32.
protocol PlaneSample {
    /// Two adjacent samples.
    associatedtype Pair
    /// `count` samples as Float32: `samples` itself or `scratch` filled.
    static func floats(_ samples: UnsafeMutablePointer<Self>, count: Int, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float>
}

extension Float: PlaneSample {
    typealias Pair = UInt64
    static func floats(_ samples: UnsafeMutablePointer<Float>, count: Int, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> {
        samples
    }
}

extension UInt16: PlaneSample {
    typealias Pair = UInt32
    static func floats(_ samples: UnsafeMutablePointer<UInt16>, count: Int, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> {
        PlanarBuffer.floats(fromHalves: samples, into: scratch, count: count)
        return scratch
    }
}
