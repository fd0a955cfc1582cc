import GraphEngine

/// The dolly zoom's disocclusion fill (``DollyZoomPixels``): every hole takes a smooth estimate of
/// the farthest surface around it, a depth-aware pull-push, plus fine detail mirrored from that
/// surface across the hole's far edge.
///
/// **Which side is the background.** The zoom moves a pixel of disparity d radially about the
/// centre c by σ(d) = n/(1 − t·d). A hole opens between two surfaces that σ moves apart: a nearer
/// one (larger d) and a farther one, the background, whose pixels are to be shown. Two surfaces
/// count as one where they move apart by at most ``apart`` output pixels at that place, i.e. while
/// `|t|·(d − d_far)·r ≤ apart·|1 − t·d|` (r the distance from c): the pixels of larger d beyond
/// that are a nearer surface and never contribute.
///
/// **Pull-push.** Level 0 is the output, a covered pixel weighing 1 and a hole 0. Each coarser level
/// halves both sizes: a cell takes its (up to) four children of non-zero weight, drops those that
/// are a nearer surface than the farthest of them (the rule above, at the cell's centre), and keeps
/// the weighted mean of the rest's colour and disparity, weight `min(1, Σ w / 2)`. Then from the
/// coarsest level down, each cell becomes `w·own + (1 − w)·up`, `up` the next coarser level read
/// bilinearly at its centre from the four cells around it, the nearer surfaces among them dropped
/// the same way (their bilinear weights renormalised). A level-0 hole takes `up` alone: the far
/// surface around it, smooth, never the nearer one.
///
/// **Detail.** A pull-push is smoother than the real background. The hole's far edge lies along
/// the radial line through it, toward c when t > 0 (the background shrinks more than the nearer
/// surface) and away from c when t < 0: walking from the hole q that way, the first covered pixel
/// b is at distance s (at most ``reach``). Its mirror point `m = q + 2·s·u` (u the unit step) lies
/// as far inside the background as q lies outside it; when m is covered and not a nearer surface
/// than the hole's estimate, the hole gains m's detail: its colour minus the level-1 `up` there
/// (what the pull-push keeps of it). Mirrored texture continues the background without repeating
/// one pixel along a streak.
///
/// Each pass runs in ranges of rows or cells; every value is computed by one worker from values an
/// earlier pass finished, so the bytes are the same for any number of workers.
struct DollyZoomFill {
    /// Surfaces that move apart by more than this many output pixels are different surfaces.
    static let apart: Float = 8
    /// The longest walk to a hole's far edge, in pixels (no detail beyond).
    static let reach = 128

    /// One level of the pyramid: per cell `channels` colour planes, then its weight and its
    /// disparity (valid where the weight is non-zero), Float32.
    struct Level {
        let width: Int, height: Int, channels: Int
        /// The cell size in output pixels (2^level).
        let size: Int
        let values: UnsafeMutablePointer<Float>

        init(width: Int, height: Int, channels: Int, size: Int) {
            (self.width, self.height, self.channels, self.size) = (width, height, channels, size)
            values = .allocate(capacity: width * height * (channels + 2))
        }

        var count: Int { width * height }
        func plane(_ k: Int) -> UnsafeMutablePointer<Float> { values + k * count }
        var weight: UnsafeMutablePointer<Float> { plane(channels) }
        var disparity: UnsafeMutablePointer<Float> { plane(channels + 1) }
    }

    let pixels: DollyZoomPixels
    let geometry: DollyZoomReprojection.Geometry
    /// |t|, and t and the centre relative to the first pixel's corner (output pixels).
    let amount: Float, signedAmount: Float, cx: Float, cy: Float

    init(_ pixels: DollyZoomPixels, _ geometry: DollyZoomReprojection.Geometry) {
        self.pixels = pixels
        self.geometry = geometry
        signedAmount = Float(geometry.amount)
        amount = abs(signedAmount)
        cx = Float(geometry.cx - geometry.x0)
        cy = Float(geometry.cy - geometry.y0)
    }

