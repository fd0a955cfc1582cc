// How the compiler turns an operation's description (``ColorOperation``, ``WarpOperation``,
// ``GeneralOperation``: the recipe's view) into IR: a lowering protocol per kind, which each
// operation conforms to in an extension beside its description (`extension GammaOperation:
// ColorLowering { func emit(...) }`), and a `lower` on each description that finds it, so the
// stage planner and the reference evaluator lower any node without the recipe layer knowing of
// ``ProgramBuilder``.

/// A colour operation's IR: the output pixel from the input pixels at the same position.
package protocol ColorLowering: ColorOperation {
    /// Emits the instructions computing the output's premultiplied RGBA from `inputs` (each
    /// input's premultiplied RGBA) and `uniforms` (``Operation/uniformValues``, in order).
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) throws -> OperandQuad
}

/// A warp operation's IR: the point of its input each output pixel samples.
package protocol WarpLowering: WarpOperation {
    /// Emits the instructions computing the input position to sample for `destination`.
    func emit(uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) throws -> (x: Operand, y: Operand)
}

/// An input of a general kernel as seen from its lowering.
package struct SamplerBinding: Sendable {
    /// The program input slot to pass to ``ProgramBuilder/sample(input:x:y:)``.
    package let slot: Int
    /// The input's extent as uniforms `x, y, width, height` (for `samplerExtent`).
    package let extent: [Operand]

    package init(slot: Int, extent: [Operand]) {
        self.slot = slot
        self.extent = extent
    }
}

/// A general operation's IR: the output pixel from samples of its inputs anywhere.
package protocol GeneralLowering: GeneralOperation {
    /// Emits the instructions computing the output's premultiplied RGBA, sampling the inputs
    /// through `samplers`.
    func emit(samplers: [SamplerBinding], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) throws -> OperandQuad
}

extension ColorOperation {
    /// This operation's IR, from its ``ColorLowering``; an operation declared without one cannot
    /// run as a program, which is an error naming it.
    package func lower(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
                       builder: inout ProgramBuilder) throws -> OperandQuad {
        guard let lowering = self as? any ColorLowering else { throw GraphError.renderFailed(missingLowering(name)) }
        return try lowering.emit(inputs: inputs, uniforms: uniforms, destination: destination, builder: &builder)
    }
}

extension WarpOperation {
    /// This operation's IR, from its ``WarpLowering`` (an error naming it when it has none).
    package func lower(uniforms: [Operand], destination: (x: Operand, y: Operand),
                       builder: inout ProgramBuilder) throws -> (x: Operand, y: Operand) {
        guard let lowering = self as? any WarpLowering else { throw GraphError.renderFailed(missingLowering(name)) }
        return try lowering.emit(uniforms: uniforms, destination: destination, builder: &builder)
    }
}

extension GeneralOperation {
    /// This operation's IR, from its ``GeneralLowering`` (an error naming it when it has none).
    package func lower(samplers: [SamplerBinding], uniforms: [Operand], destination: (x: Operand, y: Operand),
                       builder: inout ProgramBuilder) throws -> OperandQuad {
        guard let lowering = self as? any GeneralLowering else { throw GraphError.renderFailed(missingLowering(name)) }
        return try lowering.emit(samplers: samplers, uniforms: uniforms, destination: destination, builder: &builder)
    }
}

/// The error of an operation whose description has no lowering (a defect of its declaration).
private func missingLowering(_ name: String) -> String {
    "\(name) has no lowering to a program (its description lacks the Optimizer's lowering conformance)"
}
