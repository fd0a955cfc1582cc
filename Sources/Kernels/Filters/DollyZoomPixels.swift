import GraphEngine

/// The dolly zoom's output being built (``DollyZoomReprojection``): per pixel the winning disparity
/// (−∞: a hole), the colours in the output's planes.
///
/// The z-buffer and colour passes run in ranges of output rows on up to `threads` workers, and
/// each output pixel is computed by one worker in the order a single one would use, so the bytes
/// are the same for any worker count and any split: the z-buffer gives every band of output rows
/// the source rows that can reach it, visited in order; colours are per output pixel. The hole
/// fill is sequential (``fillHoles(_:)``).
final class DollyZoomPixels: @unchecked Sendable {
    let width: Int, height: Int, count: Int
    let threads: Int
    /// The winning disparity per output pixel; −∞ for a hole.
    let depth: UnsafeMutablePointer<Float>
    /// Holes per output row (after ``sampleColours(_:photo:into:)``).
    let rowHoles: UnsafeMutablePointer<Int>

    init(width: Int, height: Int, threads: Int) {
        self.width = width
        self.height = height
        self.threads = max(1, threads)
        count = width * height
        depth = .allocate(capacity: count)
        rowHoles = .allocate(capacity: height)
        rowHoles.initialize(repeating: 0, count: height)
    }

    func deallocate() {
        depth.deallocate()
        rowHoles.deallocate()
    }

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
        let reach = UnsafeMutablePointer<Range<Int>>.allocate(capacity: height)
        defer { reach.deallocate() }
        for row in 0..<height { reach[row] = reachedRows(row, geometry, disparity) }
        let ranges = threads == 1 ? 1 : min(height, 2 * threads)
        forEach(ranges) { k in
            let band = rows(k, of: ranges)
            (depth + band.lowerBound * width).initialize(repeating: -.infinity, count: band.count * width)
            let values = UnsafeMutablePointer<Float>.allocate(capacity: width)
            defer { values.deallocate() }
            for row in 0..<height where reach[row].overlaps(band) {
                disparity.fill(row: row, into: values)
                splat(row: row, values: values, band: band, geometry)
            }
        }
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

    /// Source row `row` (its disparities in `values`) into the output rows of `band`: each pixel
    /// covers the output pixels whose centres lie in [c + e·s, c + (e + 1)·s), e its square's edges
    /// relative to c.
    @inline(__always)
    private func splat(row: Int, values: UnsafeMutablePointer<Float>, band: Range<Int>, _ geometry: DollyZoomReprojection.Geometry) {
        let (x0, y0, cx, cy) = (geometry.x0, geometry.y0, geometry.cx, geometry.cy)
        let bottom = y0 + Double(row) - cy
        var firstRow = FirstCentre(count: height), endRow = FirstCentre(count: height)
        var firstColumn = FirstCentre(count: width), endColumn = FirstCentre(count: width)
        for column in 0..<width {
            let d = values[column]
            guard let s = geometry.scale(d) else { continue }
            let lowest = max(firstRow(cy + bottom * s - y0 - 0.5), band.lowerBound)
            let end = min(endRow(cy + (bottom + 1) * s - y0 - 0.5), band.upperBound)
            guard lowest < end else { continue }
            let left = x0 + Double(column) - cx
            // Ordered: the edges' x grow with e (s > 0), and so do their ceilings.
            let columns = firstColumn(cx + left * s - x0 - 0.5)..<endColumn(cx + (left + 1) * s - x0 - 0.5)
            for target in lowest..<end {
                let line = depth + target * width
                for i in columns { line[i] = d > line[i] ? d : line[i] }
            }
        }
    }

    // MARK: Colours

    /// Pixels per span of the colour pass: its scratch stays in the first-level cache.
    static let span = 256

