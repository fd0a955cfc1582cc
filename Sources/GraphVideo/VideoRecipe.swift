import GraphEngine
import GraphRecipes
import Kernels

/// A recipe applied to every frame of a video: its photo image is bound to each decoded frame
/// and its depth images (`"auxiliary": "depth"` in metres, `"auxiliary": "disparity"` in 1/m)
/// to the frame's depth map. The recipe is read and checked once; each frame builds its images
/// (no file is opened) and renders through programs the context compiled for the first frame.
///
/// The same recipe runs with `graph run` on a depth photo: its `file` images are then read.
public struct VideoRecipe: @unchecked Sendable {
    /// The recipe file.
    public let path: String
    /// The image bound to each frame.
    public let photoImage: String
    /// The images bound to the depth map, each with whether it takes disparity (1/m) or depth (m).
    public let depthImages: [(name: String, disparity: Bool)]
    /// The image encoded (the first output's, unless chosen).
    public let outputImage: String
    /// Context options the recipe sets.
    public let contextOptions: ContextOptions
    private let recipe: Recipe

    /// Reads the recipe at `path` with `overrides` (`IMAGE.KEY=VALUE`, as `--set`). `photoImage`
    /// names the image each frame replaces (default: the image named `photo`, or the only `file`
    /// image that is no auxiliary image); `outputImage` the image encoded (default: the first
    /// output's).
    public init(path: String, overrides: [String] = [], photoImage: String? = nil, outputImage: String? = nil) throws {
        let recipe = try RecipeDecoder.load(path: path, overrides: overrides)
        self.path = path
        self.recipe = recipe
        var photos: [String] = []
        var depth: [(name: String, disparity: Bool)] = []
        for name in recipe.imageOrder {
            guard case .file(_, _, let auxiliary)? = recipe.images[name]?.source else { continue }
            switch auxiliary {
            case nil: photos.append(name)
            case .depth?: depth.append((name, false))
            case .disparity?: depth.append((name, true))
            case let other?:
                throw RecipeError("images.\(name).auxiliary",
                                  "graph video binds depth and disparity images to the depth stream; a \(other.rawValue) has no stream")
            }
        }
        if let photoImage {
            guard photos.contains(photoImage) else {
                throw RecipeError("--photo-image", recipe.images[photoImage] == nil
                    ? "no image named \"\(photoImage)\" in the recipe"
                    : "image \"\(photoImage)\" is not a \"file\" image (only a file image can be bound to the frames)")
            }
            self.photoImage = photoImage
        } else if photos.contains("photo") {
            self.photoImage = "photo"
        } else if photos.count == 1, let only = photos.first {
            self.photoImage = only
        } else {
            throw RecipeError("--photo-image", photos.isEmpty
                ? "the recipe has no \"file\" image for the frames to replace"
                : "the recipe reads several files (\(photos.joined(separator: ", "))); name the image the frames replace")
        }
        depthImages = depth
        if let outputImage {
            guard recipe.images[outputImage] != nil else {
                throw RecipeError("--output-image", "no image named \"\(outputImage)\" in the recipe")
            }
            self.outputImage = outputImage
        } else {
            guard let first = recipe.outputs.first else { throw RecipeError("outputs", "the recipe has no output; name the image to encode") }
            self.outputImage = first.image
        }
        contextOptions = recipe.options.contextOptions()
    }

    /// Whether the recipe reads depth (then every frame needs a depth map).
    public var needsDepth: Bool { !depthImages.isEmpty }

    /// Checks that `name` is an image of the recipe another video can replace (any image but the
    /// photo and the depth images, which the input and its depth stream fill): `graph video
    /// --bind background=beach.mp4` puts Backdrop's subject over a video instead of its gradient.
    public func checkBindable(_ name: String) throws {
        guard recipe.images[name] != nil else {
            throw RecipeError("--bind", "no image named \"\(name)\" in the recipe")
        }
        guard name != photoImage, !depthImages.contains(where: { $0.name == name }) else {
            throw RecipeError("--bind", "image \"\(name)\" is bound to the input or its depth; bind another video to another image")
        }
    }

    /// The image to encode for one frame and its depth map (nil only when ``needsDepth`` is
    /// false), with `bound` images (frames of other videos, by recipe image name) in place of
    /// theirs, and every image of the recipe as built, by name.
    public func images(frame: Image, depth: DepthMap?, bound: [String: Image] = [:]) throws -> (output: Image, all: [String: Image]) {
        var builder = RecipeBuilder(recipe: recipe)
        builder.bind(photoImage, to: frame)
        for (name, image) in bound { builder.bind(name, to: image) }
        if needsDepth {
            guard let depth else { throw VideoError("the recipe reads depth (\(depthImages.map(\.name).joined(separator: ", "))); give a depth stream (--depth)") }
            var metres: Image?, disparity: Image?
            for (name, wantsDisparity) in depthImages {
                if wantsDisparity {
                    if disparity == nil { disparity = try depth.image(disparity: true) }
                    if let disparity { builder.bind(name, to: disparity) }
                } else {
                    if metres == nil { metres = try depth.image(disparity: false) }
                    if let metres { builder.bind(name, to: metres) }
                }
            }
        }
        let all = try builder.buildAll()
        guard let output = all[outputImage] else { throw RecipeError("--output-image", "no image \"\(outputImage)\"") }
        if output.extent.isInfinite || output.extent.isEmpty {
            throw RecipeError("images.\(outputImage)", "image \"\(outputImage)\" has extent \(output.extent); a video frame needs a finite one (crop it)")
        }
        return (output, all)
    }
}
