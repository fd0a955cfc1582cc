import GraphEngine

/// The dolly zoom's hole fill (``DollyZoomPixels``): holes filled from the farthest surface around
/// them. Filled pixels spread their disparity and colour to their open 8-neighbours in order of
/// increasing disparity (first the pixels that border a hole, by disparity then position; each
/// filled hole spreads in turn, after those of smaller disparity and, on a tie, after the pixels
/// queued before it).
///
/// In that order a hole region (8-connected) is filled entirely from its bordering pixels of least
/// disparity before any other of its bordering pixels spreads: the queue's disparities never
/// decrease, so the holes those pixels fill are all taken before a larger disparity is. So each
/// region is done on its own, found from its first pixel in row order: its pixels marked and its
/// least bordering disparity found, then a breadth-first fill from the bordering pixels of that
/// disparity, in position order. The same result as the global order, in time linear in the holes,
/// reading only the memory around them.
///
/// The fill reads only the z-buffer: each filled hole takes the colour of one covered pixel, its
/// origin (the bordering pixel its colour spreads from). So the plan (every hole and its origin)
/// is made beside the colour pass, and ``apply(to:threads:)`` then copies the origins' colours.
struct DollyZoomHoleFill {
    /// The filled holes and their origins (covered pixels), `count` of each, as pixel indices
    /// (32 bits: half the memory of Int).
    let holes: UnsafeMutablePointer<UInt32>, origins: UnsafeMutablePointer<UInt32>
    let count: Int

    /// The plan of `pixels`' z-buffer, once complete (it is only read). Throws when the pixels
    /// cannot be numbered in 32 bits. Its arrays (a byte a pixel, twelve bytes a hole) are
    /// allocated as the z-buffer was, without a check.
    init(_ pixels: DollyZoomPixels) throws {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        guard pixels.count <= Int(UInt32.max) else {
            throw GraphError.invalidSize("the dolly zoom takes at most \(UInt32.max) pixels (\(width)x\(height))")
        }
        var total = 0
        for i in 0..<pixels.count where depth[i] == -.infinity { total += 1 }
        let holes = UnsafeMutablePointer<UInt32>.allocate(capacity: max(total, 1))
        let origins = UnsafeMutablePointer<UInt32>.allocate(capacity: max(total, 1))
        (self.holes, self.origins) = (holes, origins)
        guard total > 0 else {
            count = 0
            return
        }
        // Per pixel: 0 not reached, `marked` found in its region's search, `filled`.
        let marked: UInt8 = 1, filled: UInt8 = 2
        // Zeroed here, not by the system (calloc): a fresh page the search reads before it writes
        // is mapped to the shared zero page and copied on the write, and each such copy stops every
        // other worker of the process to flush its TLB (slower than writing all the bytes first).
        let state = UnsafeMutablePointer<UInt8>.allocate(capacity: pixels.count)
        state.initialize(repeating: 0, count: pixels.count)
        // One region's pixels as found (a stack).
        let pending = UnsafeMutablePointer<UInt32>.allocate(capacity: total)
        defer {
            state.deallocate()
            pending.deallocate()
        }
        var sources: [Int] = []
        // Holes filled so far: `holes[..<tail]`, the current region's from `head`.
        var tail = 0
        for start in 0..<pixels.count where depth[start] == -.infinity && state[start] == 0 {
            // The region: its holes marked, its bordering pixels of least disparity gathered.
            var least = Float.infinity
            sources.removeAll(keepingCapacity: true)
            state[start] = marked
            pending[0] = UInt32(start)
            var stacked = 1
            while stacked > 0 {
                stacked -= 1
                Self.forEachNeighbour(of: Int(pending[stacked]), width: width, height: height) { n in
                    let d = depth[n]
                    if d == -.infinity {
                        if state[n] == 0 {
                            state[n] = marked
                            pending[stacked] = UInt32(n)
                            stacked += 1
                        }
                    } else if d < least {
                        least = d
                        sources.removeAll(keepingCapacity: true)
                        sources.append(n)
                    } else if d == least {
                        sources.append(n)
                    }
                }
            }
            // No bordering pixel (nothing was covered): the region stays 0.
            guard !sources.isEmpty else { continue }
            sources.sort()
            var head = tail, next = 0
            while next < sources.count || head < tail {
                let from: Int, origin: UInt32
                if next < sources.count {
                    from = sources[next]
                    origin = UInt32(from)
                    next += 1
                    // A pixel next to several holes of the region was gathered once for each.
                    if next > 1 && sources[next - 2] == from { continue }
                } else {
                    from = Int(holes[head])
                    origin = origins[head]
                    head += 1
                }
                Self.forEachNeighbour(of: from, width: width, height: height) { n in
                    guard state[n] == marked else { return }
                    state[n] = filled
                    holes[tail] = UInt32(n)
                    origins[tail] = origin
                    tail += 1
                }
            }
        }
        count = tail
    }

    func deallocate() {
        holes.deallocate()
        origins.deallocate()
    }

    /// Each filled hole's colour (red, green, blue, or red alone in a grey result's one plane)
    /// copied from its origin, in ranges of the plan on up to `threads` workers (origins are covered
    /// pixels: no range writes what another reads).
    func apply(to colour: PlanarBuffer, threads: Int) {
        switch colour.samples {
        case .float32: apply(planes: colour.planes, threads: threads)
        case .half: apply(planes: colour.halfPlanes, threads: threads)
        }
    }

    private func apply<Sample>(planes: [UnsafeMutablePointer<Sample>], threads: Int) {
        let red = planes[0], grey = planes.count == 1
        let (green, blue) = grey ? (red, red) : (planes[1], planes[2])
        let ranges = min(count, 4 * max(threads, 1))
        ProcessorWorkers.forEach(ranges, threads: threads) { k in
            for i in (k * count / ranges)..<((k + 1) * count / ranges) {
                let hole = Int(holes[i]), origin = Int(origins[i])
                red[hole] = red[origin]
                guard !grey else { continue }
                green[hole] = green[origin]
                blue[hole] = blue[origin]
            }
        }
    }

    /// Calls `body` with the 8-neighbours of `index` inside the image, rows from below, columns
    /// from the left.
    @inline(__always)
    private static func forEachNeighbour(of index: Int, width: Int, height: Int, _ body: (Int) -> Void) {
        let row = index / width, column = index - row * width
        let left = max(column - 1, 0), right = min(column + 1, width - 1)
        for r in max(row - 1, 0)...min(row + 1, height - 1) {
            let line = r * width
            for c in left...right where r != row || c != column { body(line + c) }
        }
    }
}
