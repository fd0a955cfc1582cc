import Foundation
import GraphEngine
import GraphRecipes

/// A depth effect recipe (one JSON file of `Examples/depth`) made a template over its photo
/// (``BatchRecipe``), with the data it needs from a depth photo.
struct DepthEffectRecipe {
    /// The file's name without `.json`: how `--effects` names it.
    let name: String
    let template: BatchRecipe
    /// Whether it reads the portrait matte (else only the depth map).
    let needsMatte: Bool

    /// Every `*.json` recipe in `folder` that reads a depth map or matte, by name.
    static func all(in folder: String) throws -> [DepthEffectRecipe] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw RecipeError("--recipes", "cannot list the effect recipes in '\(folder)'")
        }
        var effects: [DepthEffectRecipe] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            let template = try BatchRecipe(settings: RecipeSettings(recipePath: (folder as NSString).appendingPathComponent(file)),
                                           inputImage: nil)
            let auxiliaries = template.template.images.values.compactMap { image -> AuxiliaryImage? in
                if case .file(_, _, let auxiliary?) = image.source { return auxiliary }
                return nil
            }
            guard !auxiliaries.isEmpty else { continue }
            effects.append(DepthEffectRecipe(name: String(file.dropLast(5)), template: template,
                                             needsMatte: auxiliaries.contains(.portraitEffectsMatte)))
        }
        if effects.isEmpty { throw RecipeError("--recipes", "no depth effect recipes in '\(folder)'") }
        return effects
    }

    /// The `Examples/depth` folder of the checkout this program was built in (found above the
    /// executable), else of the current folder.
    static func defaultFolder() -> String? {
        var candidates: [URL] = []
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            candidates.append(folder)
            folder.deleteLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return candidates.map { $0.appendingPathComponent("Examples/depth").path }
            .first { FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent("portrait-blur.json")) }
    }

    /// The labelled images of every output, rendered from `photo` instead of the recipe's own.
    func cells(photo: String, context: Context) throws -> [(label: String, image: Image)] {
        do {
            let recipe = try template.recipe(input: photo, outputs: [], redirect: false)
            let session = try RecipeSession.prepare(recipe, settings: template.settings, context: context)
            return zip(session.recipe.outputs, session.images).map { output, image in
                // A mask written as data shows as the grey its file would.
                let shown = output.options.colorSpace == .data ? image.matchedToWorkingSpace(from: .sRGB) : image
                return (((output.file as NSString).lastPathComponent as NSString).deletingPathExtension, shown)
            }
        } catch {
            throw RecipeError("effect \(name)", "\(error)")
        }
    }
}
