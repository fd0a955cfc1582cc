/// The dolly zoom's torn pixels (``DollyZoomPixels``): a covered pixel whose source pixel the zoom
/// tears away from both its neighbours along a row or a column counts as a hole.
///
/// A depth map is coarser and softer than the photo: across a depth edge its disparity ramps over
/// several photo pixels, and the zoom spreads that ramp over the disocclusion, each pixel a thin
/// line of its own colour (mostly the nearer surface's edge) with cracks between: a rippled band
/// of foreground lines, where the scene shows the background. A source pixel p lands at
/// `c + (p − c)·σ(d(p))`, a square of side σ(d(p)); the gap to a neighbour's square is the distance
/// between their centres less the mean of their sides. A pixel with a gap of more than ``tear``
/// pixels on both sides, along a row or along a column, is such a line, unless the pixels ``ramp``
/// away on both sides are torn too (then the whole surface is stretched: a slanted floor seen up
/// close, which stays, its cracks filled from itself): it becomes a hole, and the
/// disocclusion fill replaces it with the surface behind. Only pixels reached from a hole through
/// holes and such pixels (8-connected) are tested; the set found does not depend on the order.
extension DollyZoomPixels {
    /// The least gap, in output pixels, that tears a source pixel from a neighbour.
    static let tear = 0.5
    /// The longest ramp torn apart, in source pixels: a surface torn over a longer stretch is a
    /// slanted one that the zoom magnifies (its cracks are filled from itself), not a depth edge.
    static let ramp = 16

    /// Marks the torn pixels next to the holes as holes (−∞ in the z-buffer).
    func openTorn(_ geometry: DollyZoomReprojection.Geometry, disparity: DollyZoomReprojection.StretchedDisparity) {
        var pending: [Int] = []
        for i in 0..<count where depth[i] == -.infinity { pending.append(i) }
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
        // Whether covered pixel `index` shows a torn source pixel.
        func isTorn(_ index: Int) -> Bool {
            let d = depth[index]
            guard let s = geometry.scale(d) else { return false }
            let row = index / width, column = index - row * width
            let u = cx + (x0 + Double(column) + 0.5 - cx) / s - x0, v = cy + (y0 + Double(row) + 0.5 - cy) / s - y0
            let i = min(max(Int(u.rounded(.down)), 0), width - 1), j = min(max(Int(v.rounded(.down)), 0), height - 1)
            // Torn from both neighbours along (dx, dy) at (i, j).
            func tornAlong(_ i: Int, _ j: Int, _ dx: Int, _ dy: Int) -> Bool {
                guard let p = landing(i, j) else { return false }
                return torn(p, from: landing(i - dx, j - dy)) && torn(p, from: landing(i + dx, j + dy))
            }
            // A ramp: torn here, but not all the way to `ramp` pixels on both sides.
            func ramp(_ dx: Int, _ dy: Int) -> Bool {
                let k = Self.ramp
                return tornAlong(i, j, dx, dy) && !(tornAlong(i - k * dx, j - k * dy, dx, dy) && tornAlong(i + k * dx, j + k * dy, dx, dy))
            }
            return ramp(1, 0) || ramp(0, 1)
        }
        while let index = pending.popLast() {
            let row = index / width, column = index - row * width
            for r in max(row - 1, 0)...min(row + 1, height - 1) {
                for c in max(column - 1, 0)...min(column + 1, width - 1) {
                    let n = r * width + c
                    guard depth[n] != -.infinity, isTorn(n) else { continue }
                    depth[n] = -.infinity
                    pending.append(n)
                }
            }
        }
    }
}
