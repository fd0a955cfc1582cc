/// The type-checked form of a kernel source: every name resolved to a variable or function index,
/// every call to a built-in resolved, compound assignments expanded, loops given their counter
/// values. ``KernelLowering`` turns it into IR without further checks.

struct TypedExpr: Sendable {
    indirect enum Node: Sendable {
        /// A float or bool constant (bools are 0 or 1).
        case constant(Float)
        case variable(Int)
        case swizzle(TypedExpr, [Int])
        /// `vecN(...)`, `float(...)`: a single scalar broadcasts, otherwise components concatenate
        /// and the first `type.componentCount` are used.
        case construct([TypedExpr])
        /// Component-wise.
        case unary(UnaryOperator, TypedExpr)
        /// Component-wise, a scalar operand broadcasting over a vector one.
        case binary(BinaryOperator, TypedExpr, TypedExpr)
        /// `==` (or `!=` when negated) over all components, giving one bool.
        case allEqual(TypedExpr, TypedExpr, negated: Bool)
        /// `c ? a : b` with a bool condition, component-wise over the branches.
        case select(TypedExpr, TypedExpr, TypedExpr)
        case builtin(Builtin, [TypedExpr])
        case call(function: Int, [TypedExpr])
    }

    var type: ValueType
    var node: Node
    var location: SourceLocation
}

indirect enum TypedStmt: Sendable {
    /// A new variable, zero if it has no initialiser.
    case declare(variable: Int, type: ValueType, TypedExpr?)
    /// Writes `value` to the variable, or to the listed components of it.
    case assign(variable: Int, components: [Int]?, TypedExpr)
    case ifElse(TypedExpr, [TypedStmt], [TypedStmt])
    case returnValue(TypedExpr)
    case block([TypedStmt])
    /// A `for` loop unrolled at compile time: the body runs once per counter value.
    case loop(variable: Int, values: [Float], body: [TypedStmt])
}

struct CheckedParameter: Sendable {
    var variable: Int
    var type: ValueType
    var declaredType: String
    var name: String
    var location: SourceLocation
}

struct CheckedFunction: Sendable {
    var name: String
    var location: SourceLocation
    var returnType: ValueType
    var parameters: [CheckedParameter]
    var body: [TypedStmt]
}

struct CheckedProgram: Sendable {
    var functions: [CheckedFunction]
    var kernelIndex: Int
    var kernel: CheckedFunction { functions[kernelIndex] }
}
