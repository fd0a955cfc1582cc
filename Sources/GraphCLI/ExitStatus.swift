import ArgumentParser
import Foundation
import GraphCodecs

extension Graph {
    /// The exit status of a command that failed. A usage error (an unknown option, a value that
    /// does not parse) is a bad command line like any other: status 2, where ArgumentParser would
    /// give 64. Help (0) and explicit exit codes stay as they are.
    static func exitStatus(for error: Error) -> Int32 {
        if error is UnknownCommandError { return failureStatus }
        let code = exitCode(for: error)
        return code == .validationFailure ? failureStatus : code.rawValue
    }

    /// Parses and runs the command line, exiting with ``exitStatus(for:)`` on failure: help and
    /// `--version` on stdout, a command-line mistake as one `graph: error:` line on stderr
    /// (``usageErrorLine(for:arguments:)``); commands print their own errors.
    static func main() {
        let arguments = joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
        do {
            try checkSubcommand(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let status = exitStatus(for: error)
            if status == 0 {
                FileHandle.standardOutput.write(Data((fullMessage(for: error) + "\n").utf8))
            } else if !(error is ExitCode) {
                FileHandle.standardError.write(Data((FileText.escaped(usageErrorLine(for: error, arguments: arguments)) + "\n").utf8))
            }
            Foundation.exit(status)
        }
    }
}
