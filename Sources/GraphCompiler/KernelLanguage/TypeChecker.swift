/// Resolves names and types of a parsed kernel source and reports mistakes in words a kernel author
/// understands, each at a line and column. Produces a ``CheckedProgram``.
struct TypeChecker {
    /// Loops are unrolled at compile time: at most this many iterations per loop…
    static let maximumLoopIterations = 256
    /// …and at most this many body copies for a nest of loops.
    static let maximumUnrolledIterations = 4096

    private struct Variable {
        var id: Int
        var type: ValueType
        var location: SourceLocation
        var isConstant: Bool
        var isLoopCounter: Bool
        /// Known value of a `const` float or of a loop counter's declaration (for loop bounds).
        var constantValue: Float?
    }

    private let declarations: [FunctionDecl]
    private var functionIndex: [String: Int] = [:]
    private var kernelIndex = 0
    private var returnTypes: [ValueType] = []
    private var parameterTypes: [[ValueType]] = []
    private var variableCount = 0
    private var scopes: [[String: Variable]] = []
    private var current = 0
    /// Calls from each function, for recursion detection.
    private var calls: [Int: [(callee: Int, location: SourceLocation)]] = [:]
    private var unrollFactor = 1

    private init(_ declarations: [FunctionDecl]) { self.declarations = declarations }

    static func check(_ declarations: [FunctionDecl]) throws(KernelCompileError) -> CheckedProgram {
        var checker = TypeChecker(declarations)
        return try checker.checkProgram()
    }

    // MARK: Program

    private mutating func checkProgram() throws(KernelCompileError) -> CheckedProgram {
        let kernels = declarations.indices.filter { declarations[$0].isKernel }
        guard let first = kernels.first else {
            let location = declarations.first?.location ?? .start
            throw KernelCompileError(location, "no 'kernel' function found; mark the entry function with 'kernel', e.g. kernel vec4 f(__sample s)")
        }
        if kernels.count > 1 {
            let second = declarations[kernels[1]]
            throw KernelCompileError(
                second.location,
                "only one 'kernel' function is allowed, but '\(second.name)' is a second one after '\(declarations[first].name)'")
        }
        kernelIndex = first

        for (index, function) in declarations.enumerated() {
            if let previous = functionIndex[function.name] {
                throw KernelCompileError(
                    function.nameLocation,
                    "function '\(function.name)' is already defined at \(declarations[previous].nameLocation)")
            }
            if Builtin(rawValue: function.name) != nil {
                throw KernelCompileError(function.nameLocation, "'\(function.name)' is a built-in function and cannot be redefined")
            }
            functionIndex[function.name] = index
            returnTypes.append(try resolveReturnType(function))
            var types: [ValueType] = []
            for parameter in function.parameters {
                types.append(try resolveParameterType(parameter, isKernel: function.isKernel))
            }
            parameterTypes.append(types)
        }
        try checkKernelSignature(declarations[kernelIndex])

        var functions: [CheckedFunction] = []
        for index in declarations.indices {
            functions.append(try checkFunction(index))
        }
        try checkRecursion()
        return CheckedProgram(functions: functions, kernelIndex: kernelIndex)
    }

    private func resolveReturnType(_ function: FunctionDecl) throws(KernelCompileError) -> ValueType {
        let name = function.returnType.name
        if function.isKernel {
            guard name == "vec4" || name == "vec2" else {
                throw KernelCompileError(function.location, "a kernel must return vec4 (colour/general) or vec2 (warp), not \(name)")
            }
            return name == "vec4" ? .vec4 : .vec2
        }
        switch name {
        case "bool", "float", "vec2", "vec3", "vec4": return ValueType.local(name) ?? .float
        case "void":
            throw KernelCompileError(function.returnType.location, "function '\(function.name)' must return a value; 'void' functions are not supported")
        case "sampler", "__sample", "__color":
            throw KernelCompileError(function.returnType.location, "a function cannot return \(name); use vec4 for colours")
        default:
            throw KernelCompileError(function.returnType.location, unsupportedTypeMessage(name))
        }
    }

