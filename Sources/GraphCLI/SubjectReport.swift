import GraphCodecs
import GraphEngine
import GraphRecipes
import Kernels

/// What the depth effects take for a depth photo's subject, for `graph info`: the focus rectangle
/// they default to (the photo's face or focus region or GFocus focal point, else the centre), where
/// it came from, and the focus disparity GEFocusDisparity computes over it from the photo's
/// disparity (the same filter CIDepthBlurEffect and the recipes use).
struct SubjectReport {
    /// Normalised (0…1), lower-left origin, in the upright photo.
    var region: Rect
    /// Where the region came from ("the photo's face region", …, "the default centre").
    var source: String
    /// The dominant disparity over the region, in the map's unit.
    var focusDisparity: Float

    /// The report for the depth photo at `path`; nil when it has no depth or disparity map.
    init?(path: String) throws {
        try self.init(photo: try DepthPhoto(contentsOf: path))
    }

    /// The report for a depth photo already opened; nil when it has no depth or disparity map.
    init?(photo: DepthPhoto) throws {
        guard photo.depthMapInfo != nil else { return nil }
        let subject = photo.subject
        region = subject?.rect ?? FocusRect.centre
        source = subject?.source.rawValue ?? "the default centre (the photo names no face, focus region or focal point)"
        // A large JPEG map (a Pixel's 2024×2688) is decoded at most 8 times smaller, keeping a
        // long side of at least 512: the dominant disparity over the subject needs no more, and
        // `graph info` stays fast. Apple's maps (768 long) decode whole.
        let stored = photo.depthMapInfo.map { max($0.width, $0.height) } ?? 0
        let shrink = [8, 4, 2].first { stored / $0 >= 512 } ?? 1
        let map = try photo.depthData(as: .disparity, reducedBy: shrink).map
        let focus = try map.applyingFilter("GEFocusDisparity", parameters: ["inputFocusRect": .rect(region)])
        let buffer = try Context().render(focus, format: .rgbaf, colorSpace: .data)
        focusDisparity = buffer.withUnsafeBytes { $0.load(as: Float.self) }
    }

    /// `[x y w h]` with four decimals.
    var regionText: String {
        "[" + [region.minX, region.minY, region.width, region.height].map { Self.decimal($0, 4) }.joined(separator: " ") + "]"
    }

    /// The text lines of `graph info`.
    var lines: [String] {
        ["subject: \(regionText) (normalised, lower-left origin) from \(source)",
         "focus disparity: \(Self.decimal(Double(focusDisparity), 6)) (the dominant disparity over the subject, as the depth effects focus)"]
    }

    /// The `subject` member of `graph info --format json`.
    var json: JSON {
        .object([
            ("rect", .array([region.minX, region.minY, region.width, region.height].map { .number($0) })),
            ("source", .string(source)), ("focusDisparity", .number(Double(focusDisparity))),
        ])
    }

    /// `value` rounded to `digits` decimals, without trailing zeros.
    static func decimal(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : "\(rounded)"
    }
}
