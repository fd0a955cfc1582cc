import Foundation
import GraphEngine

/// Geometry (CICategoryGeometryAdjustment).
enum GeometryFilters {
    static let categories = ["CICategoryGeometryAdjustment", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [affine, crop, affineClamp, straighten, sampleNearest] + PerspectiveFilters.all

    /// Resamples the image through an affine transform (bilinear); consecutive transforms fold.
    static let affine = FilterDescriptor(
        name: "CIAffineTransform", categories: categories,
        summary: "Applies an affine transform [a b c d tx ty]: x' = a·x + c·y + tx, y' = b·x + d·y + ty.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputTransform", .transform, default: .transform(.identity), "The transform.")]
    ) { args in
        let transform = try args.transform("inputTransform")
        guard transform.isInvertible else {
            throw GraphError.invalidParameter(filter: "CIAffineTransform", key: "inputTransform",
                                              reason: "the transform \(transform) is not invertible")
        }
        return try args.image("inputImage").transformed(by: transform)
    }

    /// Keeps the image inside a rectangle.
    static let crop = FilterDescriptor(
        name: "CICrop", categories: categories,
        summary: "Crops the image to a rectangle [x y width height].",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRectangle", .rect, default: .rect(.infinite), "The rectangle to keep.")]
    ) { args in
        try args.image("inputImage").cropped(to: try args.rect("inputRectangle"))
    }

    /// Core Image's CIAffineClamp (decompiled `-[CIAffineClamp outputImage]`): the input clamped to
    /// its extent (edge pixels repeated outwards), then transformed: `out(p) = bilinear(clamp(in),
    /// T⁻¹(p))`, infinite extent. One `sample` with the clamp edge mode; crop it before rendering.
    static let affineClamp = FilterDescriptor(
        name: "CIAffineClamp", categories: ["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage"],
        summary: "Transforms the image (bilinear) with its edge pixels extended to infinity: "
            + "out(p) = bilinear(clampedToExtent(in), T⁻¹·p), T = [a b c d tx ty]; infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputTransform", .transform, default: .transform(.identity), "The transform.")]
    ) { args in
        let transform = try args.transform("inputTransform")
        guard transform.isInvertible else {
            throw GraphError.invalidParameter(filter: "CIAffineClamp", key: "inputTransform",
                                              reason: "the transform \(transform) is not invertible")
        }
        return try args.image("inputImage").clampedToExtent().transformed(by: transform)
    }

    /// Core Image's CIStraightenFilter (decompiled `-[CIStraightenFilter outputImage]`): rotates by
    /// θ about the extent's centre, scaled by `s = hypot(W, m)·max(|cos(a − θ)|, |cos(a + θ)|)/m`
    /// (`W`, `m`: the larger and smaller side, `a = atan2(W, m)`; `s = cos θ + (W/m)·|sin θ|`) so the
    /// rotated image covers the whole extent, then cropped to it. A quarter turn scales by `W/m`; a
    /// half turn is a plain rotation; `|sin θ| < 0.001` with `cos θ > 0` returns the input.
    static let straighten = FilterDescriptor(
        name: "CIStraightenFilter", categories: ["CICategoryGeometryAdjustment", "CICategoryVideo", "CICategoryStillImage"],
        summary: "Rotates the image by inputAngle about its centre, scaled by cos θ + (W/m)|sin θ| (W, m: the larger "
            + "and smaller side) so it covers its extent, and crops to the extent.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                             "The rotation in radians (counter-clockwise).")]
    ) { args in
        let image = try args.image("inputImage")
        let angle = try args.number("inputAngle")
        let extent = image.extent
        let sine = sin(angle), cosine = cos(angle)
        if abs(sine) < 0.001 && cosine > 0 { return image }
        guard !extent.isInfinite, !extent.isEmpty else {
            throw GraphError.invalidParameter(filter: "CIStraightenFilter", key: "inputImage",
                                              reason: "needs an image with a finite, non-empty extent")
        }
        let midX = extent.x + extent.width / 2, midY = extent.y + extent.height / 2
        if abs(sine) < 0.001 {
            return image.transformed(by: AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 2 * midX, ty: 2 * midY))
        }
        let larger = max(extent.width, extent.height), smaller = min(extent.width, extent.height)
        let scale: Double
        if abs(cosine) >= 0.001 {
            let diagonal = atan2(larger, smaller)
            scale = hypot(larger, smaller) * max(abs(cos(diagonal - angle)), abs(cos(-angle - diagonal))) / smaller
        } else {
            scale = larger / smaller
        }
        let (c, s) = abs(cosine) >= 0.001 ? (cosine * scale, sine * scale) : (0, sine > 0 ? scale : -scale)
        let transform = AffineTransform(a: c, b: s, c: -s, d: c, tx: midX - c * midX + s * midY, ty: midY - s * midX - c * midY)
        return image.transformed(by: transform).cropped(to: extent)
    }

    /// Core Image's CISampleNearest (`CIImage.samplingNearest()`): the same pixels, marked so that
    /// the affine transforms applied next (CIAffineTransform, CIAffineClamp, CIStraightenFilter)
    /// read the input pixel containing each output centre's source point, `out(p) = in(⌊T⁻¹·p⌋)`,
    /// instead of blending four: a ×4 upscale is 4×4 blocks. Extent the input's. Ours: warp-based
    /// geometry filters (distortions, tiles) still sample bilinearly, where Core Image honours the mark.
    static let sampleNearest = FilterDescriptor(
        name: "CISampleNearest", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Marks the image to be resampled by the nearest pixel by the affine transforms applied next: out(p) = in(⌊T⁻¹·p⌋); "
            + "the pixels themselves unchanged; extent the input's.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in try args.image("inputImage").samplingNearest() }
}