    /// Each covered pixel's colour: the photo at its point in the winner's square; holes 0. By
    /// spans of a row: the four taps of every pixel, then per channel the taps gathered (half
    /// samples converted at once) and blended, `low + (high − low)·fy` with
    /// `low = p₀₀ + (p₁₀ − p₀₀)·fx`.
    func sampleColours(_ geometry: DollyZoomReprojection.Geometry, photo: PlanarBuffer, into colour: PlanarBuffer) {
        let ranges = min(height, 8 * threads), span = Self.span
        forEach(ranges) { k in
            let offsets = UnsafeMutablePointer<Int>.allocate(capacity: 4 * span)
            let fx = UnsafeMutablePointer<Float>.allocate(capacity: span), fy = UnsafeMutablePointer<Float>.allocate(capacity: span)
            let taps = UnsafeMutablePointer<Float>.allocate(capacity: 4 * span)
            let halves = UnsafeMutablePointer<UInt16>.allocate(capacity: 4 * span)
            let values = UnsafeMutablePointer<Float>.allocate(capacity: span)
            defer {
                for pointer in [fx, fy, taps, values] { pointer.deallocate() }
                offsets.deallocate()
                halves.deallocate()
            }
            for row in rows(k, of: ranges) {
                var rowHoles = 0
                for start in stride(from: 0, to: width, by: span) {
                    let n = min(span, width - start)
                    let holes = samplePoints(row: row, columns: start..<(start + n), geometry, offsets: offsets, fx: fx, fy: fy)
                    rowHoles += holes
                    for channel in 0..<3 {
                        switch photo.samples {
                        case .float32:
                            let plane = photo.planes[channel]
                            for i in 0..<(4 * span) { taps[i] = plane[offsets[i]] }
                        case .half:
                            let plane = photo.halfPlanes[channel]
                            for i in 0..<(4 * span) { halves[i] = plane[offsets[i]] }
                            PlanarBuffer.floats(fromHalves: halves, into: taps, count: 4 * span)
                        }
                        let (p00, p10, p01, p11) = (taps, taps + span, taps + 2 * span, taps + 3 * span)
                        for i in 0..<n {
                            let low = p00[i] + (p10[i] - p00[i]) * fx[i]
                            let high = p01[i] + (p11[i] - p01[i]) * fx[i]
                            values[i] = low + (high - low) * fy[i]
                        }
                        if holes > 0 {
                            let line = depth + row * width + start
                            for i in 0..<n where line[i] == -.infinity { values[i] = 0 }
                        }
                        colour.writeRow(channel: channel, row: row, column: start, count: n, from: values)
                    }
                }
                self.rowHoles[row] = rowHoles
            }
        }
    }

    /// The bilinear taps (plane offsets `p₀₀, p₁₀, p₀₁, p₁₁`, each a run of ``span``) and weights
    /// of the pixels `columns` of output row `row`, from `c + (q + ½ − c)/σ(d)` clamped to the
    /// photo's pixel centres (1/σ as a product: no division per pixel); a hole (and the rest of the
    /// span) reads pixel 0. Returns the holes.
    @inline(__always)
    private func samplePoints(row: Int, columns: Range<Int>, _ geometry: DollyZoomReprojection.Geometry,
                              offsets: UnsafeMutablePointer<Int>, fx: UnsafeMutablePointer<Float>,
                              fy: UnsafeMutablePointer<Float>) -> Int {
        let span = Self.span, line = depth + row * width
        let (x0, y0, cx, cy) = (geometry.x0, geometry.y0, geometry.cx, geometry.cy)
        let lastColumn = Double(width - 1), lastRow = Double(height - 1)
        let qy = y0 + Double(row) + 0.5 - cy
        var holes = 0
        if columns.count < span { offsets.initialize(repeating: 0, count: 4 * span) }
        for (i, column) in columns.enumerated() {
            let d = line[column]
            // Covered pixels hold the disparity of a source pixel with a valid σ.
            guard d != -.infinity else {
                for k in 0..<4 { offsets[k * span + i] = 0 }
                fx[i] = 0
                fy[i] = 0
                holes += 1
                continue
            }
            let inverse = geometry.inverseScale(d)
            // Source position, relative to the photo's first pixel centre.
            let u = (x0 + Double(column) + 0.5 - cx) * inverse + cx - x0 - 0.5
            let v = qy * inverse + cy - y0 - 0.5
            let cu = min(max(u, 0), lastColumn), cv = min(max(v, 0), lastRow)
            let i0 = Int(cu), j0 = Int(cv)
            let i1 = min(i0 + 1, width - 1), j1 = min(j0 + 1, height - 1)
            fx[i] = Float(cu - Double(i0))
            fy[i] = Float(cv - Double(j0))
            offsets[i] = j0 * width + i0
            offsets[span + i] = j0 * width + i1
            offsets[2 * span + i] = j1 * width + i0
            offsets[3 * span + i] = j1 * width + i1
        }
        return holes
    }
}
