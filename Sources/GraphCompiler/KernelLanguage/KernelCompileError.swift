/// A problem found while compiling or lowering a kernel, located in the kernel's source text.
///
/// `description` is `"line:column: message"`, e.g. `3:14: cannot assign a vec3 to 'x' of type float`.
/// Lines and columns are 1-based; a column counts characters, a tab counting as one.
public struct KernelCompileError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The 1-based line of the error in the kernel source.
    public let line: Int
    /// The 1-based column of the error.
    public let column: Int
    /// What is wrong, with a "did you mean" for a misspelt name.
    public let message: String

    /// An error at `line`:`column`.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    init(_ location: SourceLocation, _ message: String) {
        self.init(line: location.line, column: location.column, message: message)
    }

    /// `LINE:COLUMN: MESSAGE`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// A 1-based position in kernel source.
struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    var line: Int
    var column: Int

    static let start = SourceLocation(line: 1, column: 1)

    var description: String { "\(line):\(column)" }
}