    /// Whether a surface of disparity `d` is nearer than the one of disparity `far` by more than
    /// ``apart`` pixels at distance² `r2` from the centre.
    @inline(__always)
    func nearer(_ d: Float, than far: Float, r2: Float) -> Bool {
        let gap = amount * (d - far), limit = Self.apart * abs(1 - signedAmount * d)
        return gap > 0 && gap * gap * r2 > limit * limit
    }

    /// Fills the holes of `colour` (whose covered pixels are done).
    func fill(_ colour: PlanarBuffer) {
        let (width, height) = (pixels.width, pixels.height)
        let channels = colour.channels == 1 ? 1 : 3
        var levels: [Level] = []
        defer { for level in levels { level.values.deallocate() } }
        var (w, h, size) = (width, height, 1)
        while w > 1 || h > 1 {
            (w, h, size) = ((w + 1) / 2, (h + 1) / 2, size * 2)
            levels.append(Level(width: w, height: h, channels: channels, size: size))
        }
        guard let first = levels.first else { return }
        pullFromOutput(colour, channels: channels, into: first)
        for k in levels.indices.dropFirst() { pull(levels[k - 1], into: levels[k]) }
        guard let top = levels.last, top.weight[0] > 0 else { return }
        for k in levels.indices.dropLast().reversed() { push(levels[k + 1], into: levels[k]) }
        fillHoles(colour, channels: channels, from: first)
    }

    // MARK: Pull

