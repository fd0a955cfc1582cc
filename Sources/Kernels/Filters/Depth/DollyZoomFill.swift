import GraphEngine

/// The dolly zoom's disocclusion fill (``DollyZoomPixels``): every hole takes a smooth estimate of
/// the farthest surface around it, a depth-aware pull-push, plus fine detail mirrored from that
/// surface across the hole's far edge.
///
/// **Which side is the background.** The zoom moves a pixel of disparity d radially about the
/// centre c by σ(d) = n/(1 − t·d). A hole opens between two surfaces that σ moves apart: a nearer
/// one (larger d) and a farther one, the background, whose pixels are to be shown. Two surfaces
/// count as one while their scales differ by at most ``apart`` (a share: 12 px at the corner of a
/// 12 MP photo, so the steps of a quantised map stay one surface), i.e. while
/// `|t|·(d − d_far) ≤ apart·|1 − t·d|`: the pixels of larger d beyond that are a nearer surface
/// and never contribute.
///
/// **Pull-push.** Level 0 is the output, a covered pixel weighing 1 and a hole 0. Each coarser
/// level halves both sizes (level 1 is made in strips of two rows, only to make level 2): a cell
/// takes its (up to) four children of non-zero weight, drops those that are a nearer surface than
/// the farthest of them (the rule above), and keeps the weighted mean of the rest's colour and
/// disparity, weight `min(1, Σ w / 2)`. Then from the coarsest level down, each cell becomes
/// `w·own + (1 − w)·up`, `up` the next coarser level read bilinearly at its centre from the four
/// cells around it, the nearer surfaces among them dropped the same way (their bilinear weights
/// renormalised). A level-0 hole takes level 2's `up` (cracks, the holes a pixel wide, are filled
/// before): the far surface around it, smooth, never the nearer one. Levels finer than 32 px are
/// made only near holes (see ``Blocks``).
///
/// **The hole's own border.** A coarse cell spans far more than the hole: the farthest surface in
/// it may be one the hole never touches (a lighter patch of farther background 10 px past the
/// wall the hole opens onto), and taking the farthest of the four cells around would paint that
/// patch into the hole. So a hole pixel, and in the push a cell holding a hole, first finds its
/// own border's far surface, the smallest disparity among the first covered pixels along the 8
/// directions from it (within ``border`` px, ``borderFar(x:y:)``), and takes only the coarse
/// cells of that surface (within ``apart`` either way); when none of the four is, the farthest
/// of them as above.
///
/// **Detail.** A pull-push is smoother than the real background. The hole's far edge lies along
/// the radial line through it, toward c when t > 0 (the background shrinks more than the nearer
/// surface) and away from c when t < 0: walking from the hole q that way, the first covered pixel
/// b is at distance s (at most ``reach``). Its mirror point `m = q + (s + max(s, mirrorGap))·u`
/// (u the unit step) lies as far inside the background as q lies outside it, and at least
/// ``mirrorGap`` px past the edge; when no hole nor nearer surface than the hole's estimate lies
/// within ``mirrorClearance`` px of m (m is not an edge's mixed pixel), and U(m) is within
/// ``sameBackground`` of U(q) (not past another edge of the background), the hole takes m's
/// colour with the smooth part moved: `I(m) − U(m) + U(q)`, U the `up` of level ``detailLevel``
/// (8 px cells): the background's low frequencies where the hole is, its texture finer than 8 px
/// mirrored. Mirrored texture continues the background without repeating one pixel along a streak. (Cracks, holes between
/// two covered pixels along a row or a column, are filled first from their covered neighbours:
/// ``fillCracks(_:channels:)``.)
///
/// **Edges.** Before the fill, isolated pixels of a nearer surface among holes become holes
/// (``openSpecks()``), and so do the far side's covered pixels beside a hole, the photo's
/// anti-aliased edge moved with the background (``openFarFringe()``). After it, a hole and the
/// nearer surface beside it each take a share of the other's colour (``edgeBlend``): the photo's
/// edge is a pixel or two soft, and the fill met the nearer surface on a hard step (see
/// DollyZoomEdges.swift).
///
/// Each pass runs in ranges of rows or cells; every value is computed by one worker from values an
/// earlier pass finished, so the bytes are the same for any number of workers.
struct DollyZoomFill {
    /// Surfaces whose scales σ differ by more than this share are different surfaces.
    static let apart: Float = 0.005
    /// The level (cells of 2^level pixels) that gives a hole its smooth part when detail is
    /// mirrored to it: the detail is all that is finer.
    static let detailLevel = 3
    /// The most the smooth parts at a hole and at its mirror point may differ (in any channel) for
    /// the mirror to lend its detail: beyond, m lies past another edge of the background (the
    /// detail would copy that edge).
    static let sameBackground: Float = 0.08
    /// The longest walk to a hole's far edge, in pixels (no detail beyond).
    static let reach = 32
    /// The least distance, in pixels, from the far edge to the mirror point, and the clearance
    /// around it: a covered pixel near a hole or a nearer surface holds a mix of the two (the
    /// photo's anti-aliased edge moved with the background, or the nearer surface's fringe), and
    /// mirrored it drew dark or light streaks into the hole. So m lies at least ``mirrorGap`` px
    /// past the edge (`m = q + (s + max(s, mirrorGap))·u`), and lends no detail when a hole or a
    /// nearer surface lies within ``mirrorClearance`` px of it.
    static let mirrorGap = 3, mirrorClearance = 2
    /// The longest walk to a hole's own border along each direction, in pixels.
    static let border = 128
    static let directions = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]

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
    /// ``apart``: `σ(d)/σ(far) − 1 = t·(d − far)/(1 − t·d)` in magnitude.
    @inline(__always)
    func nearer(_ d: Float, than far: Float) -> Bool {
        amount * (d - far) > Self.apart * abs(1 - signedAmount * d)
    }

    /// Fills the holes of `colour` (whose covered pixels are done).
    func fill(_ colour: PlanarBuffer) {
        let (width, height) = (pixels.width, pixels.height)
        let channels = colour.channels == 1 ? 1 : 3
        // Level 1 is only made in strips (see `pullFromOutput`); the stored levels start at 2.
        let (levelOneWidth, levelOneHeight) = ((width + 1) / 2, (height + 1) / 2)
        var levels: [Level] = []
        defer { for level in levels { level.values.deallocate() } }
        var (w, h, size) = (levelOneWidth, levelOneHeight, 2)
        repeat {
            (w, h, size) = ((w + 1) / 2, (h + 1) / 2, size * 2)
            levels.append(Level(width: w, height: h, channels: channels, size: size))
        } while w > 1 || h > 1
        guard let first = levels.first, let top = levels.last else { return }
        for _ in 0..<2 { openSpecks() }
        fillCracks(colour, channels: channels)
        openFarFringe()
        let blocks = Blocks(pixels)
        defer { blocks.near.deallocate() }
        pullFromOutput(colour, channels: channels, levelOne: (levelOneWidth, levelOneHeight), into: first, blocks)
        for k in levels.indices.dropFirst() {
            pull(levels[k - 1], into: levels[k], blocks)
            if levels[k].size == Blocks.size { sampleFarBlocks(colour, into: levels[k], blocks) }
        }
        guard top.weight[0] > 0 else { return }
        for k in levels.indices.dropLast().reversed() { push(levels[k + 1], into: levels[k], blocks) }
        fillHoles(colour, channels: channels, from: first, smooth: levels.first { $0.size >= 1 << Self.detailLevel } ?? top, blocks)
    }

    /// The output in blocks of ``size`` pixels a side, those near a hole marked: a hole's fill
    /// reads the pyramid's finer levels only within about a cell of it at each level, so levels
    /// finer than a block are made only in the blocks that hold a hole and their 8 neighbours; a
    /// block away from every hole gets its cell at the block's level from every ``step``-th pixel
    /// of every ``step``-th row, pulled as a cell's children are (the farthest surface among them).
    struct Blocks {
        static let size = 32, step = 4
        let columns: Int, rows: Int
        /// Per block (row by row): near a hole.
        let near: UnsafeMutablePointer<Bool>

        init(_ pixels: DollyZoomPixels) {
            let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
            columns = (width + Self.size - 1) / Self.size
            rows = (height + Self.size - 1) / Self.size
            let holes = UnsafeMutablePointer<Bool>.allocate(capacity: columns * rows)
            holes.initialize(repeating: false, count: columns * rows)
            defer { holes.deallocate() }
            let (columns, rows) = (columns, rows)
            pixels.forEach(rows) { block in
                let marks = holes + block * columns
                for y in (block * Self.size)..<min((block + 1) * Self.size, height) {
                    let line = depth + y * width
                    for x in 0..<width where line[x] == -.infinity { marks[x / Self.size] = true }
                }
            }
            near = .allocate(capacity: columns * rows)
            for by in 0..<rows {
                for bx in 0..<columns {
                    var found = false
                    for ny in max(by - 1, 0)...min(by + 1, rows - 1) {
                        for nx in max(bx - 1, 0)...min(bx + 1, columns - 1) where holes[ny * columns + nx] { found = true }
                    }
                    near[by * columns + bx] = found
                }
            }
        }

        /// Whether output pixel (x, y) lies in a near block.
        @inline(__always)
        func isNear(x: Int, y: Int) -> Bool { near[(y / Self.size) * columns + x / Self.size] }

        /// Whether the square of `radius` pixels around output pixel `p` lies in near blocks (its
        /// corners clamped to the frame): the cells of the levels finer than a block that a
        /// bilinear read there takes are made.
        @inline(__always)
        func isNear(around p: (x: Int, y: Int, s: Int), within radius: Int) -> Bool {
            let (right, top) = (columns * Self.size - 1, rows * Self.size - 1)
            let xs = (max(p.x - radius, 0), min(p.x + radius, right)), ys = (max(p.y - radius, 0), min(p.y + radius, top))
            return isNear(x: xs.0, y: ys.0) && isNear(x: xs.1, y: ys.0) && isNear(x: xs.0, y: ys.1) && isNear(x: xs.1, y: ys.1)
        }
    }

    /// Fills the cracks: holes between two covered pixels along a row or a column (a disparity map
    /// quantised in steps opens one along each step's contour; they are most of the holes), each
    /// with the mean of its covered 8-neighbours that are not a nearer surface than the farthest
    /// of them. The values are found first (from covered pixels only), then written, and the
    /// cracks get that mean's disparity: they are no longer holes.
    private func fillCracks(_ colour: PlanarBuffer, channels: Int) {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let ranges = min(height, 4 * pixels.threads)
        var found = [[(index: Int, value: SIMD4<Float>, disparity: Float)]](repeating: [], count: ranges)
        found.withUnsafeMutableBufferPointer { lists in
            let lists = lists
            pixels.forEach(ranges) { k in
                var list: [(index: Int, value: SIMD4<Float>, disparity: Float)] = []
                // Rows y − 1, y, y + 1 as Float32, each its channels `width` apart (read once each).
                let window = UnsafeMutablePointer<Float>.allocate(capacity: 3 * channels * width)
                defer { window.deallocate() }
                var loaded = Int.min
                func slot(_ row: Int) -> UnsafeMutablePointer<Float> { window + ((row % 3 + 3) % 3) * channels * width }
                func load(_ row: Int) {
                    guard row >= 0, row < height else { return }
                    for c in 0..<channels { colour.readRow(channel: c, row: row, count: width, into: slot(row) + c * width) }
                }
                for y in pixels.rows(k, of: ranges) {
                    let line = depth + y * width
                    var first = true
                    for x in 0..<width where line[x] == -.infinity {
                        let across = x > 0 && x < width - 1 && line[x - 1] != -.infinity && line[x + 1] != -.infinity
                        let along = y > 0 && y < height - 1 && line[x - width] != -.infinity && line[x + width] != -.infinity
                        guard across || along else { continue }
                        if first {
                            // The window brought to rows y − 1...y + 1.
                            for row in max(y - 1, loaded + 1)...(y + 1) { load(row) }
                            loaded = y + 1
                            first = false
                        }
                        let rows = max(y - 1, 0)...min(y + 1, height - 1), columns = max(x - 1, 0)...min(x + 1, width - 1)
                        var far = Float.infinity
                        for r in rows { for c in columns where depth[r * width + c] != -.infinity { far = min(far, depth[r * width + c]) } }
                        var total: Float = 0, d: Float = 0
                        var sums = SIMD4<Float>()
                        for r in rows {
                            let values = slot(r)
                            for c in columns {
                                let dj = depth[r * width + c]
                                guard dj != -.infinity, !nearer(dj, than: far) else { continue }
                                total += 1
                                d += dj
                                for channel in 0..<channels { sums[channel] += values[channel * width + c] }
                            }
                        }
                        list.append((y * width + x, sums / total, d / total))
                    }
                }
                lists[k] = list
            }
        }
        let targets = channels == 1 ? 0..<min(colour.channels, 3) : 0..<3
        pixels.forEach(ranges) { k in
            for crack in found[k] {
                let y = crack.index / width, x = crack.index - y * width
                for target in targets {
                    var value = crack.value[channels == 1 ? 0 : target]
                    colour.writeRow(channel: target, row: y, column: x, count: 1, from: &value)
                }
                depth[crack.index] = crack.disparity
            }
        }
    }

    // MARK: Pull

    /// Level 2 from the output, through level 1 made two rows at a time (its cells are read
    /// once, by level 2: not kept): output rows read as Float32, covered pixels weighing 1.
    private func pullFromOutput(_ colour: PlanarBuffer, channels: Int, levelOne: (width: Int, height: Int), into level: Level,
                                _ blocks: Blocks) {
        let width = pixels.width, height = pixels.height, depth = pixels.depth
        let ranges = min(level.height, 4 * pixels.threads)
        pixels.forEach(ranges) { k in
            // Two output rows, each its channels, weight and disparity, `width` apart.
            let rowStride = (channels + 2) * width
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 2 * rowStride)
            let strip = Level(width: levelOne.width, height: 2, channels: channels, size: 2)
            defer {
                scratch.deallocate()
                strip.values.deallocate()
            }
            for y in (k * level.height / ranges)..<((k + 1) * level.height / ranges) {
                let blockRow = blocks.near + (4 * y / Blocks.size) * blocks.columns
                guard (0..<blocks.columns).contains(where: { blockRow[$0] }) else { continue }
                for stripRow in 0..<min(2, levelOne.height - 2 * y) {
                    let one = 2 * y + stripRow
                    for r in 0..<min(2, height - 2 * one) {
                        let row = 2 * one + r, base = scratch + r * rowStride
                        let weight = base + channels * width, disparity = base + (channels + 1) * width
                        let line = depth + row * width
                        // Only the near blocks' columns.
                        for block in 0..<blocks.columns where blockRow[block] {
                            let start = block * Blocks.size, count = min(Blocks.size, width - start)
                            for c in 0..<channels {
                                colour.readRow(channel: c, row: row, column: start, count: count, into: base + c * width + start)
                            }
                            for x in start..<(start + count) {
                                let d = line[x], hole = d == -.infinity
                                weight[x] = hole ? 0 : 1
                                disparity[x] = hole ? 0 : d
                            }
                        }
                    }
                    pullRow(one, scratch, 2 * one + 1 < height ? scratch + rowStride : nil, planeStride: width, childWidth: width,
                            into: strip, row: stripRow, blocks)
                }
                pullRow(y, strip.values, 2 * y + 1 < levelOne.height ? strip.values + strip.width : nil, planeStride: strip.count,
                        childWidth: strip.width, into: level, row: y, blocks)
            }
        }
    }

    /// Level `coarse` from the finer level `fine`.
    private func pull(_ fine: Level, into coarse: Level, _ blocks: Blocks) {
        let ranges = min(coarse.height, 4 * pixels.threads)
        pixels.forEach(ranges) { k in
            for y in (k * coarse.height / ranges)..<((k + 1) * coarse.height / ranges) {
                let low = fine.values + 2 * y * fine.width
                pullRow(y, low, 2 * y + 1 < fine.height ? low + fine.width : nil, planeStride: fine.count, childWidth: fine.width,
                        into: coarse, row: y, blocks)
            }
        }
    }

    /// Row `y` of `coarse`'s level from one or two child rows (each its colour planes, weight and
    /// disparity, `planeStride` apart), written to row `row` of `coarse`; at the levels up to a
    /// block's, only the cells of near blocks.
    @inline(__always)
    private func pullRow(_ y: Int, _ low: UnsafeMutablePointer<Float>, _ high: UnsafeMutablePointer<Float>?, planeStride: Int,
                         childWidth: Int, into coarse: Level, row: Int, _ blocks: Blocks) {
        let channels = coarse.channels, rows = high == nil ? 1 : 2
        let children = (low, high ?? low)
        let (weight, disparity) = (channels * planeStride, (channels + 1) * planeStride)
        let line = row * coarse.width
        let sparse = coarse.size <= Blocks.size
        for x in 0..<coarse.width {
            if sparse && !blocks.isNear(x: x * coarse.size, y: y * coarse.size) { continue }
            let columns = 2 * x..<min(2 * x + 2, childWidth)
            // The farthest of the (up to) four children.
            var far = Float.infinity
            for r in 0..<rows {
                let child = r == 0 ? children.0 : children.1
                for j in columns where child[weight + j] > 0 { far = min(far, child[disparity + j]) }
            }
            var total: Float = 0, d: Float = 0
            var sums = SIMD4<Float>()
            if far != .infinity {
                for r in 0..<rows {
                    let child = r == 0 ? children.0 : children.1
                    for j in columns {
                        let w = child[weight + j], dj = child[disparity + j]
                        guard w > 0, !nearer(dj, than: far) else { continue }
                        total += w
                        d += w * dj
                        for c in 0..<channels { sums[c] += w * child[c * planeStride + j] }
                    }
                }
            }
            let cell = line + x
            coarse.weight[cell] = min(1, total / 2)
            coarse.disparity[cell] = total > 0 ? d / total : 0
            for c in 0..<channels { coarse.values[c * coarse.count + cell] = total > 0 ? sums[c] / total : 0 }
        }
    }

    /// The cells of `level` (the blocks' level) over blocks away from every hole: their sampled
    /// pixels pulled as children are (see ``Blocks``).
    private func sampleFarBlocks(_ colour: PlanarBuffer, into level: Level, _ blocks: Blocks) {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let step = Blocks.step
        pixels.forEach(min(blocks.rows, 4 * pixels.threads)) { k in
            for by in (k * blocks.rows / min(blocks.rows, 4 * pixels.threads))..<((k + 1) * blocks.rows / min(blocks.rows, 4 * pixels.threads)) {
                for bx in 0..<blocks.columns where !blocks.near[by * blocks.columns + bx] {
                    let xs = stride(from: bx * Blocks.size + step / 2, to: min((bx + 1) * Blocks.size, width), by: step)
                    let ys = stride(from: by * Blocks.size + step / 2, to: min((by + 1) * Blocks.size, height), by: step)
                    var far = Float.infinity
                    for y in ys { for x in xs { far = min(far, depth[y * width + x]) } }
                    var total: Float = 0, d: Float = 0
                    var sums = SIMD4<Float>()
                    for y in ys {
                        for x in xs {
                            let dj = depth[y * width + x]
                            guard !nearer(dj, than: far) else { continue }
                            total += 1
                            d += dj
                            for c in 0..<level.channels { sums[c] += colour.value(channel: c, x: colour.x + x, y: colour.y + y) }
                        }
                    }
                    let cell = by * level.width + bx
                    level.weight[cell] = total > 0 ? 1 : 0
                    level.disparity[cell] = total > 0 ? d / total : 0
                    for c in 0..<level.channels { level.values[c * level.count + cell] = total > 0 ? sums[c] / total : 0 }
                }
            }
        }
    }

    // MARK: Push

    /// The four cells of `coarse` around the centre of cell (x, y) of a level of cell size `size`
    /// (the point in the coarse level's cell-centre coordinates, edges repeated) and their bilinear
    /// weights, in the order (x0, y0), (x1, y0), (x0, y1), (x1, y1).
    @inline(__always)
    private func corners(_ coarse: Level, x: Int, y: Int, size: Int) -> (cells: (Int, Int, Int, Int), weights: (Float, Float, Float, Float)) {
        let ratio = Float(size) / Float(coarse.size)
        let u = (Float(x) + 0.5) * ratio - 0.5, v = (Float(y) + 0.5) * ratio - 0.5
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let ax = u - fu, ay = v - fv
        let x0 = min(max(Int(fu), 0), coarse.width - 1), x1 = min(max(Int(fu) + 1, 0), coarse.width - 1)
        let y0 = min(max(Int(fv), 0), coarse.height - 1), y1 = min(max(Int(fv) + 1, 0), coarse.height - 1)
        return ((y0 * coarse.width + x0, y0 * coarse.width + x1, y1 * coarse.width + x0, y1 * coarse.width + x1),
                ((1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay))
    }

    /// The far surface of `coarse` at the centre of cell (x, y) of a level of cell size `size`
    /// (1 for output pixels): the four coarse cells around it, bilinearly, the nearer surfaces among
    /// them dropped; colour into `out`, disparity returned.
    @inline(__always)
    private func up(_ coarse: Level, x: Int, y: Int, size: Int, into out: inout SIMD4<Float>) -> Float {
        let (cells, bilinear) = corners(coarse, x: x, y: y, size: size)
        let disparity = coarse.disparity
        let ds = (disparity[cells.0], disparity[cells.1], disparity[cells.2], disparity[cells.3])
        let far = min(min(ds.0, ds.1), min(ds.2, ds.3))
        var total: Float = 0, d: Float = 0
        var sums = SIMD4<Float>()
        @inline(__always) func add(_ cell: Int, _ b: Float, _ dj: Float) {
            guard b > 0, !nearer(dj, than: far) else { return }
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
    private func push(_ coarse: Level, into fine: Level, _ blocks: Blocks) {
        let ranges = min(fine.height, 4 * pixels.threads), sparse = fine.size < Blocks.size
        pixels.forEach(ranges) { k in
            for y in (k * fine.height / ranges)..<((k + 1) * fine.height / ranges) {
                for x in 0..<fine.width {
                    if sparse && !blocks.isNear(x: x * fine.size, y: y * fine.size) { continue }
                    let cell = y * fine.width + x, w = fine.weight[cell]
                    guard w < 1 else { continue }
                    var colour = SIMD4<Float>()
                    let d = upBorder(coarse, x: x, y: y, size: fine.size, into: &colour)
                    for c in 0..<fine.channels { fine.plane(c)[cell] = w * fine.plane(c)[cell] + (1 - w) * colour[c] }
                    fine.disparity[cell] = w > 0 ? w * fine.disparity[cell] + (1 - w) * d : d
                    fine.weight[cell] = 1
                }
            }
        }
    }

    // MARK: Holes

    /// Each hole: level 2's far surface there, or the detail mirrored across the hole's far edge
    /// over level ``detailLevel``'s, then blended with the nearer surface beside it (``edgeBlend``).
    /// By ranges of rows: each range's border surfaces first (``borderSurfaces(_:)``), then by rows
    /// the values of a run of holes computed, then written; last the nearer pixels beside holes
    /// (``blendNearerEdges(_:_:channels:)``).
    private func fillHoles(_ colour: PlanarBuffer, channels: Int, from level: Level, smooth coarse: Level, _ blocks: Blocks) {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let ranges = min(height, 4 * pixels.threads)
        // Toward the centre when t > 0.
        let sign: Float = signedAmount > 0 ? -1 : 1
        // The planes a value goes to: a grey value to every colour plane the buffer stores.
        let targets = channels == 1 ? 0..<min(colour.channels, 3) : 0..<3
        // How far from m the detail level's four cells around it reach: all made (near blocks).
        let reachOfCells = coarse.size
        // Per range: each hole's nearer 4-neighbours (their blend reads the finished fill).
        var edges = [[Edge]](repeating: [], count: ranges)
        edges.withUnsafeMutableBufferPointer { edges in
            let edges = edges
            pixels.forEach(ranges) { k in
                var found: [Edge] = []
                let band = pixels.rows(k, of: ranges)
                let owns = borderSurfaces(band)
                var next = 0
                let values = UnsafeMutablePointer<Float>.allocate(capacity: channels * width)
                defer { values.deallocate() }
                for y in band {
                    let line = depth + y * width
                    var x = 0
                    while x < width {
                        guard line[x] == -.infinity else {
                            x += 1
                            continue
                        }
                        let start = x
                        while x < width && line[x] == -.infinity {
                            var value = SIMD4<Float>()
                            let own = owns[next]
                            next += 1
                            let d = upBorder(level, x: x, y: y, size: 1, own: own, into: &value)
                            if let m = mirror(x: x, y: y, sign: sign), blocks.isNear(around: m, within: reachOfCells),
                               clear(x: m.x, y: m.y, behind: d) {
                                // The smooth part from the detail level, at the hole and at m.
                                var here = SIMD4<Float>(), there = SIMD4<Float>()
                                _ = upBorder(coarse, x: x, y: y, size: 1, own: own, into: &here)
                                _ = up(coarse, x: m.x, y: m.y, size: 1, into: &there)
                                // Not across another edge of the background (its smooth parts differ).
                                var apart: Float = 0
                                for c in 0..<channels { apart = max(apart, abs(here[c] - there[c])) }
                                if apart <= Self.sameBackground {
                                    for c in 0..<channels {
                                        value[c] = here[c] + colour.value(channel: c, x: colour.x + m.x, y: colour.y + m.y) - there[c]
                                    }
                                }
                            }
                            blendHoleEdge(&value, x: x, y: y, behind: d, colour, channels: channels, edges: &found)
                            for c in 0..<channels { values[c * width + x] = value[c] }
                            x += 1
                        }
                        for target in targets {
                            let c = channels == 1 ? 0 : target
                            colour.writeRow(channel: target, row: y, column: start, count: x - start, from: values + c * width + start)
                        }
                    }
                }
                edges[k] = found
            }
        }
        blendNearerEdges(colour, edges.flatMap { $0 }, channels: channels)
    }

    /// ``borderFar(x:y:)`` of every hole in the rows `band`, in row order (left to right, bottom
    /// row first), without walking each ray: the first covered pixel from (x, y) along (dx, dy) is
    /// (x + dx, y + dy) when that is covered, else the first one from that hole, a step farther.
    /// So the 3 directions toward lower rows are carried up the band row by row (a row's holes
    /// read the row below's), the 3 toward higher rows down the band, and the 2 along the row are
    /// the ends of each run of holes; only a band's first (last) row walks its rays to the rows
    /// below (above) the band. The same values as the walks, each hole's cost a few reads.
    private func borderSurfaces(_ band: Range<Int>) -> [Float] {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        // The holes before each row of the band, and in all.
        var starts = [Int](repeating: 0, count: band.count + 1)
        for (i, y) in band.enumerated() {
            let line = depth + y * width
            var count = 0
            for x in 0..<width where line[x] == -.infinity { count += 1 }
            starts[i + 1] = starts[i] + count
        }
        var owns = [Float](repeating: .infinity, count: starts[band.count])
        guard !owns.isEmpty else { return owns }
        // Per direction dx = −1, 0, 1 and column: the disparity found from the last row's hole
        // there and the steps to it (+∞ when none within `border`); this row's, then swapped.
        let found = UnsafeMutablePointer<Float>.allocate(capacity: 6 * width)
        let steps = UnsafeMutablePointer<Int32>.allocate(capacity: 6 * width)
        defer {
            found.deallocate()
            steps.deallocate()
        }
        owns.withUnsafeMutableBufferPointer { owns in
            // One sweep: rows `order`, looking toward row y + dy.
            func sweep(_ order: [Int], dy: Int) {
                var (last, this) = (0, 3 * width)
                for (n, y) in order.enumerated() {
                    let line = depth + y * width, i = y - band.lowerBound
                    var index = starts[i]
                    let ny = y + dy
                    for x in 0..<width where line[x] == -.infinity {
                        var own = owns[index]
                        for dx in -1...1 {
                            let slot = (dx + 1) * width + x, nx = x + dx
                            var value = Float.infinity, count: Int32 = 0
                            if nx >= 0, nx < width, ny >= 0, ny < height {
                                let dn = depth[ny * width + nx]
                                if dn != -.infinity {
                                    (value, count) = (dn, 1)
                                } else if n > 0 {
                                    // The hole (nx, ny), one row back in this sweep.
                                    let before = (dx + 1) * width + nx
                                    (value, count) = (found[last + before], steps[last + before] + 1)
                                    if count > Self.border { value = .infinity }
                                } else {
                                    (value, count) = walk(x: x, y: y, dx: dx, dy: dy)
                                }
                            }
                            found[this + slot] = value
                            steps[this + slot] = count
                            own = min(own, value)
                        }
                        owns[index] = own
                        index += 1
                    }
                    swap(&last, &this)
                }
            }
            sweep(Array(band.reversed()), dy: 1)
            sweep(Array(band), dy: -1)
            // Along the rows: the ends of each run of holes.
            for y in band {
                let line = depth + y * width
                var index = starts[y - band.lowerBound], x = 0
                while x < width {
                    guard line[x] == -.infinity else {
                        x += 1
                        continue
                    }
                    var end = x
                    while end < width && line[end] == -.infinity { end += 1 }
                    for hole in x..<end {
                        if x > 0, hole - (x - 1) <= Self.border { owns[index] = min(owns[index], line[x - 1]) }
                        if end < width, end - hole <= Self.border { owns[index] = min(owns[index], line[end]) }
                        index += 1
                    }
                    x = end
                }
            }
        }
        return owns
    }

    /// The disparity of the first covered pixel from (x, y) along (dx, dy), within ``border``
    /// steps and inside the frame, and the steps to it; +∞ when none.
    @inline(__always)
    func walk(x: Int, y: Int, dx: Int, dy: Int) -> (Float, Int32) {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        var (nx, ny) = (x, y)
        for step in 1...Self.border {
            nx += dx
            ny += dy
            guard nx >= 0, nx < width, ny >= 0, ny < height else { break }
            let dn = depth[ny * width + nx]
            if dn != -.infinity { return (dn, Int32(step)) }
        }
        return (.infinity, 0)
    }

    /// The far surface of a hole's own border around output pixel (x, y): the smallest disparity
    /// among the first covered pixels along each of 8 directions (within ``border`` pixels); +∞
    /// when none.
    @inline(__always)
    private func borderFar(x: Int, y: Int) -> Float {
        var own = Float.infinity
        for (dx, dy) in Self.directions { own = min(own, walk(x: x, y: y, dx: dx, dy: dy).0) }
        return own
    }

    /// The far surface of `coarse` at the centre of cell (x, y) of a level of cell size `size`, for
    /// a cell holding a hole: the four coarse cells around it of the surface of the hole's own
    /// border (``borderFar(x:y:)`` from the cell's centre), else ``up(_:x:y:size:into:)``.
    @inline(__always)
    private func upBorder(_ coarse: Level, x: Int, y: Int, size: Int, own known: Float? = nil, into out: inout SIMD4<Float>) -> Float {
        let px = min(x * size + size / 2, pixels.width - 1), py = min(y * size + size / 2, pixels.height - 1)
        let own = known ?? borderFar(x: px, y: py)
        if own != .infinity, let d = up(coarse, x: x, y: y, size: size, around: own, into: &out) { return d }
        return up(coarse, x: x, y: y, size: size, into: &out)
    }

    /// Like ``up(_:x:y:size:into:)``, but only the cells of the surface of disparity `own` (within
    /// ``apart`` either way); nil when none of the four is.
    @inline(__always)
    private func up(_ coarse: Level, x: Int, y: Int, size: Int, around own: Float, into out: inout SIMD4<Float>) -> Float? {
        let (cells, bilinear) = corners(coarse, x: x, y: y, size: size)
        var total: Float = 0, d: Float = 0
        var sums = SIMD4<Float>()
        @inline(__always) func add(_ cell: Int, _ b: Float) {
            let dj = coarse.disparity[cell]
            guard coarse.weight[cell] > 0, !nearer(dj, than: own), !nearer(own, than: dj) else { return }
            // A small share of the weight still counts (the cell is there).
            let b = max(b, 1e-3)
            total += b
            d += b * dj
            for c in 0..<coarse.channels { sums[c] += b * coarse.values[c * coarse.count + cell] }
        }
        add(cells.0, bilinear.0)
        add(cells.1, bilinear.1)
        add(cells.2, bilinear.2)
        add(cells.3, bilinear.3)
        guard total > 0 else { return nil }
        out = sums / total
        return d / total
    }

    /// Whether (x, y) can lend its detail to a hole whose far surface has disparity `d`: no hole
    /// and no nearer surface than `d` within ``mirrorClearance`` pixels (itself included).
    @inline(__always)
    private func clear(x: Int, y: Int, behind d: Float) -> Bool {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let r = Self.mirrorClearance
        for ny in max(y - r, 0)...min(y + r, height - 1) {
            let line = depth + ny * width
            for nx in max(x - r, 0)...min(x + r, width - 1) {
                let dn = line[nx]
                if dn == -.infinity || nearer(dn, than: d) { return false }
            }
        }
        return true
    }

    /// The specks opened: a covered pixel with at most one 8-neighbour of its own surface and at
    /// least 5 that are holes or a farther surface becomes a hole. A depth map's soft edge ramps
    /// over a few photo pixels; the zoom scatters the ramp's pixels over the disocclusion, and the
    /// torn pixels' test (``DollyZoomPixels/openTorn(_:disparity:)``) misses those landing among
    /// the background's covered pixels or in pairs: dots of the nearer surface's colour in the
    /// fill (around the vase's rim on the iPhone X photo). A thin strand stays (each of its pixels
    /// has two of its own along it), but loses a pixel at its ends. Only in blocks near a hole
    /// (``Blocks``): a speck lies among holes. Found, then written.
    private func openSpecks() {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let blocks = Blocks(pixels)
        defer { blocks.near.deallocate() }
        openCovered { x, y, d in
            guard blocks.isNear(x: x, y: y) else { return false }
            let line = depth + y * width
            // Most pixels: a 4-neighbour of the same surface on each side is enough.
            if x > 0, x < width - 1, !nearer(d, than: line[x - 1]), !nearer(line[x - 1], than: d),
               !nearer(d, than: line[x + 1]), !nearer(line[x + 1], than: d) { return false }
            var behind = 0, same = 0
            for ny in max(y - 1, 0)...min(y + 1, height - 1) {
                for nx in max(x - 1, 0)...min(x + 1, width - 1) where nx != x || ny != y {
                    let dn = depth[ny * width + nx]
                    if dn == -.infinity || nearer(d, than: dn) { behind += 1 } else if !nearer(dn, than: d) { same += 1 }
                }
            }
            return behind >= 5 && same <= 1
        }
    }

    /// Turns into holes the covered pixels for which `opens(x, y, d)` holds (`d` the pixel's
    /// disparity): found by ranges of rows from the depth as it is, then written, so the result is
    /// the same for any number of workers.
    @inline(__always)
    func openCovered(_ opens: (_ x: Int, _ y: Int, _ d: Float) -> Bool) {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let ranges = min(height, 4 * pixels.threads)
        var found = [[Int]](repeating: [], count: ranges)
        found.withUnsafeMutableBufferPointer { lists in
            let lists = lists
            pixels.forEach(ranges) { k in
                var list: [Int] = []
                for y in pixels.rows(k, of: ranges) {
                    let line = depth + y * width
                    for x in 0..<width where line[x] != -.infinity && opens(x, y, line[x]) { list.append(y * width + x) }
                }
                lists[k] = list
            }
        }
        for list in found { for n in list { depth[n] = -.infinity } }
    }

    /// The covered pixel mirroring hole (x, y) across its far edge along the radial line (see the
    /// type's doc); nil when the walk leaves the frame or goes past ``reach``, or the mirror point
    /// is outside or a hole.
    @inline(__always)
    private func mirror(x: Int, y: Int, sign: Float) -> (x: Int, y: Int, s: Int)? {
        let (width, height, depth) = (pixels.width, pixels.height, pixels.depth)
        let qx = Float(x) + 0.5, qy = Float(y) + 0.5
        let rx = qx - cx, ry = qy - cy, r = (rx * rx + ry * ry).squareRoot()
        guard r > 0 else { return nil }
        let ux = sign * rx / r, uy = sign * ry / r
        let (right, top) = (Float(width), Float(height))
        for s in 1...Self.reach {
            let fx = qx + Float(s) * ux, fy = qy + Float(s) * uy
            // Inside the frame: truncation is the floor.
            guard fx >= 0, fx < right, fy >= 0, fy < top else { return nil }
            guard depth[Int(fy) * width + Int(fx)] == -.infinity else {
                let beyond = Float(s + max(s, Self.mirrorGap))
                let gx = qx + beyond * ux, gy = qy + beyond * uy
                guard gx >= 0, gx < right, gy >= 0, gy < top else { return nil }
                let mx = Int(gx), my = Int(gy)
                guard depth[my * width + mx] != -.infinity else { return nil }
                return (mx, my, s)
            }
        }
        return nil
    }
}
