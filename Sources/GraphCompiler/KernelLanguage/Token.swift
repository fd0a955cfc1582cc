/// One lexical token of the kernel language.
struct Token: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case identifier(String)
        case number(Float)
        /// Punctuation and operators, spelled as in the source (`+=`, `(`, `&&`).
        case symbol(String)
        case endOfFile
    }

    var kind: Kind
    /// Where the token starts.
    var location: SourceLocation
    /// The position just after the token's last character.
    var end: SourceLocation

    /// The token as a user would recognise it in a message.
    var spelling: String {
        switch kind {
        case .identifier(let name): return "'\(name)'"
        case .number(let value): return "'\(formatFloat(Double(value)))'"
        case .symbol(let text): return "'\(text)'"
        case .endOfFile: return "the end of the source"
        }
    }

    func isSymbol(_ text: String) -> Bool {
        if case .symbol(let s) = kind { return s == text }
        return false
    }

    func isIdentifier(_ text: String) -> Bool {
        if case .identifier(let s) = kind { return s == text }
        return false
    }

    var identifier: String? {
        if case .identifier(let s) = kind { return s }
        return nil
    }
}
