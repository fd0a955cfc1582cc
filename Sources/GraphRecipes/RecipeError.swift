/// A recipe or command-line problem: one line naming where (a JSON path) and what.
///
/// `description` is `PATH: MESSAGE` (or the message alone when the path is empty), as `graph`
/// prints it: `images.mask.inputs.inputSlope: expected a number, got "steep"`.
public struct RecipeError: Error, CustomStringConvertible, Equatable {
    /// The JSON path (`images.mask.inputs.inputSlope`), an option name, or empty.
    public let path: String
    /// What is wrong there.
    public let message: String

    /// An error at `path` (a JSON path, an option name, or empty) saying `message`.
    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`, or the message alone when the path is empty.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
