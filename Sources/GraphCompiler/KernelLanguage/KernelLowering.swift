/// A value during lowering: data operands (1–4, one per component) or a sampler binding.
enum LoweredValue: Sendable, Equatable {
    case data([Operand])
    case sampler(slot: Int, extent: [Operand])

    var operands: [Operand] {
        if case .data(let operands) = self { return operands }
        return []
    }
}

/// Lowers a ``CheckedProgram`` into IR for one destination span.
///
/// Straight-line SIMD lowering: every variable is a list of operands that is *replaced* on
/// assignment (registers are written once). An `if` with a per-pixel condition lowers both branches
/// and merges the variables they changed with `select`; an `if` whose condition is a constant lowers
/// only the taken branch. `return` inside a branch is tracked by a per-pixel "returned" mask: a later
/// `return` only affects pixels that have not returned yet. Helper calls are inlined (the type
/// checker has ruled out recursion) and `for` loops are unrolled.
struct KernelLowering {
    static let maximumInstructions = 500_000
    static let maximumInlineDepth = 64

    private let program: CheckedProgram
    private(set) var builder: ProgramBuilder
    private let destination: (x: Operand, y: Operand)
    private let startCount: Int
    private var inlineDepth = 0

    init(program: CheckedProgram, builder: ProgramBuilder, destination: (x: Operand, y: Operand)) {
        self.program = program
        self.builder = builder
        self.destination = destination
        self.startCount = builder.instructions.count
    }

    /// Per-function lowering state.
    private struct Frame {
        var variables: [Int: LoweredValue] = [:]
        /// 1 where the pixel has returned already, 0 where not (often a constant).
        var returned: Operand = .constant(0)
        var result: [Operand]?
    }

    mutating func lowerKernel(arguments: [LoweredValue]) throws(KernelCompileError) -> [Operand] {
        try lowerFunction(program.kernelIndex, arguments: arguments)
    }

    private mutating func lowerFunction(_ index: Int, arguments: [LoweredValue]) throws(KernelCompileError) -> [Operand] {
        let function = program.functions[index]
        inlineDepth += 1
        defer { inlineDepth -= 1 }
        if inlineDepth > KernelLowering.maximumInlineDepth {
            throw KernelCompileError(function.location, "helper functions are nested too deeply (more than \(KernelLowering.maximumInlineDepth) calls)")
        }
        var frame = Frame()
        for (parameter, argument) in zip(function.parameters, arguments) {
            frame.variables[parameter.variable] = argument
        }
        try lower(function.body, &frame, in: function)
        return frame.result ?? zeros(function.returnType.componentCount)
    }

    private func zeros(_ count: Int) -> [Operand] { Array(repeating: .constant(0), count: count) }

    // MARK: Statements

    private mutating func lower(_ statements: [TypedStmt], _ frame: inout Frame, in function: CheckedFunction) throws(KernelCompileError) {
        for statement in statements {
            if frame.returned == .constant(1) { return }  // the rest is unreachable
            try lower(statement, &frame, in: function)
            if builder.instructions.count - startCount > KernelLowering.maximumInstructions {
                throw KernelCompileError(
                    program.kernel.location,
                    "the kernel is too large once helpers are inlined and loops unrolled (more than \(KernelLowering.maximumInstructions) instructions)")
            }
        }
    }

    private mutating func lower(_ statement: TypedStmt, _ frame: inout Frame, in function: CheckedFunction) throws(KernelCompileError) {
        switch statement {
        case .declare(let variable, let type, let initializer):
            if let initializer {
                frame.variables[variable] = try evaluate(initializer, frame)
            } else {
                frame.variables[variable] = .data(zeros(type.componentCount))
            }
        case .assign(let variable, let components, let valueExpr):
            let value = try evaluate(valueExpr, frame).operands
            guard let components else {
                frame.variables[variable] = .data(value)
                return
            }
            var operands = frame.variables[variable]?.operands ?? []
            for (k, index) in components.enumerated() where index < operands.count && k < value.count {
                operands[index] = value[k]
            }
            frame.variables[variable] = .data(operands)
        case .block(let statements):
            try lower(statements, &frame, in: function)
        case .loop(let variable, let values, let body):
            for value in values {
                if frame.returned == .constant(1) { return }
                frame.variables[variable] = .data([.constant(value)])
                try lower(body, &frame, in: function)
            }
        case .returnValue(let valueExpr):
            let value = try evaluate(valueExpr, frame).operands
            if frame.returned == .constant(0) {
                frame.result = value
            } else {
                let previous = frame.result ?? zeros(value.count)
                frame.result = zip(previous, value).map { select(frame.returned, $0, $1) }
            }
            frame.returned = .constant(1)
        case .ifElse(let conditionExpr, let then, let otherwise):
            let condition = try evaluate(conditionExpr, frame).operands.first ?? .constant(0)
            if case .constant(let value) = condition {
                try lower(value != 0 ? then : otherwise, &frame, in: function)
                return
            }
            var thenFrame = frame
            try lower(then, &thenFrame, in: function)
            var elseFrame = frame
            try lower(otherwise, &elseFrame, in: function)
            frame = merge(condition, before: frame, thenFrame, elseFrame)
        }
    }

