import Foundation
import GraphEngine

/// A recipe ready to render: its JSON read (from a file or a string), `--set` style overrides
/// applied, decoded and built against the filter catalogue, as `graph run` does before it renders.
///
/// ```swift
/// let recipe = try LoadedRecipe(contentsOf: "Examples/recipes/color-chain.json",
///                               overrides: ["sepia.inputIntensity=0.6"])
/// for warning in recipe.warnings { print("warning:", warning) }
/// let context = recipe.makeContext()
/// let jpeg = try recipe.encodedData(of: recipe.outputs[0], context: context)  // in memory
/// try recipe.writeOutputs(context: context)                                     // or every file
/// ```
///
/// Every problem is a `RecipeError` naming its JSON path (`images.mask.inputs.inputSlope: ...`),
/// thrown when the recipe is loaded; writing throws one naming the output (`outputs[0]: ...`).
public struct LoadedRecipe {
    /// One file the recipe writes: which image, where, in which format, with which options.
    public struct Output {
        /// The name of the recipe image written (`"image"` of the output).
        public let imageName: String
        /// The file written: an absolute path (relative ones are resolved against the recipe's folder).
        public let file: String
        /// PNG, JPEG or HEIC.
        public let format: OutputFileFormat
        /// Quality, subsampling, bit depth and colour space, with what the output carries filled
        /// in: the metadata of its `metadataFrom` file, and the depth data and mattes of the depth
        /// photo it edits (or attached with `attach`).
        public let options: ImageWriteOptions
        /// The image to render (its extent finite and non-empty).
        public let image: Image
        /// The output's JSON path (`outputs[0]`), as errors name it.
        public let path: String
    }

    /// The recipe as decoded, its outputs' options filled in as they are written.
    package let recipe: Recipe
    /// The outputs in recipe order (those of `outputs`).
    public let outputs: [Output]
    /// Every image the outputs read, by recipe name, as built (before work several outputs share
    /// is merged, so each renders on its own).
    public let images: [String: Image]
    /// The context options the recipe sets (`options`: working format, threads, tile size...).
    public let contextOptions: ContextOptions
    /// What deserves a look but does not stop the render (a map whose aspect ratio differs from
    /// its photo's, a colour space guessed), one line each, naming the JSON path.
    public let warnings: [String]

    /// Loads the recipe file at `path` with `overrides` (`IMAGE.KEY=VALUE`, VALUE in JSON, as
    /// `graph run --set` takes them) applied. Unless `allowOverwritingInputs`, an output that
    /// would replace a file the recipe reads is an error.
    public init(contentsOf path: String, overrides: [String] = [], allowOverwritingInputs: Bool = false) throws {
        try self.init(RecipeDecoder.load(path: path, overrides: overrides), allowOverwritingInputs: allowOverwritingInputs)
    }

    /// Loads a recipe from its JSON `text`: relative paths are resolved against `baseDirectory`
    /// (the current folder when nil), and errors about the text as a whole name it `name`.
    public init(text: String, baseDirectory: String? = nil, name: String = "<string>", overrides: [String] = [],
                allowOverwritingInputs: Bool = false) throws {
        let source = RecipeSource(text: text, name: name,
                                  baseDirectory: baseDirectory ?? FileManager.default.currentDirectoryPath)
        let (json, decoder) = try RecipeDecoder.parse(source, overrides: overrides)
        try self.init(decoder.decode(json), allowOverwritingInputs: allowOverwritingInputs)
    }

    /// Builds a decoded recipe (`graph run` applies its command-line options to it first): the
    /// outputs' images checked to be renderable, the work several outputs share computed once.
    package init(_ decoded: Recipe, allowOverwritingInputs: Bool) throws {
        var recipe = decoded
        if !allowOverwritingInputs {
            for output in recipe.outputs where Context.isSameFile(output.file, asAnyOf: recipe.inputFiles) {
                throw RecipeError("\(output.path).file",
                                  "refusing to overwrite '\(output.file)', an input of this recipe (use --allow-overwriting-inputs)")
            }
        }
        var builder = RecipeBuilder(recipe: recipe)
        let (built, outputs) = try builder.outputImages()
        recipe.outputs = outputs
        // What several outputs compute (a mask written and also blended through) is computed once.
        let shared = Image.insertingSharedIntermediates(built)
        self.recipe = recipe
        self.outputs = zip(outputs, shared).map { output, image in
            Output(imageName: output.image, file: output.file, format: output.format, options: output.options,
                   image: image, path: output.path)
        }
        images = builder.built
        contextOptions = recipe.options.contextOptions()
        warnings = builder.warnings
    }

    /// A context with the recipe's options.
    public func makeContext() -> Context {
        Context(options: contextOptions)
    }

    /// `output` rendered with `context` and encoded as it would be written, in memory.
    public func encodedData(of output: Output, context: Context) throws -> [UInt8] {
        do {
            return try context.encodedData(output.image, format: output.format, options: output.options)
        } catch {
            throw RecipeError(output.path, "\(error)")
        }
    }

    /// Renders every output with `context` (a new one with the recipe's options when nil) and
    /// writes them as `graph run` does: each streamed into a temporary file beside its target (its
    /// folder created if missing), then all renamed into place, so a failure anywhere writes no
    /// file at all.
    public func writeOutputs(context: Context? = nil) throws {
        let context = context ?? makeContext()
        let files = OutputFiles()
        defer { files.abandon() }
        for output in recipe.outputs { try files.prepare(output) }
        for (index, output) in outputs.enumerated() { try files.write(index, image: output.image, context: context) }
        try files.commit()
    }
}
