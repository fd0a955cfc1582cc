/// A ``ToneCurve``'s formulas as IR instructions (the stage planner lowers colour conversions with them).
extension ToneCurve {
    /// ``decode(_:)`` of `x` as instructions.
    func lowerDecode(_ x: Operand, builder: inout ProgramBuilder) -> Operand {
        let m = builder.unary(.abs, x)
        let base = builder.binary(.maximum, builder.ternary(.multiplyAdd, m, .constant(Float(a)), .constant(Float(b))),
                                  .constant(0))
        var y = builder.binary(.power, base, .constant(Float(g)))
        if e != 0 { y = builder.binary(.add, y, .constant(Float(e))) }
        if d > 0 {
            let linear = builder.ternary(.multiplyAdd, m, .constant(Float(c)), .constant(Float(f)))
            y = builder.ternary(.select, builder.binary(.greaterThanOrEqual, m, .constant(Float(d))), y, linear)
        }
        return builder.binary(.multiply, builder.unary(.sign, x), y)
    }

    /// ``encode(_:)`` of `y` as instructions.
    func lowerEncode(_ y: Operand, builder: inout ProgramBuilder) -> Operand {
        let m = builder.unary(.abs, y)
        let shifted = builder.binary(.maximum, e != 0 ? builder.binary(.subtract, m, .constant(Float(e))) : m, .constant(0))
        let root = builder.binary(.power, shifted, .constant(Float(1 / g)))
        var x = builder.binary(.multiply, builder.binary(.subtract, root, .constant(Float(b))), .constant(Float(1 / a)))
        if d > 0 {
            let linear = c > 0
                ? builder.binary(.multiply, builder.binary(.subtract, m, .constant(Float(f))), .constant(Float(1 / c)))
                : Operand.constant(Float(d))
            x = builder.ternary(.select, builder.binary(.greaterThanOrEqual, m, .constant(Float(threshold))), x, linear)
        }
        return builder.binary(.multiply, builder.unary(.sign, y), x)
    }
}
