/// The dolly zoom's torn pixels (``DollyZoomPixels``): a covered pixel whose source pixel the zoom
/// tears away from both its neighbours along a row or a column counts as a hole.
///
/// A depth map is coarser and softer than the photo: across a depth edge its disparity ramps over
/// several photo pixels, and the zoom spreads that ramp over the disocclusion, each pixel a thin
/// line of its own colour (mostly the nearer surface's edge) with cracks between: a rippled band
/// of foreground lines, where the scene shows the background. A source pixel p lands at
/// `c + (p − c)·σ(d(p))`, a square of side σ(d(p)); the gap to a neighbour's square is the distance
/// between their centres less the mean of their sides. A pixel whose scale lies strictly between
/// its two neighbours' (on a ramp: a thin line of its own, a strand of hair in front of a wall,
/// is nearer than both and stays) with a gap of more than ``tear`` pixels to each, along a row or
/// along a column, is such a line, unless the pixels ``ramp``
/// away on both sides are torn too (then the whole surface is stretched: a slanted floor seen up
/// close, which stays, its cracks filled from itself): it becomes a hole, and the
/// disocclusion fill replaces it with the surface behind. Only pixels lying between holes (within
/// two pixels on both sides along a row or a column) are tested, holes found so far included.
extension DollyZoomPixels {
    /// The least gap, in output pixels, that tears a source pixel from a neighbour.
    static let tear = 0.5
    /// The longest ramp torn apart, in source pixels: a surface torn over a longer stretch is a
    /// slanted one that the zoom magnifies (its cracks are filled from itself), not a depth edge.
    static let ramp = 16

    /// Marks the torn pixels between holes as holes (−∞ in the z-buffer): first every covered pixel
    /// of the image tested (in ranges of rows on the workers), then in waves the pixels near the
    /// last wave's new holes, until none is added. More holes only make more pixels lie between
    /// holes, so the set found is the same in any order.
    func openTorn(_ geometry: DollyZoomReprojection.Geometry, disparity: DollyZoomReprojection.StretchedDisparity) {
        // A torn pixel lands between two cracks: holes within two pixels on both sides along a row
        // or a column (only such pixels are tested).
        func between(_ n: Int) -> Bool {
            let row = n / width, column = n - row * width
            func hole(_ c: Int, _ r: Int) -> Bool { c >= 0 && c < width && r >= 0 && r < height && depth[r * width + c] == -.infinity }
            return ((hole(column - 1, row) || hole(column - 2, row)) && (hole(column + 1, row) || hole(column + 2, row)))
                || ((hole(column, row - 1) || hole(column, row - 2)) && (hole(column, row + 1) || hole(column, row + 2)))
        }
        // The torn ones among `candidates` (covered pixels), on the workers, in their order.
        func torn(_ candidates: [Int], all: Bool) -> [Int] {
            let parts = all ? min(height, 4 * threads) : min(candidates.count, 8 * threads)
            var found = [[Int]](repeating: [], count: parts)
            found.withUnsafeMutableBufferPointer { lists in
                let lists = lists
                forEach(parts) { k in
                    var list: [Int] = []
                    if all {
                        // Per row, 1 for a hole, with two columns of margin on each side; rows y − 2...y + 2.
                        let stride = width + 4
                        let holes = UnsafeMutablePointer<UInt8>.allocate(capacity: 5 * stride)
                        let flags = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
                        defer {
                            holes.deallocate()
                            flags.deallocate()
                        }
                        holes.initialize(repeating: 0, count: 5 * stride)
                        func line(_ row: Int) -> UnsafeMutablePointer<UInt8> { holes + ((row % 5 + 5) % 5) * stride + 2 }
                        func load(_ row: Int) {
                            let out = line(row)
                            guard row >= 0, row < height else { return out.update(repeating: 0, count: width) }
                            let values = depth + row * width
                            for x in 0..<width { out[x] = values[x] == -.infinity ? 1 : 0 }
                        }
                        let band = rows(k, of: parts)
                        for row in (band.lowerBound - 2)..<(band.lowerBound + 2) { load(row) }
                        for y in band {
                            load(y + 2)
                            let (a, b, h, c, d) = (line(y - 2), line(y - 1), line(y), line(y + 1), line(y + 2))
                            var any: UInt8 = 0
                            for x in 0..<width {
                                let across = (h[x - 1] | h[x - 2]) & (h[x + 1] | h[x + 2]), along = (b[x] | a[x]) & (c[x] | d[x])
                                flags[x] = (across | along) & (1 - h[x])
                                any |= flags[x]
                            }
                            guard any != 0 else { continue }
                            for x in 0..<width where flags[x] != 0 && isTorn(y * width + x, geometry, disparity) { list.append(y * width + x) }
                        }
                    } else {
                        for i in (k * candidates.count / parts)..<((k + 1) * candidates.count / parts)
                        where between(candidates[i]) && isTorn(candidates[i], geometry, disparity) {
                            list.append(candidates[i])
                        }
                    }
                    lists[k] = list
                }
            }
            return found.flatMap { $0 }
        }
        var wave = torn([], all: true)
        while !wave.isEmpty {
            for n in wave { depth[n] = -.infinity }
            // The covered pixels within two of the new holes, once each.
            var candidates: [Int] = []
            for index in wave {
                let row = index / width, column = index - row * width
                for r in max(row - 2, 0)...min(row + 2, height - 1) {
                    for c in max(column - 2, 0)...min(column + 2, width - 1) where depth[r * width + c] != -.infinity {
                        candidates.append(r * width + c)
                    }
                }
            }
            candidates.sort()
            var unique: [Int] = []
            for n in candidates where unique.last != n { unique.append(n) }
            wave = torn(unique, all: false)
        }
    }

