import Foundation
import GraphEngine
import GraphRecipes
import Kernels

/// The filter chain of `graph apply` (`CIGaussianBlur inputRadius=10 + CISepiaTone ...`) and the
/// recipe it stands for: image `input` is the input file, `step1`...`stepN` the filters in order
/// (each one's `inputImage` the one before, unless it is a generator), `file1`... the files other
/// image inputs name, and `disparity`, `depth`, `matte` the input's own maps, which the inputs
/// that take a map of the photo (`FilterInput.photoMap`: CIDepthBlurEffect's
/// `inputDisparityImage` and `inputMatteImage`) read when not given (a map with a default, the
/// matte, only when the input has one).
struct ApplyChain {
    /// One filter of the chain, with its values as recipe JSON, in command-line order.
    struct Step {
        let filter: String
        var inputs: [(String, JSON)] = []
    }

    private(set) var steps: [Step] = []
    /// Files given as image inputs: image name, its recipe JSON (`{"file": PATH}`, or the
    /// object given), the file as given, step index and input key.
    private(set) var files: [(name: String, spec: JSON, path: String, step: Int, key: String)] = []
    /// The inputs not given that take a map of the photo: step index, input key, the map, and
    /// whether the filter has a default for it.
    private(set) var photoMaps: [(step: Int, key: String, map: AuxiliaryImage, optional: Bool)] = []

