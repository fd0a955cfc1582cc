import GraphCodecs
import GraphEngine

/// An image file's header facts as JSON (`graph info --format json`, the C library's photo
/// metadata): format, size, profile, EXIF summary, segments, MPF images and auxiliary images.
package enum ImageInfoJSON {
    /// The recipe names (`"auxiliary": NAME`) that load each auxiliary image, by its index; an
    /// image no name loads (a second matte of one kind, an unknown type) has none.
    package static func recipeNames(_ images: [AuxiliaryImageInfo]) -> [Int: [String]] {
        var names: [Int: [String]] = [:]
        for kind in AuxiliaryImage.allCases {
            if let index = kind.index(in: images) { names[index, default: []].append(RecipeDecoder.auxiliaryName(kind)) }
        }
        return names
    }

    /// The file's facts as one JSON object (the shape `graph info --format json` prints, without `subject`).
    package static func json(_ info: ImageInfo) -> JSON {
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
        members.append(("exif", metadata.exifSummary.map(json) ?? .null))
        if let gamma = metadata.pngGamma { members.append(("gamma", .number(gamma))) }
        if let xmp = metadata.xmp { members.append(("xmpBytes", number(xmp.utf8.count))) }
        members.append(("segments", .array(metadata.segments.map {
            .object([("name", .string($0.name)), ("offset", number($0.offset)), ("length", number($0.length))])
        })))
        members.append(("mpfImages", .array(metadata.mpfEntries.map {
            .object([("index", number($0.index + 1)), ("type", .string($0.typeName)),
                     ("offset", number($0.absoluteOffset)), ("length", number($0.length))])
        })))
        let names = recipeNames(info.auxiliaryImages)
        members.append(("auxiliaryImages", .array(info.auxiliaryImages.enumerated().map { index, image in
            guard case .object(var fields) = json(image) else { return json(image) }
            fields.insert(("recipeNames", .array((names[index] ?? []).map { .string($0) })), at: 2)
            return .object(fields)
        })))
        members.append(("warnings", .array(info.warnings.map { .string($0) })))
        return .object(members)
    }

    /// The EXIF fields (null when absent): camera, lens, exposure, orientation, dates, GPS present.
    package static func json(_ exif: EXIFSummary) -> JSON {
        func optional<T>(_ value: T?, _ make: (T) -> JSON) -> JSON { value.map(make) ?? .null }
        return .object([
            ("make", optional(exif.make) { .string($0) }), ("model", optional(exif.model) { .string($0) }),
            ("lensModel", optional(exif.lensModel) { .string($0) }), ("software", optional(exif.software) { .string($0) }),
            ("exposureTime", optional(exif.exposureTime) { .number($0) }), ("fNumber", optional(exif.fNumber) { .number($0) }),
            ("iso", optional(exif.iso) { .number(Double($0)) }), ("focalLength", optional(exif.focalLength) { .number($0) }),
            ("focalLengthIn35mm", optional(exif.focalLengthIn35mm) { .number(Double($0)) }),
            ("orientation", optional(exif.orientation) { .number(Double($0)) }),
            ("dateTimeOriginal", optional(exif.dateTimeOriginal) { .string($0) }),
            ("dateTime", optional(exif.dateTime) { .string($0) }), ("gps", .bool(exif.hasGPS)),
        ])
    }

    /// One auxiliary image: what it is, where, its stored size and format, value range and the
    /// depth metadata stored with it (null when absent).
    package static func json(_ image: AuxiliaryImageInfo) -> JSON {
        func number(_ n: Int) -> JSON { .number(Double(n)) }
        func optional<T>(_ value: T?, _ make: (T) -> JSON) -> JSON { value.map(make) ?? .null }
        let location: JSON
        switch image.location {
        case .jpeg(let stream):
            location = .object([("mpfImage", optional(stream.mpfImage, number)), ("offset", number(stream.range.lowerBound)),
                                ("length", number(stream.range.count)), ("foundByScan", .bool(stream.foundByScan))])
        case .heifItem(let id): location = .object([("heifItem", number(Int(id)))])
        case .gDepth: location = .object([("gDepth", .string("extended XMP"))])
        case .containerItem(let semantic, let range):
            location = .object([("containerItem", .string(semantic)), ("offset", number(range.lowerBound)), ("length", number(range.count))])
        }
        var members: [(String, JSON)] = [
            ("kind", .string(image.kind.rawValue)), ("type", .string(image.type)), ("location", location),
            ("width", number(image.width)), ("height", number(image.height)), ("channels", number(image.channels)),
            ("bitDepth", number(image.bitDepth)), ("pixelFormat", .string(image.pixelFormat)), ("codec", .string(image.codec)),
            ("orientation", number(image.orientation)),
            ("valueRange", optional(image.valueRange) {
                .object([("min", .number($0.min)), ("max", .number($0.max)), ("source", .string($0.source))])
            }),
            ("accuracy", optional(image.accuracy) { .string($0) }), ("filtered", optional(image.filtered) { .bool($0) }),
            ("quality", optional(image.apple?.quality) { .string($0) }), ("calibration", .bool(image.hasCalibration)),
        ]
        if let info = image.depthRepresentation {
            members.append(("depthRepresentation", .object([
                ("type", .string(info.typeName)), ("dMin", optional(info.dMin) { .number($0) }),
                ("dMax", optional(info.dMax) { .number($0) }), ("zNear", optional(info.zNear) { .number($0) }),
                ("zFar", optional(info.zFar) { .number($0) }),
            ])))
        }
        if let gDepth = image.gDepth {
            members.append(("gDepth", .object([
                ("format", .string(gDepth.format.rawValue)), ("near", .number(gDepth.near)), ("far", .number(gDepth.far)),
                ("mime", .string(gDepth.mime)), ("originalImage", .bool(gDepth.originalImage != nil)),
            ])))
        }
        if let depth = image.dynamicDepth {
            let range = depth.distanceRange
            members.append(("dynamicDepth", .object([
                ("format", .string(depth.format.rawValue)), ("near", .number(depth.near)), ("far", .number(depth.far)),
                ("units", optional(depth.units) { .string($0) }), ("nearMetres", .number(range.near)), ("farMetres", .number(range.far)),
                ("measureType", optional(depth.measureType) { .string($0) }),
                ("focalTableEntries", optional(depth.focalTableEntryCount) { number($0) }),
                ("imagingModel", optional(depth.imagingModel) { model in
                    .object([("focalLengthX", .number(model.focalLengthX)), ("focalLengthY", .number(model.focalLengthY)),
                             ("principalPointX", .number(model.principalPointX)), ("principalPointY", .number(model.principalPointY)),
                             ("imageWidth", optional(model.imageWidth, number)), ("imageHeight", optional(model.imageHeight, number))])
                }),
            ])))
        }
        members.append(("problems", .array(image.problems.map { .string($0) })))
        return .object(members)
    }
}
