import Foundation

/// The kernel language's built-in functions: their signatures (for the type checker) and their IR
/// (for lowering). Semantics follow GLSL and Core Image; component-wise forms apply per component,
/// a `float` argument broadcasting where GLSL allows it (`clamp(v, 0.0, 1.0)`).
enum Builtin: String, CaseIterable, Sendable {
    // Core Image sampler and coordinate functions.
    case sample, samplerCoord, samplerTransform, samplerExtent, samplerOrigin, samplerSize, destCoord
    case premultiply, unpremultiply, compare
    // GLSL common functions.
    case clamp, mix, step, smoothstep, min, max, abs, sign, floor, ceil, fract, mod
    case pow, sqrt, inversesqrt, exp, exp2, log, log2
    case sin, cos, tan, asin, acos, atan, radians, degrees
    case dot, length, distance, normalize, cross
    case sincos, cossin
    // Core Image's fast trigonometry (same results here).
    case sin_, cos_, tan_, cossin_

    /// A parameter slot of a built-in's signature.
    enum Parameter {
        /// `genType`: float, vec2, vec3 or vec4, the same for every `gen` slot of a call.
        case gen
        case exact(ValueType)
    }

    enum Result {
        case gen
        case exact(ValueType)
    }

    struct Overload {
        var parameters: [Parameter]
        var result: Result
        /// Parameter names for messages.
        var names: [String]
    }

    var overloads: [Overload] {
        func o(_ p: [Parameter], _ r: Result, _ names: String) -> Overload {
            Overload(parameters: p, result: r, names: names.split(separator: " ").map(String.init))
        }
        let float = Parameter.exact(.float)
        switch self {
        case .sample: return [o([.exact(.sampler), .exact(.vec2)], .exact(.vec4), "src point")]
        case .samplerCoord, .samplerOrigin, .samplerSize: return [o([.exact(.sampler)], .exact(.vec2), "src")]
        case .samplerExtent: return [o([.exact(.sampler)], .exact(.vec4), "src")]
        case .samplerTransform: return [o([.exact(.sampler), .exact(.vec2)], .exact(.vec2), "src point")]
        case .destCoord: return [o([], .exact(.vec2), "")]
        case .premultiply, .unpremultiply: return [o([.exact(.vec4)], .exact(.vec4), "color")]
        case .compare: return [o([.gen, .gen, .gen], .gen, "x y z")]
        case .clamp: return [o([.gen, .gen, .gen], .gen, "x minVal maxVal"), o([.gen, float, float], .gen, "x minVal maxVal")]
        case .mix: return [o([.gen, .gen, .gen], .gen, "x y a"), o([.gen, .gen, float], .gen, "x y a")]
        case .step: return [o([.gen, .gen], .gen, "edge x"), o([float, .gen], .gen, "edge x")]
        case .smoothstep:
            return [o([.gen, .gen, .gen], .gen, "edge0 edge1 x"), o([float, float, .gen], .gen, "edge0 edge1 x")]
        case .min, .max, .mod: return [o([.gen, .gen], .gen, "x y"), o([.gen, float], .gen, "x y")]
        case .pow: return [o([.gen, .gen], .gen, "x y")]
        case .atan: return [o([.gen], .gen, "y_over_x"), o([.gen, .gen], .gen, "y x")]
        case .abs, .sign, .floor, .ceil, .fract, .sqrt, .inversesqrt, .exp, .exp2, .log, .log2,
             .sin, .cos, .tan, .asin, .acos, .radians, .degrees, .sin_, .cos_, .tan_:
            return [o([.gen], .gen, "x")]
        case .normalize: return [o([.gen], .gen, "x")]
        case .dot, .distance: return [o([.gen, .gen], .exact(.float), "x y")]
        case .length: return [o([.gen], .exact(.float), "x")]
        case .cross: return [o([.exact(.vec3), .exact(.vec3)], .exact(.vec3), "x y")]
        case .sincos, .cossin, .cossin_: return [o([float], .exact(.vec2), "x")]
        }
    }

    /// Picks the overload for the argument types; `nil` if none fits.
    func resultType(for arguments: [ValueType]) -> ValueType? {
        for overload in overloads where overload.parameters.count == arguments.count {
            var gen: ValueType?
            var fits = true
            for (parameter, argument) in zip(overload.parameters, arguments) {
                switch parameter {
                case .exact(let type):
                    if type != argument { fits = false }
                case .gen:
                    if !argument.isNumeric { fits = false }
                    if let g = gen, g != argument { fits = false }
                    gen = argument
                }
            }
            guard fits else { continue }
            switch overload.result {
            case .exact(let type): return type
            case .gen: return gen ?? .float
            }
        }
        return nil
    }

    /// `clamp(genType x, float minVal, float maxVal)` and so on, for messages.
    var signatures: [String] {
        overloads.map { overload in
            let parameters = zip(overload.parameters, overload.names).map { parameter, name in
                switch parameter {
                case .gen: return "genType \(name)"
                case .exact(let type): return "\(type) \(name)"
                }
            }
            return "\(rawValue)(\(parameters.joined(separator: ", ")))"
        }
    }

    var argumentCounts: [Int] { Array(Set(overloads.map(\.parameters.count))).sorted() }

    /// Whether the first parameter is a sampler.
    var takesSampler: Bool {
        if case .exact(.sampler)? = overloads.first?.parameters.first { return true }
        return false
    }

    // MARK: Lowering

