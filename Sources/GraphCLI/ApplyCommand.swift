import ArgumentParser
import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes

/// `graph apply IN OUT FILTER KEY=VALUE... [+ FILTER KEY=VALUE...]...`: a chain of catalogue filters
/// applied to one file, without writing a recipe (in the manner of `vips gaussblur in.jpg out.jpg 10`).
///
/// The command line becomes a recipe (``ApplyChain``), so values are checked, errors suggest names,
/// and the output is rendered and written exactly as `graph run` would for the same recipe. Unlike
/// a recipe, which is Core Image's, the result keeps the input's size with its edges extended (as
/// `vips gaussblur` does): the input is clamped to its extent and the result cropped back, by the
/// rule of ``ApplyChain/edgeCrop(input:result:)``; `--core-image-extent` keeps Core Image's result.
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a chain of filters to an image file: graph apply IN OUT CIGaussianBlur inputRadius=10 + CISepiaTone inputIntensity=0.8",
        discussion: """
            Each filter's input image is the previous result (the first one's is IN). Values are read by the \
            input's type (graph filters NAME): numbers (0.8), booleans (true/false), vectors, rectangles and \
            transforms as comma lists (1,0,0,0), colours as comma lists in sRGB or #RRGGBB[AA], colour \
            spaces by name (sRGB), images and .cube data as file paths (inputBackgroundImage=bg.png), or \
            any value as recipe JSON ([1,0,0,0], {"color": [1,0,0], "colorSpace": "linearSRGB"}). Depth \
            effects read IN's own disparity (and portrait matte, when it has one) unless given \
            (graph apply IN.jpg OUT.jpg CIDepthBlurEffect inputAperture=2); on a Google Lens Blur or Pixel \
            portrait, whose main image is Google's already-blurred rendering, they start from the sharp \
            original the file stores (at its size; --primary keeps the main image). The \
            output carries IN's EXIF and XMP (upright) unless --no-metadata, and a JPEG output the depth \
            data of a depth photo. The format follows OUT's extension.

            Edges: the output keeps the input's size, its edges extended (the input is clamped to its \
            extent before the chain and the result cropped back), where Core Image would grow the extent \
            with a dark, fading border (a blur). Filters that move pixels by a known scale get the moved \
            extent (CILanczosScaleTransform 0.5: half the size, opaque edges; CICrop: the crop; \
            a rotation that crops: the crop). Rotations that show corners, perspective transforms, the \
            depth effects, filters that need a finite input (CIStraightenFilter) and chains starting with \
            a generator keep Core Image's result. \
            --core-image-extent keeps Core Image's result everywhere (as graph run does for a recipe).
            """)

    @Argument(help: "The input image (\(ImageFormatRegistry.names(conjunction: "or"))).") var input: String
    @Argument(help: "The output file (\(ImageFormatRegistry.savableSuffixes)).") var output: String
    @Argument(help: ArgumentHelp("The chain: FILTER [KEY=VALUE...], filters separated by '+'.", valueName: "filter"))
    var chain: [String] = []
    @Option(help: "JPEG and HEIC quality, 1...100.") var quality: Int?
    @Option(name: .customLong("bit-depth"), help: "PNG bit depth: 8 or 16.") var bitDepth: Int?
    @Flag(name: .customLong("no-metadata"), help: "Write no EXIF or XMP from the input.") var noMetadata = false
    @Flag(help: "Depth effects on a Lens Blur or Pixel portrait start from its blurred main image, not its stored original.")
    var primary = false
    @Option(help: "Worker threads.") var threads: Int?
    @Option(name: .customLong("working-format"), help: "Intermediate format: RGBA8, RGBAh or RGBAf.") var workingFormat: String?
    @Flag(name: .customLong("no-color-management"), help: "No working colour space: skip every colour conversion.")
    var noColorManagement = false
    @Flag(name: .customLong("core-image-extent"),
          help: "Core Image's result: no edge extension, the extent as the filters compute it (a blur grows it).")
    var coreImageExtent = false
    @Flag(help: "Print the optimized graph and programs after writing.") var dump = false
    @Option(name: .customLong("dump-format"), help: "Dump format: text, json or dot.") var dumpFormat: OutputFormat = .text
    @Flag(help: "Print per-program timings of the render.") var profile = false
    @Flag(name: .customLong("allow-overwriting-inputs"), help: "Allow the output to replace the input file.")
    var allowOverwritingInputs = false

    func run() throws {
        try Graph.reportingErrors {
            let chain = try ApplyChain(arguments: self.chain)
            // Opened for its maps only when a filter reads one it has a default for (a matte).
            let photo = chain.readsOptionalPhotoMaps ? try? DepthPhoto(contentsOf: input) : nil
            let settings = RecipeSettings(recipePath: "", threads: threads, workingFormat: workingFormat,
                                          noColorManagement: noColorManagement, allowOverwritingInputs: allowOverwritingInputs)
            func prepare(edges: Rect?) throws -> RecipeSession {
                let json = chain.recipe(input: input, output: output, quality: quality, bitDepth: bitDepth, metadata: !noMetadata,
                                        photo: photo, edges: edges, primary: primary)
                let recipe = try RecipeDecoder(baseDirectory: FileManager.default.currentDirectoryPath).decode(json)
                return try RecipeSession.prepare(recipe, settings: settings)
            }
            do {
                // Core Image's chain first; then, by the edge rule, the same on the clamped input, cropped.
                var session = try prepare(edges: nil)
                if !coreImageExtent, chain.mayExtendEdges, let input = session.named["input"],
                   let result = session.named["step\(chain.steps.count)"],
                   let crop = ApplyChain.edgeCrop(input: input, result: result) {
                    // A filter that needs a finite input (CIStraightenFilter) keeps Core Image's result.
                    if let extended = try? prepare(edges: crop) { session = extended }
                }
                for warning in session.warnings { Terminal.shared.diagnostic("graph: warning: \(chain.describe(warning))") }
                try RunCommand.writeOutputs(of: session, dumpStages: dump ? [.optimized, .programs] : nil,
                                            dumpFormat: dumpFormat, profile: profile)
            } catch let error as RecipeError {
                throw chain.translate(error)
            }
        }
    }
}
