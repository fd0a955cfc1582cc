import ArgumentParser
import Foundation

/// `graph`: renders JSON filter-graph recipes, dumps their plans, lists filters, inspects images.
@main
struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Render lazy filter-graph recipes (Core Image style) on the CPU.",
        version: Graph.version,
        subcommands: [RunCommand.self, DumpCommand.self, FiltersCommand.self, InfoCommand.self, BatchCommand.self,
                      ApplyCommand.self, ContactSheetCommand.self, VideoCommand.self])

    /// Exit status for a bad recipe, a bad argument value, or a failed render.
    static let failureStatus: Int32 = 2

    /// Runs `body`, turning any error into one `graph: error: ...` line and exit status 2.
    static func reportingErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            Terminal.shared.diagnostic("graph: error: \(error)")
            throw ExitCode(failureStatus)
        }
    }

    /// Runs the command line `arguments` in-process (for tests): exit status and printed text.
    static func runInProcess(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        var status: Int32 = 0
        let arguments = joiningNegativeValues(arguments)
        let printed = Terminal.shared.capturing {
            do {
                try Graph.checkSubcommand(arguments)
                var command = try Graph.parseAsRoot(arguments)
                try command.run()
            } catch {
                status = Graph.exitStatus(for: error)
                if !(error is ExitCode) {
                    // Help and --version are clean exits, printed on standard output as main() does.
                    if status == 0 {
                        Terminal.shared.out(Graph.fullMessage(for: error))
                    } else {
                        Terminal.shared.diagnostic(Graph.usageErrorLine(for: error, arguments: arguments))
                    }
                }
            }
        }
        return (status, printed.out, printed.err)
    }
}

/// `text`, `json` or `dot`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, dot
}

/// `text` or `json`, for the commands that print no graph (`info`, `filters`): their help lists
/// only the values they take.
enum TextFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
