import CRowKernels
import Foundation
import GraphEngine

/// Joint bilateral upsampling of a small image guided by a large image's luma
/// (CIEdgePreserveUpsampleFilter), as a bilateral grid: O(1) per output pixel instead of a window of
/// small-image taps per pixel.
///
/// Inputs: 0 the guide (the photo), loaded as its luma `G` (``GuideLuma``, sRGB-encoded, computed
/// span by span as it loads), 1 the small image `v` (clamped), 2 the guide's luma at the small image's resolution
/// `g` (red, clamped; ``GuideLumaResample``). For K luma levels `ℓ_k = k/(K−1)` the small grid holds
/// `N_k = S * (r_k·v)` and `D_k = S * r_k`, with range weights `r_k(q) = exp(−(ℓ_k − g(q))²/(2σ_l²))`
/// and `S` the 5×5 spatial weights `exp(−(a² + b²)/(2σ_s²))`, |a|, |b| ≤ 2, in small-image pixels.
/// An output pixel p, at small-image position q(p), reads both trilinearly, bilinear between the
/// four grid samples around q(p) and linear between the two levels around `clamp(G(p), 0, 1)`, and
/// is `N/D` (the small image's bilinear value where D underflows).
///
/// The grid is built per tile from the small inputs only, over the cells the tile's pixels read
/// (the region of interest), row by row as the output rows need them (`graph_bilateral_grid_rows`:
/// a sample's K range weights from three exponentials, the spatial blur through a ring of five rows
/// per level), into a ring of the two grid rows an output row reads (so the grid takes kilobytes,
/// not megabytes, whatever the tile), and each output pixel reads its eight cells directly
/// (`graph_bilateral_slice_row`). A grey small image (a depth map, a mask: R = G = B) gives a grey
/// result from a grid of two planes (N, D) instead of five.
package struct JointBilateralUpsample: AreaOperation {
    package let guideExtent: Rect
    package let smallExtent: Rect
    package let spatialSigma: Double
    package let lumaSigma: Double
    package let filterName: String

    package init(guideExtent: Rect, smallExtent: Rect, spatialSigma: Double, lumaSigma: Double, filterName: String) {
        self.guideExtent = guideExtent
        self.smallExtent = smallExtent
        self.spatialSigma = max(spatialSigma, 0)
        self.lumaSigma = max(lumaSigma, 0.005)
        self.filterName = filterName
    }

    /// Luma levels: about one per σ_l, 2 to 16.
    var levelCount: Int { min(max(Int((1 / lumaSigma).rounded(.up)) + 1, 2), 16) }
    var scaleX: Double { smallExtent.width / guideExtent.width }
    var scaleY: Double { smallExtent.height / guideExtent.height }

    package var name: String { filterName }

    /// The guide maps to itself; the small images are stretched over the guide's extent.
    package func geometry(input index: Int) -> GraphEngine.AffineTransform? {
        guard index > 0 else { return .identity }
        return AffineTransform(translationX: -smallExtent.minX, y: -smallExtent.minY)
            .concatenating(AffineTransform(scaleX: 1 / scaleX, y: 1 / scaleY))
            .concatenating(AffineTransform(translationX: guideExtent.minX, y: guideExtent.minY))
    }
    package var summary: String {
        "joint bilateral upsample by a bilateral grid \(Int(smallExtent.width))x\(Int(smallExtent.height)) -> "
            + "\(Int(guideExtent.width))x\(Int(guideExtent.height)), \(levelCount) luma levels, "
            + "spatialSigma=\(formatFloat(spatialSigma)) lumaSigma=\(formatFloat(lumaSigma))"
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { guideExtent }

    /// Small-image grid coordinate (sample i at i, the pixel centre i + ½) of output pixel index p.
    @inline(__always)
    func gridX(_ p: Int) -> Double { smallExtent.minX + (Double(p) + 0.5 - guideExtent.minX) * scaleX - 0.5 }
    @inline(__always)
    func gridY(_ p: Int) -> Double { smallExtent.minY + (Double(p) + 0.5 - guideExtent.minY) * scaleY - 0.5 }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        guard index > 0 else { return rect }
        let x0 = Int(gridX(Int(rect.minX)).rounded(.down)) - 2, x1 = Int(gridX(Int(rect.maxX) - 1).rounded(.down)) + 4
        let y0 = Int(gridY(Int(rect.minY)).rounded(.down)) - 2, y1 = Int(gridY(Int(rect.maxY) - 1).rounded(.down)) + 4
        return Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
    }

    /// The small image's RGBA, the low guide's red (the guide loads as its luma: ``reduction(input:)``).
    package func inputChannels(_ index: Int) -> Int { index == 2 ? 1 : 4 }

    /// The guide loads as its luma G alone.
    package func reduction(input index: Int) -> AreaInputReduction? {
        guard index == 0 else { return nil }
        return GuideLuma.row
    }

    /// Opaque when the small image is opaque wherever it is read (it is clamped).
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[1].isOpaqueEverywhere }

    /// Grey when the small image is grey (a depth map, a mask): the grid then has two planes.
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[1].isGrey }

    /// exp(−d²/(2σ_s²)) for d = −2…2.
    var spatialWeights: [Float] {
        (-2...2).map { d in
            spatialSigma > 0 ? Float(exp(-Double(d * d) / (2 * spatialSigma * spatialSigma))) : (d == 0 ? 1 : 0)
        }
    }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let levels = levelCount, s = spatialWeights.map(Double.init)
        let rangeScale = 1 / (2 * lumaSigma * lumaSigma)
        let gx = gridX(x), gy = gridY(y)
        let i = Int(gx.rounded(.down)), j = Int(gy.rounded(.down))
        let fx = gx - Double(i), fy = gy - Double(j)
        let luma = GuideLuma.value(try input(0, x, y))
        let position = (luma > 0 ? min(luma, 1) : 0) * Double(levels - 1)
        let k = min(Int(position), levels - 2), fk = position - Double(k)
        // N (xyz) and D (w) of level `level` at grid sample (a, b).
        func cell(_ level: Int, _ a: Int, _ b: Int) throws -> (SIMD4<Double>, Double) {
            var n = SIMD4<Double>.zero, d = 0.0
            for dy in -2...2 {
                for dx in -2...2 {
                    let g = Double(try input(2, a + dx, b + dy)[0])
                    let r = exp(-(Double(level) / Double(levels - 1) - g) * (Double(level) / Double(levels - 1) - g) * rangeScale)
                    let w = s[dx + 2] * s[dy + 2] * r
                    n += w * SIMD4<Double>(try input(1, a + dx, b + dy))
                    d += w
                }
            }
            return (n, d)
        }
        var n = SIMD4<Double>.zero, d = 0.0
        for (level, wk) in [(k, 1 - fk), (k + 1, fk)] {
            for (b, wy) in [(j, 1 - fy), (j + 1, fy)] {
                for (a, wx) in [(i, 1 - fx), (i + 1, fx)] {
                    let (cn, cd) = try cell(level, a, b)
                    n += wk * wy * wx * cn
                    d += wk * wy * wx * cd
                }
            }
        }
        if d > 1e-30 { return SIMD4<Float>(n / d) }
        func v(_ a: Int, _ b: Int) throws -> SIMD4<Double> { SIMD4<Double>(try input(1, a, b)) }
        let bilinear = (1 - fy) * ((1 - fx) * (try v(i, j)) + fx * (try v(i + 1, j))) + fy * ((1 - fx) * (try v(i, j + 1)) + fx * (try v(i + 1, j + 1)))
        return SIMD4<Float>(bilinear)
    }
}

