import GraphEngine

/// A decoded, validated recipe: named images forming a DAG, custom kernels, outputs and context
/// options. Paths are absolute (resolved against the recipe file's folder).
struct Recipe {
    var options: RecipeOptions
    var kernels: [String: RecipeKernel]
    /// Image names in file order (for stable errors and dumps).
    var imageOrder: [String]
    var images: [String: RecipeImage]
    var outputs: [RecipeOutput]

    /// The most images a recipe may name. Building and planning take time and memory linear in
    /// the images (a chain of 40,000 point filters plans in about 160–400 MB, by filter), so a
    /// bound keeps a recipe from asking for gigabytes before anything renders: beyond it the
    /// recipe is refused with an error naming the count, never left to fail allocating.
    static let maximumImages = 50_000

    /// Every file the recipe reads (outputs must never overwrite them).
    var inputFiles: [String] {
        imageOrder.compactMap { name in
            switch images[name]?.source {
            case .file(let path, _, _)?: return path
            case .yuv(let spec)?: return spec.file
            default: return nil
            }
        }
    }
}

/// Context options a recipe may set (the command line overrides them).
struct RecipeOptions: Equatable {
    var workingFormat: WorkingFormat?
    var threads: Int?
    var tileSize: Int?
    var fusion: Bool?
    var maximumRenderPixels: Int?
    /// false: no working colour space, no conversions (Core Image's nil working colour space).
    var colorManagement: Bool?

    func contextOptions() -> ContextOptions {
        var options = ContextOptions()
        if let workingFormat { options.workingFormat = workingFormat }
        if let threads { options.threads = threads }
        if let tileSize { options.tileSize = tileSize }
        if let fusion { options.fusion = fusion }
        if let maximumRenderPixels { options.maximumRenderPixels = maximumRenderPixels }
        if colorManagement == false {
            options.workingColorSpace = nil
            options.outputColorSpace = nil
        }
        return options
    }
}

/// A custom kernel, compiled when the recipe is loaded.
struct RecipeKernel {
    let kernel: Kernel
    let path: String
}

/// One named image of a recipe.
struct RecipeImage {
    enum Source {
        /// A PNG, JPEG or HEIF file, with an optional colour space that overrides its ICC profile
        /// (`nil` inside means data: never colour-converted), or one of its auxiliary images
        /// (a depth or disparity map, a portrait matte: data).
        case file(String, colorSpace: ColorSpace??, auxiliary: AuxiliaryImage?)
        /// A raw YCbCr 4:2:0 frame file.
        case yuv(RecipeYUV)
        /// A catalogue filter (or generator) with raw JSON inputs, checked when built.
        case filter(name: String, inputs: [(String, JSON)], key: String)
        /// A custom kernel applied to arguments (image references, numbers or vectors) in its
        /// parameter order (an array) or by parameter name (an object), with an optional output
        /// extent and, for warp and general kernels, what they read (`roi`: a radius for every
        /// input, or an object of radii or `"whole"` by sampler parameter name), checked when built.
        case kernel(name: String, arguments: JSON, extent: Rect?, roi: JSON?)
        /// The image with its edges repeated to infinity (`clampedToExtent()`).
        case clamp(String)
    }

    let source: Source
    /// Optional crop applied to the result (makes generators and clamps renderable).
    let crop: Rect?
    /// The JSON path of this image (`images.name`).
    let path: String
}

/// One file to write.
struct RecipeOutput {
    var image: String
    var file: String
    var format: OutputFileFormat
    /// Quality, subsampling and scan mode (JPEG), bit depth (PNG); the carried metadata once the
    /// images are built.
    var options: ImageWriteOptions
    /// The `file` image whose EXIF and XMP the output carries.
    var metadataFrom: String?
    /// Whether a JPEG output carries the depth data and matte of the depth photo it edits.
    var keepsAuxiliaryImages = true
    /// Images attached as auxiliary images (JPEG only): `.disparity` or `.depth`, and `.portraitEffectsMatte`.
    var attached: [(AuxiliaryImage, String)] = []
    let path: String
}

/// A raw 4:2:0 frame: file, size and how to read it.
struct RecipeYUV {
    let file: String
    let width: Int, height: Int
    let layout: YUVFrame.Layout
    let matrix: YUVFrame.Matrix
    let range: YUVFrame.Range
    let siting: YUVFrame.ChromaSiting
}