    /// Emits the built-in applied to already-lowered arguments. The type checker guarantees the shapes.
    func emit(
        _ arguments: [LoweredValue], resultType: ValueType, into b: inout ProgramBuilder,
        destination: (x: Operand, y: Operand)
    ) -> [Operand] {
        let n = Swift.max(resultType.componentCount, 1)
        /// Component `i` of data argument `k`, broadcasting scalars.
        func c(_ k: Int, _ i: Int) -> Operand {
            guard k < arguments.count, case .data(let ops) = arguments[k], !ops.isEmpty else { return .constant(0) }
            return ops.count == 1 ? ops[0] : ops[Swift.min(i, ops.count - 1)]
        }
        func data(_ k: Int) -> [Operand] {
            guard k < arguments.count, case .data(let ops) = arguments[k] else { return [] }
            return ops
        }
        func extent() -> [Operand] {
            guard case .sampler(_, let e)? = arguments.first, e.count == 4 else { return Array(repeating: .constant(0), count: 4) }
            return e
        }
        func unary(_ op: UnaryOperator, _ b: inout ProgramBuilder) -> [Operand] {
            (0..<n).map { b.unary(op, c(0, $0)) }
        }
        func binary(_ op: BinaryOperator, _ b: inout ProgramBuilder) -> [Operand] {
            (0..<n).map { b.binary(op, c(0, $0), c(1, $0)) }
        }
        func ternary(_ op: TernaryOperator, _ b: inout ProgramBuilder) -> [Operand] {
            (0..<n).map { b.ternary(op, c(0, $0), c(1, $0), c(2, $0)) }
        }
        func dot(_ x: [Operand], _ y: [Operand], _ b: inout ProgramBuilder) -> Operand {
            var sum: Operand = .constant(0)
            for (p, q) in zip(x, y) { sum = b.binary(.add, sum, b.binary(.multiply, p, q)) }
            return sum
        }
        func length(_ x: [Operand], _ b: inout ProgramBuilder) -> Operand {
            if x.count == 1 { return b.unary(.abs, x[0]) }
            return b.unary(.sqrt, dot(x, x, &b))
        }

        switch self {
        case .sample:
            guard case .sampler(let slot, _)? = arguments.first else { return Array(repeating: .constant(0), count: 4) }
            return b.sample(input: slot, x: c(1, 0), y: c(1, 1)).operands
        case .samplerCoord, .destCoord: return [destination.x, destination.y]
        case .samplerTransform: return [c(1, 0), c(1, 1)]
        case .samplerExtent: return extent()
        case .samplerOrigin: return Array(extent()[0..<2])
        case .samplerSize: return Array(extent()[2..<4])
        case .premultiply: return b.premultiply(OperandQuad(c(0, 0), c(0, 1), c(0, 2), c(0, 3))).operands
        case .unpremultiply: return b.unpremultiply(OperandQuad(c(0, 0), c(0, 1), c(0, 2), c(0, 3))).operands
        case .compare: return ternary(.compare, &b)
        case .clamp: return ternary(.clamp, &b)
        case .mix: return ternary(.mix, &b)
        case .smoothstep: return ternary(.smoothstep, &b)
        case .step: return binary(.step, &b)
        case .min: return binary(.minimum, &b)
        case .max: return binary(.maximum, &b)
        case .mod: return binary(.modulo, &b)
        case .pow: return binary(.power, &b)
        case .atan: return arguments.count == 2 ? binary(.atan2, &b) : unary(.atan, &b)
        case .abs: return unary(.abs, &b)
        case .sign: return unary(.sign, &b)
        case .floor: return unary(.floor, &b)
        case .ceil: return unary(.ceil, &b)
        case .fract: return unary(.fract, &b)
        case .sqrt: return unary(.sqrt, &b)
        case .inversesqrt: return unary(.inverseSqrt, &b)
        case .exp: return unary(.exp, &b)
        case .exp2: return unary(.exp2, &b)
        case .log: return unary(.log, &b)
        case .log2: return unary(.log2, &b)
        case .sin, .sin_: return unary(.sin, &b)
        case .cos, .cos_: return unary(.cos, &b)
        case .tan, .tan_: return unary(.tan, &b)
        case .asin: return unary(.asin, &b)
        case .acos: return unary(.acos, &b)
        case .radians: return (0..<n).map { b.binary(.multiply, c(0, $0), .constant(Float(Double.pi / 180))) }
        case .degrees: return (0..<n).map { b.binary(.multiply, c(0, $0), .constant(Float(180 / Double.pi))) }
        case .dot: return [dot(data(0), data(1), &b)]
        case .length: return [length(data(0), &b)]
        case .distance:
            let difference = zip(data(0), data(1)).map { b.binary(.subtract, $0, $1) }
            return [length(difference, &b)]
        case .normalize:
            let x = data(0)
            let inverse = b.unary(.inverseSqrt, dot(x, x, &b))
            return x.map { b.binary(.multiply, $0, inverse) }
        case .cross:
            let x = data(0), y = data(1)
            guard x.count == 3, y.count == 3 else { return Array(repeating: .constant(0), count: 3) }
            func term(_ i: Int, _ j: Int, _ b: inout ProgramBuilder) -> Operand {
                b.binary(.subtract, b.binary(.multiply, x[i], y[j]), b.binary(.multiply, x[j], y[i]))
            }
            return [term(1, 2, &b), term(2, 0, &b), term(0, 1, &b)]
        case .sincos: return [b.unary(.sin, c(0, 0)), b.unary(.cos, c(0, 0))]
        case .cossin, .cossin_: return [b.unary(.cos, c(0, 0)), b.unary(.sin, c(0, 0))]
        }
    }
}
