/// Recursive-descent parser from tokens to the syntax tree (``FunctionDecl``s).
///
/// Recursion is bounded: statements and expressions may nest at most ``Parser/maximumNesting`` levels,
/// and a syntax tree may be at most that deep, so the later recursive passes cannot exhaust the stack.
struct Parser {
    static let maximumNesting = 128

    /// Names that can start a declaration. Unsupported ones are rejected by the type checker with a
    /// clearer message than a syntax error.
    static let typeNames: Set<String> = [
        "void", "bool", "int", "float", "vec2", "vec3", "vec4", "sampler", "__sample", "__color",
        "mat2", "mat3", "mat4", "ivec2", "ivec3", "ivec4", "bvec2", "bvec3", "bvec4", "uint",
        "sampler2D", "double", "half",
    ]

    static let reservedWords: Set<String> = [
        "kernel", "if", "else", "for", "while", "do", "return", "break", "continue", "discard",
        "true", "false", "const", "struct", "uniform", "attribute", "varying", "in", "out", "inout",
        "__table", "switch", "case", "default",
    ]

    private let tokens: [Token]
    private var position = 0
    private var nesting = 0

    private init(tokens: [Token]) { self.tokens = tokens }

    static func parse(_ source: String) throws(KernelCompileError) -> [FunctionDecl] {
        var parser = Parser(tokens: try Lexer.tokenize(source))
        return try parser.parseProgram()
    }

    // MARK: Token helpers

    private var current: Token { tokens[min(position, tokens.count - 1)] }
    private var previous: Token { tokens[max(0, min(position - 1, tokens.count - 1))] }

    private func peek(_ offset: Int) -> Token { tokens[min(position + offset, tokens.count - 1)] }

