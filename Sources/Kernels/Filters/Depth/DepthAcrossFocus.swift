import GraphEngine

/// CIDepthBlurEffect's blur value where a depth edge's ramp crosses the focus plane (step 3 of
/// ``DepthEffectFilters/depthBlurEffect``). A map that steps from behind the focus straight to in
/// front of it is, at its low resolution, a ramp through the focus depth; refined to the photo,
/// that band of the edge would stay sharp between two blurred sides. Inputs: 0 the value map (c in
/// red, read `probe` px around), 1 the extremes around each pixel at the disparity map's own size,
/// `(max c, −min c)` in red and green (read at the map pixel under the photo pixel's centre).
/// Output: the value, or `max(max c, value)` where the value changes sign between the pixels
/// `probe` px to the left and right or below and above and both extremes pass 2 px (blur on each
/// side). A plateau in focus between a blurred front and back is no sign change: it keeps its
/// value. Grey, opaque.
package struct DepthAcrossFocus: AreaOperation {
    /// How far either side the sign test looks (px).
    package let probe: Int
    /// Map pixels per photo pixel on each axis, and the two extents' origins:
    /// map x = `mapX + (x + ½ − photoX)·scaleX`, rounded down.
    package let scaleX: Double, scaleY: Double
    package let photoX: Double, photoY: Double, mapX: Double, mapY: Double
    package let filterName: String

    /// `photo` the value map's extent, `map` the disparity map's.
    package init(probe: Int, photo: Rect, map: Rect, filterName: String) {
        self.probe = max(probe, 1)
        (scaleX, scaleY) = (map.width / photo.width, map.height / photo.height)
        (photoX, photoY, mapX, mapY) = (photo.minX, photo.minY, map.minX, map.minY)
        self.filterName = filterName
    }

    package var name: String { filterName }
    package var summary: String {
        "blur value across the focus plane: the largest value around where the radius changes sign \(probe) px either side"
    }

    /// The map column and row under photo pixel (`x`, `y`).
    @inline(__always)
    func mapPixel(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
        (Int((mapX + (Double(x) + 0.5 - photoX) * scaleX).rounded(.down)), Int((mapY + (Double(y) + 0.5 - photoY) * scaleY).rounded(.down)))
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }

    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        switch index {
        case 0: return rect.outset(dx: Double(probe), dy: Double(probe))
        default:
            let low = mapPixel(Int(rect.minX), Int(rect.minY)), high = mapPixel(Int(rect.maxX) - 1, Int(rect.maxY) - 1)
            return Rect(x: Double(low.x), y: Double(low.y), width: Double(high.x - low.x + 1), height: Double(high.y - low.y + 1))
        }
    }

    package func inputChannels(_ index: Int) -> Int { index == 1 ? 3 : 1 }
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { true }

    /// Whether the radius changes sign between `a` and `b`.
    @inline(__always)
    static func crosses(_ a: Float, _ b: Float) -> Bool { a * b < 0 }

    /// The value of a pixel from its value, the four probes and the extremes there.
    @inline(__always)
    static func value(_ v: Float, left: Float, right: Float, below: Float, above: Float, most: Float, least: Float) -> Float {
        (crosses(left, right) || crosses(below, above)) && most > 2 && least > 2 ? max(most, v) : v
    }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let m = mapPixel(x, y), e = try input(1, m.x, m.y), p = probe
        let c = Self.value(try input(0, x, y).x, left: try input(0, x - p, y).x, right: try input(0, x + p, y).x,
                           below: try input(0, x, y - p).x, above: try input(0, x, y + p).x, most: e.x, least: e.y)
        return SIMD4(c, c, c, 1)
    }
}

extension DepthAcrossFocus: CPUAreaPass {
    package func run(_ tile: AreaTile) {
        let value = tile.inputs[0], extremes = tile.inputs[1], output = tile.output
        let width = output.width, p = probe
        let most = tile.scratch.floats(0, count: width), least = tile.scratch.floats(1, count: width)
        let results = tile.scratch.floats(2, count: width)
        let mapColumns = tile.scratch.integers(0, count: width)
        for x in 0..<width { mapColumns[x] = min(max(mapPixel(output.x + x, output.y).x - extremes.x, 0), extremes.width - 1) }
        for y in 0..<output.height {
            let my = min(max(mapPixel(output.x, output.y + y).y - extremes.y, 0), extremes.height - 1)
            let mostRow = extremes.row(0, my), leastRow = extremes.row(1, my)
            for x in 0..<width { (most[x], least[x]) = (mostRow[mapColumns[x]], leastRow[mapColumns[x]]) }
            // The value's rows carry a margin of p on every side.
            let middle = value.row(0, y + p) + p, below = value.row(0, y) + p, above = value.row(0, y + 2 * p) + p
            for x in 0..<width {
                results[x] = Self.value(middle[x], left: middle[x - p], right: middle[x + p], below: below[x], above: above[x],
                                        most: most[x], least: least[x])
            }
            for channel in 0..<tile.channels { output.store(channel: channel, row: y, from: results) }
        }
    }
}
