import ArgumentParser
import GraphRecipes

extension Graph {
    /// `graph --version`.
    static let version = "0.1.0"

    /// A mistyped subcommand (`graph rn`) as one line with a suggestion (`graph: error: unknown
    /// command 'rn' (did you mean "run"?)`), or the list of commands when none is close, where
    /// ArgumentParser would only say the argument is unexpected.
    static func checkSubcommand(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return }
        let hint = suggestion(first, names)
        throw UnknownCommandError(message: "unknown command '\(first)'"
            + (hint.isEmpty ? " (the commands are \(names.dropLast().joined(separator: ", ")))" : hint))
    }
}

/// A first argument that names no subcommand: printed as `graph: error: MESSAGE`, exit status 2.
struct UnknownCommandError: Error, CustomStringConvertible {
    /// `unknown command 'aply' (did you mean "apply"?)`.
    let message: String
    var description: String { message }
}
