/// Text taken from a file, made safe to quote in a message: one line, no terminal control codes.
///
/// A file decides the bytes of a box type, a chunk name, an XMP value or a library's message about
/// it; printed as they are, they could clear the screen (`ESC [ 2 J`), break a message over
/// several lines or garble a log. Every message that quotes file content goes through
/// `escaped(_:)` (of bytes): control characters (C0, DEL, C1), line and paragraph separators,
/// bidirectional overrides and bytes that are not valid UTF-8 become `\xNN` (lowercase hex, one
/// per byte); printable text, including non-ASCII letters, stays as it is. A backslash is kept as
/// is, so `\x1b` in a message is either an escaped ESC or those four characters in the file.
public enum FileText {
    /// `bytes` decoded as UTF-8, escaped.
    public static func escaped<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var text = ""
        text.reserveCapacity(bytes.count)
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if needsEscape(scalar) {
                    for byte in encoded { text += hex(byte) }
                } else {
                    text.unicodeScalars.append(scalar)
                }
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<min(position + length, bytes.count)] { text += hex(byte) }
                position += length
            case .emptyInput:
                return text
            }
        }
    }

    /// A C string (a library's message) decoded as UTF-8, escaped.
    public static func escaped(cString: UnsafePointer<CChar>) -> String {
        escaped(UnsafeBufferPointer(start: cString, count: strlenOf(cString)).lazy.map { UInt8(bitPattern: $0) })
    }

    /// `text` with its control characters, separators and bidirectional overrides escaped (it is
    /// valid Unicode already: bytes that were not valid UTF-8 were replaced when it was decoded).
    /// For a whole message about to be printed, whatever it quotes.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        return escaped(text.utf8)
    }

    /// Characters that move the cursor, end a line, change a terminal's state or reorder text.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0 controls (newline, ESC), DEL, C1 controls
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional embeddings and overrides
        default: return false
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    private static func strlenOf(_ cString: UnsafePointer<CChar>) -> Int {
        var count = 0
        while cString[count] != 0 { count += 1 }
        return count
    }
}
