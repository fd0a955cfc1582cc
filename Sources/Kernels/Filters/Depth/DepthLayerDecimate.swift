import GraphEngine

/// The half-size source of a layered lens blur's coarse layers (CIDepthBlurEffect), from the photo
/// (input 0, its colour) and the blur value map (input 1, c in red): each output pixel is a 2×2
/// block. The layer source's colour is the photo's with small clipped highlights boosted,
/// `rgb·(1 + gain·clamp((L − 0.97)/0.03, 0, 1)·isolation)`, `L = 0.2125 r + 0.7154 g + 0.0721 b`:
/// only a pixel clipped white (every channel near the sensor's clip, linear 0.97–1, sRGB 250–255)
/// had more light than it records, and only a small one (a lamp, a reflection: `isolation` is 1
/// when all four pixels `probe` px away left, right, above and below are below the clip (L < 0.9),
/// ½ when three are, else 0) is surely a point of light whose brightness the disc should carry. A
/// large clipped area (a white wall, a shirt, an overexposed sky) keeps its recorded value: boosted,
/// its edges glowed into everything around them (3 dB from the exact render on the quality
/// benchmark's subject-focus scenes). A bright but unclipped wall, a face or a saturated colour with one
/// channel at the clip blurs to its own brightness. Made here as the block reads it (no full-size
/// copy is stored). Alpha is the block's most blurred `c` (largest |c|, the first in the block on
/// ties); red, green and blue are the mean over the block's pixels whose c is nearer that value
/// than the block's least blurred one. So a block on a depth edge joins the blurred side with that
/// side's colour only: a focused subject's colour never enters a layer, and the background around
/// it keeps its full weight. Alpha is data here, read only by ``DepthLayerDecimate``.
package struct DepthLayerBlocks: AreaOperation {
    /// The full-size extent's origin: output pixel X covers input columns `origin.x + 2X` and `+ 1`.
    package let originX: Int, originY: Int
    /// The highlight boost.
    package let gain: Float
    /// How far the isolation test looks (px): highlights up to about `2·probe − 1` px across boost.
    package let probe: Int
    package let filterName: String

    package init(origin: (x: Int, y: Int), gain: Float, probe: Int, filterName: String) {
        (originX, originY) = origin
        self.gain = gain
        self.probe = max(probe, 1)
        self.filterName = filterName
    }

    package var name: String { filterName }
    package var summary: String {
        "2x2 blocks of the photo (small clipped highlights boosted, gain \(formatFloat(Double(gain))), probe \(probe) px) and the blur value: most blurred value, mean colour of the pixels on its side"
    }

    package func geometry(input index: Int) -> AffineTransform? { DepthLayerDecimate.shrink(by: 2, originX, originY) }
    package func outputExtent(inputExtents: [Rect]) -> Rect { DepthLayerDecimate.shrunk(inputExtents[0], by: 2, originX, originY) }
    /// The blocks' pixels; the photo's with a margin of `probe` for the isolation test.
    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let pixels = DepthLayerDecimate.blocks(of: rect, by: 2, originX, originY)
        return index == 0 ? pixels.outset(dx: Double(probe), dy: Double(probe)) : pixels
    }

    /// The photo's colour; the value map's red.
    package func inputChannels(_ index: Int) -> Int { index == 0 ? 3 : 1 }

    /// How far above the clip a luminance is: `clamp((L − 0.97)/0.03, 0, 1)`.
    @inline(__always)
    static func clipped(_ r: Float, _ g: Float, _ b: Float) -> Float {
        min(max((r * 0.2125 + g * 0.7154 + b * 0.0721 - 0.97) * (1 / 0.03), 0), 1)
    }

    /// Whether a colour is below the clip for the isolation test (L < 0.9).
    @inline(__always)
    static func unclipped(_ r: Float, _ g: Float, _ b: Float) -> Bool { r * 0.2125 + g * 0.7154 + b * 0.0721 < 0.9 }

    /// The isolation of a clipped pixel from the number of its four probes below the clip.
    @inline(__always)
    static func isolation(unclippedProbes n: Int) -> Float { n == 4 ? 1 : n == 3 ? 0.5 : 0 }

    /// NaN (a hole in the map) as 0.
    @inline(__always)
    static func number(_ c: Float) -> Float { c.isNaN ? 0 : c }

    /// A block's most blurred (largest |c|) and least blurred values, the first of equals.
    @inline(__always)
    static func extremes(_ c: (Float, Float, Float, Float)) -> (far: Float, near: Float) {
        func farther(_ a: Float, _ b: Float) -> Float { abs(b) > abs(a) ? b : a }
        func nearer(_ a: Float, _ b: Float) -> Float { abs(b) < abs(a) ? b : a }
        return (farther(farther(farther(c.0, c.1), c.2), c.3), nearer(nearer(nearer(c.0, c.1), c.2), c.3))
    }

    /// Whether a pixel of value `c` is at least as near the block's most blurred value as its least.
    @inline(__always)
    static func joins(_ c: Float, _ far: Float, _ near: Float) -> Bool { (c - far) * (c - far) <= (c - near) * (c - near) }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let offsets = [(0, 0), (1, 0), (0, 1), (1, 1)].map { (originX + 2 * x + $0.0, originY + 2 * y + $0.1) }
        let pixels = try offsets.map { try input(0, $0.0, $0.1) }
        let c = try offsets.map { Self.number(try input(1, $0.0, $0.1).x) }
        let (far, near) = Self.extremes((c[0], c[1], c[2], c[3]))
        func luminance(_ p: SIMD4<Float>) -> Double { 0.2125 * Double(p.x) + 0.7154 * Double(p.y) + 0.0721 * Double(p.z) }
        var sum = SIMD3<Double>.zero, count = 0.0
        for k in 0..<4 where Self.joins(c[k], far, near) {
            let p = SIMD3<Double>(Double(pixels[k].x), Double(pixels[k].y), Double(pixels[k].z))
            let clip = min(max((luminance(pixels[k]) - 0.97) / 0.03, 0), 1)
            let (px, py) = offsets[k]
            let probes = try [(px - probe, py), (px + probe, py), (px, py - probe), (px, py + probe)]
                .filter { luminance(try input(0, $0.0, $0.1)) < 0.9 }.count
            let isolation = probes == 4 ? 1.0 : probes == 3 ? 0.5 : 0
            sum += p * (1 + Double(gain) * clip * isolation)
            count += 1
        }
        return SIMD4<Float>(Float(sum.x / count), Float(sum.y / count), Float(sum.z / count), far)
    }
}