    init(arguments: [String]) throws {
        var current: Step?
        for argument in arguments {
            if argument == "+" {
                guard let step = current else { throw RecipeError("", "expected a filter name before '+'") }
                steps.append(step)
                current = nil
            } else if current == nil {
                guard !argument.contains("=") else {
                    throw RecipeError("", "expected a filter name, got \"\(argument)\" (the chain is FILTER KEY=VALUE... [+ FILTER KEY=VALUE...])")
                }
                current = Step(filter: argument)
            } else if let step = current {
                guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                    throw RecipeError(step.filter, "expected KEY=VALUE, got \"\(argument)\"\(Self.example(step.filter)) (separate filters with '+')")
                }
                let key = String(argument[..<equals])
                let text = String(argument[argument.index(after: equals)...])
                let value = value(text, key: key, filter: step.filter, step: steps.count)
                current?.inputs.append((key, value))
            }
        }
        guard let last = current else {
            throw RecipeError("", arguments.isEmpty
                ? "expected a filter after the output path, e.g. CISepiaTone inputIntensity=0.8 (graph filters lists them)"
                : "expected a filter after the last '+'")
        }
        steps.append(last)
        for (index, step) in steps.enumerated() {
            guard let descriptor = try? FilterRegistry.standard.descriptor(named: step.filter) else { continue }
            for input in descriptor.inputs where !step.inputs.contains(where: { $0.0 == input.key }) {
                if let map = input.photoMap { photoMaps.append((index, input.key, map, input.defaultValue != nil)) }
            }
        }
    }

    /// Whether a filter takes a map that is read only when the input has it (see
    /// ``recipe(input:output:quality:bitDepth:metadata:photo:edges:primary:)``).
    var readsOptionalPhotoMaps: Bool { photoMaps.contains { $0.optional } }

    /// ` (e.g. inputRadius=10)` for the filter's first numeric input.
    private static func example(_ filter: String) -> String {
        guard let descriptor = try? FilterRegistry.standard.descriptor(named: filter),
              let input = descriptor.inputs.first(where: { $0.type == .number }) else { return "" }
        let value = input.defaultValue.map { FiltersCommand.valueText($0) } ?? "1"
        return " (e.g. \(input.key)=\(value))"
    }

    /// The recipe JSON: the input file, its maps the chain reads, the chain, one output. `photo`
    /// is the input opened for its maps, when a filter takes one that has a default (nil: it has
    /// none, or cannot be opened). With `edges` (see ``edgeCrop(input:result:)``), the first
    /// filter reads the input clamped to its extent (image `edges`) and the result is cropped to
    /// that rectangle; without, the chain is Core Image's. `primary` false leaves the input's
    /// `"useOriginal"` to the recipe's default (a depth effect on a Lens Blur or Pixel portrait
    /// starts from its stored original); true keeps the main image.
    func recipe(input: String, output: String, quality: Int?, bitDepth: Int?, metadata: Bool, photo: DepthPhoto? = nil,
                edges: Rect? = nil, primary: Bool = false) -> JSON {
        let inputSpec: [(String, JSON)] = [("file", .string(input))] + (primary ? [("useOriginal", .bool(false))] : [])
        var images: [(String, JSON)] = [("input", .object(inputSpec))]
        if edges != nil { images.append(("edges", .object([("clamp", .object([("image", .string("input"))]))]))) }
        for file in files { images.append((file.name, file.spec)) }
        let maps = photoMaps.filter { !$0.optional || photo?.has($0.map) == true }
        for map in Set(maps.map(\.map)).sorted(by: { $0.rawValue < $1.rawValue }) {
            let name = RecipeDecoder.auxiliaryName(map)
            images.append((name, .object([("file", .string(input)), ("auxiliary", .string(name))])))
        }
        for (index, step) in steps.enumerated() {
            let previous = index == 0 ? (edges == nil ? "input" : "edges") : "step\(index)"
            var inputs = step.inputs
            for map in maps where map.step == index {
                inputs.append((map.key, .object([("image", .string(RecipeDecoder.auxiliaryName(map.map)))])))
            }
            // Generators (no inputImage) start a new image, to composite over the input file, say.
            let takesImage = (try? FilterRegistry.standard.descriptor(named: step.filter))?.input("inputImage") != nil
            if takesImage, !inputs.contains(where: { $0.0 == "inputImage" }) {
                inputs.insert(("inputImage", .object([("image", .string(previous))])), at: 0)
            }
            var members: [(String, JSON)] = [("filter", .string(step.filter)), ("inputs", .object(inputs))]
            if let edges, index == steps.count - 1 {
                members.append(("crop", .array([edges.x, edges.y, edges.width, edges.height].map(JSON.number))))
            }
            images.append(("step\(index + 1)", .object(members)))
        }
        var out: [(String, JSON)] = [("image", .string("step\(steps.count)")), ("file", .string(output))]
        if metadata { out.append(("metadataFrom", .string("input"))) }
        if let quality { out.append(("quality", .number(Double(quality)))) }
        if let bitDepth { out.append(("bitDepth", .number(Double(bitDepth)))) }
        return .object([("version", .number(1)), ("images", .object(images)), ("outputs", .array([.object(out)]))])
    }

    /// Whether `graph apply` may extend the input's edges: the first filter reads the input as its
    /// `inputImage` by default (not a generator, not given another image), and no filter is a depth
    /// effect (one that takes a map of the photo, as CIDepthBlurEffect: they handle their edges
    /// themselves and keep Core Image's extent).
    var mayExtendEdges: Bool {
        guard let first = steps.first, !first.inputs.contains(where: { $0.0 == "inputImage" }) else { return false }
        let descriptors = steps.map { try? FilterRegistry.standard.descriptor(named: $0.filter) }
        if descriptors.contains(where: { $0?.inputs.contains { $0.photoMap != nil } ?? true }) { return false }
        return descriptors.first??.input("inputImage") != nil
    }

    /// `graph apply`'s edges: the rectangle to crop the chain's result to when it is computed on
    /// the input clamped to its extent, or nil to keep Core Image's result. `input` is the input
    /// image and `result` the chain's Core Image result on it (unclamped). The rule: the input's
    /// edges are extended when every pixel of the cropped result comes from inside the input, that
    /// is, when the chain maps the input by a known affine map T (`SourcePlacement.affine`)
    /// and the crop is `T(input extent) ∩ extent`, rounded out, for an axis-aligned T (colour
    /// filters, blurs, convolutions, morphology: the input's extent; scale transforms: the scaled
    /// extent; CICrop: the crop), or the result's extent when it lies inside the transformed input
    /// (a rotation cropped inside the photo); or when a warp or general kernel keeps or grows the extent (a
    /// pixellate, a distortion: the input's extent). Otherwise (a rotation that shows corners, a
    /// perspective transform, an image processor, a depth effect or a first filter that does not
    /// read the input: ``mayExtendEdges``; a filter that refuses an infinite input) the result is
    /// Core Image's.
    static func edgeCrop(input: Image, result: Image) -> Rect? {
        let inside = input.extent, extent = result.extent
        guard !inside.isInfinite, !inside.isEmpty, !extent.isEmpty else { return nil }
        switch result.placement(of: input) {
        case .affine(let t):
            let c = t.coefficients
            if c[1] == 0 && c[2] == 0 {
                let mapped = t.apply(to: inside)
                let crop = (extent.isInfinite ? mapped : mapped.intersection(extent)).integral
                return crop.isEmpty || crop.isInfinite ? nil : crop
            }
            guard !extent.isInfinite, let back = t.inverted else { return nil }
            // Every corner of the result inside the input (a hundredth of a pixel of slack).
            let corners = [(extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY)]
            let slack = inside.outset(dx: 0.01, dy: 0.01)
            let covered = corners.allSatisfy { corner in
                let p = back.apply(x: corner.0, y: corner.1)
                return p.x >= slack.minX && p.x <= slack.maxX && p.y >= slack.minY && p.y <= slack.maxY
            }
            return covered ? extent.integral : nil
        case .moved:
            return !extent.isInfinite && extent.intersection(inside) == inside ? inside : nil
        case .processed, .notReached:
            return nil
        }
    }

    /// `text` as the JSON the filter's input `key` takes: by its declared type, or as recipe JSON
    /// when it is written so. A key the filter lacks, or text that does not fit, stays a string
    /// (or number) for the recipe checks to reject with their usual message.
    private mutating func value(_ text: String, key: String, filter: String, step: Int) -> JSON {
        let input = (try? FilterRegistry.standard.descriptor(named: filter))?.input(key)
        if let first = text.first, first == "[" || first == "{", let json = try? JSONParser.parse(text),
           input?.type != .image, input?.type != .string {
            return json
        }
        guard let input else { return Double(text).map(JSON.number) ?? .string(text) }
        switch input.type {
        case .number:
            return Double(text).map(JSON.number) ?? .string(text)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: return .string(text)
            }
        case .vector, .rect, .transform:
            return Self.numbers(text).map { .array($0.map(JSON.number)) } ?? .string(text)
        case .color:
            if let hex = Self.hexColor(text) { return .array(hex.map(JSON.number)) }
            return Self.numbers(text).map { .array($0.map(JSON.number)) } ?? .string(text)
        case .colorSpace, .string, .vectors, .barcodeDescriptor, .attributedText:
            return .string(text)
        case .data:
            if let numbers = Self.numbers(text) { return .array(numbers.map(JSON.number)) }
            return .object([("file", .string(text))])
        case .image, .cameraCalibration:
            // A file path, or recipe JSON: a file image (`{"file": "IN.jpg", "auxiliary": "matte"}`)
            // or a reference to the chain's images (`{"image": "input"}`), left to the recipe checks.
            // A camera calibration is that of the depth photo named the same way.
            let json = text.first == "{" ? try? JSONParser.parse(text) : nil
            if let json, json["file"] == nil { return json }
            let spec = json ?? .object([("file", .string(text))])
            var path = text
            if case .string(let file)? = spec["file"] { path = file }
            let name = "file\(files.count + 1)"
            files.append((name, spec, path, step, key))
            return .object([("image", .string(name))])
        }
    }

    /// `1,0,0,0`, `1 0 0 0` or `[1 0 0 0]` (Core Image's `CIVector` string form) as numbers.
    static func numbers(_ text: String) -> [Double]? {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]() "))
        let parts = trimmed.split(whereSeparator: { $0 == "," || $0 == " " })
        let values = parts.compactMap { Double($0) }
        return values.count == parts.count && !values.isEmpty ? values : nil
    }

    /// `#RRGGBB`, `#RRGGBBAA` or `#RGB` as sRGB components in 0...1.
    static func hexColor(_ text: String) -> [Double]? {
        guard text.hasPrefix("#") else { return nil }
        var digits = Array(text.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var components: [Double] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
            components.append(Double(byte) / 255)
        }
        return components
    }

    // MARK: Messages in command-line terms

    /// How a step is named in messages: `CISepiaTone`, or `CISepiaTone (filter 2)` when the chain
    /// uses that filter more than once.
    private func stepName(_ index: Int) -> String {
        let filter = steps[index].filter
        return steps.filter({ $0.filter == filter }).count > 1 ? "\(filter) (filter \(index + 1))" : filter
    }

    /// A recipe error with its JSON path and image names in the command line's terms.
    func translate(_ error: RecipeError) -> RecipeError {
        var path = error.path
        var message = describe(error.message)
        let parts = path.split(separator: ".", maxSplits: 3).map(String.init)
        if parts.count >= 2, parts[0] == "images" {
            if parts[1] == "input" {
                path = "input"
            } else if let file = files.first(where: { $0.name == parts[1] }) {
                path = "\(stepName(file.step)) \(file.key)"
            } else if let map = photoMaps.first(where: { RecipeDecoder.auxiliaryName($0.map) == parts[1] }) {
                path = "\(stepName(map.step)) \(map.key)"
                message += " (the input's own \(parts[1]), read when \(map.key) is not given; give one: \(map.key)=MAP.png)"
            } else if parts[1].hasPrefix("step"), let number = Int(parts[1].dropFirst(4)), steps.indices.contains(number - 1) {
                let name = stepName(number - 1)
                if parts.count >= 4, parts[2] == "inputs" {
                    path = "\(name) \(parts[3])"
                    let key = parts[3]
                    if message.contains(", a colour photo, not a"),
                       let map = (try? FilterRegistry.standard.descriptor(named: steps[number - 1].filter))?.input(key)?.photoMap,
                       let file = files.first(where: { $0.step == number - 1 && $0.key == key }) {
                        let kind = RecipeDecoder.auxiliaryName(map)
                        message = "'\(file.path)' is a colour photo, not a \(kind) map; omit \(key) to use the input's own \(kind)"
                    }
                } else {
                    path = parts.count >= 3 && parts[2] == "filter" ? "filter \(number)" : name
                }
            }
        } else if path.hasPrefix("outputs[0]") {
            path = "output"
            if message.contains("infinite extent") {
                message = "the result of \(stepName(steps.count - 1)) has an infinite extent; crop it: add + CICrop inputRectangle=X,Y,WIDTH,HEIGHT"
            }
        }
        return RecipeError(path, message)
    }

    /// `text` with the recipe's image names replaced by what they are on the command line.
    func describe(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "outputs[0]", with: "output")
        for index in steps.indices.reversed() {
            result = result.replacingOccurrences(of: "\"step\(index + 1)\"", with: stepName(index))
                .replacingOccurrences(of: "images.step\(index + 1):", with: "\(stepName(index)):")
        }
        for file in files.reversed() {
            result = result.replacingOccurrences(of: "\"\(file.name)\"", with: file.key)
        }
        return result.replacingOccurrences(of: "\"input\"", with: "the input")
    }
}
