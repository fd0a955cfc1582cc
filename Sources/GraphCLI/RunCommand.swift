import ArgumentParser
import Dispatch
import Foundation
import GraphCodecs
import GraphEngine

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
    @Option(help: "Print dumps: a comma list of initial, optimized, programs, timing.") var dump: String?
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

    /// Renders and encodes every output of `session`, then writes each atomically (so a failure in
    /// any output writes no file), prints `PATH WxH FORMAT TIME` per output and the dumps asked for.
    /// Shared by `graph run` and `graph apply`.
    static func writeOutputs(of session: RecipeSession, dumpStages stages: Set<DumpStage>?, dumpFormat: OutputFormat,
                             profile: Bool) throws {
        do {
            // Encode everything first, so a failure in any output writes no file at all.
            var encoded: [(RecipeOutput, [UInt8], Image, Double)] = []
            for (output, image) in zip(session.recipe.outputs, session.images) {
                let start = DispatchTime.now().uptimeNanoseconds
                let bytes: [UInt8]
                let progress = RenderProgress()
                let line = ProgressLine(label: (output.file as NSString).lastPathComponent, progress: progress)
                defer { line.finish() }
                do {
                    bytes = try session.context.encodedData(image, format: output.format, options: output.options,
                                                            progress: progress)
                } catch {
                    throw RecipeError(output.path, "\(error)")
                }
                let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                encoded.append((output, bytes, image, milliseconds))
            }
            for (output, bytes, image, milliseconds) in encoded {
                do {
                    let folder = (output.file as NSString).deletingLastPathComponent
                    if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
                        do {
                            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                        } catch {
                            throw RecipeError("\(output.path).file", "cannot create the folder '\(folder)'")
                        }
                    }
                    try ImageFile.writeAtomically(bytes, to: output.file)
                } catch let error as RecipeError {
                    throw error
                } catch {
                    throw RecipeError("\(output.path).file", "\(error)")
                }
                let size = PixelSize(image.extent)
                Terminal.shared.out("\(output.file) \(size.width)x\(size.height) \(output.format.name) " + String(format: "%.1f ms", milliseconds))
            }
            if stages != nil || profile {
                try session.printDumps(stages: stages ?? [], format: dumpFormat, profile: profile)
            }
        }
    }
}

/// The pixel size a finite extent renders to.
struct PixelSize {
    let width: Int
    let height: Int
    init(_ extent: Rect) {
        let r = extent.integral
        width = r.isInfinite || r.isEmpty ? 0 : Int(r.width)
        height = r.isInfinite || r.isEmpty ? 0 : Int(r.height)
    }
}
