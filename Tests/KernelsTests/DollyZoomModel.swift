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
}
