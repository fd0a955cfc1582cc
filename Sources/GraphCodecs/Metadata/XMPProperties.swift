#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The properties of an XMP packet, by namespace URI and local name: what the depth readers need
/// from Apple's auxiliary-image XMP and Google's GDepth XMP.
///
/// A small, bounds-checked XML scanner (no DTDs, no external entities): it tracks `xmlns`
/// declarations, so properties are found by namespace whatever prefix the writer chose. A
/// property is an attribute of an `rdf:Description` (`GDepth:Near="18.8"`) or a child element of
/// one, either with text (`<apdi:FloatMinValue>0.78</apdi:FloatMinValue>`) or holding an
/// `rdf:Seq`/`rdf:Bag`/`rdf:Alt` of `rdf:li` items. Structured values are flattened (their
/// fields become properties too); the first occurrence of a name wins. Malformed XML ends the
/// scan: what was read before stays, and `problem` says where it stopped.
public struct XMPProperties: Sendable, Equatable {
    /// A property name: namespace URI and local name.
    public struct Name: Hashable, Sendable {
        /// The namespace URI.
        public var namespace: String
        /// The local name (`FloatMinValue`).
        public var local: String
        /// The name `local` in `namespace`.
        public init(_ namespace: String, _ local: String) {
            self.namespace = namespace
            self.local = local
        }
    }

    /// A property value: text, or the items of an RDF array.
    public enum Value: Sendable, Equatable {
        /// A simple value: an attribute or an element's text.
        case text(String)
        /// The items of an `rdf:Seq`, `rdf:Bag` or `rdf:Alt`, in order.
        case list([String])
    }

    /// Every property read, by name.
    public private(set) var values: [Name: Value] = [:]
    /// The items of each RDF array whose items are structures (`rdf:li rdf:parseType="Resource"`),
    /// by the array property's name: each item's simple fields by name, whatever their depth in
    /// it, attributes of its property elements included (`<Container:Item Item:Length="22463"/>`).
    /// Where ``values`` keeps the first item's fields only, this keeps every item's.
    public private(set) var structureLists: [Name: [[Name: String]]] = [:]
    /// Why the scan stopped early, when it did.
    public private(set) var problem: String?

    /// Deepest element nesting followed (real packets nest about 6 deep).
    static let maxDepth = 256

    /// Parses a packet. Never fails: see ``problem``.
    public static func parse(_ packet: String) -> XMPProperties {
        var scanner = XMLScanner(Array(packet.utf8))
        return scanner.run()
    }

    /// No properties.
    public init() {}

    /// The text of a property (nil when absent or a list).
    public func text(_ namespace: String, _ local: String) -> String? {
        if case .text(let value)? = values[Name(namespace, local)] { return value.trimmingXMLSpace() }
        return nil
    }

    /// A property as a number (decimal text, surrounding spaces allowed).
    public func number(_ namespace: String, _ local: String) -> Double? {
        text(namespace, local).flatMap(parseXMLDouble)
    }

    /// The items of an RDF array property, as numbers; nil when absent or when any item is not one.
    public func numbers(_ namespace: String, _ local: String) -> [Double]? {
        guard case .list(let items)? = values[Name(namespace, local)] else { return nil }
        var result: [Double] = []
        for item in items {
            guard let value = parseXMLDouble(item.trimmingXMLSpace()) else { return nil }
            result.append(value)
        }
        return result
    }

