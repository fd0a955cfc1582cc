import Foundation
import GraphEngine
import GraphRecipes

/// Options shared by `run` and `dump`: the recipe, overrides and context settings.
struct RecipeSettings {
    var recipePath: String
    var overrides: [String] = []
    /// `-o` values: `PATH`, or `NAME=PATH` for the output of image NAME (or `N=PATH` for
    /// `outputs[N]`); when given, only these outputs are written.
    var output: [String] = []
    var threads: Int?
    var workingFormat: String?
    var noColorManagement = false
    var allowOverwritingInputs = false
}

/// A loaded recipe with its context and the (checked, renderable) image of every output.
struct RecipeSession {
    let recipe: Recipe
    let context: Context
    let images: [Image]
    /// Decoder and colour-tagging warnings.
    let warnings: [String]
    /// Every image the outputs read, by recipe name, as built (before shared intermediates).
    var named: [String: Image] = [:]

    /// Loads, overrides, decodes and builds everything (printing the warnings); nothing is
    /// rendered or written.
    static func prepare(_ settings: RecipeSettings) throws -> RecipeSession {
        let recipe = try RecipeDecoder.load(path: settings.recipePath, overrides: settings.overrides)
        let session = try prepare(recipe, settings: settings)
        for warning in session.warnings { Terminal.shared.diagnostic("graph: warning: \(warning)") }
        return session
    }

    /// Applies `settings` to a decoded recipe and builds the images of its outputs, to render with
    /// `context` (`graph batch` shares one over all its files) or a new context made from the
    /// recipe's options.
    static func prepare(_ decoded: Recipe, settings: RecipeSettings, context: Context? = nil) throws -> RecipeSession {
        var recipe = decoded
        try settings.apply(to: &recipe)
        let loaded = try LoadedRecipe(recipe, allowOverwritingInputs: settings.allowOverwritingInputs)
        return RecipeSession(recipe: loaded.recipe, context: context ?? loaded.makeContext(),
                             images: loaded.outputs.map(\.image), warnings: loaded.warnings, named: loaded.images)
    }

    /// Parses a comma list of dump stages.
    static func stages(_ list: String, option: String) throws -> Set<DumpStage> {
        var stages = Set<DumpStage>()
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            guard let stage = DumpStage(rawValue: item) else {
                throw RecipeError(option, "unknown stage \"\(item)\"; expected initial, optimized, plan, programs or timing")
            }
            stages.insert(stage)
        }
        if stages.isEmpty { throw RecipeError(option, "expected at least one stage") }
        return stages
    }

    /// Prints the dumps of every output (rendering when timings are wanted).
    func printDumps(stages: Set<DumpStage>, format: OutputFormat, profile: Bool) throws {
        var jsonDumps: [String] = []
        for (output, image) in zip(recipe.outputs, images) {
            let dump = profile || stages.contains(.timing)
                ? try context.dumpWithProfile(image, format: output.options.bitDepth == 16 ? .rgba16 : .rgba8,
                                              colorSpace: output.options.colorSpace)
                : try context.dump(image, colorSpace: output.options.colorSpace)
            var shown = stages
            if profile { shown.insert(.timing) }
            switch format {
            case .text:
                if recipe.outputs.count > 1 { Terminal.shared.out("# \(output.path) \(output.image) -> \(output.file)") }
                Terminal.shared.out(dump.text(stages: shown))
            case .dot:
                if recipe.outputs.count > 1 { Terminal.shared.out("// \(output.path) \(output.image) -> \(output.file)") }
                Terminal.shared.out(dump.dot())
            case .json:
                jsonDumps.append(dump.json())
            }
        }
        if format == .json {
            Terminal.shared.out(jsonDumps.count == 1 ? jsonDumps[0] : "[\n" + jsonDumps.joined(separator: ",\n") + "\n]")
        }
    }
}

extension RecipeSettings {
    /// Applies the command line's context options and `-o` to `recipe`.
    func apply(to recipe: inout Recipe) throws {
        if let threads {
            guard (1...1024).contains(threads) else { throw RecipeError("--threads", "expected 1...1024, got \(threads)") }
            recipe.options.threads = threads
        }
        if let workingFormat {
            guard let format = WorkingFormat(rawValue: workingFormat) else {
                throw RecipeError("--working-format", "expected RGBA8, RGBAh or RGBAf, got \"\(workingFormat)\"")
            }
            recipe.options.workingFormat = format
        }
        if noColorManagement { recipe.options.colorManagement = false }
        if !output.isEmpty { recipe.outputs = try OutputSelection.select(output, from: recipe.outputs) }
    }
}

extension RecipeOutput {
    /// Writes this output to `path` instead (relative to the current folder), in the format its
    /// extension names (at a bit depth it writes: JPEG and HEIC are 8-bit).
    mutating func redirect(to path: String, option: String) throws {
        guard let format = OutputFileFormat(path: path) else {
            throw RecipeError(option, OutputFileFormat.unknownFormatMessage(path: path))
        }
        file = URL(fileURLWithPath: path).standardizedFileURL.path
        self.format = format
        if !format.saving.bitDepths.contains(options.bitDepth) { options.bitDepth = format.saving.bitDepths.first ?? 8 }
    }
}