    private func unsupportedTypeMessage(_ name: String) -> String {
        if name == "int" { return "type 'int' is only supported for loop counters; use float" }
        return "type '\(name)' is not supported; use float, vec2, vec3, vec4 or bool"
    }

    private func resolveParameterType(_ parameter: ParameterDecl, isKernel: Bool) throws(KernelCompileError) -> ValueType {
        let name = parameter.type.name
        let allowed: Set<String> = isKernel
            ? ["float", "vec2", "vec3", "vec4", "__sample", "sampler", "__color"]
            : ["bool", "float", "vec2", "vec3", "vec4", "__sample", "sampler", "__color"]
        guard allowed.contains(name), let type = ValueType.local(name) else {
            if isKernel {
                throw KernelCompileError(
                    parameter.type.location,
                    "invalid kernel parameter type '\(name)' for '\(parameter.name)'; kernel parameters can be float, vec2, vec3, vec4, __sample, __color or sampler")
            }
            throw KernelCompileError(parameter.type.location, "invalid parameter type '\(name)' for '\(parameter.name)'")
        }
        return type
    }

    private func checkKernelSignature(_ kernel: FunctionDecl) throws(KernelCompileError) {
        guard kernel.returnType.name == "vec2" else { return }
        var samplers = 0
        for parameter in kernel.parameters {
            if parameter.type.name == "__sample" {
                throw KernelCompileError(
                    parameter.type.location,
                    "a warp kernel (one returning vec2) cannot take a __sample parameter; it returns the coordinate to sample its input at")
            }
            if parameter.type.name == "sampler" {
                samplers += 1
                if samplers > 1 {
                    throw KernelCompileError(parameter.type.location, "a warp kernel can name at most one sampler (its input)")
                }
            }
        }
    }

    private mutating func checkFunction(_ index: Int) throws(KernelCompileError) -> CheckedFunction {
        let function = declarations[index]
        current = index
        scopes = [[:]]
        unrollFactor = 1
        var parameters: [CheckedParameter] = []
        for (parameter, type) in zip(function.parameters, parameterTypes[index]) {
            let id = try declare(parameter.name, type: type, at: parameter.location, isConstant: false)
            parameters.append(CheckedParameter(
                variable: id, type: type, declaredType: parameter.type.name, name: parameter.name, location: parameter.location))
        }
        var body: [TypedStmt] = []
        for statement in function.body {
            body.append(contentsOf: try check(statement))
        }
        if !TypeChecker.definitelyReturns(body) {
            throw KernelCompileError(function.bodyEnd, "missing return at the end of '\(function.name)'")
        }
        return CheckedFunction(
            name: function.name, location: function.location, returnType: returnTypes[index],
            parameters: parameters, body: body)
    }

    static func definitelyReturns(_ statements: [TypedStmt]) -> Bool {
        statements.contains { statement in
            switch statement {
            case .returnValue: return true
            case .block(let inner): return definitelyReturns(inner)
            case .ifElse(_, let then, let otherwise): return definitelyReturns(then) && definitelyReturns(otherwise)
            case .loop(_, let values, let body): return !values.isEmpty && definitelyReturns(body)
            case .declare, .assign: return false
            }
        }
    }

    private func checkRecursion() throws(KernelCompileError) {
        // Depth-first search for a cycle in the call graph.
        var state = Array(repeating: 0, count: declarations.count)  // 0 new, 1 on stack, 2 done
        var path: [Int] = []
        func visit(_ f: Int) throws(KernelCompileError) {
            state[f] = 1
            path.append(f)
            for call in calls[f] ?? [] {
                if state[call.callee] == 1 {
                    let start = path.lastIndex(of: call.callee) ?? 0
                    let cycle = (path[start...] + [call.callee]).map { "'\(declarations[$0].name)'" }
                    let description = call.callee == f
                        ? "'\(declarations[f].name)' calls itself"
                        : cycle.joined(separator: " calls ")
                    throw KernelCompileError(call.location, "recursion is not supported in kernels: \(description)")
                }
                if state[call.callee] == 0 { try visit(call.callee) }
            }
            path.removeLast()
            state[f] = 2
        }
        for f in declarations.indices where state[f] == 0 { try visit(f) }
    }

