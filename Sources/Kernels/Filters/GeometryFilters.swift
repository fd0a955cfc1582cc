import GraphEngine

/// Geometry (CICategoryGeometryAdjustment).
enum GeometryFilters {
    static let categories = ["CICategoryGeometryAdjustment", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [affine, crop]

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
}
