import Foundation
import GraphEngine
import GraphRecipes

/// A recipe made a template over its input photo. The bound image (`--input-image NAME`, or the
/// recipe's only file) reads each batch input in turn, and so does every other `file` image of
/// the recipe that reads the same file (a depth map, disparity or matte of that photo, whatever
/// keys it adds), so depth recipes work per photo. Files the recipe reads besides (a logo, a
/// lookup image) stay as written.
///
/// The binding rewrites the recipe's JSON, then decodes and builds it like `graph run`, so each
/// input gets exactly the checks and the image a single run would.
struct BatchRecipe: Sendable {
    let settings: RecipeSettings
    /// The recipe as written (with `--set` applied), decoded once to check it.
    let template: Recipe
    /// The names of the file images that read each input.
    let boundImages: [String]
    /// The file the bound images read in the recipe as written.
    let boundFile: String
    private let json: JSON
    private let decoder: RecipeDecoder

    init(settings: RecipeSettings, inputImage: String?) throws {
        (json, decoder) = try RecipeDecoder.read(path: settings.recipePath, overrides: settings.overrides)
        template = try decoder.decode(json)
        self.settings = settings
        let files = RecipeFileImages(json, decoder: decoder)
        if let inputImage {
            guard template.images[inputImage] != nil else {
                throw RecipeError("--input-image", "no image named \"\(inputImage)\" in the recipe\(suggestion(inputImage, template.images.keys))")
            }
            guard let named = files.file(of: inputImage) else {
                throw RecipeError("--input-image", "image \"\(inputImage)\" is not a \"file\" image; inputs replace a file")
            }
            boundFile = named
        } else {
            let distinct = files.images.reduce(into: [String]()) { if !$0.contains($1.file) { $0.append($1.file) } }
            guard distinct.count == 1, let only = distinct.first else {
                throw RecipeError("--input-image", distinct.isEmpty
                    ? "the recipe has no \"file\" image for the inputs to replace"
                    : "the recipe reads several files (\(files.images.map(\.name).joined(separator: ", "))); name the image each input replaces")
            }
            boundFile = only
        }
        boundImages = files.reading(boundFile)
    }

    /// The recipe for one input (a path relative to the current folder, or absolute), with its
    /// outputs written to `outputs` (one per recipe output). `redirect` takes each output's
    /// format from its new extension (`--out`); otherwise the recipe's formats stay.
    func recipe(input: String, outputs: [String], redirect: Bool) throws -> Recipe {
        let path = URL(fileURLWithPath: input).standardizedFileURL.path
        var recipe = try decoder.decode(RecipeFileImages.moving(boundImages, to: .string(path), in: json))
        for (index, file) in outputs.enumerated() where index < recipe.outputs.count {
            if redirect {
                try recipe.outputs[index].redirect(to: file, option: "--out")
            } else {
                recipe.outputs[index].file = URL(fileURLWithPath: file).standardizedFileURL.path
            }
        }
        return recipe
    }

    /// Whether `error` is the input's fault (its file is missing, corrupt, or lacks the depth map
    /// the recipe asks for; its `{ext}` is no output format) rather than the recipe's: errors at
    /// a bound image or at `--out`.
    func isInputError(_ error: Error) -> Bool {
        guard let error = error as? RecipeError else { return false }
        return error.path == "--out" || boundImages.contains { error.path == "images.\($0)" || error.path.hasPrefix("images.\($0).") }
    }

    /// The files besides the inputs that the outputs depend on: the recipe and the files it
    /// reads that no input replaces (`--skip-existing` redoes outputs older than any of them).
    var fixedDependencies: [String] {
        [settings.recipePath] + template.inputFiles.filter { $0 != boundFile }
    }
}
