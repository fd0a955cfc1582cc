import GraphEngine

extension DollyZoomPixels {
    /// Holes filled from the farthest surface around them: filled pixels spread their disparity
    /// and colour to their open 8-neighbours in order of increasing disparity (first the pixels
    /// that border a hole, by disparity then position; each filled hole spreads in turn, after
    /// those of smaller disparity and, on a tie, after the pixels queued before it).
    ///
    /// In that order a hole region (8-connected) is filled entirely from its bordering pixels of
    /// least disparity before any other of its bordering pixels spreads: the queue's disparities
    /// never decrease, so the holes those pixels fill are all taken before a larger disparity is.
    /// So each region is done on its own, found from its first pixel in row order: its pixels
    /// marked and its least bordering disparity found, then a breadth-first fill from the
    /// bordering pixels of that disparity, in position order. The same result as the global
    /// order, in time linear in the holes, reading only the memory around them.
    func fillHoles(_ colour: PlanarBuffer) {
        let holes = (0..<height).reduce(0) { $0 + rowHoles[$1] }
        guard holes > 0 else { return }
        switch colour.samples {
        case .float32: fillHoles(holes: holes, planes: (colour.planes[0], colour.planes[1], colour.planes[2]))
        case .half: fillHoles(holes: holes, planes: (colour.halfPlanes[0], colour.halfPlanes[1], colour.halfPlanes[2]))
        }
    }

    /// A hole found in its region's search: not a disparity any pixel has (a NaN of its own).
    private static let marked = Float(bitPattern: 0x7FC0_D011)

    private func fillHoles<Sample>(holes: Int, planes: (UnsafeMutablePointer<Sample>, UnsafeMutablePointer<Sample>,
                                                        UnsafeMutablePointer<Sample>)) {
        // One region's pixels as found (a stack), then its fill order (a queue).
        let pending = UnsafeMutablePointer<Int>.allocate(capacity: holes)
        let queue = UnsafeMutablePointer<Int>.allocate(capacity: holes)
        defer {
            pending.deallocate()
            queue.deallocate()
        }
        var sources: [Int] = []
        let (red, green, blue) = planes
        for row in 0..<height where rowHoles[row] > 0 {
            for start in (row * width)..<((row + 1) * width) where depth[start] == -.infinity {
                // The region: its holes marked, its bordering pixels of least disparity gathered.
                var least = Float.infinity
                sources.removeAll(keepingCapacity: true)
                depth[start] = Self.marked
                pending[0] = start
                var count = 1
                while count > 0 {
                    count -= 1
                    let hole = pending[count]
                    forEachNeighbour(of: hole) { n in
                        let d = depth[n]
                        if d == -.infinity {
                            depth[n] = Self.marked
                            pending[count] = n
                            count += 1
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
                var head = 0, tail = 0, next = 0
                while next < sources.count || head < tail {
                    let from: Int
                    if next < sources.count {
                        from = sources[next]
                        next += 1
                        // A pixel next to several holes of the region was gathered once for each.
                        if next > 1 && sources[next - 2] == from { continue }
                    } else {
                        from = queue[head]
                        head += 1
                    }
                    let d = depth[from]
                    forEachNeighbour(of: from) { n in
                        guard depth[n].bitPattern == Self.marked.bitPattern else { return }
                        depth[n] = d
                        red[n] = red[from]
                        green[n] = green[from]
                        blue[n] = blue[from]
                        queue[tail] = n
                        tail += 1
                    }
                }
            }
        }
    }

    /// Calls `body` with the 8-neighbours of `index` inside the image, rows from below, columns
    /// from the left.
    @inline(__always)
    private func forEachNeighbour(of index: Int, _ body: (Int) -> Void) {
        let row = index / width, column = index - row * width
        let left = max(column - 1, 0), right = min(column + 1, width - 1)
        for r in max(row - 1, 0)...min(row + 1, height - 1) {
            let line = r * width
            for c in left...right where r != row || c != column { body(line + c) }
        }
    }
}
