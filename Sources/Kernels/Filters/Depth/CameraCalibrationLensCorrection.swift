import GraphCodecs
import GraphEngine

/// Core Image's `CICameraCalibrationLensCorrection`: undoes (or, with the inverse table, applies)
/// the radial lens distortion a camera calibration describes, as Apple's
/// `lensDistortionPointForPoint` (AVCameraCalibrationData.h) does for every output pixel.
///
/// With the distortion centre `c` (the calibration's, in reference pixels from the top left, scaled
/// to the input's size and put in the input's y-up frame), `r_max` the distance from `c` to the
/// input's farthest corner and `m[0…n−1]` the calibration's look-up table
/// (`CameraCalibration.lensDistortionLookupTable(inverse:)`, 42 magnifications from the
/// centre to the farthest corner):
///
///     v = p − c,  s = min(|v|·(n − 1)/r_max, n − 1)
///     m(s) = m[⌊s⌋]·(1 − fract(s)) + m[⌊s⌋ + 1]·fract(s)        (linear interpolation)
///     out(p) = bilinear(in, c + v·(1 + m(s)))
///
/// The forward table (the default) maps each point of the corrected, rectilinear picture to where
/// the lens put it, so the output is the undistorted image; `inputUseInverseLookUpTable` maps the
/// other way and distorts a rectilinear image as the lens would. Outside the input's extent the
/// input is transparent (Core Image's rule for a finite image); the extent is the input's. The
/// interpolation runs in the kernel as a sum of hinges, `m(s) = m[0] + Σₖ (slopeₖ − slopeₖ₋₁)·max(s − k, 0)`
/// with `slopeₖ = m[k+1] − m[k]` (`slope₋₁ = 0`), which equals the piecewise-linear form exactly.
enum CameraCalibrationLensCorrection {
    /// The hinge slots the kernel holds, four to a vector: tables of up to `hingeSlots + 1` entries.
    static let hingeVectors = 11
    static let hingeSlots = hingeVectors * 4

    static let filter = FilterDescriptor(
        name: "CICameraCalibrationLensCorrection",
        categories: ["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Undoes the lens distortion of a camera calibration (an iPhone depth photo's): out(p) = bilinear(in, c + (p − c)·(1 + m(|p − c|))), "
            + "m the calibration's magnification table interpolated linearly from the centre c (scaled to the input) to its farthest corner; "
            + "the inverse table distorts instead; extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputAVCameraCalibrationData", .cameraCalibration,
                             "The calibration whose lens distortion to correct; a recipe takes that of the depth photo the input image is read from."),
                 FilterInput("inputUseInverseLookUpTable", .bool, default: .bool(false),
                             "Use the inverse table: distort a rectilinear image as the lens would.")]
    ) { args in
        let image = try args.image("inputImage")
        let key = "inputAVCameraCalibrationData"
        let calibration = try args.cameraCalibration(key)
        let inverse = try args.bool("inputUseInverseLookUpTable")
        func fail(_ reason: String) -> GraphError { GraphError.invalidParameter(filter: args.filter, key: key, reason: reason) }
        if let problem = calibration.lensDistortionProblem { throw fail("the calibration cannot correct lens distortion: \(problem)") }
        guard let table = calibration.lensDistortionLookupTable(inverse: inverse), let centre = calibration.lensDistortionCenter else {
            throw fail("the calibration has no lens distortion table")
        }
        let extent = image.extent
        guard !extent.isInfinite, !extent.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "the image is \(extent.isEmpty ? "empty" : "infinite"): the distortion centre is placed by the image's size; crop it first")
        }
        return try apply(to: image, table: table, centre: centre,
                         referenceSize: (calibration.referenceWidth, calibration.referenceHeight))
    }

    /// The correction with `table` (2 to `hingeSlots` + 1 magnifications) about `centre`, given
    /// in pixels of a `referenceSize` image from its top left, applied to `image` (finite).
    static func apply(to image: Image, table: [Double], centre: (x: Double, y: Double),
                      referenceSize: (width: Double, height: Double)) throws -> Image {
        guard table.count >= 2, table.count <= hingeSlots + 1 else {
            throw GraphError.invalidParameter(filter: filter.name, key: "inputAVCameraCalibrationData",
                                              reason: "a look-up table of \(table.count) entries; 2 to \(hingeSlots + 1) are supported")
        }
        let extent = image.extent
        let scaleX = extent.width / referenceSize.width, scaleY = extent.height / referenceSize.height
        let c = [extent.minX + centre.x * scaleX, extent.maxY - centre.y * scaleY]
        let dx = max(c[0] - extent.minX, extent.maxX - c[0]), dy = max(c[1] - extent.minY, extent.maxY - c[1])
        let maximumRadius = (dx * dx + dy * dy).squareRoot()
        let last = Double(table.count - 1)
        var hinges = [Double](repeating: 0, count: hingeSlots)
        var previousSlope = 0.0
        for k in 0..<(table.count - 1) {
            let slope = table[k + 1] - table[k]
            hinges[k] = slope - previousSlope
            previousSlope = slope
        }
        // A source lies at most max|m|·r_max from its output point (r_max: every point of the extent is within it).
        let reach = (table.map(abs).max() ?? 0) * maximumRadius
        var arguments: [KernelArgument] = [.image(image), .vector(c), .number(maximumRadius > 0 ? last / maximumRadius : 0),
                                           .number(last), .number(table[0])]
        arguments += (0..<hingeVectors).map { .vector(Array(hinges[(4 * $0)..<(4 * $0 + 4)])) }
        return try kernel.apply(arguments, extent: extent, regionOfInterest: .radius(reach + 1))
    }

    static let kernel = CatalogueKernel("""
        kernel vec2 CICameraCalibrationLensCorrection(vec2 center, float indexPerPixel, float last, float m0, \
        \((0..<hingeVectors).map { "vec4 h\($0)" }.joined(separator: ", "))) {
            vec2 v = destCoord() - center;
            float s = min(length(v) * indexPerPixel, last);
            float m = m0\((0..<hingeVectors).map { i in
                " + dot(max(vec4(s) - vec4(\((0..<4).map { "\(Double(4 * i + $0))" }.joined(separator: ", "))), 0.0), h\(i))"
            }.joined());
            return center + v * (1.0 + m);
        }
        """)
}
