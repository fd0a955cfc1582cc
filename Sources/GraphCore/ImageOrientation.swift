extension Image {
    /// The image turned upright for EXIF orientation `orientation` (1...8, TIFF/EXIF tag 0x0112;
    /// Core Image's `oriented(_:)` with a `CGImagePropertyOrientation`): pixels stored with that
    /// orientation come back as they display. The result keeps this image's extent origin (its
    /// width and height swap for 5...8); pixel centres map onto pixel centres, so no value changes.
    /// Files opened with `ImageReadOptions.applyOrientation` (the default) are already upright.
    ///
    /// 1 upright, 2 mirrored left-right, 3 turned 180°, 4 mirrored top-bottom, 5 mirrored across
    /// the top-left diagonal, 6 stored turned 90° anticlockwise (shown turned clockwise), 7 mirrored
    /// across the top-right diagonal, 8 stored turned 90° clockwise.
    public func oriented(_ orientation: Int) throws -> Image {
        guard (1...8).contains(orientation) else {
            throw GraphError.invalidParameter(filter: "oriented", key: "orientation", reason: "expected an EXIF orientation 1...8, got \(orientation)")
        }
        guard orientation != 1 else { return self }
        guard !extent.isInfinite, !extent.isEmpty else { return self }
        let w = extent.width, h = extent.height
        // x' = a·x + c·y + tx, y' = b·x + d·y + ty on the extent moved to the origin (y up).
        let (a, b, c, d, tx, ty): (Double, Double, Double, Double, Double, Double)
        switch orientation {
        case 2: (a, b, c, d, tx, ty) = (-1, 0, 0, 1, w, 0)
        case 3: (a, b, c, d, tx, ty) = (-1, 0, 0, -1, w, h)
        case 4: (a, b, c, d, tx, ty) = (1, 0, 0, -1, 0, h)
        case 5: (a, b, c, d, tx, ty) = (0, -1, -1, 0, h, w)
        case 6: (a, b, c, d, tx, ty) = (0, -1, 1, 0, 0, w)
        case 7: (a, b, c, d, tx, ty) = (0, 1, 1, 0, 0, 0)
        default: (a, b, c, d, tx, ty) = (0, 1, -1, 0, h, 0)
        }
        let x0 = extent.minX, y0 = extent.minY
        let transform = AffineTransform(a: a, b: b, c: c, d: d, tx: tx + x0 - a * x0 - c * y0, ty: ty + y0 - b * x0 - d * y0)
        return transformed(by: transform, filter: .nearest)
    }
}