extension DepthLayerBlocks: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let photo = tile.inputs[0], values = tile.inputs[1], output = tile.output, width = output.width, m = probe
        let results = tile.scratch.floats(0, count: 4 * width)
        for y in 0..<output.height {
            let lowerC = values.row(0, 2 * y), upperC = values.row(0, 2 * y + 1)
            for x in 0..<width {
                let i = 2 * x
                let c = (Self.number(lowerC[i]), Self.number(lowerC[i + 1]), Self.number(upperC[i]), Self.number(upperC[i + 1]))
                let (far, near) = Self.extremes(c)
                let joins = (Self.joins(c.0, far, near), Self.joins(c.1, far, near), Self.joins(c.2, far, near), Self.joins(c.3, far, near))
                let count = (joins.0 ? 1 : 0) + (joins.1 ? 1 : 0) + (joins.2 ? 1 : 0) + (joins.3 ? 1 : 0)
                let inverseCount = 1 / Float(count)
                // The four pixels' boosts (photo planes carry a margin of m), then their boosted colours summed channel by channel.
                let f = (boost(photo, m + i, m + 2 * y), boost(photo, m + i + 1, m + 2 * y),
                         boost(photo, m + i, m + 2 * y + 1), boost(photo, m + i + 1, m + 2 * y + 1))
                for channel in 0..<3 {
                    let low = photo.row(channel, m + 2 * y) + m, high = photo.row(channel, m + 2 * y + 1) + m
                    var sum: Float = 0
                    if joins.0 { sum += low[i] * f.0 }
                    if joins.1 { sum += low[i + 1] * f.1 }
                    if joins.2 { sum += high[i] * f.2 }
                    if joins.3 { sum += high[i + 1] * f.3 }
                    results[channel * width + x] = sum * inverseCount
                }
                results[3 * width + x] = far
            }
            for channel in 0..<4 { output.store(channel: channel, row: y, from: results + channel * width) }
        }
    }

    /// The boost factor of the photo pixel at (`column`, `row`) of the tile's photo planes.
    @inline(__always)
    func boost(_ photo: AreaPlanes, _ column: Int, _ row: Int) -> Float {
        let (r, g, b) = (photo.row(0, row), photo.row(1, row), photo.row(2, row))
        let clip = Self.clipped(r[column], g[column], b[column])
        guard clip > 0, gain != 0 else { return 1 }
        func below(_ x: Int, _ y: Int) -> Int { Self.unclipped(photo.row(0, y)[x], photo.row(1, y)[x], photo.row(2, y)[x]) ? 1 : 0 }
        let n = below(column - probe, row) + below(column + probe, row) + below(column, row - probe) + below(column, row + probe)
        return 1 + gain * clip * Self.isolation(unclippedProbes: n)
    }
}

