import ArgumentParser

/// Command-line mistakes reported like every other error: one `graph: error: …` line (where
/// ArgumentParser prints `Error:`, `Help:` and `Usage:` lines), pointing at the command's help.
extension Graph {
    /// `arguments` with each negative number that follows a long option joined to it
    /// (`--width -5` → `--width=-5`), so that the option's own check reports the value
    /// (`--width: expected …, got -5`) instead of ArgumentParser calling it a missing value. No
    /// option of `graph` is spelled like a number, so a negative number is never an option.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        for argument in arguments {
            if let previous = joined.last, previous.hasPrefix("--"), previous.count > 2, !previous.contains("="),
               isNegativeNumber(argument) {
                joined[joined.count - 1] = previous + "=" + argument
            } else {
                joined.append(argument)
            }
        }
        return joined
    }

    /// `-5`, `-0.25`, `-1e3`: a minus sign, a digit or a point, and a number.
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1, let second = text.dropFirst().first, second.isNumber || second == "." else {
            return false
        }
        return Double(text) != nil
    }

    /// The line printed for a failed parse or validation: `graph: error: MESSAGE (see 'graph
    /// COMMAND --help')`, MESSAGE ArgumentParser's short message starting in lower case.
    static func usageErrorLine(for error: Error, arguments: [String]) -> String {
        if let unknown = error as? UnknownCommandError { return "graph: error: \(unknown.message)" }
        var message = message(for: error)
        if let first = message.first, first.isUppercase, let second = message.dropFirst().first, second.isLowercase {
            message = first.lowercased() + message.dropFirst()
        }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let command = arguments.first.flatMap { names.contains($0) ? "graph \($0)" : nil } ?? "graph"
        return "graph: error: \(message) (see '\(command) --help')"
    }
}
