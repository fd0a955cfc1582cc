import GraphEngine

/// Compositing and blending, on premultiplied colour.
enum CompositingFilters {
    static let all: [FilterDescriptor] = [sourceOver, blendWithMask]

    /// Porter-Duff source-over: `S + B·(1 − S.a)`.
    static let sourceOver = FilterDescriptor(
        name: "CISourceOverCompositing", categories: ["CICategoryCompositeOperation", "CICategoryStillImage"],
        summary: "Places the image over the background.",
        inputs: [FilterInput("inputImage", .image, "The foreground."),
                 FilterInput("inputBackgroundImage", .image, "The background.")]
    ) { args in
        try args.image("inputImage").composited(over: try args.image("inputBackgroundImage"))
    }

    /// `mix(B, S, m)` with `m = clamp(mask.g, 0, 1)`: mask 1 shows the image, 0 the background.
    /// Extent: the union of image and background.
    static let blendWithMask = FilterDescriptor(
        name: "CIBlendWithMask", categories: ["CICategoryStylize", "CICategoryStillImage"],
        summary: "Blends the image over the background where the mask (green channel) is bright.",
        inputs: [FilterInput("inputImage", .image, "Shown where the mask is 1."),
                 FilterInput("inputBackgroundImage", .image, "Shown where the mask is 0."),
                 FilterInput("inputMaskImage", .image, "Its green channel is the blend weight.")]
    ) { args in
        let image = try args.image("inputImage"), background = try args.image("inputBackgroundImage")
        return image.applying(BlendWithMaskOperation(), with: [background, try args.image("inputMaskImage")],
                              extent: image.extent.union(background.extent))
    }
}

struct BlendWithMaskOperation: ColorOperation {
    var name: String { "CIBlendWithMask" }
    var structureKey: String { "CIBlendWithMask" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "" }
    func lower(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
               builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = inputs[0], background = inputs[1]
        let m = b.ternary(.clamp, inputs[2].g, .constant(0), .constant(1))
        return OperandQuad(b.ternary(.mix, background.r, s.r, m), b.ternary(.mix, background.g, s.g, m),
                           b.ternary(.mix, background.b, s.b, m), b.ternary(.mix, background.a, s.a, m))
    }
}
