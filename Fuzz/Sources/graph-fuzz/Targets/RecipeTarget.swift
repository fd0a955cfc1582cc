import GraphEngine

extension FuzzTarget {
    /// A recipe as `graph run` reads it: JSON parsed, `--set` style override applied, decoded
    /// (keys, types, kernels compiled), built against the filter catalogue (references, cycles,
    /// file images from `Examples/recipes`), then planned and rendered: the corner of each output,
    /// at most 8×8 pixels, and the optimized-graph dump. Nothing is written.
    static let recipe = FuzzTarget(name: "recipe") { bytes in
        guard let json = try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)) else { return }
        let decoder = RecipeDecoder(baseDirectory: repositoryRoot + "/Examples/recipes")
        let files = RecipeFileImages(json, decoder: decoder)
        let overridden = (try? RecipeOverrides.apply(["photo.inputIntensity=0.5"], to: json, files: files)) ?? json
        guard let recipe = try? decoder.decode(overridden) else { return }
        var builder = RecipeBuilder(recipe: recipe)
        guard let (images, _) = try? builder.outputImages() else { return }
        var options = recipe.options.contextOptions()
        options.threads = 1
        options.maximumRenderPixels = min(options.maximumRenderPixels, 1 << 16)
        let context = Context(options: options)
        for image in images {
            let extent = image.extent
            let corner = Rect(x: extent.minX, y: extent.minY, width: min(extent.width, 8), height: min(extent.height, 8))
            _ = try? context.render(image, rect: corner, format: .rgba8)
            _ = try? context.dump(image, rect: corner).text()
        }
    }
}
