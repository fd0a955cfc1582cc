/// A recipe or command-line problem: one line naming where (a JSON path) and what.
struct RecipeError: Error, CustomStringConvertible, Equatable {
    /// The JSON path (`images.mask.inputs.inputSlope`), an option name, or empty.
    let path: String
    let message: String

    init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