    // MARK: Scopes

    private mutating func declare(
        _ name: String, type: ValueType, at location: SourceLocation, isConstant: Bool,
        isLoopCounter: Bool = false, constantValue: Float? = nil
    ) throws(KernelCompileError) -> Int {
        if let existing = scopes[scopes.count - 1][name] {
            throw KernelCompileError(location, "redeclaration of '\(name)' (already declared at \(existing.location))")
        }
        let id = variableCount
        variableCount += 1
        scopes[scopes.count - 1][name] = Variable(
            id: id, type: type, location: location, isConstant: isConstant, isLoopCounter: isLoopCounter,
            constantValue: constantValue)
        return id
    }

    private func lookup(_ name: String) -> Variable? {
        for scope in scopes.reversed() {
            if let variable = scope[name] { return variable }
        }
        return nil
    }

    private var visibleNames: [String] { scopes.flatMap(\.keys) }

    private mutating func scoped<T>(_ body: (inout TypeChecker) throws(KernelCompileError) -> T) throws(KernelCompileError) -> T {
        scopes.append([:])
        defer { scopes.removeLast() }
        return try body(&self)
    }

    // MARK: Statements

    private mutating func checkBody(_ statement: Stmt) throws(KernelCompileError) -> [TypedStmt] {
        try scoped { (checker: inout TypeChecker) throws(KernelCompileError) in try checker.check(statement) }
    }

    private mutating func check(_ statement: Stmt) throws(KernelCompileError) -> [TypedStmt] {
        switch statement.kind {
        case .empty, .expression:
            if case .expression(let expression) = statement.kind { _ = try check(expression) }
            return []
        case .block(let statements):
            let inner = try scoped { (checker: inout TypeChecker) throws(KernelCompileError) -> [TypedStmt] in
                var result: [TypedStmt] = []
                for s in statements { result.append(contentsOf: try checker.check(s)) }
                return result
            }
            return [.block(inner)]
        case .declaration(let isConstant, let typeName, let declarators):
            return try checkDeclaration(isConstant: isConstant, typeName: typeName, declarators)
        case .assignment(let target, let op, let value):
            return [try checkAssignment(target: target, op: op, value: value, location: statement.location)]
        case .increment(let target, let delta):
            let one = Expr(kind: .number(1), location: target.location, start: target.location, depth: 1)
            return [try checkAssignment(target: target, op: delta > 0 ? .add : .subtract, value: one, location: statement.location)]
        case .ifElse(let conditionExpr, let then, let otherwise):
            let condition = try check(conditionExpr)
            guard condition.type == .bool else {
                throw KernelCompileError(
                    conditionExpr.start,
                    "the condition of 'if' must be a bool, but this is a \(condition.type) (compare it, e.g. x > 0.0)")
            }
            let thenBody = try checkBody(then)
            var elseBody: [TypedStmt] = []
            if let otherwise { elseBody = try checkBody(otherwise) }
            return [.ifElse(condition, thenBody, elseBody)]
        case .returnValue(let valueExpr):
            let function = declarations[current]
            let expected = returnTypes[current]
            guard let valueExpr else {
                throw KernelCompileError(statement.location, "'return' in '\(function.name)' needs a \(expected) value")
            }
            let value = try check(valueExpr)
            guard value.type == expected else {
                throw KernelCompileError(
                    valueExpr.start,
                    "cannot return a \(value.type) from '\(function.name)', which returns \(expected)")
            }
            return [.returnValue(value)]
        case .forLoop(let initializer, let condition, let step, let body):
            return [try checkLoop(initializer: initializer, condition: condition, step: step, body: body, at: statement.location)]
        }
    }

