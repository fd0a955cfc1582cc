/// A parsed JSON value that keeps object key order, so recipes report errors in file order.
package indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    package static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value for `key` of an object.
    package subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// An object with `key` set (replaced in place, or appended).
    package func setting(_ key: String, to value: JSON) -> JSON {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.0 == key }) {
            members[index].1 = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }

    /// Compact JSON text, for error messages (`"steep"`, `[1,2]`) and JSON-lines logs.
    package var compact: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return formatNumber(n)
        case .string(let s): return quoted(s)
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { "\(quoted($0.0)):\($0.1.compact)" }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// What the value is, in words (`a string`, `an array of 3`).
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array(let items): return "an array of \(items.count)"
        case .object: return "an object"
        }
    }
}

package func formatNumber(_ n: Double) -> String {
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return String(n)
}

/// A JSON syntax error with its 1-based line and column.
package struct JSONSyntaxError: Error, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let message: String
    package var description: String { "line \(line), column \(column): \(message)" }
}

/// A small strict JSON parser (RFC 8259) that reports line and column.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0

    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSON {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.parseValue(depth: 0)
        parser.skipSpace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        return "'\(String(decoding: [byte], as: UTF8.self))'"
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSON {
        guard depth < 200 else { throw error("nesting is too deep") }
        guard let byte = current else { throw error("unexpected end of file, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("invalid literal, expected '\(word)'")
        }
        index += expected.count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSON {
        index += 1
        var members: [(String, JSON)] = []
        var keys = Set<String>()
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw error("unexpected \(describeCurrent()), expected a key string") }
            let key = try parseString()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("unexpected \(describeCurrent()), expected ':'") }
            index += 1
            skipSpace()
            guard keys.insert(key).inserted else { throw error("duplicate key \"\(key)\"") }
            members.append((key, try parseValue(depth: depth + 1)))
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            if current == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSON {
        index += 1
        var items: [JSON] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try parseValue(depth: depth + 1))
            skipSpace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            if current == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard let byte = current else { throw error("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw error("unterminated string") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    // A high surrogate joins the low surrogate escape after it; an unpaired one
                    // becomes U+FFFD (and the escape after it is read on its own).
                    if (0xD800..<0xDC00).contains(code), current == UInt8(ascii: "\\"),
                       index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index -= 6
                        }
                    }
                    let scalar = Unicode.Scalar(UInt32(code)) ?? "\u{FFFD}"
                    out += Array(String(Character(scalar)).utf8)
                default: throw error("invalid escape in string")
                }
            case 0x00..<0x20: throw error("control character in string")
            default: out.append(byte)
            }
        }
    }

    /// The four hex digits of a `\u` escape (digits only: `Int(_:radix:)` alone would take a sign).
    private mutating func hex4() throws(JSONSyntaxError) -> Int {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape: expected four hex digits") }
        var value = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw error("invalid \\u escape: expected four hex digits")
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let byte = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { parser.index += 1; count += 1 }
            return count
        }
        if digits(&self) == 0 { throw error("invalid number") }
        if current == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("invalid number: digits expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("invalid number: digits expected in the exponent") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw error("invalid number")
        }
        return value
    }
}

extension JSON {
    /// Indented text (two spaces), keys in stored order.
    package func pretty(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            if items.allSatisfy({ if case .number = $0 { return true } else { return false } }) { return compact }
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members) where !members.isEmpty:
            return "{\n" + members.map { "\(inner)\(JSON.string($0.0).compact): \($0.1.pretty(indent: inner))" }
                .joined(separator: ",\n") + "\n\(indent)}"
        default:
            return compact
        }
    }
}
