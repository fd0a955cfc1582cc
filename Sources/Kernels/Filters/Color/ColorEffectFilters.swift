import GraphEngine

/// Colour effects (CICategoryColorEffect).
enum ColorEffectFilters {
    static let categories = ["CICategoryColorEffect", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [sepia, invert]

    /// `mix(rgb, S·rgb, intensity)` with the classic sepia matrix
    /// `S = [[.393 .769 .189] [.349 .686 .168] [.272 .534 .131]]` (Apple's exact kernel is not
    /// public; this is the widely used one). Linear in rgb, so it is a colour matrix at any intensity.
    static let sepia = FilterDescriptor(
        name: "CISepiaTone", categories: categories,
        summary: "Maps colours to sepia tones.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputIntensity", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0...1,
                             "0 is the original, 1 full sepia.")]
    ) { args in
        let t = try args.number("inputIntensity")
        let image = try args.image("inputImage")
        if t == 0 { return image }
        let s: [Double] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
        let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        let m = zip(identity, s).map { (1 - t) * $0 + t * $1 }
        return image.applyingColorMatrix(ColorMatrix(rgb: m, sourceName: "CISepiaTone"))
    }

    /// `rgb' = 1 − rgb` on unpremultiplied colour, i.e. `a − rgb` on premultiplied colour.
    static let invert = FilterDescriptor(
        name: "CIColorInvert", categories: categories, summary: "Inverts colours.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in
        try args.image("inputImage").applying(ColorInvertOperation())
    }
}

struct ColorInvertOperation: ColorOperation {
    var name: String { "CIColorInvert" }
    var structureKey: String { "CIColorInvert" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "" }
}

extension ColorInvertOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = inputs[0]
        return OperandQuad(b.binary(.subtract, s.a, s.r), b.binary(.subtract, s.a, s.g), b.binary(.subtract, s.a, s.b), s.a)
    }
}