    /// Whether covered pixel `index` shows a torn source pixel (see the extension's doc).
    private func isTorn(_ index: Int, _ geometry: DollyZoomReprojection.Geometry,
                        _ disparity: DollyZoomReprojection.StretchedDisparity) -> Bool {
        let (x0, y0, cx, cy) = (geometry.x0, geometry.y0, geometry.cx, geometry.cy)
        // The landing centre (relative to c) and side of source pixel (column, row), nil when none.
        func landing(_ column: Int, _ row: Int) -> (x: Double, y: Double, side: Double)? {
            guard column >= 0, column < width, row >= 0, row < height,
                  let s = geometry.scale(disparity.value(column: column, row: row)) else { return nil }
            return ((x0 + Double(column) + 0.5 - cx) * s, (y0 + Double(row) + 0.5 - cy) * s, s)
        }
        func torn(_ a: (x: Double, y: Double, side: Double), from b: (x: Double, y: Double, side: Double)?) -> Bool {
            guard let b else { return false }
            let dx = a.x - b.x, dy = a.y - b.y, gap = (dx * dx + dy * dy).squareRoot() - (a.side + b.side) / 2
            return gap > Self.tear
        }
        let d = depth[index]
        guard let s = geometry.scale(d) else { return false }
        let row = index / width, column = index - row * width
        let u = cx + (x0 + Double(column) + 0.5 - cx) / s - x0, v = cy + (y0 + Double(row) + 0.5 - cy) / s - y0
        let i = min(max(Int(u.rounded(.down)), 0), width - 1), j = min(max(Int(v.rounded(.down)), 0), height - 1)
        guard let p = landing(i, j) else { return false }
        // Torn from both neighbours along (dx, dy) at (i, j), whose landing is `at`, its scale
        // between theirs.
        func tornAlong(_ i: Int, _ j: Int, _ dx: Int, _ dy: Int, at: (x: Double, y: Double, side: Double)?) -> Bool {
            guard let at, let before = landing(i - dx, j - dy), let after = landing(i + dx, j + dy),
                  (before.side - at.side) * (at.side - after.side) > 0 else { return false }
            return torn(at, from: before) && torn(at, from: after)
        }
        // A ramp: torn here, but not all the way to `ramp` pixels on both sides.
        func ramp(_ dx: Int, _ dy: Int) -> Bool {
            let k = Self.ramp
            guard tornAlong(i, j, dx, dy, at: p) else { return false }
            let (a, b) = ((i - k * dx, j - k * dy), (i + k * dx, j + k * dy))
            return !(tornAlong(a.0, a.1, dx, dy, at: landing(a.0, a.1)) && tornAlong(b.0, b.1, dx, dy, at: landing(b.0, b.1)))
        }
        return ramp(1, 0) || ramp(0, 1)
    }
}
