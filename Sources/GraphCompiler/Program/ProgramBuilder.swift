/// Emits IR for one program while recipe nodes and kernels are lowered into it.
///
/// Lowering code asks for registers, uniforms and instructions here. Literal constants are folded
/// as they are emitted (so `x * 1.0` costs nothing); uniforms are never folded, because their
/// values are not part of the program's structure. Repeated pure instructions are emitted once
/// (``ValueNumbering``). Inputs known grey (``greyInputs``) load and sample as one register in
/// red, green and blue, so per-channel code on them computes one channel.
package struct ProgramBuilder: Sendable {
    package private(set) var instructions: [Instruction] = []
    /// For each instruction, the recipe node it was lowered from (for the program dumps).
    package private(set) var origins: [String] = []
    package private(set) var registerCount = 0
    /// Uniform values in slot order.
    package private(set) var uniformValues: [Float] = []
    /// Names of the inputs the program reads, in slot order (filled by the stage lowering).
    package var inputCount = 0
    /// The recipe node whose lowering is emitting right now.
    package var currentOrigin = ""
    /// Input slots whose R, G and B are equal bit for bit (filled by the stage lowering).
    package var greyInputs: Set<Int> = []
    /// Input slots read with clamped edges whose pixels all have alpha 1 (opaque, non-empty extent;
    /// filled by the stage lowering): a stencil tap reads one of their pixels (weights 1, 0, 0, 0),
    /// so its alpha is the constant 1 and the code on it folds away, as after a `load`. (A gather
    /// between pixels sums four weights, not exactly 1.)
    package var opaqueClampedInputs: Set<Int> = []
    private var numbering = ValueNumbering()

    package init() {}

    /// A fresh register.
    package mutating func newRegister() -> Int {
        registerCount += 1
        return registerCount - 1
    }

    /// Four fresh registers.
    package mutating func newQuad() -> RegisterQuad {
        RegisterQuad(newRegister(), newRegister(), newRegister(), newRegister())
    }

    /// Appends an instruction, attributed to ``currentOrigin``.
    package mutating func emit(_ instruction: Instruction) {
        instructions.append(instruction)
        origins.append(currentOrigin)
    }

    /// Adds a uniform slot holding `value`.
    package mutating func uniform(_ value: Float) -> Operand {
        uniformValues.append(value)
        return .uniform(uniformValues.count - 1)
    }

    /// Adds consecutive uniform slots and returns the first index.
    package mutating func uniforms(_ values: [Float]) -> Int {
        let base = uniformValues.count
        uniformValues.append(contentsOf: values)
        return base
    }

    /// The register holding `key`'s result: the one computed before, or a new one `instruction`
    /// (given the destination) computes.
    private mutating func numbered(_ key: ValueNumbering.Key, _ instruction: (Int) -> Instruction) -> Int {
        if let earlier = numbering.register(for: key) { return earlier }
        let d = newRegister()
        emit(instruction(d))
        numbering.record(key, in: d)
        return d
    }


    // MARK: Arithmetic with constant folding

    package mutating func unary(_ op: UnaryOperator, _ a: Operand) -> Operand {
        if case .constant(let x) = a { return .constant(ScalarMath.unary(op, x)) }
        return .register(numbered(.unary(op, a)) { .unary(op, destination: $0, a) })
    }

    package mutating func binary(_ op: BinaryOperator, _ a: Operand, _ b: Operand) -> Operand {
        if case .constant(let x) = a, case .constant(let y) = b { return .constant(ScalarMath.binary(op, x, y)) }
        // Algebraic identities that hold for every float, NaN included.
        switch (op, a, b) {
        case (.add, _, .constant(0)): return a
        case (.add, .constant(0), _): return b
        case (.subtract, _, .constant(0)): return a
        case (.multiply, _, .constant(1)): return a
        case (.multiply, .constant(1), _): return b
        case (.divide, _, .constant(1)): return a
        default: break
        }
        return .register(numbered(ValueNumbering.binary(op, a, b)) { .binary(op, destination: $0, a, b) })
    }

    package mutating func ternary(_ op: TernaryOperator, _ a: Operand, _ b: Operand, _ c: Operand) -> Operand {
        if case .constant(let x) = a, case .constant(let y) = b, case .constant(let z) = c {
            return .constant(ScalarMath.ternary(op, x, y, z))
        }
        if op == .select, case .constant(let condition) = a { return condition != 0 ? b : c }
        if op == .select, b == c { return b }
        return .register(numbered(.ternary(op, a, b, c)) { .ternary(op, destination: $0, a, b, c) })
    }

    /// Puts an operand into a register (a no-op for registers).
    package mutating func materialize(_ a: Operand) -> Int {
        if case .register(let r) = a { return r }
        return numbered(.move(a)) { .move(destination: $0, a) }
    }

    /// The destination coordinate (`destCoord()`), emitted once per program.
    package mutating func destinationCoordinate() -> (x: Operand, y: Operand) {
        if let cached = destinationCache { return cached }
        let x = newRegister(), y = newRegister()
        emit(.destinationX(x))
        emit(.destinationY(y))
        destinationCache = (.register(x), .register(y))
        return (.register(x), .register(y))
    }

    /// The registers of `destCoord()` once emitted.
    private(set) var destinationCache: (x: Operand, y: Operand)?

    /// Reads input `slot` at the destination pixels: `(v, v, v, a)` from a grey input.
    package mutating func load(input slot: Int) -> OperandQuad {
        let quad = newQuad()
        emit(.load(input: slot, destination: quad))
        return greyInputs.contains(slot) ? OperandQuad(.register(quad.r), .register(quad.r), .register(quad.r), .register(quad.a))
            : OperandQuad(quad)
    }

    /// Samples input `slot` at a working-space point: `(v, v, v, a)` from a grey input (the
    /// interpolation is the same on each channel). A point that is `destCoord()` plus whole pixels
    /// becomes a stencil tap (``stencilOffset(x:y:)``).
    package mutating func sample(input slot: Int, x: Operand, y: Operand) -> OperandQuad {
        let quad = newQuad()
        var alpha = Operand.register(quad.a)
        if let (dx, dy) = stencilOffset(x: x, y: y) {
            emit(.stencil(input: slot, dx: dx, dy: dy, destination: quad))
            if opaqueClampedInputs.contains(slot) { alpha = .constant(1) }
        } else {
            emit(.sample(input: slot, x: x, y: y, destination: quad))
        }
        return greyInputs.contains(slot) ? OperandQuad(.register(quad.r), .register(quad.r), .register(quad.r), alpha)
            : OperandQuad(.register(quad.r), .register(quad.g), .register(quad.b), alpha)
    }

    /// Applies a 4×5 row-major colour matrix held in 20 new uniforms. Equal R, G and B rows (bit
    /// for bit) give one value: the result is grey, `(v, v, v, a)`, whatever the source (so the
    /// code after it depends on whether the rows are equal, as ``Greyness`` does: rows that become
    /// equal or unequal compile another program).
    package mutating func colorMatrix(_ matrix: [Float], _ source: OperandQuad) -> OperandQuad {
        precondition(matrix.count == 20, "a colour matrix has 20 coefficients")
        let equalRows = (0..<5).allSatisfy {
            matrix[$0].bitPattern == matrix[5 + $0].bitPattern && matrix[$0].bitPattern == matrix[10 + $0].bitPattern
        }
        if matrix[15] == 0 && matrix[16] == 0 && matrix[17] == 0 && matrix[18] == 1 && matrix[19] == 0 {
            // Alpha passes through: three rows only (the matrix shape is part of the structure).
            let base = uniforms(Array(matrix[0..<15]))
            let triple = RegisterTriple(newRegister(), newRegister(), newRegister())
            emit(.colorMatrixRGB(destination: triple, source: source, uniformBase: base))
            let g = equalRows ? triple.r : triple.g, b = equalRows ? triple.r : triple.b
            return OperandQuad(.register(triple.r), .register(g), .register(b), source.a)
        }
        let base = uniforms(matrix)
        let quad = newQuad()
        emit(.colorMatrix(destination: quad, source: source, uniformBase: base))
        return equalRows ? OperandQuad(.register(quad.r), .register(quad.r), .register(quad.r), .register(quad.a))
            : OperandQuad(quad)
    }

    /// Looks premultiplied `source` up in a 3D colour table (``Instruction/lookup3D(destination:source:dimension:extrapolate:uniformBase:)``)
    /// whose `4·d³` floats are the consecutive uniform operands `table`.
    package mutating func lookup3D(_ source: OperandQuad, table: ArraySlice<Operand>, dimension: Int,
                                  extrapolate: Bool) throws -> OperandQuad {
        let count = 4 * dimension * dimension * dimension
        guard dimension >= 2, table.count == count, case .uniform(let base)? = table.first,
              case .uniform(let last)? = table.last, last == base + count - 1 else {
            throw GraphError.invalidKernel("lut3d needs \(count) consecutive uniforms for a \(dimension)³ table")
        }
        let quad = newQuad()
        emit(.lookup3D(destination: quad, source: source, dimension: dimension, extrapolate: extrapolate, uniformBase: base))
        return OperandQuad(quad)
    }

    /// Finishes the program: stores `result`, allocates registers and returns it with its uniforms.
    package mutating func finish(storing result: OperandQuad) -> (program: Program, uniforms: [Float], origins: [String]) {
        emit(.store(result))
        let live = DeadCodeElimination.run(instructions, origins: origins)
        let allocated = RegisterAllocator.allocate(live.instructions)
        let program = Program(
            instructions: allocated.instructions, registerCount: allocated.registerCount,
            inputCount: inputCount, uniformCount: uniformValues.count)
        return (program, uniformValues, live.origins)
    }
}

extension ProgramBuilder {
    // Premultiplied-alpha helpers shared by filters and the kernel language.

    /// `rgb / a` where `a > 0`, else the input unchanged (Core Image `unpremultiply`).
    package mutating func unpremultiply(_ c: OperandQuad) -> OperandQuad {
        let positive = binary(.greaterThan, c.a, .constant(0))
        func channel(_ x: Operand, _ b: inout ProgramBuilder) -> Operand {
            b.ternary(.select, positive, b.binary(.divide, x, c.a), x)
        }
        return OperandQuad(channel(c.r, &self), channel(c.g, &self), channel(c.b, &self), c.a)
    }

    /// `(rgb·a, a)` (Core Image `premultiply`).
    package mutating func premultiply(_ c: OperandQuad) -> OperandQuad {
        OperandQuad(binary(.multiply, c.r, c.a), binary(.multiply, c.g, c.a), binary(.multiply, c.b, c.a), c.a)
    }
}
