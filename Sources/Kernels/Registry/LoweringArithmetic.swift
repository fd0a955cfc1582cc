import GraphEngine

/// Short names for the IR arithmetic the catalogue's Swift lowerings emit (constants fold as
/// they are emitted, see ``GraphEngine/ProgramBuilder``).
extension ProgramBuilder {
    mutating func add(_ a: Operand, _ b: Operand) -> Operand { binary(.add, a, b) }
    mutating func subtract(_ a: Operand, _ b: Operand) -> Operand { binary(.subtract, a, b) }
    mutating func multiply(_ a: Operand, _ b: Operand) -> Operand { binary(.multiply, a, b) }
    mutating func minimum(_ a: Operand, _ b: Operand) -> Operand { binary(.minimum, a, b) }
    mutating func maximum(_ a: Operand, _ b: Operand) -> Operand { binary(.maximum, a, b) }
    /// `a·b + c`.
    mutating func multiplyAdd(_ a: Operand, _ b: Operand, _ c: Operand) -> Operand { ternary(.multiplyAdd, a, b, c) }
    /// `condition != 0 ? a : b`.
    mutating func select(_ condition: Operand, _ a: Operand, _ b: Operand) -> Operand { ternary(.select, condition, a, b) }
    /// Σ weights[i]·values[i], left to right.
    mutating func dot(_ weights: [Operand], _ values: [Operand]) -> Operand {
        zip(weights, values).dropFirst().reduce(multiply(weights[0], values[0])) { multiplyAdd($1.0, $1.1, $0) }
    }
    /// `transform` applied to R, G and B; alpha kept.
    mutating func eachColor(_ c: OperandQuad, _ transform: (Operand, inout ProgramBuilder) -> Operand) -> OperandQuad {
        OperandQuad(transform(c.r, &self), transform(c.g, &self), transform(c.b, &self), c.a)
    }
}
