import GraphEngine
import GraphRecipes

extension FuzzTarget {
    /// A recipe as `graph run` reads it, through the `GraphRecipes` library: JSON parsed, `--set`
    /// style override applied (the recipe is loaded without it when the override itself is
    /// refused: most inputs have no image `photo`), decoded (keys, types, kernels compiled), built
    /// against the filter catalogue (references, cycles, file images from `Examples/recipes`), then
    /// planned and rendered: the corner of each output, at most 8×8 pixels, and the
    /// optimized-graph dump. Nothing is written.
    static let recipe = FuzzTarget(name: "recipe") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let folder = repositoryRoot + "/Examples/recipes"
        let recipe: LoadedRecipe
        do {
            recipe = try LoadedRecipe(text: text, baseDirectory: folder, overrides: ["photo.inputIntensity=0.5"],
                                      allowOverwritingInputs: true)
        } catch let error as RecipeError where error.path.hasPrefix("--set ") {
            guard let plain = try? LoadedRecipe(text: text, baseDirectory: folder, allowOverwritingInputs: true) else { return }
            recipe = plain
        } catch {
            return
        }
        var options = recipe.contextOptions
        options.threads = 1
        options.maximumRenderPixels = min(options.maximumRenderPixels, 1 << 16)
        let context = Context(options: options)
        for output in recipe.outputs {
            let extent = output.image.extent
            let corner = Rect(x: extent.minX, y: extent.minY, width: min(extent.width, 8), height: min(extent.height, 8))
            _ = try? context.render(output.image, rect: corner, format: .rgba8)
            _ = try? context.dump(output.image, rect: corner).text()
        }
    }
}