    /// A Boolean written `True`/`False` (XMP) or `true`/`false`/`1`/`0`.
    public func bool(_ namespace: String, _ local: String) -> Bool? {
        switch text(namespace, local)?.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    /// The items of an RDF array of structures (see ``structureLists``); nil when absent.
    public func structures(_ namespace: String, _ local: String) -> [[Name: String]]? {
        structureLists[Name(namespace, local)]
    }

    /// Whether any property of `namespace` is present.
    public func hasNamespace(_ namespace: String) -> Bool {
        values.keys.contains { $0.namespace == namespace }
    }

    mutating func set(_ name: Name, _ value: Value) {
        if values[name] == nil { values[name] = value }
    }

    mutating func setStructures(_ name: Name, _ items: [[Name: String]]) {
        if structureLists[name] == nil { structureLists[name] = items }
    }

    mutating func stop(_ why: String) {
        if problem == nil { problem = why }
    }
}

/// Decimal text to Double, refusing non-finite spellings ("nan", "inf") that XMP never means.
func parseXMLDouble(_ text: String) -> Double? {
    guard let value = Double(text), value.isFinite else { return nil }
    return value
}

extension String {
    /// Without leading and trailing XML white space (space, tab, CR, LF).
    func trimmingXMLSpace() -> String {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        if let first = utf8.first, let last = utf8.last, !isSpace(first), !isSpace(last) { return self }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        if first == 0 && last == bytes.count - 1 { return self }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

/// The scanner behind ``XMPProperties/parse(_:)``: one pass over the UTF-8 bytes, an explicit
/// element stack (never recursion), every index checked.
private struct XMLScanner {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xml = "http://www.w3.org/XML/1998/namespace"

    enum Role {
        /// Anything not interesting (x:xmpmeta, rdf:RDF, unknown wrappers).
        case other
        /// An `rdf:Description` (or an element with `rdf:parseType="Resource"`): its attributes
        /// and child elements are properties.
        case description
        /// A property element: collects text, or list items through an RDF array.
        case property(XMPProperties.Name)
        /// `rdf:Seq`/`Bag`/`Alt` inside a property.
        case array
        /// `rdf:li` inside an array.
        case item
    }

    struct Element {
        var qualifiedName: ArraySlice<UInt8>
        var role: Role
        /// Namespace declarations made on this element (prefix → URI).
        var declarations: [(String, String)]
        var text: [UInt8] = []
        var items: [String]? = nil
        /// The fields of an array item that is a structure (nil for any other element).
        var fields: [XMPProperties.Name: String]? = nil
        /// An array's (or its property's) structure items.
        var structures: [[XMPProperties.Name: String]]? = nil
    }

    let bytes: [UInt8]
    var position = 0
    var stack: [Element] = []
    var result = XMPProperties()

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func run() -> XMPProperties {
        while position < bytes.count {
            if bytes[position] == 0x3C {  // '<'
                if !markup() { break }
            } else {
                let start = position
                while position < bytes.count, bytes[position] != 0x3C { position += 1 }
                appendText(bytes[start..<position])
            }
        }
        return result
    }

    // MARK: Markup

    /// Handles the markup at `position` ('<'); false when the scan must stop.
    mutating func markup() -> Bool {
        if starts(with: "<?") { return skip(past: "?>", what: "processing instruction") }
        if starts(with: "<!--") { return skip(past: "-->", what: "comment") }
        if starts(with: "<![CDATA[") {
            let start = position + 9
            guard let end = find("]]>", from: start) else { return fail("unterminated CDATA section") }
            appendRaw(bytes[start..<end])
            position = end + 3
            return true
        }
        if starts(with: "<!") { return skip(past: ">", what: "declaration") }
        if starts(with: "</") { return endTag() }
        return startTag()
    }

    mutating func startTag() -> Bool {
        position += 1
        let name = readName()
        guard !name.isEmpty else { return fail("expected an element name") }
        var attributes: [(ArraySlice<UInt8>, [UInt8])] = []
        var selfClosing = false
        while true {
            skipSpace()
            guard position < bytes.count else { return fail("unterminated start tag") }
            if bytes[position] == 0x3E { position += 1; break }  // '>'
            if bytes[position] == 0x2F {  // '/'
                guard position + 1 < bytes.count, bytes[position + 1] == 0x3E else { return fail("expected '>' after '/'") }
                position += 2
                selfClosing = true
                break
            }
            let attributeName = readName()
            guard !attributeName.isEmpty else { return fail("expected an attribute name") }
            skipSpace()
            guard position < bytes.count, bytes[position] == 0x3D else { return fail("expected '=' after an attribute name") }
            position += 1
            skipSpace()
            guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else {
                return fail("expected a quoted attribute value")
            }
            let quote = bytes[position]
            let start = position + 1
            guard let end = bytes[start...].firstIndex(of: quote) else { return fail("unterminated attribute value") }
            attributes.append((attributeName, decodeEntities(bytes[start..<end])))
            position = end + 1
        }
        guard stack.count < XMPProperties.maxDepth else { return fail("elements nest deeper than \(XMPProperties.maxDepth)") }

        var declarations: [(String, String)] = []
        for (attributeName, value) in attributes {
            let text = String(decoding: attributeName, as: UTF8.self)
            if text == "xmlns" {
                declarations.append(("", String(decoding: value, as: UTF8.self)))
            } else if text.hasPrefix("xmlns:") {
                declarations.append((String(text.dropFirst(6)), String(decoding: value, as: UTF8.self)))
            }
        }
        var element = Element(qualifiedName: name, role: .other, declarations: declarations)
        stack.append(element)  // so its own declarations resolve its name and attributes
        let resolved = resolve(name, isAttribute: false)
        let parentRole = stack.count >= 2 ? stack[stack.count - 2].role : .other
        let parseTypeResource = attributes.contains { attribute in
            resolve(attribute.0, isAttribute: true) == XMPProperties.Name(Self.rdf, "parseType")
                && String(decoding: attribute.1, as: UTF8.self) == "Resource"
        }
        if resolved == XMPProperties.Name(Self.rdf, "Description") {
            element.role = .description
        } else if case .property = parentRole, let resolved, resolved.namespace == Self.rdf,
                  ["Seq", "Bag", "Alt"].contains(resolved.local) {
            element.role = .array
        } else if case .array = parentRole, resolved == XMPProperties.Name(Self.rdf, "li") {
            // An item that is a structure (MWG regions' `rdf:li rdf:parseType="Resource"`): its
            // fields are properties, flattened like any structure's (the first item's win).
            element.role = parseTypeResource ? .description : .item
            if parseTypeResource { element.fields = [:] }
        } else if case .description = parentRole, let resolved {
            element.role = parseTypeResource ? .description : .property(resolved)
        } else if case .property = parentRole, let resolved, resolved.namespace != Self.rdf {
            // A field of a structure written without rdf:Description: flattened.
            element.role = .property(resolved)
        }
        stack[stack.count - 1] = element
        switch element.role {
        case .description:
            for (attributeName, value) in attributes {
                guard let property = resolve(attributeName, isAttribute: true), property.namespace != Self.rdf,
                      !property.namespace.isEmpty else { continue }
                let text = String(decoding: value, as: UTF8.self)
                result.set(property, .text(text))
                recordField(property, text)
            }
        case .property:
            // A structure written as attributes of its property element: its fields, kept only
            // in the enclosing structure item (``XMPProperties/structureLists``).
            for (attributeName, value) in attributes {
                guard let field = resolve(attributeName, isAttribute: true), field.namespace != Self.rdf,
                      !field.namespace.isEmpty, field.namespace != Self.xml else { continue }
                recordField(field, String(decoding: value, as: UTF8.self))
            }
        default:
            break
        }
        if selfClosing { close() }
        return true
    }

    mutating func endTag() -> Bool {
        position += 2
        let name = readName()
        skipSpace()
        guard position < bytes.count, bytes[position] == 0x3E else { return fail("unterminated end tag") }
        position += 1
        guard let open = stack.last else { return fail("end tag </\(FileText.escaped(name.prefix(64)))> without a start tag") }
        guard open.qualifiedName.elementsEqual(name) else {
            return fail("end tag </\(FileText.escaped(name.prefix(64)))> does not match <\(FileText.escaped(open.qualifiedName.prefix(64)))>")
        }
        close()
        return true
    }

    /// Adds a simple field to the innermost enclosing structure item, if any (its first value wins).
    mutating func recordField(_ name: XMPProperties.Name, _ text: String) {
        guard let index = stack.lastIndex(where: { $0.fields != nil }) else { return }
        if stack[index].fields?[name] == nil { stack[index].fields?[name] = text }
    }

    /// Pops the innermost element, handing its text or items to the property it belongs to.
    mutating func close() {
        guard let element = stack.popLast() else { return }
        if let fields = element.fields, let array = stack.indices.last {
            // A structure item: its fields go to its array.
            if stack[array].structures == nil { stack[array].structures = [] }
            stack[array].structures?.append(fields)
        }
        switch element.role {
        case .property(let name):
            if let items = element.items {
                result.set(name, .list(items))
            } else {
                let text = String(decoding: element.text, as: UTF8.self)
                result.set(name, .text(text))
                recordField(name, text)
            }
            if let structures = element.structures { result.setStructures(name, structures) }
        case .array:
            if let parent = stack.indices.last {
                stack[parent].items = element.items ?? []
                if let structures = element.structures { stack[parent].structures = structures }
            }
        case .item:
            guard let array = stack.indices.last else { return }
            // Appended in place: building a new array per item made long lists quadratic.
            let item = String(decoding: element.text, as: UTF8.self)
            if stack[array].items == nil { stack[array].items = [] }
            stack[array].items?.append(item)
        case .other, .description:
            break
        }
    }

    // MARK: Text

    mutating func appendText(_ raw: ArraySlice<UInt8>) {
        guard let index = stack.indices.last else { return }
        switch stack[index].role {
        case .property, .item: stack[index].text += decodeEntities(raw)
        default: break
        }
    }

    mutating func appendRaw(_ raw: ArraySlice<UInt8>) {
        guard let index = stack.indices.last else { return }
        switch stack[index].role {
        case .property, .item: stack[index].text += raw
        default: break
        }
    }

    /// Replaces the five predefined entities and numeric references; anything else is kept as written.
    func decodeEntities(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        // The text between entities is copied in runs found with memchr: an extended packet's
        // attribute may be megabytes of base64, plain or broken into lines by `&#xA;` (XDM).
        func nextAmpersand(from start: Int) -> Int {
            raw.withUnsafeBufferPointer { buffer in
                let offset = start - raw.startIndex
                guard let base = buffer.baseAddress, offset < buffer.count,
                      let hit = memchr(base + offset, 0x26, buffer.count - offset) else { return raw.endIndex }
                return raw.startIndex + base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
        }
        var i = nextAmpersand(from: raw.startIndex)
        guard i < raw.endIndex else { return Array(raw) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        out += raw[raw.startIndex..<i]
        while i < raw.endIndex {
            // raw[i] is an ampersand.
            var next = i + 1
            if let semicolon = raw[i..<min(raw.endIndex, i + 12)].firstIndex(of: 0x3B),
               let replacement = entityText(raw[(i + 1)..<semicolon]) {
                out += replacement
                next = semicolon + 1
            } else {
                out.append(0x26)
            }
            i = nextAmpersand(from: next)
            out += raw[next..<i]
        }
        return out
    }

    /// The UTF-8 text of an entity's name or numeric reference (between `&` and `;`), nil when unknown.
    func entityText(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        let entity = String(decoding: name, as: UTF8.self)
        switch entity {
        case "amp": return [0x26]
        case "lt": return [0x3C]
        case "gt": return [0x3E]
        case "quot": return [0x22]
        case "apos": return [0x27]
        default:
            var code: UInt32?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                code = UInt32(entity.dropFirst(2), radix: 16)
            } else if entity.hasPrefix("#") {
                code = UInt32(entity.dropFirst(), radix: 10)
            }
            guard let code, let scalar = Unicode.Scalar(code) else { return nil }
            return Array(String(Character(scalar)).utf8)
        }
    }

    // MARK: Names

    /// The namespace and local name of a qualified name; nil when its prefix is undeclared.
    /// Unprefixed attributes have no namespace (XML Namespaces 6.2).
    func resolve(_ qualified: ArraySlice<UInt8>, isAttribute: Bool) -> XMPProperties.Name? {
        let colon = qualified.firstIndex(of: 0x3A)
        let prefix = colon.map { String(decoding: qualified[qualified.startIndex..<$0], as: UTF8.self) } ?? ""
        let local = String(decoding: colon.map { qualified[($0 + 1)...] } ?? qualified, as: UTF8.self)
        if prefix.isEmpty && isAttribute { return XMPProperties.Name("", local) }
        if prefix == "xml" { return XMPProperties.Name("http://www.w3.org/XML/1998/namespace", local) }
        for element in stack.reversed() {
            if let declared = element.declarations.last(where: { $0.0 == prefix }) {
                return XMPProperties.Name(declared.1, local)
            }
        }
        return prefix.isEmpty ? XMPProperties.Name("", local) : nil
    }

    mutating func readName() -> ArraySlice<UInt8> {
        let start = position
        while position < bytes.count {
            let c = bytes[position]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x3E || c == 0x2F || c == 0x3D || c == 0x3C {
                break
            }
            position += 1
        }
        return bytes[start..<position]
    }

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { bytes[position..<position + count].elementsEqual($0) }
    }

    func find(_ text: StaticString, from start: Int) -> Int? {
        let count = text.utf8CodeUnitCount
        guard start >= 0, count > 0 else { return nil }
        return text.withUTF8Buffer { needle -> Int? in
            var i = start
            while i + count <= bytes.count {
                guard let first = bytes[i..<(bytes.count - count + 1)].firstIndex(of: needle[0]) else { return nil }
                if bytes[first..<first + count].elementsEqual(needle) { return first }
                i = first + 1
            }
            return nil
        }
    }

    mutating func skip(past terminator: StaticString, what: String) -> Bool {
        guard let end = find(terminator, from: position + 1) else { return fail("unterminated \(what)") }
        position = end + terminator.utf8CodeUnitCount
        return true
    }

    mutating func fail(_ why: String) -> Bool {
        result.stop("\(why) at byte \(position)")
        return false
    }
}
