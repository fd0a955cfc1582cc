/// Splits kernel source into tokens, skipping whitespace and `//` / `/* */` comments.
struct Lexer {
    private let characters: [Character]
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ source: String) {
        characters = Array(source)
    }

    /// Symbols, longest first so `+=` wins over `+`.
    private static let symbols: [String] = [
        "++", "--", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "&&", "||", "^^", "<<", ">>",
        "+", "-", "*", "/", "%", "=", "<", ">", "!", "?", ":", "(", ")", "{", "}", "[", "]", ",", ";", ".",
        "&", "|", "^", "~",
    ]

    static func tokenize(_ source: String) throws(KernelCompileError) -> [Token] {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .endOfFile { return tokens }
        }
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func peek(_ offset: Int = 0) -> Character? {
        let i = index + offset
        return i < characters.count ? characters[i] : nil
    }

    private mutating func advance() {
        guard index < characters.count else { return }
        if characters[index].isNewline {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func skipTrivia() throws(KernelCompileError) {
        while let c = peek() {
            if c.isWhitespace || c.isNewline {
                advance()
            } else if c == "/", peek(1) == "/" {
                while let d = peek(), !(d.isNewline) { _ = d; advance() }
            } else if c == "/", peek(1) == "*" {
                let start = location
                advance(); advance()
                while true {
                    guard let d = peek() else {
                        throw KernelCompileError(start, "unterminated comment: '/*' has no matching '*/'")
                    }
                    if d == "*", peek(1) == "/" { advance(); advance(); break }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private static func isIdentifierStart(_ c: Character) -> Bool {
        c == "_" || (c.isASCII && c.isLetter)
    }

    private static func isIdentifierBody(_ c: Character) -> Bool {
        isIdentifierStart(c) || (c.isASCII && c.isNumber)
    }

    private static func isDigit(_ c: Character?) -> Bool {
        guard let c else { return false }
        return c.isASCII && c.isNumber
    }

    mutating func next() throws(KernelCompileError) -> Token {
        try skipTrivia()
        let start = location
        guard let c = peek() else { return Token(kind: .endOfFile, location: start, end: start) }

        if Lexer.isIdentifierStart(c) {
            var name = ""
            while let d = peek(), Lexer.isIdentifierBody(d) { name.append(d); advance() }
            return Token(kind: .identifier(name), location: start, end: location)
        }

        if Lexer.isDigit(c) || (c == "." && Lexer.isDigit(peek(1))) {
            return try number(start)
        }

        for symbol in Lexer.symbols {
            let chars = Array(symbol)
            var matches = true
            for (offset, ch) in chars.enumerated() where peek(offset) != ch { matches = false; break }
            if matches {
                for _ in chars { advance() }
                return Token(kind: .symbol(symbol), location: start, end: location)
            }
        }
        throw KernelCompileError(start, "unexpected character '\(c)'")
    }

    private mutating func number(_ start: SourceLocation) throws(KernelCompileError) -> Token {
        var text = ""
        while Lexer.isDigit(peek()) { text.append(peek() ?? "0"); advance() }
        if peek() == "." {
            text.append("."); advance()
            while Lexer.isDigit(peek()) { text.append(peek() ?? "0"); advance() }
        }
        if peek() == "e" || peek() == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if Lexer.isDigit(peek(signed ? 2 : 1)) {
                text.append("e"); advance()
                if signed { text.append(peek() ?? "+"); advance() }
                while Lexer.isDigit(peek()) { text.append(peek() ?? "0"); advance() }
            } else {
                throw KernelCompileError(location, "malformed number: expected digits after the exponent 'e'")
            }
        }
        if peek() == "f" || peek() == "F" { advance() }
        if let d = peek(), Lexer.isIdentifierBody(d) {
            throw KernelCompileError(location, "malformed number '\(text)\(d)...'")
        }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        guard let value = Double(text) else {
            throw KernelCompileError(start, "malformed number '\(text)'")
        }
        return Token(kind: .number(Float(value)), location: start, end: location)
    }
}
