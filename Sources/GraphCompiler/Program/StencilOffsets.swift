/// Recognises the points of stencil taps: `destCoord() + (dx, dy)` with whole-pixel constants, the
/// reads of 3×3 (and other small) neighbourhood kernels, lowered to
/// ``Instruction/stencil(input:dx:dy:destination:)``.
extension ProgramBuilder {
    /// The largest offset lowered (wider reads stay gathers: the rows held grow with it).
    static let maximumStencilOffset = 8

    /// `(dx, dy)` when `x` is `destCoord().x` itself or it plus (or minus) a whole constant, and
    /// `y` likewise of `destCoord().y`; nil otherwise.
    func stencilOffset(x: Operand, y: Operand) -> (dx: Int, dy: Int)? {
        guard let destination = destinationCache, let dx = offset(x, from: destination.x), let dy = offset(y, from: destination.y)
        else { return nil }
        return (dx, dy)
    }

    /// The whole number `c` with `operand = coordinate + c` (in Float, `coordinate − c` is
    /// `coordinate + (−c)` exactly), from the instruction that last wrote the operand.
    private func offset(_ operand: Operand, from coordinate: Operand) -> Int? {
        if operand == coordinate { return 0 }
        guard case .register(let r) = operand,
              let definition = instructions.last(where: { $0.writtenRegisters.contains(r) }) else { return nil }
        switch definition {
        case .binary(.add, _, let a, .constant(let c)) where a == coordinate: return whole(c)
        case .binary(.add, _, .constant(let c), let b) where b == coordinate: return whole(c)
        case .binary(.subtract, _, let a, .constant(let c)) where a == coordinate: return whole(-c)
        default: return nil
        }
    }

    private func whole(_ c: Float) -> Int? {
        guard c == c.rounded(), abs(c) <= Float(Self.maximumStencilOffset) else { return nil }
        return Int(c)
    }
}
