import ArgumentParser
import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes

/// `graph batch RECIPE`: runs one recipe over many input files in one process.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch", abstract: "Run a recipe over many input files.",
        discussion: """
            Each input replaces the recipe's file image (and every file image reading the same file, \
            such as its depth map); outputs are named by --out templates. One JSON line per input goes \
            to standard output (or --log): input, output, status (ok, skipped, failed), error, ms, \
            peak_bytes; a summary line ends it. Exit status: 0 all succeeded, 1 some failed, 2 a bad \
            recipe or command line (nothing run), 130/143 stopped by SIGINT/SIGTERM.
            """)

    @Argument(help: "The recipe JSON file.") var recipe: String
    @Argument(help: "Input files (more come from --manifest, --glob and --dir).") var inputs: [String] = []
    @Option(help: ArgumentHelp("A file listing one input path per line ('-': standard input).", valueName: "file"))
    var manifest: [String] = []
    @Option(help: ArgumentHelp("Inputs matching a glob pattern (quote it): *, ?, [...] in a name, ** for any folders.", valueName: "pattern"))
    var glob: [String] = []
    @Option(name: .customLong("dir"), help: ArgumentHelp("The image files of a folder (see --extensions).", valueName: "folder"))
    var folders: [String] = []
    @Flag(help: "Search --dir folders through their subfolders too ({dir} is the subfolder).") var recursive = false
    @Option(help: "The extensions --dir lists, comma separated.") var extensions = "jpg,jpeg,png"
    @Option(name: .customLong("input-image"), help: ArgumentHelp("The file image each input replaces (default: the recipe's only file).", valueName: "name"))
    var inputImage: String?
    @Option(name: .customLong("out"), help: ArgumentHelp("""
        Output path template: {dir} {stem} {ext} {index} {index:N} of the input, {output} (the recipe \
        output's file name); one per recipe output, or one with {output}. Default: the recipe's output files as templates.
        """, valueName: "template"))
    var outTemplates: [String] = []
    @Option(name: .customLong("first-index"), help: "The {index} of the first input (shards of a longer list).") var firstIndex = 0
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a parameter for every input: IMAGE.KEY=VALUE (VALUE is JSON).", valueName: "IMAGE.KEY=VALUE"))
    var settings: [String] = []
    @Option(name: [.short, .long], help: "Files in flight at once (memory grows with it).") var jobs = 2
    @Flag(name: .customLong("skip-existing"), help: "Skip inputs whose outputs exist and are not older than the input and the recipe.")
    var skipExisting = false
    @Option(help: ArgumentHelp("Write the JSON-lines log to this file instead of standard output.", valueName: "file"))
    var log: String?
    @Flag(name: .customLong("fail-fast"), help: "Start no more files after the first failure.") var failFast = false
    @Flag(name: .customLong("no-progress"), help: "No progress bar (there is none when stderr is not a terminal).")
    var noProgress = false
    @Option(help: "Worker threads of each render.") var threads: Int?
    @Option(name: .customLong("working-format"), help: "Intermediate format: RGBA8, RGBAh or RGBAf.") var workingFormat: String?
    @Flag(name: .customLong("no-color-management"), help: "No working colour space: skip every colour conversion.")
    var noColorManagement = false
    @Flag(name: .customLong("allow-overwriting-inputs"), help: "Allow an output to replace an input file.")
    var allowOverwritingInputs = false

    func run() throws {
        var status: Int32 = 0
        try Graph.reportingErrors {
            let (runner, log) = try prepare()
            let signals = StopSignals(stop: { number in
                let name = StopSignals.name(number)
                runner.stop(by: name, note: "graph: batch: \(name): finishing the files in flight (again to stop at once)")
            }, abandon: { number in
                let summary = runner.abandon(by: StopSignals.name(number))
                log.record(summary.json)
                Terminal.shared.err(summary.line)
            })
            let summary = runner.run()
            signals.restore()
            log.record(summary.json)
            Terminal.shared.err(summary.line)
            switch summary.stoppedBy {
            case "SIGINT"?: status = 128 + SIGINT
            case "SIGTERM"?: status = 128 + SIGTERM
            default: status = summary.failed > 0 ? 1 : 0
            }
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Everything before the first file: the recipe, the inputs, the outputs, the log. Any error
    /// here is the recipe's or the command line's (exit status 2, nothing run).
    private func prepare() throws -> (BatchRunner, BatchLog) {
        guard (1...256).contains(jobs) else { throw RecipeError("--jobs", "expected 1...256, got \(jobs)") }
        guard firstIndex >= 0 else { throw RecipeError("--first-index", "expected 0 or more, got \(firstIndex)") }
        let recipeSettings = RecipeSettings(
            recipePath: recipe, overrides: settings, threads: threads, workingFormat: workingFormat,
            noColorManagement: noColorManagement, allowOverwritingInputs: allowOverwritingInputs)
        let batchRecipe = try BatchRecipe(settings: recipeSettings, inputImage: inputImage)
        var template = batchRecipe.template
        try recipeSettings.apply(to: &template)
        let sources = BatchInputSources(
            paths: inputs, manifests: manifest, globs: glob, folders: folders, recursive: recursive,
            extensions: Set(extensions.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            }))
        if sources.isEmpty {
            throw RecipeError("inputs", "none given: list them as arguments, in --manifest FILE ('-' for standard input), with --glob PATTERN or --dir FOLDER")
        }
        let listed = try sources.list(firstIndex: firstIndex)
        if listed.isEmpty { Terminal.shared.err("graph: warning: no input files found") }
        let plan = try BatchPlan(inputs: listed, outTemplates: outTemplates, recipe: batchRecipe,
                                 allowOverwritingInputs: allowOverwritingInputs)
        let context = Context(options: template.options.contextOptions())
        try checkRecipe(batchRecipe, plan: plan, context: context)
        let log = try BatchLog(path: self.log)
        PendingFile.removeStaleTemporaries(of: plan.items.flatMap(\.outputs))
        let progress = noProgress ? nil : BatchProgressBar(total: plan.items.count)
        let options = BatchRunner.Options(jobs: jobs, skipExisting: skipExisting, failFast: failFast)
        return (BatchRunner(plan: plan, recipe: batchRecipe, context: context, options: options, log: log, progress: progress), log)
    }

    /// Builds the recipe for the first input whose files open, so that a recipe error (an unknown
    /// filter, a bad parameter) stops the batch before it starts instead of failing every file.
    /// Inputs that fail here fail again, and are logged, when the batch runs them.
    private func checkRecipe(_ recipe: BatchRecipe, plan: BatchPlan, context: Context) throws {
        for item in plan.items {
            do {
                let decoded = try recipe.recipe(input: item.input.path, outputs: item.outputs, redirect: plan.redirectsOutputs)
                _ = try RecipeSession.prepare(decoded, settings: recipe.settings, context: context)
                return
            } catch where recipe.isInputError(error) {
                continue
            }
        }
    }
}