    private mutating func checkDeclaration(
        isConstant: Bool, typeName: TypeName, _ declarators: [Declarator]
    ) throws(KernelCompileError) -> [TypedStmt] {
        let type: ValueType
        switch typeName.name {
        case "bool", "float", "vec2", "vec3", "vec4": type = ValueType.local(typeName.name) ?? .float
        case "__sample", "__color":
            throw KernelCompileError(typeName.location, "type '\(typeName.name)' is only for kernel parameters; use vec4 for a local colour")
        case "sampler":
            throw KernelCompileError(typeName.location, "local sampler variables are not supported; pass the sampler parameter directly")
        case "void":
            throw KernelCompileError(typeName.location, "a variable cannot have type void")
        default:
            throw KernelCompileError(typeName.location, unsupportedTypeMessage(typeName.name))
        }
        var result: [TypedStmt] = []
        for declarator in declarators {
            var value: TypedExpr?
            if let initializer = declarator.initializer {
                let checked = try check(initializer)
                guard checked.type == type else {
                    throw KernelCompileError(
                        initializer.start,
                        "cannot initialise '\(declarator.name)' of type \(type) with a \(checked.type)")
                }
                value = checked
            } else if isConstant {
                throw KernelCompileError(declarator.location, "the constant '\(declarator.name)' needs an initial value")
            }
            let known = isConstant ? declarator.initializer.flatMap { constantValue(of: $0) } : nil
            let id = try declare(
                declarator.name, type: type, at: declarator.location, isConstant: isConstant, constantValue: known)
            result.append(.declare(variable: id, type: type, value))
        }
        return result
    }

    /// Resolves an assignment target: a variable optionally followed by swizzles.
    private func resolveTarget(_ target: Expr) throws(KernelCompileError) -> (variable: Variable, components: [Int]?, text: String) {
        switch target.kind {
        case .identifier(let name):
            guard let variable = lookup(name) else {
                throw KernelCompileError(
                    target.location, "use of undeclared variable '\(name)'" + NameSuggestion.suffix(for: name, among: visibleNames))
            }
            if variable.isLoopCounter {
                throw KernelCompileError(target.location, "cannot assign to the loop counter '\(name)'")
            }
            if variable.isConstant {
                throw KernelCompileError(target.location, "cannot assign to the constant '\(name)'")
            }
            if variable.type == .sampler {
                throw KernelCompileError(target.location, "cannot assign to the sampler '\(name)'")
            }
            return (variable, nil, name)
        case .swizzle(let base, let letters):
            let (variable, components, text) = try resolveTarget(base)
            let available = components?.count ?? variable.type.componentCount
            let typeName = components.map { ValueType.floatVector($0.count)?.description ?? "value" } ?? variable.type.description
            if variable.type == .bool {
                throw KernelCompileError(target.location, "cannot swizzle a bool")
            }
            let indices: [Int]
            switch Swizzle.components(letters, count: available, typeName: typeName) {
            case .success(let value): indices = value
            case .failure(let error): throw KernelCompileError(target.location, error.message)
            }
            if Set(indices).count != indices.count {
                throw KernelCompileError(
                    target.location, "swizzle '.\(letters)' repeats a component, so it cannot be assigned to")
            }
            let composed = indices.map { components?[$0] ?? $0 }
            return (variable, composed, text + "." + letters)
        default:
            throw KernelCompileError(target.location, "the left side of an assignment must be a variable or a swizzle of one (like c.rgb)")
        }
    }

    private mutating func checkAssignment(
        target: Expr, op: AssignmentOperator, value valueExpr: Expr, location: SourceLocation
    ) throws(KernelCompileError) -> TypedStmt {
        let (variable, components, text) = try resolveTarget(target)
        let targetType = components.flatMap { ValueType.floatVector($0.count) } ?? variable.type
        var value = try check(valueExpr)
        if op != .assign {
            let current = TypedExpr(
                type: targetType,
                node: components.map { .swizzle(TypedExpr(type: variable.type, node: .variable(variable.id), location: target.location), $0) }
                    ?? .variable(variable.id),
                location: target.location)
            let infix: InfixOperator
            switch op {
            case .add: infix = .add
            case .subtract: infix = .subtract
            case .multiply: infix = .multiply
            case .divide: infix = .divide
            case .assign: infix = .add
            }
            value = try arithmetic(infix, current, value, at: valueExpr.location)
        }
        guard value.type == targetType else {
            throw KernelCompileError(location, "cannot assign a \(value.type) to '\(text)' of type \(targetType)")
        }
        return .assign(variable: variable.id, components: components, value)
    }

