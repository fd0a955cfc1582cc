import GraphEngine

extension DisparityFilters {
    /// The disparity of the subject, as ``FocusDisparity`` computes it for CIDepthBlurEffect: the
    /// interquartile mean of the map's red channel over the focus rectangle (NaN holes skipped), a
    /// 1×1 image `(f, f, f, 1)` at the origin. Clamp it (`clampedToExtent`) to read it everywhere,
    /// e.g. as a kernel argument that centres a depth mask on the subject. Recipes default the
    /// rectangle to the photo's face or focus region when the map is a depth photo's.
    static let focusDisparity = FilterDescriptor(
        name: "GEFocusDisparity", categories: ["CICategoryReduction", "CICategoryStillImage"],
        summary: "The subject's disparity f: the interquartile mean of the map over the focus rectangle, as a 1×1 image (f, f, f, 1).",
        inputs: [
            FilterInput("inputImage", .image, "The disparity (or depth) map (red channel)."),
            FilterInput("inputFocusRect", .rect, default: nil,
                        "The subject, normalised (0…1, lower-left origin); default the photo's face or focus region, else (0.45, 0.45, 0.1, 0.1)."),
        ]
    ) { args in
        let map = try args.image("inputImage")
        guard !map.extent.isInfinite, !map.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: "GEFocusDisparity", key: "inputImage", reason: "the map must have a finite, non-empty extent")
        }
        let rect = (try? args.rect("inputFocusRect")) ?? FocusDisparity.centre
        return map.applying(FocusDisparity(normalized: rect, of: map.extent))
    }
}

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

    /// The subject's default rectangle, normalised: the centre tenth of each side.
    static let centre = Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1)

    init(area: Rect) {
        self.area = area
    }

    /// Over `rect`, normalised (0…1, lower-left origin) to `extent` (the map's), rounded out.
    init(normalized rect: Rect, of extent: Rect) {
        area = Rect(x: extent.minX + rect.minX * extent.width, y: extent.minY + rect.minY * extent.height,
                    width: rect.width * extent.width, height: rect.height * extent.height).integral
    }

    var name: String { "GEFocusDisparity" }
    var structureKey: String { "focus-disparity" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "interquartile mean over \(area)" }

    func outputExtent(inputExtents: [Rect]) -> Rect { Rect(x: 0, y: 0, width: 1, height: 1) }

    /// The whole map (small: the fallback needs it).
    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }

    /// (f, f, f, 1): one plane.
    func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }

    func isGrey(inputs: [AreaInputDescription]) -> Bool { true }

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
