import ArgumentParser
import GraphRecipes

extension Graph {
    /// `graph --version`.
    static let version = "0.1.0"

    /// A mistyped subcommand (`graph rn`) as a usage error with a suggestion (`did you mean
    /// "run"?`), where ArgumentParser would only say the argument is unexpected.
    static func checkSubcommand(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return }
        throw ValidationError("unknown command '\(first)'\(suggestion(first, names)); the commands are \(names.dropLast().joined(separator: ", "))")
    }
}
