import GraphEngine

extension DisparityFilters {
    /// The disparity of the subject, as ``FocusDisparity`` computes it for CIDepthBlurEffect: the
    /// dominant disparity of the map's red channel over the focus rectangle (the nearest cluster of
    /// values holding at least a quarter of it; NaN holes skipped), a 1×1 image `(f, f, f, 1)` at
    /// the origin. Clamp it (`clampedToExtent`) to read it everywhere,
    /// e.g. as a kernel argument that centres a depth mask on the subject. Recipes default the
    /// rectangle to the photo's face or focus region (or GFocus focal point) when the map is a depth photo's.
    static let focusDisparity = FilterDescriptor(
        name: "GEFocusDisparity", categories: ["CICategoryReduction", "CICategoryStillImage"],
        summary: "The subject's disparity f: the dominant disparity of the map over the focus rectangle (its nearest cluster holding at least a quarter of it), as a 1×1 image (f, f, f, 1).",
        inputs: [
            FilterInput("inputImage", .image, "The disparity (or depth) map (red channel); a colour photo here is an error.",
                        photoMap: .disparity),
            FilterInput("inputFocusRect", .rect, default: nil,
                        "The subject, normalised (0…1, lower-left origin; outside is an error); default the photo's face or focus region or GFocus focal point, else (0.45, 0.45, 0.1, 0.1)."),
        ]
    ) { args in
        let map = try args.image("inputImage")
        guard !map.extent.isInfinite, !map.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: "GEFocusDisparity", key: "inputImage", reason: "the map must have a finite, non-empty extent")
        }
        let rect = try FocusRect.argument(args, filter: "GEFocusDisparity", size: (map.extent.width, map.extent.height), of: "the map")
        return map.applying(FocusDisparity(normalized: rect, of: map.extent))
    }
}

/// The disparity the effects focus on: the dominant disparity of an integral area of a disparity
/// map (its nearest large cluster of values, not a mean that lands between two depths when the area
/// straddles them), written as a 1×1 image `(f, f, f, 1)` at the origin (so the blur map reads it
/// through `clampedToExtent()` as a constant and new focus areas change no program).
///
/// `f`, exactly (a benchmark can reproduce it):
/// 1. `lo`, `hi`: the least and greatest finite red values of the whole map.
/// 2. `V`: the finite red values of the area's pixels (NaN holes and infinities skipped); when the
///    area has none, those of the whole map; when the map has none, `f = 0`. `N = |V|`.
/// 3. When `hi ≤ lo`, `f` is the mean of `V`. Otherwise each value falls in one of 256 bins of
///    1/256 of the map's range (one step of an 8-bit map): `b(v) = min(255, ⌊256·(v − lo)/(hi − lo)⌋)`.
/// 4. A window is 17 bins wide (1/15 of the range): its mass at bin `c` is
///    `M(c) = |{v ∈ V : |b(v) − c| ≤ 8}|`, for `c` in 0…255.
/// 5. The cluster `[first, last]`: when some `M(c) ≥ N/4` (a window holding a quarter of the area),
///    the run of consecutive bins with `M ≥ N/4` that holds the largest such `c` (the nearest such
///    cluster, larger disparity being nearer); else `first = last =` the largest `c` of greatest `M`.
/// 6. `f` is the mean of the values `v ∈ V` with `first − 8 ≤ b(v) ≤ last + 8` (the cluster's
///    windows), summed in Double: continuous, not a bin centre, and the mean of a unimodal area
///    when its windows cover it.
///
/// So a subject holding at least a quarter of the focus area is chosen even when more of the
/// area shows the background behind it; depths closer than a window (1/15 of the map's range)
/// count as one cluster. On a depth map (larger = farther) the same rule prefers the farther one.
struct FocusDisparity: ImageProcessor {
    /// Integral, in the disparity map's pixels.
    let area: Rect
    /// The normalised rectangle the area was made from, for the dump; nil when given in pixels.
    let normalized: Rect?

    /// Bins over the map's finite range.
    static let binCount = 256
    /// Half the width of a cluster window, in bins.
    static let windowRadius = 8

