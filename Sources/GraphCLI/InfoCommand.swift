import ArgumentParser
import GraphCodecs
import GraphEngine
import GraphRecipes

/// `graph info FILE`: header and metadata of a PNG, JPEG or HEIF, with its auxiliary images (depth and
/// disparity maps, mattes, gain maps), without decoding the main image; for a depth photo, the
/// subject the depth effects focus on (``SubjectReport``: it decodes the depth map).
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an image file's format, size, profile, orientation, metadata, auxiliary images (depth, mattes) and the subject the depth effects focus on.")

    @Argument(help: "A PNG, JPEG or HEIF file.") var file: String
    @Option(help: "text or json.") var format: TextFormat = .text

    func run() throws {
        try Graph.reportingErrors {
            // Read and parsed once: the subject report decodes the depth map from the same photo.
            let photo = try DepthPhoto(contentsOf: file)
            let info = photo.info
            let subject = photo.depthMapInfo != nil ? try SubjectReport(photo: photo) : nil
            if format == .text {
                let names = ImageInfoJSON.recipeNames(info.auxiliaryImages)
                let lines = info.summaryLines { index in
                    names[index].map { list in #"load with "auxiliary": "# + list.map { "\"\($0)\"" }.joined(separator: " or ") }
                }
                // File text (camera names, profile descriptions) is escaped: no terminal sequences, no forged lines.
                for line in lines + (subject?.lines ?? []) { Terminal.shared.out(FileText.escaped(line)) }
            } else {
                guard case .object(var members) = ImageInfoJSON.json(info) else { return }
                members.append(("subject", subject?.json ?? .null))
                Terminal.shared.out(JSON.object(members).pretty())
            }
        }
    }
}
