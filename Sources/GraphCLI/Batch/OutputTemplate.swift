import Foundation
import GraphRecipes

/// An output path made from each input: `{dir}` (the input's folder, `.` when it has none),
/// `{stem}` (its file name without extension), `{ext}` (its extension, no dot), `{index}` (its
/// position in the list; `{index:5}` pads it with zeros to 5 digits) and `{output}` (the name,
/// without folder and extension, of the recipe output being written: one template for several
/// outputs). `{{` and `}}` are braces.
struct OutputTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case text(String)
        case dir, stem, ext, output
        case index(width: Int)
    }

    let text: String
    let parts: [Part]

    /// Parses `text`; `option` names it in errors (`--out`, `outputs[0].file`).
    init(_ text: String, option: String) throws {
        self.text = text
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let first = rest.first {
            rest = rest.dropFirst()
            if first == "}" {
                guard rest.first == "}" else { throw RecipeError(option, "lone '}' in '\(text)'; write }} for a brace") }
                rest = rest.dropFirst()
                literal.append("}")
                continue
            }
            guard first == "{" else { literal.append(first); continue }
            if rest.first == "{" {
                rest = rest.dropFirst()
                literal.append("{")
                continue
            }
            guard let close = rest.firstIndex(of: "}") else {
                throw RecipeError(option, "unclosed '{' in '\(text)'; write {{ for a brace")
            }
            let name = rest[..<close]
            rest = rest[rest.index(after: close)...]
            if !literal.isEmpty { parts.append(.text(literal)); literal = "" }
            parts.append(try Self.placeholder(String(name), in: text, option: option))
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    private static func placeholder(_ name: String, in text: String, option: String) throws -> Part {
        switch name {
        case "dir": return .dir
        case "stem": return .stem
        case "ext": return .ext
        case "output": return .output
        case "index": return .index(width: 0)
        default:
            if name.hasPrefix("index:"), let width = Int(name.dropFirst("index:".count)), (1...20).contains(width) {
                return .index(width: width)
            }
            throw RecipeError(option, "unknown placeholder {\(name)} in '\(text)'; expected {dir}, {stem}, {ext}, {index}, {index:N} or {output}")
        }
    }

    /// Whether `{output}` appears (so one template can serve several recipe outputs).
    var namesOutput: Bool { parts.contains(.output) }

    /// The extension when it is fixed text (not made by a placeholder), to check before running.
    var fixedExtension: String? {
        guard case .text(let last)? = parts.last else { return nil }
        let name = last.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The path for `input`, writing the recipe output whose file is `outputFile`.
    func expand(_ input: BatchInput, outputFile: String = "") -> String {
        let name = (input.path as NSString).lastPathComponent
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .dir: result += input.folder.isEmpty ? "." : input.folder
            case .stem: result += (name as NSString).deletingPathExtension
            case .ext: result += (name as NSString).pathExtension
            case .output: result += ((outputFile as NSString).lastPathComponent as NSString).deletingPathExtension
            case .index(let width):
                let digits = String(input.index)
                result += String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
        }
        return Self.tidy(result)
    }

    /// `path` without `.` components and doubled slashes (`out/./a.jpg` is `out/a.jpg`); `..`
    /// stays (a link may make it mean something else than the folder above).
    static func tidy(_ path: String) -> String {
        let components = path.split(separator: "/").filter { $0 != "." }
        let joined = components.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