    private mutating func checkLoop(
        initializer: Stmt, condition: Expr, step: Stmt, body: Stmt, at location: SourceLocation
    ) throws(KernelCompileError) -> TypedStmt {
        let example = "for (int i = 0; i < 8; i++)"
        guard case .declaration(_, let typeName, let declarators) = initializer.kind, declarators.count == 1,
              typeName.name == "int" || typeName.name == "float"
        else {
            throw KernelCompileError(initializer.location, "a 'for' loop must declare an int or float counter, e.g. \(example)")
        }
        let counter = declarators[0]
        guard let startExpr = counter.initializer, let start = constantValue(of: startExpr) else {
            throw KernelCompileError(
                counter.initializer?.location ?? counter.location,
                "the loop counter '\(counter.name)' must start at a constant value, e.g. \(example)")
        }

        // The condition: counter <op> constant (or mirrored).
        let conditionMessage = "the loop condition must compare '\(counter.name)' with a constant, e.g. \(counter.name) < 8"
        guard case .infix(let op, let left, let right) = condition.kind else {
            throw KernelCompileError(condition.location, conditionMessage)
        }
        let bound: Float
        var comparison = op
        if case .identifier(counter.name) = left.kind, let value = constantValue(of: right) {
            bound = value
        } else if case .identifier(counter.name) = right.kind, let value = constantValue(of: left) {
            bound = value
            switch op {
            case .less: comparison = .greater
            case .lessEqual: comparison = .greaterEqual
            case .greater: comparison = .less
            case .greaterEqual: comparison = .lessEqual
            default: break
            }
        } else {
            throw KernelCompileError(condition.location, conditionMessage)
        }
        let test: (Double) -> Bool
        let b = Double(bound)
        switch comparison {
        case .less: test = { $0 < b }
        case .lessEqual: test = { $0 <= b }
        case .greater: test = { $0 > b }
        case .greaterEqual: test = { $0 >= b }
        case .notEqual: test = { $0 != b }
        default: throw KernelCompileError(condition.location, conditionMessage)
        }

        // The step: counter changes by a constant.
        let stepMessage = "the loop step must change '\(counter.name)' by a constant, e.g. \(counter.name)++ or \(counter.name) += 2.0"
        let increment: Float
        switch step.kind {
        case .increment(let target, let delta):
            guard case .identifier(counter.name) = target.kind else { throw KernelCompileError(step.location, stepMessage) }
            increment = delta
        case .assignment(let target, let op, let value):
            guard case .identifier(counter.name) = target.kind, let amount = constantValue(of: value),
                  op == .add || op == .subtract
            else { throw KernelCompileError(step.location, stepMessage) }
            increment = op == .add ? amount : -amount
        default:
            throw KernelCompileError(step.location, stepMessage)
        }

        var values: [Float] = []
        var v = Double(start)
        while test(v) {
            values.append(Float(v))
            if values.count > TypeChecker.maximumLoopIterations {
                throw KernelCompileError(
                    location,
                    "this loop runs more than \(TypeChecker.maximumLoopIterations) times; loops are unrolled when the kernel is compiled, so at most \(TypeChecker.maximumLoopIterations) iterations are allowed")
            }
            v += Double(increment)
        }
        let outerFactor = unrollFactor
        let factor = outerFactor * Swift.max(values.count, 1)
        if factor > TypeChecker.maximumUnrolledIterations {
            throw KernelCompileError(
                location,
                "nested loops would unroll to \(factor) copies of the innermost body; at most \(TypeChecker.maximumUnrolledIterations) are allowed")
        }
        unrollFactor = factor
        defer { unrollFactor = outerFactor }
        return try scoped { (checker: inout TypeChecker) throws(KernelCompileError) -> TypedStmt in
            let id = try checker.declare(
                counter.name, type: .float, at: counter.location, isConstant: false, isLoopCounter: true)
            let inner = try checker.checkBody(body)
            return .loop(variable: id, values: values, body: inner)
        }
    }