    init(area: Rect) {
        self.area = area
        normalized = nil
    }

    /// Over `rect`, normalised (0…1, lower-left origin) to `extent` (the map's), rounded out.
    init(normalized rect: Rect, of extent: Rect) {
        area = Rect(x: extent.minX + rect.minX * extent.width, y: extent.minY + rect.minY * extent.height,
                    width: rect.width * extent.width, height: rect.height * extent.height).integral
        normalized = rect
    }

    var name: String { "GEFocusDisparity" }
    var structureKey: String { "focus-disparity" }
    var uniformValues: [Float] { [] }
    /// The method and the area: `dominant disparity (nearest cluster holding a quarter) over
    /// [x y w h] of the map, [pixels]` (the normalised rectangle when there is one).
    var argumentSummary: String {
        let over = normalized.map { rect in
            "[" + [rect.minX, rect.minY, rect.width, rect.height].map { FocusRect.number($0, digits: 4) }.joined(separator: " ") + "] of the map, "
        } ?? ""
        return "dominant disparity (nearest cluster holding a quarter) over \(over)\(area)"
    }

    func outputExtent(inputExtents: [Rect]) -> Rect { Rect(x: 0, y: 0, width: 1, height: 1) }

    /// The whole map (small: its range and the fallback need it).
    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }

    /// (f, f, f, 1): one plane.
    func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }

    func isGrey(inputs: [AreaInputDescription]) -> Bool { true }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let map = inputs[0]
        let whole = Rect(x: Double(map.x), y: Double(map.y), width: Double(map.width), height: Double(map.height))
        var values = Self.finiteValues(map, in: area)
        if values.isEmpty { values = Self.finiteValues(map, in: whole) }
        let range = Self.finiteRange(map)
        let f = Self.dominant(values, low: range.low, high: range.high)
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

    /// The least and greatest finite red values of `buffer` (0…0 when it has none).
    static func finiteRange(_ buffer: PlanarBuffer) -> (low: Float, high: Float) {
        var low = Float.infinity, high = -Float.infinity
        let red = buffer.planes[0]
        for i in 0..<(buffer.width * buffer.height) where red[i].isFinite {
            low = min(low, red[i])
            high = max(high, red[i])
        }
        return low <= high ? (low, high) : (0, 0)
    }

    /// Steps 3 to 6 of the definition above for finite `values` in a map whose finite range is
    /// `low…high` (0 for no value).
    static func dominant(_ values: [Float], low: Float, high: Float) -> Float {
        guard !values.isEmpty else { return 0 }
        guard high > low else { return Float(values.reduce(0.0) { $0 + Double($1) } / Double(values.count)) }
        let scale = Double(binCount) / (Double(high) - Double(low))
        let bins = values.map { min(binCount - 1, max(0, Int((Double($0) - Double(low)) * scale))) }
        var histogram = [Int](repeating: 0, count: binCount)
        for bin in bins { histogram[bin] += 1 }
        // M(c) from the histogram's running sum.
        var cumulative = [Int](repeating: 0, count: binCount + 1)
        for bin in 0..<binCount { cumulative[bin + 1] = cumulative[bin] + histogram[bin] }
        let mass = (0..<binCount).map {
            cumulative[min(binCount, $0 + windowRadius + 1)] - cumulative[max(0, $0 - windowRadius)]
        }
        let large = { (bin: Int) in 4 * mass[bin] >= values.count }
        var first: Int, last: Int
        if let nearest = (0..<binCount).last(where: large) {
            (first, last) = (nearest, nearest)
            while first > 0, large(first - 1) { first -= 1 }
        } else {
            // The largest bin of greatest mass: the scan goes down and keeps the first maximum.
            last = binCount - 1
            for bin in (0..<binCount).reversed() where mass[bin] > mass[last] { last = bin }
            first = last
        }
        var sum = 0.0, count = 0
        for (value, bin) in zip(values, bins) where bin >= first - windowRadius && bin <= last + windowRadius {
            sum += Double(value)
            count += 1
        }
        return Float(sum / Double(count))
    }
}
