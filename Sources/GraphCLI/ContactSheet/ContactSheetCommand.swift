import ArgumentParser
import Dispatch
import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes

/// `graph contact-sheet PHOTO`: the photo and every depth effect it has the data for, labelled,
/// in one picture.
struct ContactSheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact-sheet",
        abstract: "Render a depth photo and each depth effect on it, labelled, as one picture.",
        discussion: """
            The effects are the recipes of Examples/depth (or --recipes), run on a copy of the photo reduced to \
            twice the cells' size; effects that need a portrait matte are left out when the photo has none.
            """)

    @Argument(help: "A depth photo: an iPhone JPEG or HEIC with a disparity or depth map, or a Google GDepth JPEG.")
    var photo: String
    @Option(name: [.short, .long], help: "The sheet to write (\(ImageFormatRegistry.savableSuffixes)); default PHOTO-NAME-sheet.jpg here.")
    var output: String?
    @Option(help: "The sheet's width in pixels.") var width = 1600
    @Option(help: ArgumentHelp("Only these effects, in this order: a comma list of recipe names (portrait-blur,...).", valueName: "NAMES"))
    var effects: String?
    @Option(help: "The folder of effect recipes (default: Examples/depth of this checkout).") var recipes: String?
    @Option(help: "Worker threads.") var threads: Int?
    @Flag(name: .customLong("allow-overwriting-inputs"), help: "Allow the sheet to replace an input file.")
    var allowOverwritingInputs = false

    func run() throws {
        try Graph.reportingErrors {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let folder = recipes ?? DepthEffectRecipe.defaultFolder() else {
                throw RecipeError("--recipes", "no Examples/depth folder found above the program or here; name the recipes' folder")
            }
            let available = try DepthEffectRecipe.all(in: folder)
            if let problem = RecipeSource.unreadable(photo) { throw RecipeError(photo, "cannot read the photo: \(problem)") }
            let depthPhoto = try DepthPhoto(contentsOf: photo)
            _ = try depthPhoto.depthData()  // no depth map: the error lists what the file has
            let hasMatte = depthPhoto.portraitEffectsMatteInfo != nil
            let chosen = try select(from: available, hasMatte: hasMatte)

            let target = output ?? ((photo as NSString).lastPathComponent as NSString).deletingPathExtension + "-sheet.jpg"
            guard OutputFileFormat(path: target) != nil else {
                throw RecipeError("--output", OutputFileFormat.unknownFormatMessage(path: target))
            }
            var options = ContextOptions()
            if let threads {
                guard (1...1024).contains(threads) else { throw RecipeError("--threads", "expected 1...1024, got \(threads)") }
                options.threads = threads
            }
            let context = Context(options: options)
            // An interrupted run removes its half-written sheet (the reduced copy stays in the temporary folder).
            ImageFile.removeTemporaryFilesOnSignals()
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("graph-contact-sheet-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            let sheet = try ContactSheet(photo: photo, effects: chosen, width: width, workFolder: work, context: context)
            let inputs = allowOverwritingInputs ? [] : [photo] + chosen.flatMap { $0.template.fixedDependencies }
            // Missing folders are made, as `run` and `apply` make them, and removed if the write fails.
            let createdFolders = try OutputFolders.create(for: target, key: "--output")
            do {
                try context.write(sheet.image, to: target, options: ImageWriteOptions(quality: 90), protectedPaths: inputs)
            } catch {
                OutputFolders.removeIfEmpty(createdFolders)
                throw error
            }
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            Terminal.shared.out("\(target) \(sheet.layout.width)x\(sheet.layout.height), \(sheet.labels.count) pictures ("
                                + sheet.labels.joined(separator: ", ") + String(format: ") %.0f ms", milliseconds))
        }
    }

    /// The effects asked for (all the photo has the data for when none are named).
    func select(from available: [DepthEffectRecipe], hasMatte: Bool) throws -> [DepthEffectRecipe] {
        guard let effects else { return available.filter { hasMatte || !$0.needsMatte } }
        let names = effects.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names.isEmpty { throw RecipeError("--effects", "expected a comma list of effect names") }
        return try names.map { name in
            guard let effect = available.first(where: { $0.name == name }) else {
                throw RecipeError("--effects", "unknown effect \"\(name)\"\(suggestion(name, available.map(\.name))); the effects are "
                                  + available.map(\.name).joined(separator: ", "))
            }
            if effect.needsMatte && !hasMatte {
                throw RecipeError("--effects", "effect \"\(name)\" needs a portrait matte, and '\(photo)' has none")
            }
            return effect
        }
    }
}