    private mutating func select(_ condition: Operand, _ a: Operand, _ b: Operand) -> Operand {
        a == b ? a : builder.ternary(.select, condition, a, b)
    }

    /// Joins the two sides of an `if`: per pixel, the `then` state where `condition` holds.
    private mutating func merge(_ condition: Operand, before: Frame, _ a: Frame, _ b: Frame) -> Frame {
        var merged = before
        let thenReturned = a.returned == .constant(1)
        let elseReturned = b.returned == .constant(1)
        for key in before.variables.keys {
            let x = a.variables[key], y = b.variables[key]
            if thenReturned {
                merged.variables[key] = y
            } else if elseReturned || x == y {
                merged.variables[key] = x
            } else if case .data(let p)? = x, case .data(let q)? = y, p.count == q.count {
                merged.variables[key] = .data(zip(p, q).map { select(condition, $0, $1) })
            }
        }
        // Conditions are bools (0 or 1), so select(c, 1, 0) is c itself.
        if a.returned == .constant(1), b.returned == .constant(0) {
            merged.returned = condition
        } else {
            merged.returned = select(condition, a.returned, b.returned)
        }
        if a.result != nil || b.result != nil {
            let count = (a.result ?? b.result)?.count ?? 0
            let p = a.result ?? zeros(count), q = b.result ?? zeros(count)
            merged.result = zip(p, q).map { select(condition, $0, $1) }
        }
        return merged
    }

    // MARK: Expressions

    private mutating func evaluate(_ expression: TypedExpr, _ frame: Frame) throws(KernelCompileError) -> LoweredValue {
        let count = expression.type.componentCount
        switch expression.node {
        case .constant(let value):
            return .data([.constant(value)])
        case .variable(let id):
            return frame.variables[id] ?? .data(zeros(count))
        case .swizzle(let base, let indices):
            let operands = try evaluate(base, frame).operands
            return .data(indices.map { $0 < operands.count ? operands[$0] : .constant(0) })
        case .construct(let arguments):
            var flat: [Operand] = []
            for argument in arguments { flat.append(contentsOf: try evaluate(argument, frame).operands) }
            if flat.count == 1 { return .data(Array(repeating: flat[0], count: count)) }
            return .data(Array(flat.prefix(count)))
        case .unary(let op, let operand):
            let operands = try evaluate(operand, frame).operands
            return .data(operands.map { builder.unary(op, $0) })
        case .binary(let op, let left, let right):
            let p = try evaluate(left, frame).operands
            let q = try evaluate(right, frame).operands
            return .data(componentwise(p, q) { b, x, y in b.binary(op, x, y) })
        case .allEqual(let left, let right, let negated):
            let p = try evaluate(left, frame).operands
            let q = try evaluate(right, frame).operands
            let parts = componentwise(p, q) { b, x, y in b.binary(negated ? .notEqual : .equal, x, y) }
            var result: Operand = .constant(negated ? 0 : 1)
            for part in parts { result = builder.binary(negated ? .logicalOr : .logicalAnd, result, part) }
            return .data([result])
        case .select(let conditionExpr, let whenTrue, let whenFalse):
            let condition = try evaluate(conditionExpr, frame).operands.first ?? .constant(0)
            if case .constant(let value) = condition {
                return try evaluate(value != 0 ? whenTrue : whenFalse, frame)
            }
            let p = try evaluate(whenTrue, frame).operands
            let q = try evaluate(whenFalse, frame).operands
            return .data(zip(p, q).map { select(condition, $0, $1) })
        case .builtin(let builtin, let argumentExprs):
            var arguments: [LoweredValue] = []
            for argument in argumentExprs { arguments.append(try evaluate(argument, frame)) }
            return .data(builtin.emit(arguments, resultType: expression.type, into: &builder, destination: destination))
        case .call(let function, let argumentExprs):
            var arguments: [LoweredValue] = []
            for argument in argumentExprs { arguments.append(try evaluate(argument, frame)) }
            return .data(try lowerFunction(function, arguments: arguments))
        }
    }

    /// Applies `f` per component, broadcasting a one-component side.
    private mutating func componentwise(
        _ p: [Operand], _ q: [Operand], _ f: (inout ProgramBuilder, Operand, Operand) -> Operand
    ) -> [Operand] {
        let n = Swift.max(p.count, q.count)
        var result: [Operand] = []
        result.reserveCapacity(n)
        for i in 0..<n {
            let x = p.count == 1 ? p[0] : (i < p.count ? p[i] : .constant(0))
            let y = q.count == 1 ? q[0] : (i < q.count ? q[i] : .constant(0))
            result.append(f(&builder, x, y))
        }
        return result
    }
}
