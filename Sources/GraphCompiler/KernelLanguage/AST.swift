/// The syntax tree produced by ``Parser``: untyped, with source locations for messages.

/// A type name as written (`vec4`, `__sample`, `mat3`), resolved by the type checker.
struct TypeName: Sendable, Hashable {
    var name: String
    var location: SourceLocation
}

enum PrefixOperator: String, Sendable, Hashable {
    case negate = "-", plus = "+", not = "!"
}

enum InfixOperator: String, Sendable, Hashable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case equal = "==", notEqual = "!="
    case and = "&&", or = "||"

    /// Binding strength; larger binds tighter.
    var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .equal, .notEqual: return 3
        case .less, .lessEqual, .greater, .greaterEqual: return 4
        case .add, .subtract: return 5
        case .multiply, .divide: return 6
        }
    }
}

struct Expr: Sendable {
    indirect enum Kind: Sendable {
        case number(Float)
        case boolean(Bool)
        case identifier(String)
        case prefix(PrefixOperator, Expr)
        case infix(InfixOperator, Expr, Expr)
        case conditional(Expr, Expr, Expr)
        /// A function call or a constructor (`vec4(...)`, `float(...)`).
        case call(name: String, arguments: [Expr])
        /// `.rgb`, `.xy`: the component letters as written.
        case swizzle(Expr, String)
    }

    var kind: Kind
    /// Where messages about this node point: the operator of an infix expression, the name of a
    /// call, the components of a swizzle.
    var location: SourceLocation
    /// The first character of the whole expression (for messages about its value).
    var start: SourceLocation
    /// Height of this subtree, bounded by the parser so later recursive passes stay shallow.
    var depth: Int
}

enum AssignmentOperator: String, Sendable, Hashable {
    case assign = "=", add = "+=", subtract = "-=", multiply = "*=", divide = "/="
}

struct Declarator: Sendable {
    var name: String
    var location: SourceLocation
    var initializer: Expr?
}

struct Stmt: Sendable {
    indirect enum Kind: Sendable {
        case declaration(isConstant: Bool, type: TypeName, [Declarator])
        case assignment(target: Expr, AssignmentOperator, value: Expr)
        /// `x++`, `--x` and friends: `delta` is +1 or −1.
        case increment(target: Expr, delta: Float)
        case expression(Expr)
        case ifElse(condition: Expr, then: Stmt, otherwise: Stmt?)
        case forLoop(initializer: Stmt, condition: Expr, step: Stmt, body: Stmt)
        case returnValue(Expr?)
        case block([Stmt])
        case empty
    }

    var kind: Kind
    var location: SourceLocation
}

struct ParameterDecl: Sendable {
    var type: TypeName
    var name: String
    var location: SourceLocation
}

struct FunctionDecl: Sendable {
    var isKernel: Bool
    /// Where the declaration starts (`kernel` or the return type).
    var location: SourceLocation
    var returnType: TypeName
    var name: String
    var nameLocation: SourceLocation
    var parameters: [ParameterDecl]
    var body: [Stmt]
    /// The closing brace of the body.
    var bodyEnd: SourceLocation
}
