import GraphCodecs

extension ImageMetadata {
    /// This metadata (a photo's) for `edited`, an edit of `photo`: the MWG face and focus regions
    /// of its XMP (and GDepth's `GFocus` focal point) turned upright and moved like the pixels when the edit crops, scales, flips or
    /// shifts the photo (an axis-aligned affine map), so a written edit still names its subject
    /// and `RegionAppliedToDimensions` matches the file; the XMP is then marked as upright
    /// (`exifOrientation` 1). A region the crop leaves entirely is emptied (zero size at the
    /// nearest edge); one cut by it is clipped. Regions an edit rotates or warps cannot follow:
    /// they are left as they were, with a warning. Unchanged when the edit does not read `photo`
    /// or the XMP names no region.
    public func following(_ edited: Image, from photo: Image) -> (metadata: ImageMetadata, warnings: [String]) {
        guard let xmp, xmp.contains(MWGRegionOrientation.areaNamespace) || xmp.contains(GDepth.focusNamespace) else {
            return (self, [])
        }
        let source = photo.extent, target = edited.extent.integral
        guard !source.isInfinite, !source.isEmpty, !target.isInfinite, !target.isEmpty else { return (self, []) }
        let transform: AffineTransform
        switch AuxiliaryGeometry.trace(edited, to: photo) {
        case .notReached: return (self, [])
        case .transform(let found) where abs(found.b) < 1e-12 && abs(found.c) < 1e-12:
            transform = found
        default:
            return (self, ["the photo's face and focus regions are not moved with the edit (it rotates or warps the "
                           + "pixels); they may no longer cover the subject"])
        }
        if transform == .identity && target == source { return (self, []) }
        var moved = self
        var upright = MWGRegionOrientation.upright(xmp, from: exifOrientation)
        // Normalised (top-left origin) in the photo → working space → edited → normalised.
        func working(_ u: Double, _ v: Double) -> (Double, Double) {
            (source.minX + u * source.width, source.maxY - v * source.height)
        }
        func normalised(_ p: (Double, Double)) -> (Double, Double) {
            let (x, y) = (transform.a * p.0 + transform.tx, transform.d * p.1 + transform.ty)
            return ((x - target.minX) / target.width, (target.maxY - y) / target.height)
        }
        // GDepth's focal point: turned upright, then moved (kept inside the picture).
        upright = MWGRegionOrientation.movedFocalPoint(upright) { x, y in
            let point = MWGRegionOrientation.upright(x, y, exifOrientation)
            let (u, v) = normalised(working(point.0, point.1))
            return (min(1, max(0, u)), min(1, max(0, v)))
        }
        var emptied = 0
        moved.xmp = MWGRegionOrientation.moved(upright, width: Int(target.width), height: Int(target.height)) { x, y, w, h in
            let corner1 = normalised(working(x - w / 2, y - h / 2)), corner2 = normalised(working(x + w / 2, y + h / 2))
            let left = max(0, min(corner1.0, corner2.0)), right = min(1, max(corner1.0, corner2.0))
            let top = max(0, min(corner1.1, corner2.1)), bottom = min(1, max(corner1.1, corner2.1))
            guard left < right, top < bottom else {
                emptied += 1
                let u = min(1, max(0, (corner1.0 + corner2.0) / 2)), v = min(1, max(0, (corner1.1 + corner2.1) / 2))
                return (u, v, 0, 0)
            }
            return ((left + right) / 2, (top + bottom) / 2, right - left, bottom - top)
        }
        moved.exifOrientation = 1
        let note = emptied == 0 ? [] : ["\(emptied) of the photo's face and focus regions lie outside the edited picture; "
                                        + "written with zero size"]
        return (moved, note)
    }
}
