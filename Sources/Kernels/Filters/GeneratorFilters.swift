import GraphEngine

/// Generators (no input image; infinite extent).
enum GeneratorFilters {
    static let all: [FilterDescriptor] = [constantColor]

    static let constantColor = FilterDescriptor(
        name: "CIConstantColorGenerator", categories: ["CICategoryGenerator", "CICategoryStillImage"],
        summary: "An infinite image of one colour (unpremultiplied RGBA).",
        inputs: [FilterInput("inputColor", .color, default: .vector([1, 0, 0, 1]), "The colour (r g b a).")]
    ) { args in
        Image(color: try args.vector("inputColor"))
    }
}
