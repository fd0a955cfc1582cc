import GraphEngine

/// The depth filters' `inputFocusRect`: normalised to the image (0…1, lower-left origin). A
/// rectangle reaching outside the unit square by more than ``tolerance`` is an error whose message
/// says how to normalise it (a rectangle in pixels is what a user tries first).
public enum FocusRect {
    /// The default focus rectangle, normalised: the centre tenth of each side.
    public static let centre = Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1)

    /// How far outside 0…1 an edge may lie (rounding in a rectangle computed from pixels).
    public static let tolerance = 0.01

    /// `args`' `inputFocusRect`, ``centre`` when it is not given; an error when it is not a
    /// rectangle or not normalised (the hint divides by `size`, the width and height of `image`:
    /// "the photo" or "the map").
    static func argument(_ args: FilterArguments, filter: String, size: (width: Double, height: Double), of image: String) throws -> Rect {
        guard args.values["inputFocusRect"] != nil else { return centre }
        let rect = try args.rect("inputFocusRect")
        if let problem = problem(rect, size: size, of: image) {
            throw GraphError.invalidParameter(filter: filter, key: "inputFocusRect", reason: problem)
        }
        return rect
    }

    /// Nil when `rect` is normalised (within ``tolerance``), else what is wrong with it: a rectangle
    /// with a coordinate above 1 looks like pixels, and the hint divides it by `size` (the upright
    /// width and height of `image`, "the photo" or "the map", when known).
    public static func problem(_ rect: Rect, size: (width: Double, height: Double)?, of image: String = "the photo") -> String? {
        let edges = [rect.minX, rect.minY, rect.maxX, rect.maxY]
        guard edges.allSatisfy(\.isFinite) else { return "inputFocusRect must be finite" }
        if edges.allSatisfy({ $0 >= -tolerance && $0 <= 1 + tolerance }) { return nil }
        let given = "[\(number(rect.minX)), \(number(rect.minY)), \(number(rect.width)), \(number(rect.height))]"
        let normalised = "inputFocusRect is normalised (0…1, lower-left origin)"
        guard [rect.minX, rect.minY, rect.width, rect.height].contains(where: { $0 > 1 + tolerance }) else {
            return "\(normalised); \(given) reaches outside the image"
        }
        guard let size, size.width > 0, size.height > 0 else {
            return "\(normalised); \(given) looks like pixels: divide x and width by \(image)'s width, y and height by its height"
        }
        let divided = [rect.minX / size.width, rect.minY / size.height, rect.width / size.width, rect.height / size.height]
        return "\(normalised); \(given) looks like pixels: divide by \(image)'s size (\(number(size.width))×\(number(size.height))) → ["
            + divided.map { number($0, digits: 3) }.joined(separator: ", ") + "]"
    }

    /// `value` with at most `digits` decimals, without trailing zeros.
    static func number(_ value: Double, digits: Int = 6) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return "\(rounded)"
    }
}
