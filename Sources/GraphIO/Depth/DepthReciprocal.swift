/// Depth ↔ disparity on a data map: each colour channel becomes its reciprocal (alpha kept), the
/// ``DepthData/converting(to:)`` conversion. Maps are opaque, so premultiplication plays no part.
struct DepthReciprocal: ColorOperation {
    /// The kind the values become.
    let to: DepthData.Kind

    var name: String { to == .depth ? "disparityToDepth" : "depthToDisparity" }
    var structureKey: String { name }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "" }
}

extension DepthReciprocal: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) -> OperandQuad {
        let value = inputs[0]
        return OperandQuad(builder.binary(.divide, .constant(1), value.r), builder.binary(.divide, .constant(1), value.g),
                           builder.binary(.divide, .constant(1), value.b), value.a)
    }
}
