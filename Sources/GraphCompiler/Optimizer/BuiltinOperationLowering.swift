// The lowerings of the operations the recipe API itself builds (Recipe/BuiltinOperations.swift).

extension ConstantColor: ColorLowering {
    package func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) -> OperandQuad {
        OperandQuad(uniforms)
    }
}

extension SourceOver: ColorLowering {
    package func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) -> OperandQuad {
        let source = inputs[0], background = inputs[1]
        let inverseAlpha = builder.binary(.subtract, .constant(1), source.a)
        func channel(_ s: Operand, _ b: Operand, _ builder: inout ProgramBuilder) -> Operand {
            builder.ternary(.multiplyAdd, b, inverseAlpha, s)
        }
        return OperandQuad(channel(source.r, background.r, &builder), channel(source.g, background.g, &builder),
                           channel(source.b, background.b, &builder), channel(source.a, background.a, &builder))
    }
}

extension WorkingSpaceMatch: ColorLowering {
    package func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) -> OperandQuad {
        inputs[0]
    }
}