    /// The value of a constant expression (literals, arithmetic on them, `const` floats), if it is one.
    private func constantValue(of expression: Expr) -> Float? {
        switch expression.kind {
        case .number(let value): return value
        case .identifier(let name):
            guard let variable = lookup(name), variable.isConstant else { return nil }
            return variable.constantValue
        case .prefix(.negate, let operand): return constantValue(of: operand).map { -$0 }
        case .prefix(.plus, let operand): return constantValue(of: operand)
        case .infix(let op, let left, let right):
            guard let a = constantValue(of: left), let b = constantValue(of: right) else { return nil }
            switch op {
            case .add: return a + b
            case .subtract: return a - b
            case .multiply: return a * b
            case .divide: return a / b
            default: return nil
            }
        default: return nil
        }
    }

    // MARK: Expressions

    private mutating func check(_ expression: Expr) throws(KernelCompileError) -> TypedExpr {
        var typed = try checkNode(expression)
        typed.location = expression.start
        return typed
    }

    private mutating func checkNode(_ expression: Expr) throws(KernelCompileError) -> TypedExpr {
        let location = expression.location
        switch expression.kind {
        case .number(let value):
            return TypedExpr(type: .float, node: .constant(value), location: location)
        case .boolean(let value):
            return TypedExpr(type: .bool, node: .constant(value ? 1 : 0), location: location)
        case .identifier(let name):
            guard let variable = lookup(name) else {
                if functionIndex[name] != nil || Builtin(rawValue: name) != nil {
                    throw KernelCompileError(location, "'\(name)' is a function; call it with parentheses, e.g. \(name)(...)")
                }
                throw KernelCompileError(
                    location, "use of undeclared variable '\(name)'" + NameSuggestion.suffix(for: name, among: visibleNames))
            }
            return TypedExpr(type: variable.type, node: .variable(variable.id), location: location)
        case .prefix(let op, let operandExpr):
            let operand = try check(operandExpr)
            switch op {
            case .negate, .plus:
                guard operand.type.isNumeric else {
                    throw KernelCompileError(location, "unary '\(op.rawValue)' needs a number or vector, but this is a \(operand.type)")
                }
                return op == .plus ? operand : TypedExpr(type: operand.type, node: .unary(.negate, operand), location: location)
            case .not:
                guard operand.type == .bool else {
                    throw KernelCompileError(location, "'!' needs a bool, but this is a \(operand.type)")
                }
                return TypedExpr(type: .bool, node: .unary(.logicalNot, operand), location: location)
            }
        case .infix(let op, let leftExpr, let rightExpr):
            let left = try check(leftExpr)
            let right = try check(rightExpr)
            return try infix(op, left, right, at: location)
        case .conditional(let conditionExpr, let whenTrueExpr, let whenFalseExpr):
            let condition = try check(conditionExpr)
            guard condition.type == .bool else {
                throw KernelCompileError(
                    conditionExpr.start, "the condition of '?:' must be a bool, but this is a \(condition.type)")
            }
            let whenTrue = try check(whenTrueExpr)
            let whenFalse = try check(whenFalseExpr)
            guard whenTrue.type == whenFalse.type, whenTrue.type != .sampler else {
                throw KernelCompileError(
                    location, "the two results of '?:' must have the same type, but they are \(whenTrue.type) and \(whenFalse.type)")
            }
            return TypedExpr(type: whenTrue.type, node: .select(condition, whenTrue, whenFalse), location: location)
        case .swizzle(let baseExpr, let letters):
            let base = try check(baseExpr)
            guard base.type.isNumeric else {
                throw KernelCompileError(location, "cannot swizzle a \(base.type)")
            }
            switch Swizzle.components(letters, count: base.type.componentCount, typeName: base.type.description) {
            case .success(let indices):
                let type = ValueType.floatVector(indices.count) ?? .vec4
                return TypedExpr(type: type, node: .swizzle(base, indices), location: location)
            case .failure(let error):
                throw KernelCompileError(location, error.message)
            }
        case .call(let name, let argumentExprs):
            var arguments: [TypedExpr] = []
            for argument in argumentExprs { arguments.append(try check(argument)) }
            return try call(name, arguments, argumentExprs, at: location)
        }
    }

