import Foundation

/// The engine's intermediate representation.
///
/// A program is a flat array of instructions over *registers*. Each register holds one channel of a
/// span of pixels (``SpanInterpreter/spanWidth`` of them) as `Float32`, so every instruction runs as
/// one tight, auto-vectorised loop over the span. Vectors in the kernel language (`vec2`, `vec4`)
/// are several registers; swizzles are register renames and cost nothing.
///
/// Built-in filters and user kernels both lower to this IR, which is why a user's kernel
/// concatenates with the built-ins into one program.

/// An instruction operand: a register, a literal constant, or a uniform.
///
/// Uniforms are the program's parameters (a filter's slope, a matrix): their values live outside the
/// program, so a program is cached by structure and re-rendering with new values does not recompile.
package enum Operand: Hashable, Sendable, CustomStringConvertible {
    case register(Int)
    case constant(Float)
    case uniform(Int)

    package var description: String {
        switch self {
        case .register(let index): return "r\(index)"
        case .constant(let value): return formatFloat(value)
        case .uniform(let index): return "u\(index)"
        }
    }
}

/// Four registers holding the R, G, B and A channels of a span.
package struct RegisterQuad: Hashable, Sendable, CustomStringConvertible {
    package var r: Int, g: Int, b: Int, a: Int
    package init(_ r: Int, _ g: Int, _ b: Int, _ a: Int) { self.r = r; self.g = g; self.b = b; self.a = a }
    package var registers: [Int] { [r, g, b, a] }
    package var operands: [Operand] { registers.map(Operand.register) }
    package var description: String { "(r\(r) r\(g) r\(b) r\(a))" }
}

/// Three registers holding the R, G and B channels of a span.
package struct RegisterTriple: Hashable, Sendable, CustomStringConvertible {
    package var r: Int, g: Int, b: Int
    package init(_ r: Int, _ g: Int, _ b: Int) { self.r = r; self.g = g; self.b = b }
    package var description: String { "(r\(r) r\(g) r\(b))" }
}

/// Four operands, one per channel (a pixel value that may be partly constant).
package struct OperandQuad: Hashable, Sendable, CustomStringConvertible {
    package var r: Operand, g: Operand, b: Operand, a: Operand
    package init(_ r: Operand, _ g: Operand, _ b: Operand, _ a: Operand) { self.r = r; self.g = g; self.b = b; self.a = a }
    package init(_ quad: RegisterQuad) { self.init(.register(quad.r), .register(quad.g), .register(quad.b), .register(quad.a)) }
    package init(_ operands: [Operand]) {
        precondition(operands.count == 4, "OperandQuad needs four operands")
        self.init(operands[0], operands[1], operands[2], operands[3])
    }
    package var operands: [Operand] { [r, g, b, a] }
    package var description: String { "(\(r) \(g) \(b) \(a))" }
}

/// One-operand arithmetic. Semantics follow GLSL; every function is total (NaN in, NaN out).
@usableFromInline package enum UnaryOperator: String, Hashable, Sendable, CaseIterable {
    case negate, abs, sign, floor, ceil, fract, sqrt, inverseSqrt
    case exp, exp2, log, log2, sin, cos, tan, asin, acos, atan
    /// 1 where the operand is 0, else 0.
    case logicalNot
    /// Sign-preserving sRGB decode: `sign(y)·(|y| ≤ 0.04045 ? |y|/12.92 : ((|y|+0.055)/1.055)^2.4)`.
    case srgbToLinear
    /// Sign-preserving sRGB encode: `sign(x)·(|x| ≤ 0.0031308 ? 12.92|x| : 1.055|x|^(1/2.4) − 0.055)`.
    case linearToSRGB
}

/// Two-operand arithmetic and comparisons. Comparisons give 1 or 0.
@usableFromInline package enum BinaryOperator: String, Hashable, Sendable, CaseIterable {
    case add, subtract, multiply, divide, minimum, maximum, power
    /// GLSL `mod`: `x − y·floor(x/y)`.
    case modulo
    /// `atan(y, x)`, first operand is y.
    case atan2
    /// GLSL `step(edge, x)`: `x < edge ? 0 : 1`.
    case step
    case lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, equal, notEqual
    case logicalAnd, logicalOr
}

/// Three-operand functions.
@usableFromInline package enum TernaryOperator: String, Hashable, Sendable, CaseIterable {
    /// `a·b + c` (not fused: the same rounding as a separate multiply and add).
    case multiplyAdd
    /// GLSL `mix(a, b, t)` = `a + (b − a)·t`.
    case mix
    /// GLSL `clamp(x, lo, hi)` = `min(max(x, lo), hi)`.
    case clamp
    /// `cond != 0 ? a : b`.
    case select
    /// GLSL `smoothstep(e0, e1, x)`: `t = clamp((x−e0)/(e1−e0), 0, 1); t·t·(3 − 2t)`.
    case smoothstep
    /// Core Image `compare(x, y, z)`: `x < 0 ? y : z`.
    case compare
}

