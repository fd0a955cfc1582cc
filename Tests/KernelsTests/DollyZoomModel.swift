import XCTest

/// The dolly zoom's geometry written the other way round, in float64, for the tests: for an output
/// pixel q and each disparity d of the scene, the source point `c + (q + ½ − c)/σ(d)` lies in
/// exactly one source pixel, which covers q when its disparity is d; the nearest covering disparity
/// wins and q shows the photo sampled bilinearly there. Pixels nothing covers are holes (the fill
/// is checked on its own: it is not modelled here).
enum DollyZoomModel {
    /// The output (rows bottom-up) of a `width`×`height` photo sampled by `bilinear` (pixel-centre
    /// coordinates) for amount `t`, disparity `disparity(x, y)` (NaN: none) taking the values
    /// `levels`, and subject disparity 1 (holes: nil); also how many pixels are holes.
    static func render(width: Int, height: Int, levels: [Double], t: Double, disparity: (Int, Int) -> Double,
                       bilinear: (Double, Double) -> SIMD4<Double>) -> (pixels: [[SIMD4<Double>?]], holes: Int) {
        let c = (Double(width) / 2, Double(height) / 2)
        func unmagnified(_ d: Double) -> Double? { 1 - t * d > 0 ? (1 - t) / (1 - t * d) : nil }
        var least = Double.infinity
        for y in 0..<height {
            for x in 0..<width where x == 0 || y == 0 || x == width - 1 || y == height - 1 {
                if let s = unmagnified(disparity(x, y)) { least = min(least, s) }
            }
        }
        let k = least < 1 ? 1 / least : 1
        var depth = Array(repeating: Array(repeating: -Double.infinity, count: width), count: height)
        var pixels = Array(repeating: Array(repeating: SIMD4<Double>?.none, count: width), count: height)
        for y in 0..<height {
            for x in 0..<width {
                for d in levels where d > depth[y][x] {
                    guard let s1 = unmagnified(d) else { continue }
                    let s = k * s1
                    let u = c.0 + (Double(x) + 0.5 - c.0) / s, v = c.1 + (Double(y) + 0.5 - c.1) / s
                    let px = Int(u.rounded(.down)), py = Int(v.rounded(.down))
                    guard px >= 0, px < width, py >= 0, py < height, disparity(px, py) == d else { continue }
                    depth[y][x] = d
                    pixels[y][x] = bilinear(u - 0.5, v - 0.5)
                }
            }
        }
        return (pixels, pixels.reduce(0) { $0 + $1.filter { $0 == nil }.count })
    }

    /// `colour` of a `width`×`height` photo bilinearly at (u, v) (pixel-centre coordinates), edges clamped.
    static func bilinear(_ u: Double, _ v: Double, width: Int, height: Int, colour: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double> {
        let cu = min(max(u, 0), Double(width - 1)), cv = min(max(v, 0), Double(height - 1))
        let i = Int(cu), j = Int(cv), fx = cu - Double(i), fy = cv - Double(j)
        let i1 = min(i + 1, width - 1), j1 = min(j + 1, height - 1)
        let low = colour(i, j) * (1 - fx) + colour(i1, j) * fx, high = colour(i, j1) * (1 - fx) + colour(i1, j1) * fx
        return low * (1 - fy) + high * fy
    }

    /// The surface (disparity) covering each output pixel in the model (rows bottom-up; holes nil).
    static func surfaces(width: Int, height: Int, levels: [Double], t: Double, disparity: @escaping (Int, Int) -> Double) -> [[Double?]] {
        // The source pixel of (u, v) in pixel-centre coordinates is (⌊u + ½⌋, ⌊v + ½⌋).
        render(width: width, height: height, levels: levels, t: t, disparity: disparity) { u, v in
            SIMD4(repeating: disparity(Int((u + 0.5).rounded(.down)), Int((v + 0.5).rounded(.down))))
        }.pixels.map { $0.map { $0?[0] } }
    }

    /// `surfaces` with the cracks filled as the engine fills them before it looks for edges
    /// (`DollyZoomFill.fillCracks`): a hole between two covered pixels along a row or a column
    /// takes the mean disparity of its covered 8-neighbours that are not nearer than the farthest
    /// of them, which for the tests' discrete levels is the farthest. All found from the holes as
    /// they were, as the engine does. Rows bottom-up.
    static func fillingCracks(_ surfaces: [[Double?]]) -> [[Double?]] {
        let (height, width) = (surfaces.count, surfaces[0].count)
        var filled = surfaces
        for y in 0..<height {
            for x in 0..<width where surfaces[y][x] == nil {
                let across = x > 0 && x < width - 1 && surfaces[y][x - 1] != nil && surfaces[y][x + 1] != nil
                let along = y > 0 && y < height - 1 && surfaces[y - 1][x] != nil && surfaces[y + 1][x] != nil
                guard across || along else { continue }
                var far = Double.infinity
                for ny in max(y - 1, 0)...min(y + 1, height - 1) {
                    for nx in max(x - 1, 0)...min(x + 1, width - 1) { if let d = surfaces[ny][nx] { far = min(far, d) } }
                }
                filled[y][x] = far
            }
        }
        return filled
    }

    /// The one-pixel ring on either side of a hole's edge that the fill changes
    /// (DollyZoomEdges.swift), found after the cracks are filled (``fillingCracks(_:)``: a pixel
    /// beside a crack alone is not beside a hole): `far`, the covered pixels beside a hole
    /// (4-neighbours) whose surface is not nearer than that hole's own border (the farthest first
    /// covered pixel along the 8 directions), opened and refilled as holes; `near`, the other
    /// covered pixels beside a hole or a `far` pixel (a nearer surface), blended with those fills.
    /// Rows bottom-up.
    static func edgeRings(_ unfilled: [[Double?]]) -> (far: [[Bool]], near: [[Bool]]) {
        let surfaces = fillingCracks(unfilled)
        let (height, width) = (surfaces.count, surfaces[0].count)
        let steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]
        func border(_ x: Int, _ y: Int) -> Double {
            var far = Double.infinity
            for (dx, dy) in steps {
                var (nx, ny) = (x + dx, y + dy)
                while nx >= 0, nx < width, ny >= 0, ny < height, abs(nx - x) <= 128, abs(ny - y) <= 128 {
                    if let d = surfaces[ny][nx] { far = min(far, d); break }
                    (nx, ny) = (nx + dx, ny + dy)
                }
            }
            return far
        }
        func neighbours(_ x: Int, _ y: Int) -> [(Int, Int)] {
            steps.prefix(4).map { (x + $0.0, y + $0.1) }.filter { $0.0 >= 0 && $0.0 < width && $0.1 >= 0 && $0.1 < height }
        }
        var far = Array(repeating: Array(repeating: false, count: width), count: height), near = far
        for y in 0..<height {
            for x in 0..<width {
                guard let d = surfaces[y][x] else { continue }
                far[y][x] = neighbours(x, y).contains { surfaces[$0.1][$0.0] == nil && d <= border($0.0, $0.1) }
            }
        }
        for y in 0..<height {
            for x in 0..<width where surfaces[y][x] != nil && !far[y][x] {
                near[y][x] = neighbours(x, y).contains { surfaces[$0.1][$0.0] == nil || far[$0.1][$0.0] }
            }
        }
        return (far, near)
    }

