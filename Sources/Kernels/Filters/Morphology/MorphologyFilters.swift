import GraphEngine

/// Morphology: per-channel maximum (dilation) and minimum (erosion) of premultiplied RGBA over a
/// disc or a rectangle. NaN (a hole in a depth map) never wins against a number. Extents grow by
/// the structuring element's reach.
enum MorphologyFilters {
    static let categories = ["CICategoryBlur", "CICategoryStillImage", "CICategoryVideo"]
    static let all: [FilterDescriptor] = [maximum, minimum, rectangleMaximum, rectangleMinimum, gradient]

    static let radiusInput = FilterInput("inputRadius", .number, default: .number(0), minimum: 0, maximum: 1000, slider: 0...50,
                                         "The disc's radius in pixels.")

    /// `max` over the disc `dx² + dy² ≤ r²`, by row spans (O(r) per pixel).
    static let maximum = FilterDescriptor(
        name: "CIMorphologyMaximum", categories: categories,
        summary: "Dilates: per channel max over dx² + dy² ≤ r² (row spans; NaN ignored).",
        inputs: [ColorAdjustmentFilters.imageInput, radiusInput]
    ) { args in try disc(args, .maximum, "CIMorphologyMaximum") }

    /// `min` over the disc `dx² + dy² ≤ r²`, by row spans (O(r) per pixel).
    static let minimum = FilterDescriptor(
        name: "CIMorphologyMinimum", categories: categories,
        summary: "Erodes: per channel min over dx² + dy² ≤ r² (row spans; NaN ignored).",
        inputs: [ColorAdjustmentFilters.imageInput, radiusInput]
    ) { args in try disc(args, .minimum, "CIMorphologyMinimum") }

    static func disc(_ args: FilterArguments, _ reduction: DiscSpans.Reduction, _ name: String) throws -> Image {
        let image = try args.image("inputImage"), radius = try args.number("inputRadius")
        if radius < 1 { return image }
        return image.applying(DiscSpans(radius: radius, reduction: reduction, filterName: name))
    }

    static let rectangleInputs = [
        ColorAdjustmentFilters.imageInput,
        FilterInput("inputWidth", .number, default: .number(5), minimum: 1, maximum: 2001, slider: 1...50,
                    "The rectangle's width in pixels, rounded to the nearest odd integer."),
        FilterInput("inputHeight", .number, default: .number(5), minimum: 1, maximum: 2001, slider: 1...50,
                    "The rectangle's height in pixels, rounded to the nearest odd integer."),
    ]

    /// `max` over a width × height rectangle (each rounded to the nearest odd integer), separably by
    /// van Herk / Gil-Werman: O(1) per pixel whatever the size.
    static let rectangleMaximum = FilterDescriptor(
        name: "CIMorphologyRectangleMaximum", categories: categories,
        summary: "Dilates: per channel max over a width × height rectangle, each rounded to the nearest odd integer (van Herk, O(1) per pixel).",
        inputs: rectangleInputs
    ) { args in try rectangle(args, .maximum, "CIMorphologyRectangleMaximum") }

    /// `min` over a width × height rectangle (each rounded to the nearest odd integer), separably by
    /// van Herk / Gil-Werman: O(1) per pixel whatever the size.
    static let rectangleMinimum = FilterDescriptor(
        name: "CIMorphologyRectangleMinimum", categories: categories,
        summary: "Erodes: per channel min over a width × height rectangle, each rounded to the nearest odd integer (van Herk, O(1) per pixel).",
        inputs: rectangleInputs
    ) { args in try rectangle(args, .minimum, "CIMorphologyRectangleMinimum") }

    static func rectangle(_ args: FilterArguments, _ operation: RectangleMorphology.Operation, _ name: String) throws -> Image {
        var image = try args.image("inputImage")
        // The nearest odd integer 2n + 1.
        let nx = Int(((try args.number("inputWidth") - 1) / 2).rounded()), ny = Int(((try args.number("inputHeight") - 1) / 2).rounded())
        if nx > 0 { image = image.applying(RectangleMorphology(axis: .horizontal, radius: nx, operation: operation, filterName: name)) }
        if ny > 0 { image = image.applying(RectangleMorphology(axis: .vertical, radius: ny, operation: operation, filterName: name)) }
        return image
    }

    /// `max − min` over the disc of radius inputRadius on R, G, B, with the maximum's alpha: edges
    /// light up, flat areas go black. Apple's handling of alpha is not public; this is ours.
    static let gradient = FilterDescriptor(
        name: "CIMorphologyGradient", categories: ["CICategoryStylize", "CICategoryStillImage", "CICategoryVideo"],
        summary: "Finds edges: rgb = max − min over the disc of radius inputRadius, alpha of the max.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(5), minimum: 0, maximum: 1000, slider: 0...50,
                             "The disc's radius in pixels.")]
    ) { args in
        let image = try args.image("inputImage"), radius = try args.number("inputRadius")
        let dilated = radius < 1 ? image : image.applying(DiscSpans(radius: radius, reduction: .maximum, filterName: "CIMorphologyGradient_max"))
        let eroded = radius < 1 ? image : image.applying(DiscSpans(radius: radius, reduction: .minimum, filterName: "CIMorphologyGradient_min"))
        return dilated.applying(AreaCombineOperation(.gradient), with: [eroded], extent: dilated.extent)
    }
}
