/// AVCameraCalibrationData's `lensDistortionLookupTable` and `inverseLensDistortionLookupTable`
/// made from the coefficients an iPhone stores in its depth XMP.
///
/// A table holds the radial magnification `m` at `count` radii spaced evenly from the distortion
/// centre (`m[0]`, radius 0) to the reference image's farthest corner (`m[count − 1]`, radius
/// `r_max`); a point at radius `r` moves to `centre + (p − centre)·(1 + m(r))` (Apple's
/// `lensDistortionPointForPoint`, in AVCameraCalibrationData.h). The file stores no table but 8
/// coefficients `c0…c7` of a polynomial in the squared radius in millimetres (`PixelSize` per
/// pixel) giving the magnification in percent:
///
///     m(r) = 0.01 · Σₖ cₖ · ((PixelSize · r)²)ᵏ        (r in reference pixels)
///
/// Apple does not document this; it is the form Apple's own camera frameworks evaluate (seen in
/// their decompiled code) and the one under which a file's forward and inverse coefficients undo
/// each other (to 0.1 px on the iPhone 7 Plus and iPhone X photos; without the 0.01 they miss by
/// hundreds of pixels). AVFoundation's tables have 42 entries.
extension CameraCalibration {
    /// The number of entries of a made table: AVFoundation's.
    public static let lensDistortionLookupTableCount = 42

    /// Why the lens distortion cannot be turned into tables, or nil when it can: the centre, the
    /// pixel size and both sets of 8 coefficients must be present and finite, the reference size
    /// positive.
    public var lensDistortionProblem: String? {
        guard let centre = lensDistortionCenter else { return "it has no lens distortion centre (depthData:LensDistortionCenterOffsetX/Y)" }
        guard centre.x.isFinite, centre.y.isFinite else { return "its lens distortion centre (\(centre.x), \(centre.y)) is not finite" }
        guard referenceWidth.isFinite, referenceHeight.isFinite, referenceWidth > 0, referenceHeight > 0 else {
            return "its reference size \(referenceWidth)×\(referenceHeight) is not positive"
        }
        guard let size = pixelSize, size.isFinite, size > 0 else { return "it has no positive pixel size (depthData:PixelSize)" }
        for (name, coefficients) in [("LensDistortionCoefficients", lensDistortionCoefficients),
                                     ("InverseLensDistortionCoefficients", inverseLensDistortionCoefficients)] {
            guard coefficients.count == 8 else { return "its \(name) has \(coefficients.count) values, not 8" }
            guard coefficients.allSatisfy(\.isFinite) else { return "its \(name) are not all finite" }
        }
        return nil
    }

    /// The distance in reference pixels from the distortion centre to the farthest corner of the
    /// reference image (the radius of a table's last entry), or nil without a centre.
    public var lensDistortionMaximumRadius: Double? {
        guard let centre = lensDistortionCenter else { return nil }
        let dx = max(centre.x, referenceWidth - centre.x), dy = max(centre.y, referenceHeight - centre.y)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The table of magnifications (`inverse`: of the inverse coefficients), ``lensDistortionLookupTableCount``
    /// entries from the centre to the farthest corner; nil when ``lensDistortionProblem`` says why.
    public func lensDistortionLookupTable(inverse: Bool = false) -> [Double]? {
        guard lensDistortionProblem == nil, let size = pixelSize, let radius = lensDistortionMaximumRadius else { return nil }
        let coefficients = inverse ? inverseLensDistortionCoefficients : lensDistortionCoefficients
        let last = Double(Self.lensDistortionLookupTableCount - 1)
        return (0..<Self.lensDistortionLookupTableCount).map { index in
            let millimetres = size * radius * Double(index) / last
            let squared = millimetres * millimetres
            return 0.01 * coefficients.reversed().reduce(0) { $0 * squared + $1 }
        }
    }
}
