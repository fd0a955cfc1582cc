import ArgumentParser
import GraphCodecs

/// `graph info FILE`: header and metadata of a PNG or JPEG, without decoding pixels.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show an image file's format, size, profile, orientation and metadata.")

    @Argument(help: "A PNG or JPEG file.") var file: String
    @Option(help: "text or json.") var format: OutputFormat = .text

    func run() throws {
        try Graph.reportingErrors {
            guard format != .dot else { throw RecipeError("--format", "expected text or json") }
            let info = try ImageFile.info(path: file)
            if format == .text {
                for line in info.summaryLines { Terminal.shared.out(line) }
            } else {
                Terminal.shared.out(Self.json(info).pretty())
            }
        }
    }

    static func json(_ info: ImageInfo) -> JSON {
        let metadata = info.metadata
        func number(_ n: Int) -> JSON { .number(Double(n)) }
        var members: [(String, JSON)] = [
            ("format", .string(info.format.rawValue)), ("width", number(info.width)), ("height", number(info.height)),
            ("channels", number(info.channels)), ("colorModel", .string(info.colorModel)),
            ("bitDepth", number(info.bitDepth)), ("orientation", number(metadata.exifOrientation)),
            ("orientedWidth", number(info.orientedWidth)), ("orientedHeight", number(info.orientedHeight)),
        ]
        if let profile = info.iccProfile {
            members.append(("colorProfile", .object([
                ("description", .string(profile.description)), ("kind", .string(profile.kind.rawValue)),
                ("version", .string(profile.version)), ("colorSpace", .string(profile.colorSpace)),
                ("bytes", number(profile.bytes.count)),
            ])))
        } else if let intent = metadata.pngSRGBIntent {
            members.append(("colorProfile", .object([("sRGBIntent", number(intent))])))
        } else {
            members.append(("colorProfile", .null))
        }
        if let gamma = metadata.pngGamma { members.append(("gamma", .number(gamma))) }
        if let xmp = metadata.xmp { members.append(("xmpBytes", number(xmp.utf8.count))) }
        members.append(("segments", .array(metadata.segments.map {
            .object([("name", .string($0.name)), ("offset", number($0.offset)), ("length", number($0.length))])
        })))
        members.append(("mpfImages", .array(metadata.mpfEntries.map {
            .object([("index", number($0.index + 1)), ("type", .string($0.typeName)),
                     ("offset", number($0.absoluteOffset)), ("length", number($0.length))])
        })))
        members.append(("warnings", .array(info.warnings.map { .string($0) })))
        return .object(members)
    }
}
