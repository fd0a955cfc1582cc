import GraphRecipes

/// `-o/--output` of `graph run` and `graph dump`: which outputs to write, and where.
///
/// `-o PATH` redirects the only output of a single-output recipe. `-o NAME=PATH` redirects the
/// output that writes image `NAME` (`-o N=PATH` the output `outputs[N]`, for a recipe that writes
/// one image twice); several `-o` pick several outputs. Only the outputs picked are rendered and
/// written; the format follows each path's extension.
enum OutputSelection {
    static func select(_ options: [String], from outputs: [RecipeOutput]) throws -> [RecipeOutput] {
        var chosen: [(index: Int, output: RecipeOutput)] = []
        for option in options {
            let (index, path) = try target(of: option, in: outputs)
            if chosen.contains(where: { $0.index == index }) {
                throw RecipeError("--output \(option)", "\(outputs[index].path) is already chosen by an earlier -o")
            }
            var output = outputs[index]
            try output.redirect(to: path, option: "--output \(option)")
            chosen.append((index, output))
        }
        return chosen.sorted { $0.index < $1.index }.map(\.output)
    }

    /// The index of the output `option` names, and its new path.
    private static func target(of option: String, in outputs: [RecipeOutput]) throws -> (Int, String) {
        var names: [String] = []
        for output in outputs where !names.contains(output.image) { names.append(output.image) }
        if let equals = option.firstIndex(of: "=") {
            let name = String(option[..<equals])
            let path = String(option[option.index(after: equals)...])
            if let index = Int(name) {
                guard outputs.indices.contains(index) else {
                    throw RecipeError("--output \(option)", "the recipe has \(outputs.count) output\(outputs.count == 1 ? "" : "s") (outputs[0]...outputs[\(outputs.count - 1)])")
                }
                return (index, try nonEmpty(path, option))
            }
            let matches = outputs.indices.filter { outputs[$0].image == name }
            if matches.count == 1, let index = matches.first { return (index, try nonEmpty(path, option)) }
            if matches.count > 1 {
                throw RecipeError("--output \(option)", "image \"\(name)\" is written by \(matches.map { "outputs[\($0)]" }.joined(separator: " and ")); name one by its index (-o \(matches[0])=\(path))")
            }
            if outputs.count > 1 {
                throw RecipeError("--output \(option)", "no output writes an image \"\(name)\"\(suggestion(name, names)); the outputs write \(names.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
        }
        guard outputs.count == 1 else {
            throw RecipeError("--output \(option)", "the recipe has \(outputs.count) outputs; choose one with -o NAME=PATH, NAME one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")) (or an index 0...\(outputs.count - 1))")
        }
        return (0, try nonEmpty(option, option))
    }

    private static func nonEmpty(_ path: String, _ option: String) throws -> String {
        guard !path.isEmpty else { throw RecipeError("--output \(option)", "expected a path after '='") }
        return path
    }
}
