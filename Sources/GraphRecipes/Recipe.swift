import GraphEngine

/// A decoded, validated recipe: named images forming a DAG, custom kernels, outputs and context
/// options. Paths are absolute (resolved against the recipe file's folder).
package struct Recipe {
    package var options: RecipeOptions
    package var kernels: [String: RecipeKernel]
    /// Image names in file order (for stable errors and dumps).
    package var imageOrder: [String]
    package var images: [String: RecipeImage]
    package var outputs: [RecipeOutput]

    /// The most images a recipe may name. Building and planning take time and memory linear in
    /// the images (a chain of 40,000 point filters plans in about 160–400 MB, by filter), so a
    /// bound keeps a recipe from asking for gigabytes before anything renders: beyond it the
    /// recipe is refused with an error naming the count, never left to fail allocating.
    package static let maximumImages = 50_000

    /// Every file the recipe reads (outputs must never overwrite them).
    package var inputFiles: [String] {
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
package struct RecipeOptions: Equatable {
    package var workingFormat: WorkingFormat?
    package var threads: Int?
    package var tileSize: Int?
    package var fusion: Bool?
    package var maximumRenderPixels: Int?
    /// false: no working colour space, no conversions (Core Image's nil working colour space).
    package var colorManagement: Bool?

    package func contextOptions() -> ContextOptions {
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
package struct RecipeKernel {
    package let kernel: Kernel
    package let path: String
}

/// One named image of a recipe.
package struct RecipeImage {
    package enum Source {
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

    package let source: Source
    /// Optional crop applied to the result (makes generators and clamps renderable).
    package let crop: Rect?
    /// A `file` image's `"useOriginal"`: start from the original a Google Lens Blur or Pixel
    /// portrait stores instead of its blurred main image (true), never (false), or when the
    /// recipe reads the photo's depth map (nil, the default); see `RecipeBuilder`.
    package let useOriginal: Bool?
    /// The JSON path of this image (`images.name`).
    package let path: String
}

/// One file to write.
package struct RecipeOutput {
    package var image: String
    package var file: String
    package var format: OutputFileFormat
    /// Quality, subsampling and scan mode (JPEG), bit depth (PNG); the carried metadata once the
    /// images are built.
    package var options: ImageWriteOptions
    /// The `file` image whose EXIF and XMP the output carries.
    package var metadataFrom: String?
    /// Whether a JPEG output carries the depth data and matte of the depth photo it edits.
    package var keepsAuxiliaryImages = true
    /// Images attached as auxiliary images (JPEG only): `.disparity` or `.depth`, and `.portraitEffectsMatte`.
    package var attached: [(AuxiliaryImage, String)] = []
    package let path: String
}

/// A raw 4:2:0 frame: file, size and how to read it.
package struct RecipeYUV {
    package let file: String
    package let width: Int, height: Int
    package let layout: YUVFrame.Layout
    package let matrix: YUVFrame.Matrix
    package let range: YUVFrame.Range
    package let siting: YUVFrame.ChromaSiting
}