extension JointBilateralUpsample: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let guide = tile.inputs[0], small = tile.inputs[1], lowGuide = tile.inputs[2], output = tile.output
        let levels = levelCount, channels = tile.channels, planes = channels + 1
        let gw = small.width, gh = small.height
        let rangeScale = Float(1 / (2 * lumaSigma * lumaSigma))
        // grid[k·levelSize + position·rowLength + column·planes + c]: N_k for c < channels, D_k for
        // c = channels (the planes of a sample side by side, as the slice reads them), for the last
        // two grid rows built, row r at position r mod 2 and again at r mod 2 + 2 (so the two rows a
        // slice reads are adjacent); valid 2 samples in from each edge: the cells the tile's pixels read.
        let rowLength = gw * planes, levelSize = 4 * rowLength
        let grid = tile.scratch.floats(0, count: levels * levelSize)
        let scratch = tile.scratch.floats(1, count: levels * gw + (5 * levels + 2) * rowLength)
        // A grid row is finished this many small-image rows after its own (the vertical blur's reach).
        let lead = gw >= 5 && gh >= 5 ? 2 : 0
        var taken = 0
        let spatial = spatialWeights
        // Per output column: the grid sample to its left (relative to the tile's grid) and the weight.
        let columns = tile.scratch.int32s(0, count: output.width)
        let columnWeights = tile.scratch.floats(2, count: output.width)
        for x in 0..<output.width {
            let gx = gridX(output.x + x), i = gx.rounded(.down)
            columns[x] = Int32(Int(i) - small.x)
            columnWeights[x] = Float(gx - i)
        }
        let results = tile.scratch.floats(4, count: channels * output.width)
        let denominators = tile.scratch.floats(5, count: output.width)
        for y in 0..<output.height {
            let gy = gridY(output.y + y), j = gy.rounded(.down)
            let row = Int(j) - small.y, fy = Float(gy - j)
            // Grid rows `row` and `row + 1` (rows only move down the grid as y grows).
            let needed = min(row + 2 + lead, gh)
            if needed > taken {
                spatial.withUnsafeBufferPointer { spatial in
                    graph_bilateral_grid_rows(lowGuide.row(0, 0), small.row(0, 0), small.planeStride, Int32(planes), Int32(gw), Int32(gh),
                                              Int32(levels), rangeScale, spatial.baseAddress, Int32(taken), Int32(needed), grid,
                                              levelSize, scratch)
                }
                taken = needed
            }
            graph_bilateral_slice_row(grid + (row % 2) * rowLength, levelSize, rowLength, Int32(planes), Int32(levels), fy,
                                      guide.row(0, y), columns, columnWeights, Int32(output.width), results, output.width, denominators)
            for x in 0..<output.width where !(denominators[x] > 1e-30) {
                // No weight left (a luma far from every neighbour's, tiny σ_l): the bilinear value.
                let i = Int(columns[x]), fx = columnWeights[x]
                for c in 0..<channels {
                    let lower = small.row(c, row) + i, upper = lower + gw
                    let a = lower[0] + fx * (lower[1] - lower[0]), b = upper[0] + fx * (upper[1] - upper[0])
                    results[c * output.width + x] = a + fy * (b - a)
                }
            }
            for c in 0..<channels { output.store(channel: c, row: y, from: results + c * output.width) }
        }
    }
}
