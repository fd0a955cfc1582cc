import ArgumentParser
import Dispatch
import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes

/// `graph run RECIPE.json`: renders every output and writes it atomically.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Render a recipe and write its outputs.")

    @Argument(help: "The recipe JSON file (- reads it from standard input; its paths are then relative to the current folder).") var recipe: String
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a parameter: IMAGE.KEY=VALUE (VALUE is JSON).", valueName: "IMAGE.KEY=VALUE"))
    var settings: [String] = []
    @Option(name: [.short, .long], help: ArgumentHelp(
        "Write only this output, here: PATH for a recipe with one output, NAME=PATH for the output of image NAME (or of outputs[N]: N=PATH); repeatable.",
        valueName: "[NAME=]PATH"))
    var output: [String] = []
    @Option(help: "Worker threads.") var threads: Int?
    @Option(name: .customLong("working-format"), help: "Intermediate format: RGBA8, RGBAh or RGBAf.") var workingFormat: String?
    @Flag(name: .customLong("no-color-management"), help: "No working colour space: skip every colour conversion.")
    var noColorManagement = false
    @Option(help: "Print dumps: a comma list of initial, optimized, plan, programs, timing.") var dump: String?
    @Option(name: .customLong("dump-format"), help: "Dump format: text, json or dot.") var dumpFormat: OutputFormat = .text
    @Flag(help: "Print per-program timings of the render.") var profile = false
    @Flag(name: .customLong("allow-overwriting-inputs"), help: "Allow an output to replace an input file.")
    var allowOverwritingInputs = false

    func run() throws {
        try Graph.reportingErrors {
            let session = try RecipeSession.prepare(RecipeSettings(
                recipePath: recipe, overrides: settings, output: output, threads: threads, workingFormat: workingFormat,
                noColorManagement: noColorManagement,
                allowOverwritingInputs: allowOverwritingInputs))
            let stages = try dump.map { try RecipeSession.stages($0, option: "--dump") }
            try Self.writeOutputs(of: session, dumpStages: stages, dumpFormat: dumpFormat, profile: profile)
        }
    }

    /// Renders every output of `session` streamed into a temporary file beside it, then renames them
    /// all into place (so a failure in any output writes no file), prints `PATH WxH FORMAT TIME` per
    /// output and the dumps asked for. Shared by `graph run` and `graph apply`.
    static func writeOutputs(of session: RecipeSession, dumpStages stages: Set<DumpStage>?, dumpFormat: OutputFormat,
                             profile: Bool) throws {
        do {
            // An interrupted run (Ctrl-C, kill) removes its temporary files; one killed outright
            // leaves them to the next run that writes the same outputs.
            ImageFile.removeTemporaryFilesOnSignals()
            let outputs = OutputFiles()
            defer { outputs.abandon() }
            // Every output's folder and temporary file first, then every render streamed into its
            // temporary file: only when all succeeded is any file renamed into place, so a failure
            // anywhere writes no file at all.
            for output in session.recipe.outputs { try outputs.prepare(output) }
            var timings: [Double] = []
            // Work several outputs share (a refined depth map, a mask) is computed once, in the
            // first output's time (see `RecipeSession.prepare`).
            var start = DispatchTime.now().uptimeNanoseconds
            for (index, (output, image)) in zip(session.recipe.outputs, session.images).enumerated() {
                if index > 0 { start = DispatchTime.now().uptimeNanoseconds }
                let progress = RenderProgress()
                let line = ProgressLine(label: (output.file as NSString).lastPathComponent, progress: progress)
                defer { line.finish() }
                try outputs.write(index, image: image, context: session.context, progress: progress)
                timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            try outputs.commit()
            let peakMiB = Double(peakResidentBytes()) / 1_048_576
            for (output, (image, milliseconds)) in zip(session.recipe.outputs, zip(session.images, timings)) {
                let size = PixelSize(image.extent)
                Terminal.shared.out("\(output.file) \(size.width)x\(size.height) \(output.format.name) "
                                    + String(format: "%.1f ms, peak %.0f MiB", milliseconds, peakMiB))
            }
            if stages != nil || profile {
                try session.printDumps(stages: stages ?? [], format: dumpFormat, profile: profile)
            }
        }
    }
}