    /// Level 1 from the output: rows read as Float32, covered pixels weighing 1.
    private func pullFromOutput(_ colour: PlanarBuffer, channels: Int, into level: Level) {
        let width = pixels.width, height = pixels.height, depth = pixels.depth
        let ranges = min(level.height, 4 * pixels.threads)
        pixels.forEach(ranges) { k in
            // Two rows of each channel, weight and disparity: (channels + 2) × 2 rows.
            let stride = width, rowsPerPlane = 2
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: (channels + 2) * rowsPerPlane * stride)
            defer { scratch.deallocate() }
            for y in (k * level.height / ranges)..<((k + 1) * level.height / ranges) {
                var children: [UnsafeMutablePointer<Float>] = []
                for r in 0..<2 {
                    let row = min(2 * y + r, height - 1), exists = 2 * y + r < height
                    let base = scratch + r * (channels + 2) * stride
                    for c in 0..<channels { colour.readRow(channel: c, row: row, count: width, into: base + c * stride) }
                    let weight = base + channels * stride, disparity = base + (channels + 1) * stride
                    let line = depth + row * width
                    for x in 0..<width {
                        let d = line[x]
                        weight[x] = exists && d != -.infinity ? 1 : 0
                        disparity[x] = d == -.infinity ? 0 : d
                    }
                    children.append(base)
                }
                pullRow(y, children: children, childWidth: width, stride: stride, into: level)
            }
        }
    }

    /// Level `coarse` from the finer level `fine`.
    private func pull(_ fine: Level, into coarse: Level) {
        let ranges = min(coarse.height, 4 * pixels.threads)
        pixels.forEach(ranges) { k in
            for y in (k * coarse.height / ranges)..<((k + 1) * coarse.height / ranges) {
                let low = 2 * y, high = min(2 * y + 1, fine.height - 1)
                if high == low {
                    // No second child row: read as weight 0 through a zeroed row.
                    let blank = UnsafeMutablePointer<Float>.allocate(capacity: (coarse.channels + 2) * fine.width)
                    blank.initialize(repeating: 0, count: (coarse.channels + 2) * fine.width)
                    defer { blank.deallocate() }
                    pullRow(y, children: [fine.values + low * fine.width, blank], childWidth: fine.width, stride: fine.count,
                            blankStride: fine.width, into: coarse)
                } else {
                    pullRow(y, children: [fine.values + low * fine.width, fine.values + high * fine.width],
                            childWidth: fine.width, stride: fine.count, into: coarse)
                }
            }
        }
    }

    /// Row `y` of `coarse` from two child rows (each `channels` colour planes, weight, disparity,
    /// `stride` apart; the second `blankStride` apart when given).
    private func pullRow(_ y: Int, children: [UnsafeMutablePointer<Float>], childWidth: Int, stride: Int,
                         blankStride: Int? = nil, into coarse: Level) {
        let channels = coarse.channels
        let strides = [stride, blankStride ?? stride]
        let weights = [children[0] + channels * strides[0], children[1] + channels * strides[1]]
        let disparities = [children[0] + (channels + 1) * strides[0], children[1] + (channels + 1) * strides[1]]
        let size = Float(coarse.size), dy = (Float(y) + 0.5) * size - cy
        let line = y * coarse.width
        for x in 0..<coarse.width {
            let dx = (Float(x) + 0.5) * size - cx, r2 = dx * dx + dy * dy
            // The (up to) four children: row r, column 2x + i.
            var far = Float.infinity
            for r in 0..<2 {
                for i in 0..<2 where 2 * x + i < childWidth && weights[r][2 * x + i] > 0 {
                    far = min(far, disparities[r][2 * x + i])
                }
            }
            var total: Float = 0, d: Float = 0
            var sums = SIMD4<Float>()
            if far != .infinity {
                for r in 0..<2 {
                    for i in 0..<2 where 2 * x + i < childWidth {
                        let j = 2 * x + i, w = weights[r][j], dj = disparities[r][j]
                        guard w > 0, !nearer(dj, than: far, r2: r2) else { continue }
                        total += w
                        d += w * dj
                        for c in 0..<channels { sums[c] += w * children[r][c * strides[r] + j] }
                    }
                }
            }
            let cell = line + x
            coarse.weight[cell] = min(1, total / 2)
            coarse.disparity[cell] = total > 0 ? d / total : 0
            for c in 0..<channels { coarse.plane(c)[cell] = total > 0 ? sums[c] / total : 0 }
        }
    }

    // MARK: Push

    /// The far surface of `coarse` at the centre of cell (x, y) of a level of cell size `size`
    /// (1 for output pixels): the four coarse cells around it, bilinearly, the nearer surfaces among
    /// them dropped; colour into `out`, disparity returned.
    @inline(__always)
    private func up(_ coarse: Level, x: Int, y: Int, size: Int, into out: inout SIMD4<Float>) -> Float {
        // The point in the coarse level's cell-centre coordinates.
        let ratio = Float(size) / Float(coarse.size)
        let u = (Float(x) + 0.5) * ratio - 0.5, v = (Float(y) + 0.5) * ratio - 0.5
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let ax = u - fu, ay = v - fv
        let x0 = min(max(Int(fu), 0), coarse.width - 1), x1 = min(max(Int(fu) + 1, 0), coarse.width - 1)
        let y0 = min(max(Int(fv), 0), coarse.height - 1), y1 = min(max(Int(fv) + 1, 0), coarse.height - 1)
        let cells = (y0 * coarse.width + x0, y0 * coarse.width + x1, y1 * coarse.width + x0, y1 * coarse.width + x1)
        let bilinear = ((1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay)
        let disparity = coarse.disparity
        let ds = (disparity[cells.0], disparity[cells.1], disparity[cells.2], disparity[cells.3])
        let far = min(min(ds.0, ds.1), min(ds.2, ds.3))
        let dx = (Float(x) + 0.5) * Float(size) - cx, dy = (Float(y) + 0.5) * Float(size) - cy, r2 = dx * dx + dy * dy
        var total: Float = 0, d: Float = 0
        var sums = SIMD4<Float>()
        @inline(__always) func add(_ cell: Int, _ b: Float, _ dj: Float) {
            guard b > 0, !nearer(dj, than: far, r2: r2) else { return }
            total += b
            d += b * dj
            for c in 0..<coarse.channels { sums[c] += b * coarse.values[c * coarse.count + cell] }
        }
        add(cells.0, bilinear.0, ds.0)
        add(cells.1, bilinear.1, ds.1)
        add(cells.2, bilinear.2, ds.2)
        add(cells.3, bilinear.3, ds.3)
        if total == 0 {
            // Only cells of zero bilinear weight are far: the nearest of them.
            let cell = ds.0 == far ? cells.0 : ds.1 == far ? cells.1 : ds.2 == far ? cells.2 : cells.3
            for c in 0..<coarse.channels { out[c] = coarse.plane(c)[cell] }
            return far
        }
        out = sums / total
        return d / total
    }

    /// Every cell of `fine` becomes `w·own + (1 − w)·up`, weight 1.
    private func push(_ coarse: Level, into fine: Level) {
        let ranges = min(fine.height, 4 * pixels.threads)
        pixels.forEach(ranges) { k in
            for y in (k * fine.height / ranges)..<((k + 1) * fine.height / ranges) {
                for x in 0..<fine.width {
                    let cell = y * fine.width + x, w = fine.weight[cell]
                    guard w < 1 else { continue }
                    var colour = SIMD4<Float>()
                    let d = up(coarse, x: x, y: y, size: fine.size, into: &colour)
                    for c in 0..<fine.channels { fine.plane(c)[cell] = w * fine.plane(c)[cell] + (1 - w) * colour[c] }
                    fine.disparity[cell] = w > 0 ? w * fine.disparity[cell] + (1 - w) * d : d
                    fine.weight[cell] = 1
                }
            }
        }
    }

    // MARK: Holes

    /// Each hole: level 1's far surface there plus the detail mirrored across the hole's far edge.
    private func fillHoles(_ colour: PlanarBuffer, channels: Int, from level: Level) {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let ranges = min(height, 4 * pixels.threads)
        // Toward the centre when t > 0.
        let sign: Float = signedAmount > 0 ? -1 : 1
        pixels.forEach(ranges) { k in
            for y in pixels.rows(k, of: ranges) {
                let line = depth + y * width
                for x in 0..<width where line[x] == -.infinity {
                    var value = SIMD4<Float>()
                    let d = up(level, x: x, y: y, size: 1, into: &value)
                    if let m = mirror(x: x, y: y, sign: sign), !nearer(depth[m.y * width + m.x], than: d, r2: m.r2) {
                        var smooth = SIMD4<Float>()
                        _ = up(level, x: m.x, y: m.y, size: 1, into: &smooth)
                        for c in 0..<channels {
                            var sample: Float = 0
                            colour.readRow(channel: c, row: m.y, column: m.x, count: 1, into: &sample)
                            value[c] += sample - smooth[c]
                        }
                    }
                    for c in 0..<channels {
                        var sample = value[c]
                        colour.writeRow(channel: c, row: y, column: x, count: 1, from: &sample)
                    }
                    if channels == 1 && colour.channels > 1 {
                        var sample = value[0]
                        for c in 1..<3 { colour.writeRow(channel: c, row: y, column: x, count: 1, from: &sample) }
                    }
                }
            }
        }
    }

    /// The covered pixel mirroring hole (x, y) across its far edge along the radial line (see the
    /// type's doc), and its distance² from the centre; nil when the walk leaves the frame or goes
    /// past ``reach``, or the mirror point is outside or a hole.
    @inline(__always)
    private func mirror(x: Int, y: Int, sign: Float) -> (x: Int, y: Int, r2: Float)? {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let qx = Float(x) + 0.5, qy = Float(y) + 0.5
        let rx = qx - cx, ry = qy - cy, r = (rx * rx + ry * ry).squareRoot()
        guard r > 0 else { return nil }
        let ux = sign * rx / r, uy = sign * ry / r
        for s in 1...Self.reach {
            let px = Int((qx + Float(s) * ux).rounded(.down)), py = Int((qy + Float(s) * uy).rounded(.down))
            guard px >= 0, px < width, py >= 0, py < height else { return nil }
            guard depth[py * width + px] == -.infinity else {
                let mx = Int((qx + Float(2 * s) * ux).rounded(.down)), my = Int((qy + Float(2 * s) * uy).rounded(.down))
                guard mx >= 0, mx < width, my >= 0, my < height, depth[my * width + mx] != -.infinity else { return nil }
                let ex = Float(mx) + 0.5 - cx, ey = Float(my) + 0.5 - cy
                return (mx, my, ex * ex + ey * ey)
            }
        }
        return nil
    }
}
