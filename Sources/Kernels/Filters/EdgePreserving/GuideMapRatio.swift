import GraphEngine

/// How much larger than its guide a map may be, for the filters that bring a small map (a depth
/// map, a mask) to a photo's size along the photo's edges (CIEdgePreserveUpsampleFilter,
/// GEGuidedUpsample).
///
/// Their work grows with the map's pixels (every map sample is splatted into the bilateral grid,
/// and the guide is resampled to the map's grid), while the output has the photo's. A map is
/// normally smaller than its photo (an iPhone's 768×576 for 4032×3024) or larger by the factor a
/// photo was scaled down by (`CIDepthBlurEffect`'s `inputScaleFactor`, a thumbnail); a map with
/// thousands of times the photo's pixels (a 40 KB JPEG claiming 65,500×252 against a 42×54 photo
/// took over 20 s) is not a map of this photo, and is refused rather than turned into seconds of
/// work for a few thousand output pixels. Accepted: up to ``maximumRatio`` times the guide's
/// pixels, or up to ``smallMapPixels`` whatever the guide (a fraction of a second of work), so
/// the work is bounded by the larger of the two.
enum GuideMapRatio {
    /// The largest accepted ratio of map pixels to guide pixels (8 times along each axis).
    static let maximumRatio = 64.0
    /// Maps of up to this many pixels (2048×2048) are accepted for any guide.
    static let smallMapPixels = 4_194_304.0

    /// Throws, naming `filter` and `key` (the map's input), when `map` has more pixels than both
    /// ``smallMapPixels`` and ``maximumRatio`` times `guide`'s.
    static func check(map: Rect, guide: Rect, filter: String, key: String, guideKey: String) throws {
        let mapPixels = map.width * map.height, guidePixels = guide.width * guide.height
        guard mapPixels > smallMapPixels, mapPixels > maximumRatio * guidePixels else { return }
        throw GraphError.invalidParameter(
            filter: filter, key: key,
            reason: "the map (\(size(map))) has \(ratioText(mapPixels / guidePixels)) times the pixels of \(guideKey) (\(size(guide))); "
                + "at most \(Int(maximumRatio)) times, or \(Int(smallMapPixels)) pixels, is accepted (is it a map of this photo?)")
    }

    private static func size(_ rect: Rect) -> String {
        "\(Int(rect.width.rounded()))x\(Int(rect.height.rounded()))"
    }

    /// Two decimals below 100 (so 64.02 does not read as 64), none from 100 on; no trailing zeros.
    private static func ratioText(_ ratio: Double) -> String {
        let rounded = ratio >= 100 ? ratio.rounded() : (ratio * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : "\(rounded)"
    }
}
