import GraphCodecs
import GraphEngine
import Kernels

/// Builds the `Image` of every named recipe image, resolving references (detecting cycles),
/// loading files and checking filter inputs against the catalogue.
package struct RecipeBuilder {
    package let recipe: Recipe
    package let registry: FilterRegistry
    package private(set) var built: [String: Image] = [:]
    /// Decoder and colour-tagging warnings, for the command to print.
    package private(set) var warnings: [String] = []
    /// The metadata of every `file` image, by name (outputs carry it with `metadataFrom`).
    package private(set) var fileMetadata: [String: ImageMetadata] = [:]
    /// The main image of every `file` image, by name, with its path: photos whose depth data an
    /// output may carry; `fromOriginal` when the image is the original the file stores.
    private var photos: [(name: String, path: String, image: Image, fromOriginal: Bool)] = []
    /// Photos opened for their auxiliary images, by path.
    private var depthPhotos: [String: DepthPhoto] = [:]
    /// The auxiliary images (depth, matte) read from `file` images, with the photo's path.
    private var auxiliaries: [(path: String, image: Image)] = []
    private var visiting: [String] = []

    package init(recipe: Recipe, registry: FilterRegistry = .standard) {
        self.recipe = recipe
        self.registry = registry
    }

    /// Builds every image (so every error is found before anything renders), each after the images
    /// it refers to: building one then finds its references built, so a chain of thousands of
    /// references needs no deep recursion.
    package mutating func buildAll() throws -> [String: Image] {
        for name in try buildOrder() { _ = try image(named: name, from: "images.\(name)") }
        return built
    }

    /// The images in an order where each comes after those it refers to: a depth-first walk from
    /// each image in recipe order, with its own stack. A cycle is reported at the reference that
    /// closes it; unknown names are left for ``image(named:from:)`` to report.
    private func buildOrder() throws -> [String] {
        var order: [String] = []
        var done = Set<String>()
        for start in recipe.imageOrder where !done.contains(start) {
            var path = [(name: start, references: references(of: start), next: 0)]
            var onPath: Set<String> = [start]
            while let top = path.last {
                guard top.next < top.references.count else {
                    path.removeLast()
                    onPath.remove(top.name)
                    done.insert(top.name)
                    order.append(top.name)
                    continue
                }
                path[path.count - 1].next += 1
                let (name, site) = top.references[top.next]
                if done.contains(name) || recipe.images[name] == nil { continue }
                if onPath.contains(name), let cycleStart = path.firstIndex(where: { $0.name == name }) {
                    throw RecipeError(site, "cycle: " + (path[cycleStart...].map(\.name) + [name]).joined(separator: " -> "))
                }
                path.append((name, references(of: name), 0))
                onPath.insert(name)
            }
        }
        return order
    }

    /// The images `name` refers to, each with the JSON path of the reference, in the order building
    /// it reads them.
    package func references(of name: String) -> [(name: String, site: String)] {
        guard let spec = recipe.images[name] else { return [] }
        switch spec.source {
        case .file, .yuv:
            return []
        case .clamp(let reference):
            return [(reference, "\(spec.path).clamp")]
        case .filter(let filter, let inputs, _):
            guard let descriptor = try? registry.descriptor(named: filter) else { return [] }
            return inputs.compactMap { key, json in
                guard descriptor.input(key)?.type == .image, let reference = try? RecipeValues.imageReference(json, "") else {
                    return nil
                }
                return (reference, "\(spec.path).inputs.\(key)")
            }
        case .kernel(let kernel, let arguments, _, _):
            guard recipe.kernels[kernel] != nil else { return [] }
            // Arguments in parameter order (an array) or by parameter name (an object).
            let named: [(site: String, json: JSON)]
            switch arguments {
            case .array(let values): named = values.enumerated().map { ("\(spec.path).arguments[\($0)]", $1) }
            case .object(let pairs): named = pairs.map { ("\(spec.path).arguments.\($0)", $1) }
            default: named = []
            }
            return named.compactMap { site, json in
                guard case .object = json, let reference = try? RecipeValues.imageReference(json, "") else { return nil }
                return (reference, site)
            }
        }
    }

    /// The images of the outputs, checked to be renderable (finite, non-empty extent), and the
    /// outputs with the metadata they carry filled in; the maps given with photos are checked
    /// (``checkPhotoMaps()``).
    package mutating func outputImages() throws -> (images: [Image], outputs: [RecipeOutput]) {
        _ = try buildAll()
        warnings += try checkPhotoMaps()
        var outputs: [RecipeOutput] = []
        for output in recipe.outputs {
            var resolved = output
            if let name = output.metadataFrom {
                guard recipe.images[name] != nil else {
                    throw RecipeError("\(output.path).metadataFrom", "unknown image \"\(name)\"\(suggestion(name, recipe.images.keys))")
                }
                guard let metadata = fileMetadata[name] else {
                    throw RecipeError("\(output.path).metadataFrom", "image \"\(name)\" is not a \"file\" image; metadata comes from a file")
                }
                resolved.options.metadata = metadata
                if let image = built[output.image], let photo = built[name] {
                    let (moved, notes) = metadata.following(image, from: photo)
                    resolved.options.metadata = moved
                    warnings += notes.map { "\(output.path): \($0)" }
                }
            }
            if let image = built[output.image] {
                resolved.options.auxiliaryImages = try auxiliaryImages(of: output, image: image)
                if resolved.options.colorSpace == nil, recipe.options.colorManagement != false {
                    resolved.options.colorSpace = Self.sourceColorSpace(of: image)
                }
            }
            outputs.append(resolved)
        }
        let images = try recipe.outputs.map { output in
            guard let image = built[output.image] else { throw RecipeError("\(output.path).image", "unknown image \"\(output.image)\"") }
            if image.extent.isInfinite {
                throw RecipeError("\(output.path).image", "image \"\(output.image)\" has an infinite extent; crop it (add \"crop\": [x, y, width, height] to it, or use CICrop)")
            }
            if image.extent.isEmpty {
                throw RecipeError("\(output.path).image", "image \"\(output.image)\" is empty (extent \(image.extent))")
            }
            let e = image.extent, limit = Context.coordinateLimit
            if !(e.minX >= -limit && e.minY >= -limit && e.maxX <= limit && e.maxY <= limit) {
                throw RecipeError("\(output.path).image", "image \"\(output.image)\" has extent \(e), beyond ±\(Int(limit)) pixels, the largest coordinate a render supports; crop it")
            }
            return image
        }
        return (images, outputs)
    }

    /// Uses `image` for the recipe image `name` instead of building it: every image referring to
    /// it reads `image` (`graph video` binds each decoded frame and its depth map this way, so the
    /// recipe's `file` images for the photo and its depth are never opened).
    package mutating func bind(_ name: String, to image: Image) {
        built[name] = image
    }

    package mutating func image(named name: String, from path: String) throws -> Image {
        if let done = built[name] { return done }
        guard let spec = recipe.images[name] else {
            throw RecipeError(path, "unknown image \"\(name)\"\(suggestion(name, recipe.images.keys))")
        }
        if let start = visiting.firstIndex(of: name) {
            throw RecipeError(path, "cycle: " + (visiting[start...] + [name]).joined(separator: " -> "))
        }
        visiting.append(name)
        defer { visiting.removeLast() }
        var result = try build(spec, name: name)
        if let crop = spec.crop { result = result.cropped(to: crop) }
        built[name] = result
        return result
    }

    private mutating func build(_ spec: RecipeImage, name: String) throws -> Image {
        switch spec.source {
        case .file(let file, _, let auxiliary?):
            do {
                let photo = try depthPhoto(file)
                fileMetadata[name] = photo.info.metadata
                let image = try photo.image(auxiliary)
                auxiliaries.append((file, image))
                return image
            } catch {
                throw RecipeError("\(spec.path).auxiliary", "\(error)")
            }
        case .file(let file, let colorSpace, nil):
            do {
                // JPEGs decode when rendered, streaming, at the scale the render needs.
                let decoded = try Image.decoding(path: file, colorSpace: colorSpace)
                warnings += decoded.warnings
                fileMetadata[name] = decoded.metadata
                if let original = try original(of: file, spec: spec, metadata: decoded.metadata, colorSpace: colorSpace) {
                    photos.append((name, file, original, true))
                    return original
                }
                photos.append((name, file, decoded.image, false))
                return decoded.image
            } catch let error as RecipeError {
                throw error
            } catch {
                throw RecipeError("\(spec.path).file", "\(error)")
            }
        case .yuv(let yuv):
            do {
                return Image(yuv: try YUVFrame(contentsOfFile: yuv.file, width: yuv.width, height: yuv.height,
                                               layout: yuv.layout, matrix: yuv.matrix, range: yuv.range, siting: yuv.siting))
            } catch {
                throw RecipeError("\(spec.path).yuv", "\(error)")
            }
        case .clamp(let reference):
            return try image(named: reference, from: "\(spec.path).clamp").clampedToExtent()
        case .filter(let name, let inputs, let key):
            return try buildFilter(name, inputs: inputs, path: spec.path, key: key)
        case .kernel(let name, let arguments, let extent, let roi):
            guard let kernel = recipe.kernels[name]?.kernel else {
                throw RecipeError("\(spec.path).kernel", "unknown kernel \"\(name)\"\(suggestion(name, recipe.kernels.keys))")
            }
            let bound = try KernelBinding(kernel: kernel, arguments: arguments, path: "\(spec.path).arguments")
            var values: [KernelArgument] = []
            for (json, path) in bound.arguments {
                switch json {
                case .number(let n): values.append(.number(n))
                case .array(let items): values.append(.vector(try RecipeValues.numbers(items, path)))
                case .object:
                    values.append(.image(try image(named: try RecipeValues.imageReference(json, path), from: path)))
                default:
                    throw RecipeError(path, "expected an image reference {\"image\": \"name\"}, a number or an array of numbers, got \(json.compact)")
                }
            }
            let region = try roi.map { try bound.regionOfInterest($0, path: "\(spec.path).roi") }
            do {
                return try Image.applying(kernel, arguments: values, extent: extent, regionOfInterest: region)
            } catch {
                throw RecipeError("\(spec.path).arguments", "\(error)")
            }
        }
    }

    /// The camera calibration stored with the depth map of the photo `file` (an iPhone's
    /// AVCameraCalibrationData, turned upright with the photo); an error at `path` naming the file
    /// when it has none.
    private mutating func calibration(of file: String, path: String) throws -> CameraCalibration {
        let depth: DepthData
        do {
            let photo = try depthPhoto(file)
            guard photo.depthMapInfo != nil else {
                throw RecipeError(path, "'\(file)' has no depth map, so no camera calibration (an iPhone portrait stores one with its disparity)")
            }
            depth = try photo.depthData()
        } catch let error as RecipeError {
            throw error
        } catch {
            throw RecipeError(path, "the camera calibration of '\(file)' cannot be read: \(error)")
        }
        guard let calibration = depth.calibration else {
            throw RecipeError(path, "'\(file)' stores no camera calibration with its depth map")
        }
        return calibration
    }

    /// The subject region (face or focus region, GFocus focal point) of the photo file `value` is,
    /// or whose depth map or matte it is, when it is one directly and the photo names a region: the
    /// default focus rectangle of depth effects (any filter with an `inputFocusRect`).
    private mutating func subjectRegion(of value: FilterValue?) -> Rect? {
        photo(of: value)?.subjectRegion
    }

    /// The upright size of the photo file `value` is, or whose depth map or matte it is: what a
    /// focus rectangle given in pixels is divided by (the original's, when the recipe starts from it).
    private mutating func photoSize(of value: FilterValue?) -> (width: Double, height: Double)? {
        guard let photo = photo(of: value) else { return nil }
        if let original = photos.first(where: { $0.path == photo.path && $0.fromOriginal })?.image.extent {
            return (original.width, original.height)
        }
        return (Double(photo.info.orientedWidth), Double(photo.info.orientedHeight))
    }

    /// The original `file` stores when the recipe image `spec` starts from it, else nil. A Google
    /// Lens Blur photo (GDepth with `GImage:Data`) or Pixel portrait (Dynamic Depth `Original`)
    /// shows Google's already-blurred rendering as its main image: a depth effect run on it would
    /// blur the blur. So by default (`"useOriginal"` absent) a photo whose depth map the recipe
    /// reads starts from the sharp original, as Google's own re-render does, at the original's
    /// size (a Pixel 8's is 2024×2688 under a 3072×4080 primary; its maps are 2024×2688 too) with
    /// the maps scaled to it like any map; `"useOriginal": false` keeps the main image, `true`
    /// asks for the original whatever reads it (an error when the file has none).
    private mutating func original(of file: String, spec: RecipeImage, metadata: ImageMetadata, colorSpace: ColorSpace??) throws -> Image? {
        let readsDepth = recipe.images.values.contains { image in
            if case .file(let other, _, let auxiliary?) = image.source { return other == file && (auxiliary == .disparity || auxiliary == .depth) }
            return false
        }
        guard spec.useOriginal ?? readsDepth else { return nil }
        if spec.useOriginal == nil, metadata.format != .jpeg || !JPEGAuxiliaryImages.mayExist(in: metadata) { return nil }
        let found: Image?
        do {
            found = try depthPhoto(file).originalImage(colorSpace: colorSpace)
        } catch {
            throw RecipeError("\(spec.path).useOriginal", "the original stored in '\(file)' cannot be read: \(error)")
        }
        if found == nil, spec.useOriginal == true {
            throw RecipeError("\(spec.path).useOriginal", "'\(file)' stores no original image (a Google Lens Blur photo's GImage:Data, a Pixel portrait's Original item)")
        }
        return found
    }

    /// The colour space an output is written in when the recipe names none: that of the photos it
    /// is made from when they share one that a file can be tagged with (Display P3 in, Display P3
    /// out: the saturated colours an iPhone captured are not clipped to sRGB), else nil (the
    /// context's, sRGB).
    package static func sourceColorSpace(of image: Image) -> OutputColorSpace? {
        let spaces = image.sourceColorSpaces
        guard spaces.count == 1, let space = spaces.first, [ColorSpace.sRGB, .displayP3, .linearSRGB].contains(space) else {
            return nil
        }
        return .space(space)
    }

    /// The depth photo file `value` is, or whose auxiliary image it is, when it is one directly.
    private mutating func photo(of value: FilterValue?) -> DepthPhoto? {
        guard case .image(let image)? = value else { return nil }
        guard let path = photos.first(where: { $0.image == image })?.path ?? auxiliaries.first(where: { $0.image == image })?.path
        else { return nil }
        return try? depthPhoto(path)
    }

    private mutating func depthPhoto(_ path: String) throws -> DepthPhoto {
        if let opened = depthPhotos[path] { return opened }
        let photo = try DepthPhoto(contentsOf: path)
        depthPhotos[path] = photo
        return photo
    }

    /// What a JPEG output carries: the depth data and matte of the depth photo it edits, moved
    /// like the photo (unless `"auxiliary": "drop"`), and the images it attaches. A PNG or HEIC
    /// output carries none (a warning says so when there was something to carry).
    private mutating func auxiliaryImages(of output: RecipeOutput, image: Image) throws -> AuxiliaryImages {
        var carried: [(name: String, images: AuxiliaryImages)] = []
        if output.keepsAuxiliaryImages || !output.attached.isEmpty {
            for photo in photos {
                // A PNG (it has none) or a JPEG whose header names no auxiliary image is not read
                // whole to look for one.
                if let metadata = fileMetadata[photo.name],
                   metadata.format == .png || (metadata.format == .jpeg && !JPEGAuxiliaryImages.mayExist(in: metadata)) { continue }
                let opened: DepthPhoto
                do {
                    opened = try depthPhoto(photo.path)
                } catch {
                    warnings.append("\(output.path): depth data of \"\(photo.name)\" not read: \(error)")
                    continue
                }
                let (images, notes) = opened.auxiliaryImages(following: image, from: photo.image, fromOriginal: photo.fromOriginal)
                warnings += notes.map { "\(output.path): \($0)" }
                if !images.isEmpty { carried.append((photo.name, images)) }
            }
        }
        if carried.count > 1 {
            if let preferred = carried.first(where: { $0.name == output.metadataFrom }) {
                carried = [preferred]
            } else {
                warnings.append("\(output.path): the output edits several depth photos (\(carried.map(\.name).joined(separator: ", "))); no depth data is carried (name one with metadataFrom)")
                carried = []
            }
        }
        let base = carried.first?.images ?? AuxiliaryImages()
        var result = output.keepsAuxiliaryImages ? base : AuxiliaryImages()
        for (kind, name) in output.attached {
            guard let map = built[name] else { throw RecipeError("\(output.path).attach", "unknown image \"\(name)\"") }
            switch kind {
            case .disparity, .depth:
                let template = base.depthData
                result.depthData = DepthData(map: map, kind: kind == .depth ? .depth : .disparity, accuracy: template?.accuracy,
                                             isFiltered: template?.isFiltered, quality: template?.quality)
                result.format = base.depthData == nil ? nil : base.writtenFormat
            case .portraitEffectsMatte:
                result.portraitEffectsMatte = PortraitEffectsMatte(map: map, version: base.portraitEffectsMatte?.version)
            case .skinMatte, .hairMatte, .teethMatte, .glassesMatte, .skyMatte, .gainMap, .confidence, .original:
                // Refused by the decoder (RecipeDecoder.attachable): not written with a photo yet.
                throw RecipeError("\(output.path).attach", "a \(RecipeDecoder.auxiliaryName(kind)) cannot be attached to an output")
            }
        }
        if !output.format.saving.carriesAuxiliaryImages {
            if !result.isEmpty {
                warnings.append("\(output.path): a \(output.format.name) output cannot carry depth data or a matte "
                                + "(\(ImageFormatRegistry.auxiliaryImageCarriers) only); written without them")
            }
            return AuxiliaryImages()
        }
        return result
    }

    private mutating func buildFilter(_ name: String, inputs: [(String, JSON)], path: String, key kindKey: String) throws -> Image {
        let descriptor: FilterDescriptor
        do {
            descriptor = try registry.descriptor(named: name)
        } catch {
            throw RecipeError("\(path).\(kindKey)", registry.unknownFilterMessage(name))
        }
        var parameters: [String: FilterValue] = [:]
        for (key, json) in inputs {
            let inputPath = "\(path).inputs.\(key)"
            guard let input = descriptor.input(key) else {
                let keys = descriptor.inputs.map(\.key)
                throw RecipeError(inputPath, "\(name) has no input \"\(key)\"\(suggestion(key, keys)); its inputs are \(keys.joined(separator: ", "))")
            }
            parameters[key] = try value(json, for: input, path: inputPath)
        }
        // A camera calibration not given is that of the depth photo the input image is read from.
        for input in descriptor.inputs where input.type == .cameraCalibration && parameters[input.key] == nil {
            let inputPath = "\(path).inputs.\(input.key)"
            guard case .image(let image)? = parameters["inputImage"],
                  let file = photos.first(where: { $0.image == image })?.path ?? auxiliaries.first(where: { $0.image == image })?.path else {
                throw RecipeError(inputPath, "missing: inputImage is not read straight from a photo, so name the depth photo whose "
                                  + "calibration to use: {\"image\": NAME} of a \"file\" image")
            }
            parameters[input.key] = .cameraCalibration(try calibration(of: file, path: inputPath))
        }
        if descriptor.input("inputFocusRect") != nil, parameters["inputFocusRect"] == nil,
           let region = subjectRegion(of: parameters["inputImage"]) ?? subjectRegion(of: parameters["inputDisparityImage"]) {
            parameters["inputFocusRect"] = .rect(region)
        }
        // A rectangle in pixels: the hint divides by the photo's size (the filter knows only its inputs').
        // (Recipes give rectangles as 4-vectors, which the registry converts.)
        if case .vector(let v)? = parameters["inputFocusRect"], v.count == 4,
           let size = photoSize(of: parameters["inputImage"]) ?? photoSize(of: parameters["inputDisparityImage"]),
           let problem = FocusRect.problem(Rect(x: v[0], y: v[1], width: v[2], height: v[3]), size: size) {
            throw RecipeError("\(path).inputs.inputFocusRect", problem)
        }
        do {
            return try registry.apply(name, parameters: parameters)
        } catch let error as GraphError {
            switch error {
            case .invalidParameter(_, let key, let reason): throw RecipeError("\(path).inputs.\(key)", reason)
            case .missingInput(_, let key): throw RecipeError("\(path).inputs.\(key)", "missing: \(name) needs an input image here")
            case .unknownParameter(_, let key, _): throw RecipeError("\(path).inputs.\(key)", "\(name) has no input \"\(key)\"")
            default: throw RecipeError(path, error.description)
            }
        }
    }

    /// Converts JSON to the filter value an input expects, with a clear message when it can't.
    private mutating func value(_ json: JSON, for input: FilterInput, path: String) throws -> FilterValue {
        func numbers(_ expected: String, count: Int?) throws -> [Double] {
            guard case .array(let items) = json else { throw RecipeError(path, "expected \(expected), got \(json.compact)") }
            if let count, items.count != count {
                throw RecipeError(path, "expected \(expected), got \(items.count) number\(items.count == 1 ? "" : "s")")
            }
            return try RecipeValues.numbers(items, path)
        }
        switch input.type {
        case .image:
            let name = try RecipeValues.imageReference(json, path)
            return .image(try image(named: name, from: path))
        case .number:
            guard case .number(let n) = json else { throw RecipeError(path, "expected a number, got \(json.compact)") }
            return .number(n)
        case .bool:
            guard case .bool(let b) = json else { throw RecipeError(path, "expected true or false, got \(json.compact)") }
            return .bool(b)
        case .vector:
            let count = input.count
            return .vector(try numbers(count.map { "a vector of \($0) numbers" } ?? "a vector of numbers", count: count))
        case .color:
            return try RecipeValues.color(json, path)
        case .data:
            return try RecipeValues.data(json, path)
        case .string:
            guard case .string(let text) = json else { throw RecipeError(path, "expected a string, got \(json.compact)") }
            return .string(text)
        case .vectors:
            let expected = input.count.map { "a vector of \($0) numbers" } ?? "a vector of numbers"
            guard case .array(let list) = json else { throw RecipeError(path, "expected a list of vectors [[…], …], got \(json.compact)") }
            return .vectors(try list.enumerated().map { index, element in
                guard case .array(let items) = element, input.count.map({ items.count == $0 }) ?? true else {
                    throw RecipeError("\(path)[\(index)]", "expected \(expected), got \(element.compact)")
                }
                return try RecipeValues.numbers(items, "\(path)[\(index)]")
            })
        case .barcodeDescriptor:
            return .barcodeDescriptor(try BarcodeDescriptor(json, path))
        case .attributedText:
            return .attributedText(try AttributedText(json, path))
        case .colorSpace:
            guard case .string(let name) = json, let space = NamedColorSpaces.space(named: name) else {
                throw RecipeError(path, "expected a colour space, " + NamedColorSpaces.all.map { "\"\($0.name)\"" }.joined(separator: ", ")
                                  + ", got \(json.compact)")
            }
            return .colorSpace(space)
        case .cameraCalibration:
            let name = try RecipeValues.imageReference(json, path)
            guard case .file(let file, _, _)? = recipe.images[name]?.source else {
                throw RecipeError(path, recipe.images[name] == nil ? "unknown image \"\(name)\"\(suggestion(name, recipe.images.keys))"
                                  : "\"\(name)\" is not a \"file\" image; name the depth photo whose calibration to use")
            }
            return .cameraCalibration(try calibration(of: file, path: path))
        case .transform:
            let v = try numbers("a transform of 6 numbers [a, b, c, d, tx, ty]", count: 6)
            return .transform(AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
        case .rect:
            let v = try numbers("a rectangle of 4 numbers [x, y, width, height]", count: 4)
            return .vector(v)
        }
    }
}

/// Filter values that only the catalogue's types need.
extension RecipeValues {
    /// A colour: `[r, g, b, a]` or `[r, g, b]` in sRGB, or `{"color": [...], "colorSpace": "linearSRGB"}`.
    package static func color(_ json: JSON, _ path: String) throws -> FilterValue {
        var components = json, space = ColorSpace.sRGB
        if case .object(let members) = json {
            for (key, _) in members where key != "color" && key != "colorSpace" {
                throw RecipeError("\(path).\(key)", "unknown key; a colour object has \"color\" and \"colorSpace\"")
            }
            guard let given = json["color"] else { throw RecipeError(path, "a colour object needs \"color\": [r, g, b, a]") }
            components = given
            if let spaceJSON = json["colorSpace"] {
                guard case .string(let name) = spaceJSON, let named = NamedColorSpaces.space(named: name) else {
                    throw RecipeError("\(path).colorSpace", "expected " + NamedColorSpaces.all.map { "\"\($0.name)\"" }.joined(separator: ", ")
                                      + ", got \(spaceJSON.compact)")
                }
                space = named
            }
        }
        guard case .array(let items) = components, items.count == 3 || items.count == 4 else {
            throw RecipeError(path, "expected a colour [r, g, b, a] or [r, g, b] (sRGB), or {\"color\": [...], \"colorSpace\": \"linearSRGB\"}, got \(json.compact)")
        }
        let v = try numbers(items, path)
        return .color(v.count == 3 ? v + [1] : v, colorSpace: space)
    }

    /// Data: an array of numbers (Float32 values) or `{"file": "look.cube"}` (a 3D LUT, as RGBA floats).
    package static func data(_ json: JSON, _ path: String) throws -> FilterValue {
        switch json {
        case .array(let items):
            return .floats(try numbers(items, path).map { Float($0) })
        case .object(let members) where members.count == 1:
            guard case .string(let file)? = json["file"] else { break }
            guard file.lowercased().hasSuffix(".cube") else {
                throw RecipeError("\(path).file", "expected a .cube file (Adobe/Resolve 3D LUT), got \"\(file)\"")
            }
            do {
                return .floats(try CubeLUT(contentsOfFile: file).rgbaFloats)
            } catch {
                throw RecipeError("\(path).file", "\(error)")
            }
        default:
            break
        }
        throw RecipeError(path, "expected data: an array of numbers or {\"file\": \"look.cube\"}, got \(json.compact)")
    }
}
