import Foundation
import GraphEngine

/// Compositing and blending, on premultiplied colour.
enum CompositingFilters {
    static let all: [FilterDescriptor] = [sourceOver, blendWithMask, blendWithAlphaMask, blendWithRedMask, blendWithBlueMask]
        + operators.map(descriptor)

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
        try blendWithMask(args, channel: 1, name: "CIBlendWithMask")
    }

    /// CIBlendWithMask with `m = clamp(mask.a, 0, 1)`.
    static let blendWithAlphaMask = maskBlend("CIBlendWithAlphaMask", channel: 3, "alpha")
    /// CIBlendWithMask with `m = clamp(mask.r, 0, 1)`.
    static let blendWithRedMask = maskBlend("CIBlendWithRedMask", channel: 0, "red")
    /// CIBlendWithMask with `m = clamp(mask.b, 0, 1)`.
    static let blendWithBlueMask = maskBlend("CIBlendWithBlueMask", channel: 2, "blue")

    static func maskBlend(_ name: String, channel: Int, _ channelName: String) -> FilterDescriptor {
        FilterDescriptor(
            name: name, categories: ["CICategoryStylize", "CICategoryStillImage"],
            summary: "Blends the image over the background where the mask (\(channelName) channel) is high.",
            inputs: [FilterInput("inputImage", .image, "Shown where the mask is 1."),
                     FilterInput("inputBackgroundImage", .image, "Shown where the mask is 0."),
                     FilterInput("inputMaskImage", .image, "Its \(channelName) channel is the blend weight.")]
        ) { args in
            try blendWithMask(args, channel: channel, name: name)
        }
    }

    static func blendWithMask(_ args: FilterArguments, channel: Int, name: String) throws -> Image {
        let image = try args.image("inputImage"), background = try args.image("inputBackgroundImage")
        return image.applying(BlendWithMaskOperation(channel: channel, name: name), with: [background, try args.image("inputMaskImage")],
                              extent: image.extent.union(background.extent))
    }

    // MARK: Porter-Duff and component operators

    /// A compositing operator on premultiplied RGBA `S` (inputImage) and `B` (inputBackgroundImage),
    /// written in the kernel language; `intersect`: the result is 0 outside either image.
    struct Operator {
        let name: String
        let formula: String
        let summary: String
        var intersect = false
    }

    /// The destination operators and exclusive-or are Core Image's `CIBlendKernel.destinationOver`
    /// (…`In`, `Out`, `Atop`, `exclusiveOr`); as filters they are named like CISourceInCompositing.
    static let operators: [Operator] = [
        Operator(name: "CIAdditionCompositing", formula: "s + b", summary: "Adds the two images (all channels)."),
        Operator(name: "CIMultiplyCompositing", formula: "s * b", summary: "Multiplies the two images (all channels).",
                 intersect: true),
        Operator(name: "CIMinimumCompositing", formula: "min(s, b)", summary: "The smaller of each channel."),
        Operator(name: "CIMaximumCompositing", formula: "max(s, b)", summary: "The larger of each channel."),
        Operator(name: "CISourceInCompositing", formula: "s * b.a", summary: "The image where the background is.", intersect: true),
        Operator(name: "CISourceOutCompositing", formula: "s * (1.0 - b.a)", summary: "The image where the background is not."),
        Operator(name: "CISourceAtopCompositing", formula: "s * b.a + b * (1.0 - s.a)",
                 summary: "The image over the background, only where the background is."),
        Operator(name: "CIDestinationOverCompositing", formula: "b + s * (1.0 - b.a)", summary: "The background over the image."),
        Operator(name: "CIDestinationInCompositing", formula: "b * s.a", summary: "The background where the image is.",
                 intersect: true),
        Operator(name: "CIDestinationOutCompositing", formula: "b * (1.0 - s.a)", summary: "The background where the image is not."),
        Operator(name: "CIDestinationAtopCompositing", formula: "b * s.a + s * (1.0 - b.a)",
                 summary: "The background over the image, only where the image is."),
        Operator(name: "CIExclusiveOrCompositing", formula: "s * (1.0 - b.a) + b * (1.0 - s.a)",
                 summary: "Each image where the other is not."),
    ]

    static let operatorKernels: [String: CatalogueKernel] = Dictionary(uniqueKeysWithValues: operators.map { op in
        (op.name, CatalogueKernel("kernel vec4 \(op.name)(__sample s, __sample b) { return \(op.formula); }"))
    })

    static func descriptor(_ op: Operator) -> FilterDescriptor {
        FilterDescriptor(
            name: op.name, categories: ["CICategoryCompositeOperation", "CICategoryVideo", "CICategoryStillImage"],
            summary: "\(op.summary) Premultiplied: \(op.formula.replacingOccurrences(of: "1.0", with: "1")).",
            inputs: [FilterInput("inputImage", .image, "The image (s)."), FilterInput("inputBackgroundImage", .image, "The background (b).")]
        ) { args in
            let image = try args.image("inputImage"), background = try args.image("inputBackgroundImage")
            guard let kernel = operatorKernels[op.name] else { throw GraphError.unknownFilter(op.name) }
            let extent = op.intersect ? image.extent.intersection(background.extent) : image.extent.union(background.extent)
            return try kernel.apply([.image(image), .image(background)], extent: extent)
        }
    }
}

/// `mix(B, S, clamp(mask[channel], 0, 1))` on premultiplied colour.
struct BlendWithMaskOperation: ColorOperation {
    /// The mask channel (0 red, 1 green, 2 blue, 3 alpha).
    let channel: Int
    let name: String
    var structureKey: String { "BlendWithMask \(channel)" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "" }
}

extension BlendWithMaskOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = inputs[0], background = inputs[1]
        let m = b.ternary(.clamp, inputs[2].operands[channel], .constant(0), .constant(1))
        return OperandQuad(b.ternary(.mix, background.r, s.r, m), b.ternary(.mix, background.g, s.g, m),
                           b.ternary(.mix, background.b, s.b, m), b.ternary(.mix, background.a, s.a, m))
    }
}
