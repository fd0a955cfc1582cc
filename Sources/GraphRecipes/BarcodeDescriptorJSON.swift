import Kernels

/// A barcode descriptor's JSON form: an object with `"symbology"` (`QR`, `Aztec`, `PDF417` or
/// `DataMatrix`), `"message"` and the symbology's fields as Core Image's descriptors name them.
extension BarcodeDescriptor {
    /// The fields each symbology takes besides `symbology` and `message`.
    static let fields: [String: [String]] = [
        "QR": ["symbolVersion", "maskPattern", "errorCorrectionLevel"],
        "Aztec": ["isCompact", "layerCount"],
        "PDF417": ["isCompact", "rowCount", "columnCount"],
        "DataMatrix": ["rowCount", "columnCount", "eccVersion"],
    ]

    /// Core Image's fields that cannot be honoured here, with why.
    static let refusedFields: [String: String] = [
        "errorCorrectedPayload": "libzint encodes and error-corrects a message, so Core Image's error-corrected codewords cannot be drawn as they are; "
            + "give the text as \"message\"",
        "dataCodewordCount": "libzint counts the data codewords from the message; remove it",
    ]

    /// The descriptor `json` describes; errors name the field (`path.field`) and what it takes.
    package init(_ json: JSON, _ path: String) throws {
        guard case .object(let members) = json else {
            throw RecipeError(path, "expected a barcode descriptor {\"symbology\": \"QR\", \"message\": \"…\", …}, got \(json.compact)")
        }
        guard case .string(let symbology)? = json["symbology"], let allowed = Self.fields[symbology] else {
            throw RecipeError("\(path).symbology", "expected \"QR\", \"Aztec\", \"PDF417\" or \"DataMatrix\", got \(json["symbology"]?.compact ?? "nothing")")
        }
        for (key, _) in members where key != "symbology" && key != "message" && !allowed.contains(key) {
            if let reason = Self.refusedFields[key] { throw RecipeError("\(path).\(key)", reason) }
            throw RecipeError("\(path).\(key)", "unknown field of the \(symbology) descriptor; it takes \"message\", "
                              + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        guard case .string(let message)? = json["message"] else {
            throw RecipeError("\(path).message", "expected the message as a string, got \(json["message"]?.compact ?? "nothing")")
        }
        func integer(_ key: String) throws -> Int? {
            guard let value = json[key] else { return nil }
            guard case .number(let n) = value, n == n.rounded(), abs(n) < 1e6 else {
                throw RecipeError("\(path).\(key)", "expected a whole number, got \(value.compact)")
            }
            return Int(n)
        }
        func bool(_ key: String) throws -> Bool? {
            guard let value = json[key] else { return nil }
            guard case .bool(let b) = value else { throw RecipeError("\(path).\(key)", "expected true or false, got \(value.compact)") }
            return b
        }
        switch symbology {
        case "QR":
            var level = "M"
            if let value = json["errorCorrectionLevel"] {
                guard case .string(let text) = value, ["L", "M", "Q", "H"].contains(text) else {
                    throw RecipeError("\(path).errorCorrectionLevel", "expected \"L\", \"M\", \"Q\" or \"H\", got \(value.compact)")
                }
                level = text
            }
            self = .qrCode(message: message, symbolVersion: try integer("symbolVersion"), maskPattern: try integer("maskPattern"),
                           errorCorrectionLevel: level)
        case "Aztec":
            self = .aztec(message: message, isCompact: try bool("isCompact"), layerCount: try integer("layerCount"))
        case "PDF417":
            self = .pdf417(message: message, isCompact: try bool("isCompact") ?? false, rowCount: try integer("rowCount"),
                           columnCount: try integer("columnCount"))
        default:
            if let value = json["eccVersion"], value != .number(200) {
                throw RecipeError("\(path).eccVersion", "only ECC 200 (200) is drawn here (libzint), got \(value.compact)")
            }
            self = .dataMatrix(message: message, rowCount: try integer("rowCount"), columnCount: try integer("columnCount"))
        }
    }
}

extension JSON {
    /// The descriptor's JSON form, its nil fields left out.
    package init(_ descriptor: BarcodeDescriptor) {
        var members: [(String, JSON)] = [("symbology", .string(descriptor.symbology)), ("message", .string(descriptor.message))]
        func add(_ key: String, _ value: Int?) { if let value { members.append((key, .number(Double(value)))) } }
        switch descriptor {
        case .qrCode(_, let version, let mask, let level):
            add("symbolVersion", version)
            add("maskPattern", mask)
            members.append(("errorCorrectionLevel", .string(level)))
        case .aztec(_, let compact, let layers):
            if let compact { members.append(("isCompact", .bool(compact))) }
            add("layerCount", layers)
        case .pdf417(_, let compact, let rows, let columns):
            members.append(("isCompact", .bool(compact)))
            add("rowCount", rows)
            add("columnCount", columns)
        case .dataMatrix(_, let rows, let columns):
            add("rowCount", rows)
            add("columnCount", columns)
        }
        self = .object(members)
    }
}
