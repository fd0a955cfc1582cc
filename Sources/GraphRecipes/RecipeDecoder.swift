import Foundation
import GraphCodecs
import GraphEngine

/// Turns recipe JSON into a ``Recipe``, checking structure, keys and simple value types. Filter
/// inputs are checked later, against the catalogue, by ``RecipeBuilder``.
package struct RecipeDecoder {
    /// The folder relative paths are resolved against.
    package let baseDirectory: String

    package init(baseDirectory: String) {
        self.baseDirectory = baseDirectory
    }

    package static let topKeys: Set<String> = ["version", "description", "options", "kernels", "images", "outputs"]
    package static let optionKeys: Set<String> = ["workingFormat", "threads", "tileSize", "fusion", "maximumRenderPixels",
                                          "colorManagement"]
    package static let outputKeys: Set<String> = ["image", "file", "quality", "bitDepth", "format", "subsampling", "progressive", "metadataFrom",
                                          "colorSpace", "auxiliary", "attach"]

    /// Reads, parses (with `--set` overrides) and decodes a recipe file.
    package static func load(path: String, overrides: [String] = []) throws -> Recipe {
        let (json, decoder) = try read(path: path, overrides: overrides)
        return try decoder.decode(json)
    }

    /// Reads and parses a recipe file with `--set` overrides applied (a new `file` moving the images
    /// that read the same file with it), and the decoder for its folder: `graph batch` rebinds file
    /// images in the JSON and decodes it once per input.
    package static func read(path: String, overrides: [String] = []) throws -> (json: JSON, decoder: RecipeDecoder) {
        try parse(RecipeSource.read(path), overrides: overrides)
    }

    /// Parses a recipe's text with `--set` overrides applied, and the decoder for its folder.
    package static func parse(_ source: RecipeSource, overrides: [String] = []) throws -> (json: JSON, decoder: RecipeDecoder) {
        let json: JSON
        do {
            json = try JSONParser.parse(source.text)
        } catch {
            throw RecipeError(source.name, "malformed JSON: \(error)")
        }
        let decoder = RecipeDecoder(baseDirectory: source.baseDirectory)
        let overridden = try RecipeOverrides.apply(overrides, to: json, files: RecipeFileImages(json, decoder: decoder))
        return (overridden, decoder)
    }

    /// A UTF-8 text file (read as images are: a FIFO or device is an error, never a hang).
    package static func readText(_ file: String, what: String, at path: String) throws -> String {
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.read(path: file)
        } catch {
            throw RecipeError(path, "cannot read \(what): \(error.message)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RecipeError(path, "cannot read \(what): it is not UTF-8 text")
        }
        return text
    }

    package func resolve(_ file: String) -> String {
        file.hasPrefix("/") ? file : URL(fileURLWithPath: baseDirectory).appendingPathComponent(file).standardizedFileURL.path
    }

    /// A data input read from a file (`{"file": "look.cube"}`) gets its path resolved like image files.
    package func resolvingDataFile(_ json: JSON) -> JSON {
        guard case .object(let members) = json, members.count == 1, case .string(let file)? = json["file"] else { return json }
        return .object([("file", .string(resolve(file)))])
    }

    package func decode(_ json: JSON) throws -> Recipe {
        let top = try object(json, "recipe")
        try checkKeys(top, allowed: Self.topKeys, path: "")
        guard let version = json["version"] else { throw RecipeError("version", "missing; add \"version\": 1") }
        guard case .number(1) = version else { throw RecipeError("version", "unsupported version \(version.compact); expected 1") }

        let options = try decodeOptions(json["options"])
        var kernels: [String: RecipeKernel] = [:]
        if let kernelJSON = json["kernels"] {
            for (name, spec) in try object(kernelJSON, "kernels") {
                kernels[name] = try decodeKernel(spec, path: "kernels.\(name)")
            }
        }
        guard let imagesJSON = json["images"] else { throw RecipeError("images", "missing; a recipe needs at least one image") }
        let imageMembers = try object(imagesJSON, "images")
        if imageMembers.count > Recipe.maximumImages {
            throw RecipeError("images", "\(imageMembers.count) images; a recipe may have at most \(Recipe.maximumImages) (split the work over several recipes)")
        }
        var images: [String: RecipeImage] = [:]
        var order: [String] = []
        for (name, spec) in imageMembers {
            images[name] = try decodeImage(spec, path: "images.\(name)")
            order.append(name)
        }
        guard let outputsJSON = json["outputs"] else { throw RecipeError("outputs", "missing; a recipe needs at least one output") }
        guard case .array(let outputItems) = outputsJSON else {
            throw RecipeError("outputs", "expected an array, got \(outputsJSON.kindDescription)")
        }
        if outputItems.isEmpty { throw RecipeError("outputs", "expected at least one output") }
        var outputs: [RecipeOutput] = []
        for (index, item) in outputItems.enumerated() {
            let output = try decodeOutput(item, path: "outputs[\(index)]")
            guard images[output.image] != nil else {
                throw RecipeError("\(output.path).image", "unknown image \"\(output.image)\"\(suggestion(output.image, images.keys))")
            }
            for (kind, name) in output.attached where images[name] == nil {
                let key = Self.auxiliaryName(kind)
                throw RecipeError("\(output.path).attach.\(key)", "unknown image \"\(name)\"\(suggestion(name, images.keys))")
            }
            if let earlier = outputs.first(where: { Context.isSameFile($0.file, asAnyOf: [output.file]) }) {
                throw RecipeError("\(output.path).file", "the same file is written by \(earlier.path)")
            }
            outputs.append(output)
        }
        return Recipe(options: options, kernels: kernels, imageOrder: order, images: images, outputs: outputs)
    }

    // MARK: Parts

    package func decodeOptions(_ json: JSON?) throws -> RecipeOptions {
        var options = RecipeOptions()
        guard let json else { return options }
        let members = try object(json, "options")
        try checkKeys(members, allowed: Self.optionKeys, path: "options")
        if let value = json["workingFormat"] {
            guard case .string(let text) = value, let format = WorkingFormat(rawValue: text) else {
                throw RecipeError("options.workingFormat", "expected one of RGBA8, RGBAh, RGBAf, got \(value.compact)")
            }
            options.workingFormat = format
        }
        if let value = json["threads"] { options.threads = try integer(value, "options.threads", in: 1...1024) }
        if let value = json["tileSize"] { options.tileSize = try integer(value, "options.tileSize", in: 16...65536) }
        if let value = json["maximumRenderPixels"] {
            options.maximumRenderPixels = try integer(value, "options.maximumRenderPixels", in: 1...(1 << 40))
        }
        if let value = json["colorManagement"] { options.colorManagement = try bool(value, "options.colorManagement") }
        if let value = json["fusion"] { options.fusion = try bool(value, "options.fusion") }
        return options
    }

    package func decodeKernel(_ json: JSON, path: String) throws -> RecipeKernel {
        let members = try object(json, path)
        try checkKeys(members, allowed: ["source", "file"], path: path)
        let source: String
        let sourcePath: String
        switch (json["source"], json["file"]) {
        case (.string(let text)?, nil):
            source = text
            sourcePath = "\(path).source"
        case (nil, .string(let file)?):
            sourcePath = "\(path).file"
            source = try Self.readText(resolve(file), what: "kernel file '\(file)'", at: sourcePath)
        case (nil, nil):
            throw RecipeError(path, "expected \"source\" (kernel text) or \"file\" (a .cikernel path)")
        case (.some, .some):
            throw RecipeError(path, "give either \"source\" or \"file\", not both")
        default:
            throw RecipeError(path, "\"source\" and \"file\" must be strings")
        }
        do {
            return RecipeKernel(kernel: try Kernel(source: source), path: sourcePath)
        } catch {
            throw RecipeError(sourcePath, "kernel does not compile: \(error)")
        }
    }

    package func decodeImage(_ json: JSON, path: String) throws -> RecipeImage {
        let members = try object(json, path)
        let kinds = ["file", "yuv", "filter", "generator", "kernel", "clamp"].filter { json[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            throw RecipeError(path, kinds.isEmpty
                ? "expected one of \"file\", \"yuv\", \"filter\", \"generator\", \"kernel\" or \"clamp\""
                : "give only one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        let allowed: Set<String>
        switch kind {
        case "file": allowed = ["file", "colorSpace", "auxiliary", "useOriginal", "crop"]
        case "yuv": allowed = ["yuv", "size", "layout", "matrix", "range", "siting", "crop"]
        case "filter", "generator": allowed = [kind, "inputs", "crop"]
        case "kernel": allowed = ["kernel", "arguments", "extent", "roi", "crop"]
        default: allowed = [kind, "crop"]
        }
        try checkKeys(members, allowed: allowed, path: path)
        let crop = try json["crop"].map { try rect($0, "\(path).crop") }
        let source: RecipeImage.Source
        var useOriginal: Bool?
        switch kind {
        case "file":
            var colorSpace: ColorSpace??
            if let value = json["colorSpace"] {
                let names: [String: ColorSpace?] = ["sRGB": .sRGB, "displayP3": .displayP3, "linearSRGB": .linearSRGB, "data": nil]
                guard case .string(let text) = value, let space = names[text] else {
                    throw RecipeError("\(path).colorSpace", "expected \"sRGB\", \"displayP3\", \"linearSRGB\" or \"data\", got \(value.compact)")
                }
                colorSpace = .some(space)
            }
            var auxiliary: AuxiliaryImage?
            if let value = json["auxiliary"] {
                guard case .string(let text) = value, let kind = Self.auxiliaryNames[text] else {
                    throw RecipeError("\(path).auxiliary", "expected \(Self.auxiliaryNameList), got \(value.compact)")
                }
                if colorSpace != nil {
                    throw RecipeError("\(path).colorSpace", "an auxiliary image is data, never colour-converted; remove \"colorSpace\"")
                }
                auxiliary = kind
            }
            if let value = json["useOriginal"] {
                guard case .bool(let flag) = value else {
                    throw RecipeError("\(path).useOriginal", "expected true or false, got \(value.compact)")
                }
                if auxiliary != nil {
                    throw RecipeError("\(path).useOriginal", "an auxiliary image is read as the file stores it; remove \"useOriginal\"")
                }
                useOriginal = flag
            }
            source = .file(resolve(try string(json["file"], "\(path).file")), colorSpace: colorSpace, auxiliary: auxiliary)
        case "yuv":
            func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ fallback: T) throws -> T where T.RawValue == String {
                guard let value = json[key] else { return fallback }
                guard case .string(let text) = value, let parsed = T(rawValue: text) else {
                    let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw RecipeError("\(path).\(key)", "expected one of \(names), got \(value.compact)")
                }
                return parsed
            }
            guard case .array(let sizeItems)? = json["size"], sizeItems.count == 2 else {
                throw RecipeError("\(path).size", "expected [width, height] of the frame")
            }
            let size = try RecipeValues.numbers(sizeItems, "\(path).size")
            guard size.allSatisfy({ $0 >= 1 && $0 <= 65536 && $0 == $0.rounded() }) else {
                throw RecipeError("\(path).size", "expected whole numbers 1...65536, got \(json["size"]?.compact ?? "")")
            }
            source = .yuv(RecipeYUV(file: resolve(try string(json["yuv"], "\(path).yuv")), width: Int(size[0]),
                                    height: Int(size[1]), layout: try choice("layout", YUVFrame.Layout.biPlanar),
                                    matrix: try choice("matrix", YUVFrame.Matrix.bt709),
                                    range: try choice("range", YUVFrame.Range.video),
                                    siting: try choice("siting", YUVFrame.ChromaSiting.left)))
        case "filter", "generator":
            let name = try string(json[kind], "\(path).\(kind)")
            var inputs: [(String, JSON)] = []
            if let inputJSON = json["inputs"] { inputs = try object(inputJSON, "\(path).inputs").map { ($0, resolvingDataFile($1)) } }
            source = .filter(name: name, inputs: inputs, key: kind)
        case "kernel":
            let name = try string(json["kernel"], "\(path).kernel")
            let arguments = json["arguments"] ?? .array([])
            switch arguments {
            case .array, .object: break
            default:
                throw RecipeError("\(path).arguments", "expected an array (in parameter order) or an object (by parameter name), got \(arguments.kindDescription)")
            }
            let extent = try json["extent"].map { try rect($0, "\(path).extent") }
            source = .kernel(name: name, arguments: arguments, extent: extent, roi: json["roi"])
        default:
            source = .clamp(try imageReference(json["clamp"], "\(path).clamp"))
        }
        return RecipeImage(source: source, crop: crop, useOriginal: useOriginal, path: path)
    }

    package func decodeOutput(_ json: JSON, path: String) throws -> RecipeOutput {
        let members = try object(json, path)
        try checkKeys(members, allowed: Self.outputKeys, path: path)
        let image: String
        if case .object? = json["image"] {
            image = try imageReference(json["image"], "\(path).image")
        } else {
            image = try string(json["image"], "\(path).image")
        }
        let file = try string(json["file"], "\(path).file")
        let format: OutputFileFormat
        if let formatJSON = json["format"] {
            guard case .string(let text) = formatJSON,
                  let parsed = OutputFileFormat(key: text) else {
                throw RecipeError("\(path).format", "expected \(ImageFormatRegistry.savableKeys), got \(formatJSON.compact)")
            }
            format = parsed
        } else {
            guard let parsed = OutputFileFormat(path: file) else {
                throw RecipeError("\(path).file", OutputFileFormat.unknownFormatMessage(path: file))
            }
            format = parsed
        }
        let quality = try json["quality"].map { try integer($0, "\(path).quality", in: 1...100) } ?? 90
        let bitDepth = try json["bitDepth"].map { try integer($0, "\(path).bitDepth", in: 8...16) } ?? 8
        guard bitDepth == 8 || bitDepth == 16 else { throw RecipeError("\(path).bitDepth", "expected 8 or 16, got \(bitDepth)") }
        if !format.saving.bitDepths.contains(bitDepth) {
            throw RecipeError("\(path).bitDepth", "\(format.name) output is \(format.saving.bitDepthList)-bit only")
        }
        var subsampling = JPEGSubsampling.s420
        if let subsamplingJSON = json["subsampling"] {
            let names: [String: JPEGSubsampling] = ["4:4:4": .s444, "4:2:2": .s422, "4:2:0": .s420, "4:4:0": .s440]
            guard case .string(let text) = subsamplingJSON, let parsed = names[text] else {
                throw RecipeError("\(path).subsampling", "expected \"4:4:4\", \"4:2:2\", \"4:2:0\" or \"4:4:0\", got \(subsamplingJSON.compact)")
            }
            subsampling = parsed
        }
        let progressive = try json["progressive"].map { try bool($0, "\(path).progressive") } ?? false
        var options = ImageWriteOptions(quality: quality, subsampling: subsampling, progressive: progressive, bitDepth: bitDepth)
        if let value = json["colorSpace"] {
            let names: [String: OutputColorSpace] = ["sRGB": .sRGB, "displayP3": .displayP3, "linearSRGB": .linearSRGB, "data": .data]
            guard case .string(let text) = value, let space = names[text] else {
                throw RecipeError("\(path).colorSpace", "expected \"sRGB\", \"displayP3\", \"linearSRGB\" or \"data\", got \(value.compact)")
            }
            options.colorSpace = space
        }
        let metadataFrom = try json["metadataFrom"].map { try string($0, "\(path).metadataFrom") }
        var output = RecipeOutput(image: image, file: resolve(file), format: format, options: options, metadataFrom: metadataFrom,
                                  path: path)
        if let value = json["auxiliary"] {
            guard case .string(let text) = value, text == "keep" || text == "drop" else {
                throw RecipeError("\(path).auxiliary", "expected \"keep\" (the depth photo's depth data and matte follow the edit) or \"drop\", got \(value.compact)")
            }
            output.keepsAuxiliaryImages = text == "keep"
        }
        if let value = json["attach"] {
            for (key, reference) in try object(value, "\(path).attach") {
                guard let kind = Self.auxiliaryNames[key], Self.attachable.contains(kind) else {
                    let known = Self.auxiliaryNames[key] != nil
                        ? ": only the depth map and the portrait matte are written with a photo"
                        : suggestion(key, Self.auxiliaryNames.keys.filter { Self.attachable.contains(Self.auxiliaryNames[$0] ?? .gainMap) })
                    throw RecipeError("\(path).attach.\(key)", "unknown auxiliary image\(known); expected \"disparity\", \"depth\" or \"matte\"")
                }
                let name: String
                if case .object = reference {
                    name = try imageReference(reference, "\(path).attach.\(key)")
                } else {
                    name = try string(reference, "\(path).attach.\(key)")
                }
                output.attached.append((kind, name))
            }
            if output.attached.contains(where: { $0.0 == .disparity }) && output.attached.contains(where: { $0.0 == .depth }) {
                throw RecipeError("\(path).attach", "attach either a \"disparity\" or a \"depth\" map, not both")
            }
        }
        return output
    }

    /// Recipe names of auxiliary images.
    /// Recipe names of auxiliary images: `matte` is the portrait effects matte; the others are
    /// the library's names (`skinMatte`, `hairMatte`, `teethMatte`, `glassesMatte`, `skyMatte`,
    /// `gainMap`).
    package static let auxiliaryNames: [String: AuxiliaryImage] = Dictionary(uniqueKeysWithValues: AuxiliaryImage.allCases.map {
        ($0 == .portraitEffectsMatte ? "matte" : $0.rawValue, $0)
    })

    /// Every recipe name of an auxiliary image, quoted, in the library's order ("disparity", "depth", "matte", ...).
    package static var auxiliaryNameList: String {
        let names = AuxiliaryImage.allCases.map { "\"\(auxiliaryName($0))\"" }
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// The auxiliary images an output can attach (write with the photo).
    package static let attachable: Set<AuxiliaryImage> = [.disparity, .depth, .portraitEffectsMatte]

    /// The recipe name of an auxiliary image (`matte` for the portrait effects matte).
    package static func auxiliaryName(_ kind: AuxiliaryImage) -> String {
        auxiliaryNames.first { $0.value == kind }?.key ?? kind.rawValue
    }

    // MARK: Helpers

    package func object(_ json: JSON, _ path: String) throws -> [(String, JSON)] {
        guard case .object(let members) = json else {
            throw RecipeError(path, "expected an object, got \(json.kindDescription)")
        }
        return members
    }

    package func checkKeys(_ members: [(String, JSON)], allowed: Set<String>, path: String) throws {
        for (key, _) in members where !allowed.contains(key) {
            let known = allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw RecipeError(path.isEmpty ? key : "\(path).\(key)", "unknown key\(suggestion(key, allowed)); expected one of \(known)")
        }
    }

    package func string(_ json: JSON?, _ path: String) throws -> String {
        guard let json else { throw RecipeError(path, "missing") }
        guard case .string(let text) = json else { throw RecipeError(path, "expected a string, got \(json.compact)") }
        return text
    }

    package func bool(_ json: JSON, _ path: String) throws -> Bool {
        guard case .bool(let flag) = json else { throw RecipeError(path, "expected true or false, got \(json.compact)") }
        return flag
    }

    package func integer(_ json: JSON, _ path: String, in range: ClosedRange<Int>) throws -> Int {
        guard case .number(let n) = json, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw RecipeError(path, "expected an integer in \(range.lowerBound)...\(range.upperBound), got \(json.compact)")
        }
        return Int(n)
    }

    package func rect(_ json: JSON, _ path: String) throws -> Rect {
        guard case .array(let items) = json, items.count == 4 else {
            throw RecipeError(path, "expected a rectangle [x, y, width, height], got \(json.compact)")
        }
        let numbers = try RecipeValues.numbers(items, path)
        guard numbers[2] >= 0, numbers[3] >= 0 else { throw RecipeError(path, "width and height must not be negative") }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    package func imageReference(_ json: JSON?, _ path: String) throws -> String {
        guard let json else { throw RecipeError(path, "missing") }
        return try RecipeValues.imageReference(json, path)
    }
}

/// `, did you mean "x"?` when a close name exists.
package func suggestion<S: Sequence>(_ name: String, _ candidates: S) -> String where S.Element == String {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var row = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                let substitution: Int = previous[j] + (ca == cb ? 0 : 1)
                let deletion: Int = previous[j + 1] + 1
                let insertion: Int = row[j] + 1
                row[j + 1] = Swift.min(deletion, insertion, substitution)
            }
            previous = row
        }
        return previous[b.count]
    }
    let lower = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates.sorted() {
        let d = distance(lower, Array(candidate.lowercased()))
        if best == nil || d < (best?.distance ?? Int.max) { best = (candidate, d) }
    }
    guard let best, best.distance <= Swift.max(2, name.count / 3) else { return "" }
    return " (did you mean \"\(best.name)\"?)"
}

/// Checks on recipe values shared by the decoder and the builder.
package enum RecipeValues {
    package static func numbers(_ items: [JSON], _ path: String) throws -> [Double] {
        try items.enumerated().map { index, item in
            guard case .number(let n) = item else {
                throw RecipeError("\(path)[\(index)]", "expected a number, got \(item.compact)")
            }
            return n
        }
    }

    /// The name in `{"image": "name"}`.
    package static func imageReference(_ json: JSON, _ path: String) throws -> String {
        guard case .object(let members) = json, members.count == 1, case .string(let name)? = json["image"] else {
            throw RecipeError(path, "expected an image reference {\"image\": \"name\"}, got \(json.compact)")
        }
        return name
    }
}