/// One layer of a layered lens blur (CIDepthBlurEffect), box-decimated by `factor` from a layer
/// source (colour, blur value `c` in alpha: the full-size source or its ``DepthLayerBlocks``): output
/// pixel X is the mean over its `factor×factor` block of `(w(c)·rgb, w(c))`, `w` the layer's
/// ``DepthLayerTent``. Making the layer and shrinking it in one pass reads the blocks once and
/// writes `1/factor²` of them.
package struct DepthLayerDecimate: AreaOperation {
    package let tent: DepthLayerTent
    package let factor: Int
    /// The source's origin: output pixel X covers source columns `origin.x + factor·X ..< + factor`.
    package let originX: Int, originY: Int
    package let filterName: String

    package init(tent: DepthLayerTent, factor: Int, origin: (x: Int, y: Int), filterName: String) {
        self.tent = tent
        self.factor = max(factor, 1)
        (originX, originY) = origin
        self.filterName = filterName
    }

    package var name: String { filterName }
    package var summary: String { "\(tent.summary), box-decimated by \(factor)" }

    package func geometry(input index: Int) -> AffineTransform? { Self.shrink(by: factor, originX, originY) }
    package func outputExtent(inputExtents: [Rect]) -> Rect { Self.shrunk(inputExtents[0], by: factor, originX, originY) }
    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect { Self.blocks(of: rect, by: factor, originX, originY) }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var sum = SIMD4<Double>.zero
        for dy in 0..<factor {
            for dx in 0..<factor {
                let s = try input(0, originX + x * factor + dx, originY + y * factor + dy), w = Double(tent.weight(s[3]))
                sum += SIMD4(w * Double(s[0]), w * Double(s[1]), w * Double(s[2]), w)
            }
        }
        return SIMD4<Float>(sum / Double(factor * factor))
    }

    // MARK: Block geometry shared with DepthLayerBlocks

    /// Full-size coordinates to block coordinates: `(p − origin)/factor`.
    static func shrink(by factor: Int, _ originX: Int, _ originY: Int) -> AffineTransform {
        AffineTransform(translationX: Double(-originX), y: Double(-originY))
            .concatenating(AffineTransform(scaleX: 1 / Double(factor), y: 1 / Double(factor)))
    }

    /// The blocks covering `extent`.
    static func shrunk(_ extent: Rect, by factor: Int, _ originX: Int, _ originY: Int) -> Rect {
        guard !extent.isInfinite else { return extent }
        let d = Double(factor)
        let x0 = ((extent.minX - Double(originX)) / d).rounded(.down), y0 = ((extent.minY - Double(originY)) / d).rounded(.down)
        let x1 = ((extent.maxX - Double(originX)) / d).rounded(.up), y1 = ((extent.maxY - Double(originY)) / d).rounded(.up)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The full-size pixels of the blocks `rect`.
    static func blocks(of rect: Rect, by factor: Int, _ originX: Int, _ originY: Int) -> Rect {
        let d = Double(factor)
        return Rect(x: Double(originX) + rect.minX * d, y: Double(originY) + rect.minY * d, width: rect.width * d, height: rect.height * d)
    }
}

extension DepthLayerDecimate: CPUAreaPass {
    /// Per output row: the `factor` source rows weighted and summed down each column (one
    /// vectorised pass per row), then the column sums boxed across, `factor` at a time.
    package func run(_ tile: AreaTile) {
        let blocks = tile.inputs[0], output = tile.output
        let d = factor, width = output.width, inWidth = blocks.width
        let columns = tile.scratch.floats(0, count: 4 * inWidth)
        let results = tile.scratch.floats(1, count: width)
        let scale = 1 / Float(d * d)
        let sr = columns, sg = sr + inWidth, sb = sg + inWidth, sw = sb + inWidth
        for y in 0..<output.height {
            columns.update(repeating: 0, count: 4 * inWidth)
            for dy in 0..<d {
                let row = y * d + dy
                let r = blocks.row(0, row), g = blocks.row(1, row), b = blocks.row(2, row), c = blocks.row(3, row)
                var i = 0
                while i + 8 <= inWidth {
                    func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> { UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self) }
                    func add(_ p: UnsafeMutablePointer<Float>, _ v: SIMD8<Float>) {
                        UnsafeMutableRawPointer(p + i).storeBytes(of: load(p) + v, as: SIMD8<Float>.self)
                    }
                    let w = tent.weights(load(c))
                    add(sr, w * load(r))
                    add(sg, w * load(g))
                    add(sb, w * load(b))
                    add(sw, w)
                    i += 8
                }
                while i < inWidth {
                    let w = tent.weight(c[i])
                    sr[i] += w * r[i]
                    sg[i] += w * g[i]
                    sb[i] += w * b[i]
                    sw[i] += w
                    i += 1
                }
            }
            for channel in 0..<tile.channels {
                let source = columns + channel * inWidth
                for x in 0..<width {
                    var sum: Float = 0
                    for i in (x * d)..<(x * d + d) { sum += source[i] }
                    results[x] = sum * scale
                }
                output.store(channel: channel, row: y, from: results)
            }
        }
    }
}
