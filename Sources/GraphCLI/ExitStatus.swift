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
        ProcessMemory.returnFreedBuffersToTheSystem()
        let arguments = joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
        var status: Int32 = 0
        do {
            try checkSubcommand(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            status = exitStatus(for: error)
            if status == 0 {
                Terminal.shared.out(fullMessage(for: error))
            } else if !(error is ExitCode) {
                Terminal.shared.diagnostic(usageErrorLine(for: error, arguments: arguments))
            }
        }
        Foundation.exit(statusAfterStandardOutput(status))
    }

    /// `status`, or 2 with an error line when writing to standard output failed (a full disk or a
    /// closed pipe behind a redirection): what the command printed there is incomplete. Files a
    /// `run`, `apply` or `batch` wrote before are complete; only their report is lost.
    static func statusAfterStandardOutput(_ status: Int32) -> Int32 {
        guard let failure = Terminal.shared.standardOutputFailure else { return status }
        Terminal.shared.diagnostic("graph: error: cannot write to standard output: \(failure); what was printed there is incomplete")
        return status == 0 ? failureStatus : status
    }
}