    /// `out` (rows bottom-up) against the model's `expected` pixels and `surfaces`: covered pixels
    /// off the edge rings (``edgeRings(_:)``) equal to the model; a hole or a `far` ring pixel shows
    /// only farther surfaces (blue at most `farBlue`, the subject's blue 1 only through the blend:
    /// at most 0.35 of its nearer 4-neighbours' largest model blue more); a `near` ring pixel is
    /// the blend 0.75·model + 0.25·(the mean of its holes' fills), within the bounds of its hole
    /// 4-neighbours' fills, or the model's when no hole counts it as nearer. Returns the holes and
    /// `far` pixels, and the largest error off the rings and where.
    static func checkFill(_ out: [[SIMD4<Double>]], expected: [[SIMD4<Double>?]], surfaces: [[Double?]], farBlue: Double,
                          _ label: String, file: StaticString, line: UInt) -> (filled: Int, worst: Double, at: (Int, Int)) {
        let (height, width) = (expected.count, expected[0].count)
        let (far, near) = edgeRings(surfaces)
        func neighbours(_ x: Int, _ y: Int) -> [(Int, Int)] {
            [(1, 0), (-1, 0), (0, 1), (0, -1)].map { (x + $0.0, y + $0.1) }.filter { $0.0 >= 0 && $0.0 < width && $0.1 >= 0 && $0.1 < height }
        }
        var worst = 0.0, at = (0, 0), filled = 0
        for y in 0..<height {
            for x in 0..<width {
                let filledHere = expected[y][x] == nil || far[y][x]
                if filledHere {
                    // The nearer 4-neighbours it is blended with (covered, not refilled).
                    let nearer = neighbours(x, y).filter { expected[$0.1][$0.0] != nil && !far[$0.1][$0.0] }
                    let blend = nearer.map { 0.35 * expected[$0.1][$0.0]![2] }.max() ?? 0
                    XCTAssertLessThanOrEqual(out[y][x][2], 0.65 * farBlue + blend + 1e-6,
                                             "\(label): hole (\(x), \(y)) shows more of the subject than the blend", file: file, line: line)
                    if nearer.isEmpty {
                        XCTAssertLessThanOrEqual(out[y][x][2], farBlue + 1e-6, "\(label): hole (\(x), \(y)) shows the subject",
                                                 file: file, line: line)
                    }
                    if expected[y][x] == nil { filled += 1 }
                    continue
                }
                let model = expected[y][x]!
                let e = (0..<4).map { abs(out[y][x][$0] - model[$0]) }.max() ?? 0
                if near[y][x] {
                    guard e > 1e-5 else { continue }
                    let holes = neighbours(x, y).filter { expected[$0.1][$0.0] == nil || far[$0.1][$0.0] }.map { out[$0.1][$0.0] }
                    for c in 0..<3 {
                        let low = 0.75 * model[c] + 0.25 * holes.map { $0[c] }.min()!, high = 0.75 * model[c] + 0.25 * holes.map { $0[c] }.max()!
                        XCTAssertTrue(out[y][x][c] >= low - 1e-5 && out[y][x][c] <= high + 1e-5,
                                      "\(label): edge pixel (\(x), \(y)) channel \(c): \(out[y][x][c]) not 0.75·\(model[c]) + 0.25·its holes",
                                      file: file, line: line)
                    }
                    XCTAssertEqual(out[y][x][3], model[3], accuracy: 1e-5, file: file, line: line)
                    continue
                }
                if e > worst { worst = e; at = (x, y) }
            }
        }
        return (filled, worst, at)
    }
}
