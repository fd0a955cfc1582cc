import Kernels

/// Styled text's JSON form: a string (one run, the default attributes), or an array of runs, each
/// `{"text": "…", "font": "DejaVu Sans", "size": 24, "color": [r, g, b, a]}` with everything but
/// `text` optional (Helvetica, 12, black).
extension AttributedText {
    /// The text `json` describes; errors name the run and field (`path[1].size`) and what it takes.
    package init(_ json: JSON, _ path: String) throws {
        if case .string(let text) = json {
            self.init(text)
            return
        }
        guard case .array(let items) = json, !items.isEmpty else {
            throw RecipeError(path, "expected a string or runs [{\"text\": \"…\", \"font\": …, \"size\": …, \"color\": […]}, …], got \(json.compact)")
        }
        self.init(try items.enumerated().map { index, item in
            let at = "\(path)[\(index)]"
            guard case .object(let members) = item else { throw RecipeError(at, "expected a run {\"text\": \"…\", …}, got \(item.compact)") }
            for (key, _) in members where !["text", "font", "size", "color"].contains(key) {
                throw RecipeError("\(at).\(key)", "unknown field of a run; it takes \"text\", \"font\", \"size\" and \"color\"")
            }
            guard case .string(let text)? = item["text"] else {
                throw RecipeError("\(at).text", "expected the run's characters as a string, got \(item["text"]?.compact ?? "nothing")")
            }
            var run = Run(text)
            if let font = item["font"] {
                guard case .string(let name) = font, !name.isEmpty else { throw RecipeError("\(at).font", "expected a font name, got \(font.compact)") }
                run.fontName = name
            }
            if let size = item["size"] {
                guard case .number(let points) = size, points.isFinite, points > 0 else {
                    throw RecipeError("\(at).size", "expected a size in points above 0, got \(size.compact)")
                }
                run.fontSize = points
            }
            if let color = item["color"] {
                guard case .color(let components, let space) = try RecipeValues.color(color, "\(at).color"), space == .sRGB else {
                    throw RecipeError("\(at).color", "a run's colour is sRGB [r, g, b, a]")
                }
                run.color = components
            }
            return run
        })
    }
}

extension JSON {
    /// The text's JSON form: the runs with every attribute written out.
    package init(_ text: AttributedText) {
        self = .array(text.runs.map { run in
            .object([("text", .string(run.text)), ("font", .string(run.fontName)), ("size", .number(run.fontSize)),
                     ("color", .array(run.color.map(JSON.number)))])
        })
    }
}
