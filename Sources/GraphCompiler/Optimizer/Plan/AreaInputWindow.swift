/// Area passes read a cropped input through a window on the crop's source instead of a program
/// that copies the cropped pixels into an intermediate first: the source's pixels outside the
/// window read as outside its data (0, or the nearest window pixel when the input is clamped).
enum AreaInputWindow {
    /// The pixels a crop node keeps, when its rectangle has whole-pixel edges (a fractional crop
    /// keeps a partly masked edge pixel that a clamp repeats, which a window cannot express), or nil.
    static func of(_ node: Node) -> PixelRect? {
        guard case .crop(let rect) = node.kind else { return nil }
        let edges = [rect.minX, rect.minY, rect.maxX, rect.maxY]
        guard !rect.isInfinite, edges.allSatisfy({ abs($0) < 1e9 && $0 == $0.rounded() }) else { return nil }
        return PixelRect(rect)
    }
}
