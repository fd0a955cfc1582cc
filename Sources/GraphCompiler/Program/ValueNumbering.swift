/// Value numbering (hash-consing) for ``ProgramBuilder``: the same pure operation on the same
/// operands gives the register computed the first time instead of a second instruction.
///
/// Pure instructions (unary, binary, ternary, move) depend only on their operands, so merging them
/// is exact. This is what keeps grey data grey through per-channel code: a kernel computing
/// `c.r > t`, `c.g > t` and `c.b > t` on a grey input (`c.r`, `c.g`, `c.b` one register) gets one
/// register for all three, and a program storing one value in red, green and blue stores one plane.
/// Operands are compared as operands: two uniform slots are two operands whatever their values
/// (the program's structure stays independent of parameter values).
struct ValueNumbering: Sendable {
    /// A pure instruction without its destination.
    enum Key: Hashable, Sendable {
        case unary(UnaryOperator, Operand)
        case binary(BinaryOperator, Operand, Operand)
        case ternary(TernaryOperator, Operand, Operand, Operand)
        case move(Operand)
    }

    private var results: [Key: Int] = [:]

    /// The key of `op(a, b)`: exactly commutative operations (add, multiply) key their operands in
    /// one fixed order (registers, then uniforms, then constants), so `x·y` and `y·x` are one value.
    static func binary(_ op: BinaryOperator, _ a: Operand, _ b: Operand) -> Key {
        func rank(_ o: Operand) -> (Int, UInt32) {
            switch o {
            case .register(let r): return (0, UInt32(truncatingIfNeeded: r))
            case .uniform(let u): return (1, UInt32(truncatingIfNeeded: u))
            case .constant(let c): return (2, c.bitPattern)
            }
        }
        return (op == .add || op == .multiply) && rank(b) < rank(a) ? .binary(op, b, a) : .binary(op, a, b)
    }

    /// The register that already holds `key`'s result, if any.
    func register(for key: Key) -> Int? { results[key] }

    /// Remembers that `register` holds `key`'s result.
    mutating func record(_ key: Key, in register: Int) { results[key] = register }
}
