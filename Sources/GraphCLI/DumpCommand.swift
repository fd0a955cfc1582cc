import ArgumentParser
import GraphEngine

/// `graph dump RECIPE.json`: prints the graph and program dumps without rendering.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump", abstract: "Print a recipe's graphs and programs (rendering only with --profile).")

    @Argument(help: "The recipe JSON file (- reads it from standard input).") var recipe: String
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a parameter: IMAGE.KEY=VALUE (VALUE is JSON).", valueName: "IMAGE.KEY=VALUE"))
    var settings: [String] = []
    @Option(help: "A comma list of initial, optimized, plan, programs, timing.") var stage: String = "initial,optimized,plan,programs"
    @Option(help: "text, json or dot.") var format: OutputFormat = .text
    @Option(help: "Worker threads.") var threads: Int?
    @Option(name: .customLong("working-format"), help: "Intermediate format: RGBA8, RGBAh or RGBAf.") var workingFormat: String?
    @Flag(name: .customLong("no-color-management"), help: "No working colour space: skip every colour conversion.")
    var noColorManagement = false
    @Flag(help: "Render (without writing) and add per-program timings.") var profile = false

    func run() throws {
        try Graph.reportingErrors {
            let stages = try RecipeSession.stages(stage, option: "--stage")
            let session = try RecipeSession.prepare(RecipeSettings(
                recipePath: recipe, overrides: settings, threads: threads, workingFormat: workingFormat,
                noColorManagement: noColorManagement,
                allowOverwritingInputs: true))
            try session.printDumps(stages: stages, format: format, profile: profile)
        }
    }
}