/// One IR instruction. Destinations are registers; sources are operands.
package enum Instruction: Hashable, Sendable {
    case unary(UnaryOperator, destination: Int, Operand)
    case binary(BinaryOperator, destination: Int, Operand, Operand)
    case ternary(TernaryOperator, destination: Int, Operand, Operand, Operand)
    /// Copies an operand (used for constants that must live in a register).
    case move(destination: Int, Operand)
    /// The working-space x / y of the pixel centres being computed (`destCoord()`).
    case destinationX(Int)
    case destinationY(Int)
    /// Reads input `input` at the pixels being computed (colour kernels: `__sample`).
    case load(input: Int, destination: RegisterQuad)
    /// Reads input `input` at a working-space point (warp and general kernels: `sample()`),
    /// with the input's sampling filter and edge mode.
    case sample(input: Int, x: Operand, y: Operand, destination: RegisterQuad)
    /// A `sample` at `destCoord() + (dx, dy)` for whole-pixel offsets (a stencil tap, what 3×3
    /// kernels read), lowered by ``ProgramBuilder/sample(input:x:y:)``: the same values, read from
    /// rows of the input held once per span instead of gathered point by point.
    case stencil(input: Int, dx: Int, dy: Int, destination: RegisterQuad)
    /// A 4×5 colour matrix on unclamped values: `out[i] = Σ_j m[i][j]·in[j] + m[i][4]`,
    /// with the 20 coefficients in uniforms `uniformBase ..< uniformBase + 20`, row-major.
    case colorMatrix(destination: RegisterQuad, source: OperandQuad, uniformBase: Int)
    /// The same for a matrix whose alpha row is `[0 0 0 1 0]`: only the three colour rows are
    /// computed (alpha passes through as the source's alpha operand).
    case colorMatrixRGB(destination: RegisterTriple, source: OperandQuad, uniformBase: Int)
    /// A 3D colour lookup table (`CIColorCube`) on premultiplied colour: `c = a > 0 ? rgb/a : rgb`,
    /// table coordinates `clamp(c, 0, 1)·(d − 1)` (with `extrapolate`, unclamped: the edge cells
    /// extend linearly), trilinear interpolation of the 8 surrounding RGBA texels, times `a`. The
    /// `d³` texels (red fastest, then green, then blue; 4 floats each) are the uniforms
    /// `uniformBase ..< uniformBase + 4·d³`.
    case lookup3D(destination: RegisterQuad, source: OperandQuad, dimension: Int, extrapolate: Bool, uniformBase: Int)
    /// Writes the program's result.
    case store(OperandQuad)

    /// The registers this instruction writes.
    package var writtenRegisters: [Int] {
        switch self {
        case .unary(_, let d, _), .binary(_, let d, _, _), .ternary(_, let d, _, _, _), .move(let d, _),
             .destinationX(let d), .destinationY(let d):
            return [d]
        case .load(_, let quad), .sample(_, _, _, let quad), .stencil(_, _, _, let quad), .colorMatrix(let quad, _, _),
             .lookup3D(let quad, _, _, _, _):
            return quad.registers
        case .colorMatrixRGB(let triple, _, _):
            return [triple.r, triple.g, triple.b]
        case .store:
            return []
        }
    }

    /// The operands this instruction reads.
    package var readOperands: [Operand] {
        switch self {
        case .unary(_, _, let a), .move(_, let a): return [a]
        case .binary(_, _, let a, let b): return [a, b]
        case .ternary(_, _, let a, let b, let c): return [a, b, c]
        case .destinationX, .destinationY, .load, .stencil: return []
        case .sample(_, let x, let y, _): return [x, y]
        case .colorMatrix(_, let source, _), .colorMatrixRGB(_, let source, _), .lookup3D(_, let source, _, _, _):
            return source.operands
        case .store(let quad): return quad.operands
        }
    }

    /// The same instruction with every register renamed through `map` (used by register allocation).
    func renamingRegisters(_ map: (Int) -> Int) -> Instruction {
        func op(_ o: Operand) -> Operand {
            if case .register(let r) = o { return .register(map(r)) }
            return o
        }
        func quad(_ q: RegisterQuad) -> RegisterQuad { RegisterQuad(map(q.r), map(q.g), map(q.b), map(q.a)) }
        func ops(_ q: OperandQuad) -> OperandQuad { OperandQuad(op(q.r), op(q.g), op(q.b), op(q.a)) }
        switch self {
        case .unary(let f, let d, let a): return .unary(f, destination: map(d), op(a))
        case .binary(let f, let d, let a, let b): return .binary(f, destination: map(d), op(a), op(b))
        case .ternary(let f, let d, let a, let b, let c): return .ternary(f, destination: map(d), op(a), op(b), op(c))
        case .move(let d, let a): return .move(destination: map(d), op(a))
        case .destinationX(let d): return .destinationX(map(d))
        case .destinationY(let d): return .destinationY(map(d))
        case .load(let input, let q): return .load(input: input, destination: quad(q))
        case .sample(let input, let x, let y, let q): return .sample(input: input, x: op(x), y: op(y), destination: quad(q))
        case .stencil(let input, let dx, let dy, let q): return .stencil(input: input, dx: dx, dy: dy, destination: quad(q))
        case .colorMatrix(let d, let s, let base): return .colorMatrix(destination: quad(d), source: ops(s), uniformBase: base)
        case .colorMatrixRGB(let d, let s, let base):
            return .colorMatrixRGB(destination: RegisterTriple(map(d.r), map(d.g), map(d.b)), source: ops(s), uniformBase: base)
        case .lookup3D(let d, let s, let dimension, let extrapolate, let base):
            return .lookup3D(destination: quad(d), source: ops(s), dimension: dimension, extrapolate: extrapolate, uniformBase: base)
        case .store(let q): return .store(ops(q))
        }
    }
}
