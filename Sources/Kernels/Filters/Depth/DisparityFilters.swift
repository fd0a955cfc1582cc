import GraphEngine

/// Depth and disparity conversions (CICategoryColorAdjustment on depth data, which is never
/// colour-matched). Depth is in metres, disparity in 1/metres (AVDepthData's units).
enum DisparityFilters {
    static let categories = ["CICategoryColorAdjustment", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [depthToDisparity, disparityToDepth, focusDisparity]

    /// `v' = 1/v` per colour channel of unpremultiplied data, alpha kept, guarded: 0 gives 65504 (the
    /// largest half float, so half-float intermediates stay finite), larger magnitudes are clamped
    /// to ±65504, NaN holes stay NaN.
    static let depthToDisparity = FilterDescriptor(
        name: "CIDepthToDisparity", categories: categories, summary: "Converts depth (m) to disparity (1/m): 1/depth.",
        inputs: [FilterInput("inputImage", .image, "The depth map.")]
    ) { args in
        try reciprocal.apply([.image(try args.image("inputImage"))])
    }

    /// `v' = 1/v`, guarded as CIDepthToDisparity.
    static let disparityToDepth = FilterDescriptor(
        name: "CIDisparityToDepth", categories: categories, summary: "Converts disparity (1/m) to depth (m): 1/disparity.",
        inputs: [FilterInput("inputImage", .image, "The disparity map.")]
    ) { args in
        try reciprocal.apply([.image(try args.image("inputImage"))])
    }

    static let reciprocal = CatalogueKernel("""
        float inverse(float v) { return v == 0.0 ? 65504.0 : sign(v) * min(1.0 / abs(v), 65504.0); }
        kernel vec4 reciprocal(__sample s) {
            vec4 c = unpremultiply(s);
            return premultiply(vec4(inverse(c.r), inverse(c.g), inverse(c.b), c.a));
        }
        """)
}
