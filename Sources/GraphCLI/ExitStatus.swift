import ArgumentParser
import Foundation

extension Graph {
    /// The exit status of a command that failed. A usage error (an unknown option, a value that
    /// does not parse) is a bad command line like any other: status 2, where ArgumentParser would
    /// give 64. Help (0) and explicit exit codes stay as they are.
    static func exitStatus(for error: Error) -> Int32 {
        let code = exitCode(for: error)
        return code == .validationFailure ? failureStatus : code.rawValue
    }

    /// Parses and runs the command line, exiting with ``exitStatus(for:)`` on failure; messages
    /// are printed as ArgumentParser prints them (help on stdout, errors on stderr).
    static func main() {
        do {
            try checkSubcommand(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let status = exitStatus(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let handle = status == 0 ? FileHandle.standardOutput : FileHandle.standardError
                handle.write(Data((message + "\n").utf8))
            }
            Foundation.exit(status)
        }
    }
}
