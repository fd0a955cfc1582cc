/// Targeted edits of an XMP packet's text: one property's value replaced, one property removed,
/// found by namespace (through the prefix the packet declares for it) and local name, in element
/// (`<p:Name>value</p:Name>`, `<p:Name …>…</p:Name>`, `<p:Name …/>`) or attribute (`p:Name="value"`)
/// form. Everything else stays byte for byte as the writer made it: a camera's packet keeps its
/// own properties, layout and order when an edited copy changes a few values. Works on UTF-8
/// bytes, since extended packets carrying images in base64 are megabytes long.
struct XMPTextEdit {
    /// The packet's UTF-8 bytes, edited in place.
    private(set) var bytes: [UInt8]

    /// The packet to edit.
    init(_ packet: String) { bytes = Array(packet.utf8) }

    /// The edited packet.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The prefix the packet declares for `namespace` (`xmlns:p="namespace"`), nil when none.
    func prefix(for namespace: String) -> String? {
        for quote in ["\"", "'"] {
            let declaration = Array("=\(quote)\(namespace)\(quote)".utf8)
            var from = 0
            while let found = bytes[from...].firstRange(of: declaration) {
                // Walk back over the prefix to "xmlns:".
                var start = found.lowerBound
                while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
                let name = bytes[start..<found.lowerBound]
                let xmlns = Array("xmlns:".utf8)
                if start >= xmlns.count, bytes[(start - xmlns.count)..<start].elementsEqual(xmlns), !name.isEmpty {
                    return String(decoding: name, as: UTF8.self)
                }
                from = found.upperBound
            }
        }
        return nil
    }

    /// The whole element `<p:local …>…</p:local>` or `<p:local …/>`, the first one.
    func elementRange(_ prefix: String, _ local: String) -> Range<Int>? {
        let open = Array("<\(prefix):\(local)".utf8)
        var from = 0
        while let found = bytes[from...].firstRange(of: open) {
            from = found.upperBound
            guard found.upperBound < bytes.count, isTagNameEnd(bytes[found.upperBound]),
                  let tagEnd = bytes[found.upperBound...].firstIndex(of: UInt8(ascii: ">")) else { continue }
            if bytes[tagEnd - 1] == UInt8(ascii: "/") { return found.lowerBound..<(tagEnd + 1) }
            // Nested elements of the same name are counted so the matching end tag is found.
            let close = Array("</\(prefix):\(local)>".utf8)
            var depth = 1, position = tagEnd + 1
            while depth > 0 {
                guard let next = bytes[position...].firstRange(of: close) else { return nil }
                var inner = position
                while let nested = bytes[inner..<next.lowerBound].firstRange(of: open) {
                    if nested.upperBound < bytes.count, isTagNameEnd(bytes[nested.upperBound]) { depth += 1 }
                    inner = nested.upperBound
                }
                depth -= 1
                position = next.upperBound
            }
            return found.lowerBound..<position
        }
        return nil
    }

    /// Where the value of `p:local` lies: the text of a simple element, or an attribute's value
    /// between its quotes.
    func valueRange(_ prefix: String, _ local: String) -> Range<Int>? {
        if let element = elementRange(prefix, local), let tagEnd = bytes[element].firstIndex(of: UInt8(ascii: ">")),
           bytes[tagEnd - 1] != UInt8(ascii: "/") {
            let close = Array("</\(prefix):\(local)>".utf8)
            let contentEnd = element.upperBound - close.count
            if !bytes[(tagEnd + 1)..<contentEnd].contains(UInt8(ascii: "<")) { return (tagEnd + 1)..<contentEnd }
            return nil
        }
        guard let attribute = attributeRange(prefix, local),
              let quote = bytes[attribute].firstIndex(where: { $0 == 0x22 || $0 == 0x27 }) else { return nil }
        return (quote + 1)..<(attribute.upperBound - 1)
    }

    /// ` p:local="value"` with the white space before it, the first one.
    private func attributeRange(_ prefix: String, _ local: String) -> Range<Int>? {
        let name = Array("\(prefix):\(local)".utf8)
        var from = 0
        while let found = bytes[from...].firstRange(of: name) {
            from = found.upperBound
            guard found.lowerBound > 0, isSpace(bytes[found.lowerBound - 1]) else { continue }
            var position = found.upperBound
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { continue }
            position += 1
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27,
                  let end = bytes[(position + 1)...].firstIndex(of: bytes[position]) else { continue }
            var start = found.lowerBound
            while start > 0, isSpace(bytes[start - 1]) { start -= 1 }
            return start..<(end + 1)
        }
        return nil
    }

    /// Replaces the value of `p:local` with `value` (XML-escaped here); false when the packet
    /// has no such simple property.
    @discardableResult
    mutating func setValue(_ prefix: String, _ local: String, _ value: String) -> Bool {
        guard let range = valueRange(prefix, local) else { return false }
        bytes.replaceSubrange(range, with: Array(XMPTextEdit.escaped(value).utf8))
        return true
    }

    /// Removes the property `p:local` (element or attribute); false when there is none.
    @discardableResult
    mutating func remove(_ prefix: String, _ local: String) -> Bool {
        if var element = elementRange(prefix, local) {
            // The element's own line goes with it.
            while element.lowerBound > 0, bytes[element.lowerBound - 1] == 0x20 || bytes[element.lowerBound - 1] == 0x09 {
                element = (element.lowerBound - 1)..<element.upperBound
            }
            if element.lowerBound > 0, bytes[element.lowerBound - 1] == 0x0A { element = (element.lowerBound - 1)..<element.upperBound }
            bytes.removeSubrange(element)
            return true
        }
        guard let attribute = attributeRange(prefix, local) else { return false }
        bytes.removeSubrange(attribute)
        return true
    }

    /// Replaces the element `p:local` with `replacement` (XML text, written as is); false when
    /// there is none.
    @discardableResult
    mutating func replaceElement(_ prefix: String, _ local: String, with replacement: String) -> Bool {
        guard let range = elementRange(prefix, local) else { return false }
        bytes.replaceSubrange(range, with: Array(replacement.utf8))
        return true
    }

    /// `text` with `&`, `<`, `>` and quotes escaped for XML.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private func isTagNameEnd(_ c: UInt8) -> Bool { isSpace(c) || c == UInt8(ascii: ">") || c == UInt8(ascii: "/") }
    private func isNameByte(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x5F || c == 0x2D || c == 0x2E
    }
}