    private func verb(_ op: InfixOperator) -> String {
        switch op {
        case .add: return "add"
        case .subtract: return "subtract"
        case .multiply: return "multiply"
        default: return "divide"
        }
    }

    private func arithmetic(_ op: InfixOperator, _ left: TypedExpr, _ right: TypedExpr, at location: SourceLocation) throws(KernelCompileError) -> TypedExpr {
        guard left.type.isNumeric, right.type.isNumeric else {
            let culprit = left.type.isNumeric ? right.type : left.type
            throw KernelCompileError(location, "'\(op.rawValue)' needs numbers or vectors, but one side is a \(culprit)")
        }
        let type: ValueType
        if left.type == right.type {
            type = left.type
        } else if left.type == .float {
            type = right.type
        } else if right.type == .float {
            type = left.type
        } else {
            let preposition = op == .add ? "and" : (op == .subtract ? "and" : "by")
            throw KernelCompileError(
                location,
                "cannot \(verb(op)) a \(left.type) \(preposition) a \(right.type); vector sizes must match (or one side must be a float)")
        }
        let ir: BinaryOperator
        switch op {
        case .add: ir = .add
        case .subtract: ir = .subtract
        case .multiply: ir = .multiply
        default: ir = .divide
        }
        return TypedExpr(type: type, node: .binary(ir, left, right), location: location)
    }

    private func infix(_ op: InfixOperator, _ left: TypedExpr, _ right: TypedExpr, at location: SourceLocation) throws(KernelCompileError) -> TypedExpr {
        switch op {
        case .add, .subtract, .multiply, .divide:
            return try arithmetic(op, left, right, at: location)
        case .less, .lessEqual, .greater, .greaterEqual:
            guard left.type == .float, right.type == .float else {
                throw KernelCompileError(
                    location, "'\(op.rawValue)' compares two floats, but got \(left.type) and \(right.type)")
            }
            let ir: BinaryOperator = op == .less ? .lessThan : op == .lessEqual ? .lessThanOrEqual : op == .greater ? .greaterThan : .greaterThanOrEqual
            return TypedExpr(type: .bool, node: .binary(ir, left, right), location: location)
        case .equal, .notEqual:
            guard left.type == right.type, left.type != .sampler else {
                throw KernelCompileError(
                    location, "cannot compare a \(left.type) with a \(right.type) using '\(op.rawValue)'")
            }
            if left.type.componentCount == 1 {
                return TypedExpr(type: .bool, node: .binary(op == .equal ? .equal : .notEqual, left, right), location: location)
            }
            return TypedExpr(type: .bool, node: .allEqual(left, right, negated: op == .notEqual), location: location)
        case .and, .or:
            guard left.type == .bool, right.type == .bool else {
                let culprit = left.type == .bool ? right.type : left.type
                throw KernelCompileError(location, "'\(op.rawValue)' needs bool operands, but one is a \(culprit)")
            }
            return TypedExpr(type: .bool, node: .binary(op == .and ? .logicalAnd : .logicalOr, left, right), location: location)
        }
    }

    private static let constructorNames: Set<String> = ["float", "bool", "vec2", "vec3", "vec4"]