    private mutating func advance() -> Token {
        let token = current
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private mutating func accept(_ symbol: String) -> Bool {
        if current.isSymbol(symbol) { _ = advance(); return true }
        return false
    }

    private mutating func acceptWord(_ word: String) -> Bool {
        if current.isIdentifier(word) { _ = advance(); return true }
        return false
    }

    /// Requires `symbol`; otherwise reports `expected '<symbol>' <context>, found ...` at the
    /// offending token.
    private mutating func expect(_ symbol: String, _ context: String) throws(KernelCompileError) {
        if accept(symbol) { return }
        throw KernelCompileError(current.location, "expected '\(symbol)' \(context), found \(current.spelling)")
    }

    /// Requires a `;`, reporting a missing one just after the previous token (where it belongs).
    private mutating func expectSemicolon(_ context: String) throws(KernelCompileError) {
        if accept(";") { return }
        throw KernelCompileError(previous.end, "expected ';' \(context)")
    }

    private mutating func enter() throws(KernelCompileError) {
        nesting += 1
        if nesting > Parser.maximumNesting {
            throw KernelCompileError(
                current.location, "the kernel is nested too deeply (more than \(Parser.maximumNesting) levels)")
        }
    }

    private mutating func leave() { nesting -= 1 }

    private func makeExpr(
        _ kind: Expr.Kind, _ location: SourceLocation, start: SourceLocation? = nil, children: [Expr]
    ) throws(KernelCompileError) -> Expr {
        let depth = (children.map(\.depth).max() ?? 0) + 1
        if depth > Parser.maximumNesting {
            throw KernelCompileError(
                location, "expression is too complex (nested more than \(Parser.maximumNesting) levels); split it up with local variables")
        }
        return Expr(kind: kind, location: location, start: start ?? location, depth: depth)
    }

    private mutating func expectName(_ what: String) throws(KernelCompileError) -> (String, SourceLocation) {
        let token = current
        guard let name = token.identifier else {
            throw KernelCompileError(token.location, "expected \(what), found \(token.spelling)")
        }
        if Parser.reservedWords.contains(name) || Parser.typeNames.contains(name) {
            throw KernelCompileError(token.location, "expected \(what), found the reserved word '\(name)'")
        }
        _ = advance()
        return (name, token.location)
    }

    private mutating func expectTypeName(_ what: String) throws(KernelCompileError) -> TypeName {
        let token = current
        guard let name = token.identifier, Parser.typeNames.contains(name) else {
            throw KernelCompileError(token.location, "expected \(what), found \(token.spelling)")
        }
        _ = advance()
        return TypeName(name: name, location: token.location)
    }

    // MARK: Program and functions

    private mutating func parseProgram() throws(KernelCompileError) -> [FunctionDecl] {
        var functions: [FunctionDecl] = []
        while current.kind != .endOfFile {
            functions.append(try parseFunction())
        }
        return functions
    }

    private mutating func parseFunction() throws(KernelCompileError) -> FunctionDecl {
        let start = current.location
        let isKernel = acceptWord("kernel")
        let returnType = try expectTypeName(isKernel ? "the kernel's return type (vec4 or vec2)" : "a function (a return type such as 'vec4' or 'kernel')")
        let (name, nameLocation) = try expectName("a function name")
        try expect("(", "after the function name '\(name)'")
        var parameters: [ParameterDecl] = []
        if current.isIdentifier("void"), peek(1).isSymbol(")") { _ = advance() }
        if !accept(")") {
            repeat {
                while acceptWord("__table") || acceptWord("const") || acceptWord("in") {}
                let type = try expectTypeName("a parameter type")
                let (parameterName, location) = try expectName("a parameter name")
                parameters.append(ParameterDecl(type: type, name: parameterName, location: location))
            } while accept(",")
            try expect(")", "to close the parameter list of '\(name)'")
        }
        if current.isSymbol(";") {
            throw KernelCompileError(current.location, "function declarations without a body are not supported; define '\(name)' with a body instead")
        }
        try expect("{", "to begin the body of '\(name)'")
        let (body, end) = try parseBlockContents()
        return FunctionDecl(
            isKernel: isKernel, location: start, returnType: returnType, name: name, nameLocation: nameLocation,
            parameters: parameters, body: body, bodyEnd: end)
    }

    /// Parses statements up to and including the closing `}` (the `{` is already consumed).
    private mutating func parseBlockContents() throws(KernelCompileError) -> ([Stmt], SourceLocation) {
        var statements: [Stmt] = []
        while !current.isSymbol("}") {
            if current.kind == .endOfFile {
                throw KernelCompileError(current.location, "expected '}' before the end of the source")
            }
            statements.append(try parseStatement())
        }
        let end = advance().location
        return (statements, end)
    }

    // MARK: Statements

    private mutating func parseStatement() throws(KernelCompileError) -> Stmt {
        try enter()
        defer { leave() }
        let token = current
        let location = token.location
        if accept("{") {
            let (body, _) = try parseBlockContents()
            return Stmt(kind: .block(body), location: location)
        }
        if accept(";") { return Stmt(kind: .empty, location: location) }
        if let word = token.identifier {
            switch word {
            case "if":
                _ = advance()
                try expect("(", "after 'if'")
                let condition = try parseExpression()
                try expect(")", "to close the condition of 'if'")
                let then = try parseStatement()
                var otherwise: Stmt?
                if acceptWord("else") { otherwise = try parseStatement() }
                return Stmt(kind: .ifElse(condition: condition, then: then, otherwise: otherwise), location: location)
            case "for":
                _ = advance()
                try expect("(", "after 'for'")
                let initializer = try parseSimpleStatement(terminator: ";", context: "after the loop's initialisation")
                let condition = try parseExpression()
                try expectSemicolon("after the loop condition")
                let step = try parseSimpleStatement(terminator: ")", context: "to close the loop header")
                let body = try parseStatement()
                return Stmt(
                    kind: .forLoop(initializer: initializer, condition: condition, step: step, body: body),
                    location: location)
            case "return":
                _ = advance()
                if accept(";") { return Stmt(kind: .returnValue(nil), location: location) }
                let value = try parseExpression()
                try expectSemicolon("after the return value")
                return Stmt(kind: .returnValue(value), location: location)
            case "while", "do":
                throw KernelCompileError(location, "'\(word)' loops are not supported; use a 'for' loop with a constant number of iterations")
            case "break", "continue", "discard", "switch":
                throw KernelCompileError(location, "'\(word)' is not supported in kernels")
            case "else":
                throw KernelCompileError(location, "'else' without a matching 'if'")
            default:
                break
            }
        }
        return try parseSimpleStatement(terminator: ";", context: nil)
    }

    /// A declaration, assignment, increment or expression statement, followed by `terminator`.
    private mutating func parseSimpleStatement(terminator: String, context: String?) throws(KernelCompileError) -> Stmt {
        let location = current.location
        func finish(_ parser: inout Parser, _ what: String) throws(KernelCompileError) {
            if terminator == ";" {
                try parser.expectSemicolon(context ?? "after the \(what)")
            } else {
                try parser.expect(terminator, context ?? "after the \(what)")
            }
        }
        // Declarations.
        if let word = current.identifier, word == "const" || Parser.typeNames.contains(word),
           !peek(1).isSymbol("(") {
            let isConstant = acceptWord("const")
            let type = try expectTypeName("a type after 'const'")
            var declarators: [Declarator] = []
            repeat {
                let (name, nameLocation) = try expectName("a variable name after '\(type.name)'")
                var initializer: Expr?
                if accept("=") { initializer = try parseExpression() }
                if current.isSymbol("[") {
                    throw KernelCompileError(current.location, "arrays are not supported")
                }
                declarators.append(Declarator(name: name, location: nameLocation, initializer: initializer))
            } while accept(",")
            try finish(&self, "declaration")
            return Stmt(kind: .declaration(isConstant: isConstant, type: type, declarators), location: location)
        }
        // Prefix increment.
        if current.isSymbol("++") || current.isSymbol("--") {
            let delta: Float = advance().isSymbol("++") ? 1 : -1
            let target = try parsePostfix()
            try finish(&self, "increment")
            return Stmt(kind: .increment(target: target, delta: delta), location: location)
        }
        let expression = try parseExpression()
        if case .symbol(let symbol) = current.kind {
            if let op = AssignmentOperator(rawValue: symbol) {
                _ = advance()
                let value = try parseExpression()
                try finish(&self, "assignment")
                return Stmt(kind: .assignment(target: expression, op, value: value), location: location)
            }
            if symbol == "++" || symbol == "--" {
                _ = advance()
                try finish(&self, "increment")
                return Stmt(kind: .increment(target: expression, delta: symbol == "++" ? 1 : -1), location: location)
            }
            if symbol == "%=" {
                throw KernelCompileError(current.location, "'%=' is not supported; use x = mod(x, y)")
            }
        }
        try finish(&self, "expression")
        return Stmt(kind: .expression(expression), location: location)
    }

    // MARK: Expressions

    mutating func parseExpression() throws(KernelCompileError) -> Expr {
        try enter()
        defer { leave() }
        let condition = try parseInfix(minimumPrecedence: 1)
        guard current.isSymbol("?") else { return condition }
        let questionMark = advance().location
        let whenTrue = try parseExpression()
        try expect(":", "in the conditional expression (a ? b : c)")
        let whenFalse = try parseExpression()
        return try makeExpr(
            .conditional(condition, whenTrue, whenFalse), questionMark, start: condition.start, children: [condition, whenTrue, whenFalse])
    }

    private static let unsupportedOperators: [String: String] = [
        "%": "'%' is not supported; use mod(x, y)",
        "^^": "'^^' is not supported; use (a != b) on bools",
        "&": "bitwise '&' is not supported (did you mean '&&'?)",
        "|": "bitwise '|' is not supported (did you mean '||'?)",
        "^": "'^' is not supported; use pow(x, y) for powers",
        "<<": "shift operators are not supported", ">>": "shift operators are not supported",
    ]

    private mutating func parseInfix(minimumPrecedence: Int) throws(KernelCompileError) -> Expr {
        var left = try parseUnary()
        while true {
            guard case .symbol(let symbol) = current.kind else { return left }
            if let message = Parser.unsupportedOperators[symbol] {
                throw KernelCompileError(current.location, message)
            }
            guard let op = InfixOperator(rawValue: symbol), op.precedence >= minimumPrecedence else { return left }
            let location = advance().location
            let right = try parseInfix(minimumPrecedence: op.precedence + 1)
            left = try makeExpr(.infix(op, left, right), location, start: left.start, children: [left, right])
        }
    }

    private mutating func parseUnary() throws(KernelCompileError) -> Expr {
        let token = current
        if case .symbol(let symbol) = token.kind {
            if let op = PrefixOperator(rawValue: symbol) {
                _ = advance()
                try enter()
                defer { leave() }
                let operand = try parseUnary()
                return try makeExpr(.prefix(op, operand), token.location, children: [operand])
            }
            if symbol == "++" || symbol == "--" {
                throw KernelCompileError(token.location, "'\(symbol)' can only be used as a statement of its own (x\(symbol);)")
            }
            if symbol == "~" {
                throw KernelCompileError(token.location, "bitwise '~' is not supported")
            }
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws(KernelCompileError) -> Expr {
        var expression = try parsePrimary()
        while true {
            if current.isSymbol(".") {
                _ = advance()
                let token = current
                guard let letters = token.identifier else {
                    throw KernelCompileError(token.location, "expected swizzle components (like .rgb or .xy) after '.', found \(token.spelling)")
                }
                _ = advance()
                expression = try makeExpr(
                    .swizzle(expression, letters), token.location, start: expression.start, children: [expression])
            } else if current.isSymbol("[") {
                throw KernelCompileError(current.location, "indexing with '[]' is not supported; use a swizzle such as .x or .r")
            } else if current.isSymbol("(") {
                throw KernelCompileError(current.location, "only named functions can be called")
            } else {
                return expression
            }
        }
    }

    private mutating func parsePrimary() throws(KernelCompileError) -> Expr {
        let token = current
        switch token.kind {
        case .number(let value):
            _ = advance()
            return Expr(kind: .number(value), location: token.location, start: token.location, depth: 1)
        case .identifier(let name):
            if name == "true" || name == "false" {
                _ = advance()
                return Expr(kind: .boolean(name == "true"), location: token.location, start: token.location, depth: 1)
            }
            if peek(1).isSymbol("(") {
                if Parser.reservedWords.contains(name) {
                    throw KernelCompileError(token.location, "expected an expression, found the reserved word '\(name)'")
                }
                _ = advance()
                _ = advance()
                var arguments: [Expr] = []
                if !accept(")") {
                    repeat {
                        arguments.append(try parseExpression())
                    } while accept(",")
                    try expect(")", "to close the argument list of '\(name)'")
                }
                return try makeExpr(.call(name: name, arguments: arguments), token.location, children: arguments)
            }
            if Parser.reservedWords.contains(name) || Parser.typeNames.contains(name) {
                throw KernelCompileError(token.location, "expected an expression, found the reserved word '\(name)'")
            }
            _ = advance()
            return Expr(kind: .identifier(name), location: token.location, start: token.location, depth: 1)
        case .symbol("("):
            _ = advance()
            var inner = try parseExpression()
            try expect(")", "to close the parenthesis")
            inner.start = token.location
            return inner
        default:
            throw KernelCompileError(token.location, "expected an expression, found \(token.spelling)")
        }
    }
}
