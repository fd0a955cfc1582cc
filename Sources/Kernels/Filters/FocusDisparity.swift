import GraphEngine

/// The disparity the portrait blur focuses on: a robust mean of the red channel over an integral
/// area of a disparity map, written as a 1×1 image `(f, f, f, 1)` at the origin (so the blur map
/// reads it through `clampedToExtent()` as a constant and new focus areas change no program).
///
/// `f` is the interquartile mean of the area's values: sorted, the middle half (ranks ⌊n/4⌋ up
/// to n − ⌊n/4⌋) averaged, so a few background pixels in the focus rectangle or NaN holes (skipped)
/// do not move it. An area with no finite value falls back to the whole map's; a map with none
/// gives 0.
struct FocusDisparity: ImageProcessor {
    /// Integral, in the disparity map's pixels.
    let area: Rect

    var name: String { "CIDepthBlurEffect_focus" }
    var structureKey: String { "focus-disparity" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "interquartile mean over \(area)" }

    func outputExtent(inputExtents: [Rect]) -> Rect { Rect(x: 0, y: 0, width: 1, height: 1) }

    /// The whole map (small: the fallback needs it).
    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let map = inputs[0]
        var values = Self.finiteValues(map, in: area)
        if values.isEmpty {
            values = Self.finiteValues(map, in: Rect(x: Double(map.x), y: Double(map.y), width: Double(map.width), height: Double(map.height)))
        }
        let f = Self.interquartileMean(&values)
        for channel in 0..<3 { output.setValue(f, channel: channel, x: 0, y: 0) }
        output.setValue(1, channel: 3, x: 0, y: 0)
    }

    /// The finite red values of `buffer` inside `rect`, row by row.
    static func finiteValues(_ buffer: PlanarBuffer, in rect: Rect) -> [Float] {
        let x0 = max(Int(rect.minX), buffer.x), x1 = min(Int(rect.maxX), buffer.x + buffer.width)
        let y0 = max(Int(rect.minY), buffer.y), y1 = min(Int(rect.maxY), buffer.y + buffer.height)
        guard x1 > x0, y1 > y0 else { return [] }
        var values: [Float] = []
        values.reserveCapacity((x1 - x0) * (y1 - y0))
        let red = buffer.planes[0]
        for y in y0..<y1 {
            let row = red + (y - buffer.y) * buffer.width - buffer.x
            for x in x0..<x1 where row[x].isFinite { values.append(row[x]) }
        }
        return values
    }

    /// The mean of the middle half of the sorted values (0 for none), summed in Double in order.
    static func interquartileMean(_ values: inout [Float]) -> Float {
        guard !values.isEmpty else { return 0 }
        values.sort()
        let trim = values.count / 4
        let middle = values[trim..<(values.count - trim)]
        return Float(middle.reduce(0.0) { $0 + Double($1) } / Double(middle.count))
    }
}