    private mutating func call(
        _ name: String, _ arguments: [TypedExpr], _ argumentExprs: [Expr], at location: SourceLocation
    ) throws(KernelCompileError) -> TypedExpr {
        if TypeChecker.constructorNames.contains(name) {
            return try construct(name, arguments, at: location)
        }
        if Parser.typeNames.contains(name) {
            throw KernelCompileError(location, unsupportedTypeMessage(name))
        }
        if let builtin = Builtin(rawValue: name) {
            let types = arguments.map(\.type)
            let counts = builtin.argumentCounts
            guard counts.contains(arguments.count) else {
                let expected = counts.map(String.init).joined(separator: " or ")
                let noun = counts == [1] ? "argument" : "arguments"
                throw KernelCompileError(
                    location, "'\(name)' takes \(expected) \(noun), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given")
            }
            if builtin.takesSampler, let first = arguments.first, first.type != .sampler {
                let hint = first.type == .vec4 ? " (a __sample parameter is already the input's pixel; use it directly, or declare the parameter as sampler)" : ""
                throw KernelCompileError(
                    argumentExprs.first?.start ?? location,
                    "'\(name)' needs a sampler as its first argument, but this is a \(first.type)\(hint)")
            }
            guard let result = builtin.resultType(for: types) else {
                let got = types.map(\.description).joined(separator: ", ")
                let expected = builtin.signatures.joined(separator: " or ")
                let gen = builtin.overloads.contains { $0.parameters.contains { if case .gen = $0 { return true } else { return false } } }
                    ? ", where genType is float, vec2, vec3 or vec4 (the same in one call)" : ""
                throw KernelCompileError(location, "cannot call '\(name)' with (\(got)); expected \(expected)\(gen)")
            }
            return TypedExpr(type: result, node: .builtin(builtin, arguments), location: location)
        }
        guard let index = functionIndex[name] else {
            let candidates = Builtin.allCases.map(\.rawValue).filter { !$0.hasSuffix("_") }
                + declarations.map(\.name) + Array(TypeChecker.constructorNames)
            throw KernelCompileError(
                location, "unknown function '\(name)'" + NameSuggestion.suffix(for: name, among: candidates))
        }
        if index == kernelIndex {
            throw KernelCompileError(location, "the kernel function '\(name)' cannot be called; move shared code into a helper function")
        }
        let expected = parameterTypes[index]
        guard expected.count == arguments.count else {
            throw KernelCompileError(
                location,
                "'\(name)' takes \(expected.count) argument\(expected.count == 1 ? "" : "s"), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given")
        }
        for (position, (argument, type)) in zip(arguments, expected).enumerated() where argument.type != type {
            let parameter = declarations[index].parameters[position]
            throw KernelCompileError(
                argumentExprs[position].start,
                "argument \(position + 1) of '\(name)' must be a \(type) for parameter '\(parameter.name)', but this is a \(argument.type)")
        }
        calls[current, default: []].append((index, location))
        return TypedExpr(type: returnTypes[index], node: .call(function: index, arguments), location: location)
    }

    private func construct(_ name: String, _ arguments: [TypedExpr], at location: SourceLocation) throws(KernelCompileError) -> TypedExpr {
        guard let type = ValueType.local(name) else {
            throw KernelCompileError(location, unsupportedTypeMessage(name))
        }
        guard !arguments.isEmpty else {
            throw KernelCompileError(location, "the \(name) constructor needs at least one argument")
        }
        for argument in arguments where argument.type == .sampler {
            throw KernelCompileError(argument.location, "a sampler cannot be converted to \(name)")
        }
        if type == .bool {
            guard arguments.count == 1, arguments[0].type.componentCount == 1 else {
                throw KernelCompileError(location, "bool(...) takes one float or bool")
            }
            let argument = arguments[0]
            if argument.type == .bool { return argument }
            return TypedExpr(
                type: .bool, node: .binary(.notEqual, argument, TypedExpr(type: .float, node: .constant(0), location: location)),
                location: location)
        }
        let needed = type.componentCount
        let total = arguments.reduce(0) { $0 + $1.type.componentCount }
        let singleScalar = arguments.count == 1 && arguments[0].type.componentCount == 1
        let singleLargerVector = arguments.count == 1 && total >= needed
        if !singleScalar && !singleLargerVector {
            if total < needed {
                throw KernelCompileError(location, "not enough components for \(name): got \(total), need \(needed)")
            }
            if total > needed {
                throw KernelCompileError(location, "too many components for \(name): got \(total), need \(needed)")
            }
        }
        return TypedExpr(type: type, node: .construct(arguments), location: location)
    }
}
