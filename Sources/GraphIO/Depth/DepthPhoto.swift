import GraphCodecs

/// Which auxiliary image to load (Core Image's `kCIImageAuxiliaryDisparity`,
/// `kCIImageAuxiliaryDepth`, `kCIImageAuxiliaryPortraitEffectsMatte`,
/// `kCIImageAuxiliarySemanticSegmentation…Matte` and `kCIImageAuxiliaryHDRGainMap`).
public enum AuxiliaryImage: String, Sendable, CaseIterable {
    /// The depth map as disparity (converted when the file stores depth).
    case disparity
    /// The depth map as depth (converted when the file stores disparity).
    case depth
    /// The portrait effects matte.
    case portraitEffectsMatte
    /// Apple's semantic segmentation matte of skin (0...1).
    case skinMatte
    /// Apple's semantic segmentation matte of hair (0...1).
    case hairMatte
    /// Apple's semantic segmentation matte of teeth (0...1).
    case teethMatte
    /// Apple's semantic segmentation matte of glasses (0...1).
    case glassesMatte
    /// Apple's semantic segmentation matte of the sky (0...1).
    case skyMatte
    /// The HDR gain map (Apple's, or an Ultra HDR one), stored values scaled to 0...1.
    case gainMap
    /// The depth map's confidence (Dynamic Depth), 0 (none) to 1 (full).
    case confidence
    /// The photo before its blur was rendered (GDepth's `GImage:Data`, Dynamic Depth's `Original`
    /// item): a colour image, not data (``DepthPhoto/originalImage(colorSpace:)``).
    case original
}

/// How an auxiliary map is oriented when loaded.
public enum AuxiliaryOrientation: Sendable, Hashable {
    /// Upright with the photo as displayed (the photo's EXIF orientation, or the HEIF item's own
    /// `irot`/`imir`, applied): the map lines up with `Image(contentsOf:)`.
    case upright
    /// As stored in the file (line it up with a photo opened with `applyOrientation: false`).
    case stored
}

/// A problem with a file's auxiliary images: one is missing, or cannot be used. Names the file.
public struct AuxiliaryImageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file the error is about.
    public var path: String
    /// What is wrong with its auxiliary images.
    public var message: String

    /// An error about `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`.
    public var description: String { "\(path): \(message)" }
}

/// A photo file opened for its depth data and portrait matte (iPhone JPEG and HEIC, Google
/// GDepth). Opening reads the headers only; each map decodes when asked for, and the main image
/// is never decoded.
///
/// ```swift
/// let photo = try DepthPhoto(contentsOf: "IMG_0001.HEIC")
/// for aux in photo.auxiliaryImages { print(aux.summary) }
/// let disparity = try photo.depthData()                    // DepthData, upright
/// let matte = try photo.portraitEffectsMatte().map         // throws when there is none
/// ```
public struct DepthPhoto: Sendable {
    /// The file it was read from.
    public let path: String
    /// The main image's header, with every auxiliary image described.
    public let info: ImageInfo
    let bytes: [UInt8]

    /// Reads the file and its headers.
    public init(contentsOf path: String) throws {
        let bytes = try ImageFile.read(path: path)
        do {
            info = try ImageFile.info(bytes)
        } catch {
            throw error.at(path: path)
        }
        self.path = path
        self.bytes = bytes
    }

    /// Every auxiliary image the file declares (depth, disparity, matte, gain map...), from its headers.
    public var auxiliaryImages: [AuxiliaryImageInfo] { info.auxiliaryImages }

    /// The depth or disparity map's description, when the file has one.
    public var depthMapInfo: AuxiliaryImageInfo? { auxiliaryImages.first { $0.kind == .disparity || $0.kind == .depth } }

    /// The portrait matte's description, when the file has one.
    public var portraitEffectsMatteInfo: AuxiliaryImageInfo? { auxiliaryImages.first { $0.kind == .portraitEffectsMatte } }

    /// The depth data with real values (see ``DepthData``), as stored or converted to `kind`. A map
    /// turned upright (the file's orientation is not 1) comes with its calibration turned the same
    /// way (`CameraCalibration.oriented(_:)`).
    public func depthData(as kind: DepthData.Kind? = nil, orientation: AuxiliaryOrientation = .upright) throws -> DepthData {
        try depthData(as: kind, orientation: orientation, reducedBy: 1)
    }

    /// The depth data decoded `shrink` (1, 2, 4 or 8) times smaller by libjpeg's DCT scaling when
    /// the map is a JPEG (full size otherwise): for a summary that does not need every pixel of a
    /// large map (a Pixel's 2024×2688), such as `graph info`'s focus disparity. Each value is then
    /// the map's average over a block of stored samples, converted.
    public func depthData(as kind: DepthData.Kind? = nil, orientation: AuxiliaryOrientation = .upright, reducedBy shrink: Int) throws -> DepthData {
        guard let aux = depthMapInfo else { throw missing("depth or disparity map") }
        try checkUsable(aux)
        let storedKind: DepthData.Kind = aux.kind == .depth ? .depth : .disparity
        let samples = try decodeSamples(aux, orientation: orientation, shrink: shrink)
        let encoding = try storedEncoding(aux)
        let map = try samples.image(DepthValues.table(maximum: samples.maximum, encoding: encoding))
        let keepsStoredGeometry = (orientation == .stored || samples.orientationApplied == false) && shrink == 1
        let stored = keepsStoredGeometry ? encodedMap(of: aux).map { StoredAuxiliary(encoded: $0, map: map, kind: storedKind) } : nil
        let apple = aux.apple
        let data = DepthData(
            map: map, kind: storedKind, storedEncoding: encoding, storedKind: storedKind,
            accuracy: apple?.accuracy.flatMap { DepthData.Accuracy(rawValue: $0.lowercased()) }, isFiltered: apple?.filtered,
            quality: apple?.quality, version: apple?.depthDataVersion,
            calibration: apple?.calibration.map { samples.orientationApplied ? $0.oriented(aux.orientation) : $0 },
            sourceFormat: aux.location.container, orientation: orientation == .upright ? 1 : aux.orientation, stored: stored,
            storedBitDepth: samples.maximum > 255 ? 16 : 8)
        return data.converting(to: kind ?? storedKind)
    }

    /// The portrait effects matte, 0 (background) to 1 (person).
    public func portraitEffectsMatte(orientation: AuxiliaryOrientation = .upright) throws -> PortraitEffectsMatte {
        try portraitEffectsMatte(orientation: orientation, shrink: 1)
    }

    /// The matte decoded `shrink` (1, 2, 4 or 8) times smaller by libjpeg's DCT scaling when the file
    /// stores it as a JPEG (full size otherwise): for an edit that shrinks the photo as much.
    func portraitEffectsMatte(orientation: AuxiliaryOrientation, shrink: Int) throws -> PortraitEffectsMatte {
        guard let aux = portraitEffectsMatteInfo else { throw missing("portrait effects matte") }
        try checkUsable(aux)
        let samples = try decodeSamples(aux, orientation: orientation, shrink: shrink)
        let map = try samples.image((0...Int(samples.maximum)).map { Float(Double($0) / samples.maximum) })
        let keepsStoredGeometry = (orientation == .stored || samples.orientationApplied == false) && shrink == 1
        let stored = keepsStoredGeometry ? encodedMap(of: aux).map { StoredAuxiliary(encoded: $0, map: map, kind: nil) } : nil
        return PortraitEffectsMatte(map: map, version: aux.apple?.portraitEffectsMatteVersion, sourceFormat: aux.location.container,
                                    orientation: orientation == .upright ? 1 : aux.orientation, stored: stored)
    }

    /// The map of one auxiliary image as a data image.
    public func image(_ auxiliary: AuxiliaryImage, orientation: AuxiliaryOrientation = .upright) throws -> Image {
        switch auxiliary {
        case .disparity: return try depthData(as: .disparity, orientation: orientation).map
        case .depth: return try depthData(as: .depth, orientation: orientation).map
        case .portraitEffectsMatte: return try portraitEffectsMatte(orientation: orientation).map
        case .skinMatte, .hairMatte, .teethMatte, .glassesMatte, .skyMatte, .gainMap, .confidence:
            return try normalizedMap(auxiliary, orientation: orientation)
        case .original:
            guard let original = try originalImage() else { throw missing(auxiliary.readableName) }
            return original
        }
    }

    /// The original photo before the blur was rendered, when the file has one (nil otherwise):
    /// GDepth's `GImage:Data` (a Lens Blur photo's main image is Google's blurred rendering) or
    /// Dynamic Depth's `Original` item (a Pixel portrait's unblurred capture). A colour image,
    /// decoded when rendered, like any JPEG. `colorSpace` overrides its ICC profile as in
    /// `Image.decoding(path:options:colorSpace:)`.
    public func originalImage(colorSpace: ColorSpace?? = nil) throws -> Image? {
        if let gDepth = depthMapInfo?.gDepth, let original = gDepth.originalImage {
            return try Image.decoding(bytes: original, path: "\(path) [GImage:Data]", colorSpace: colorSpace).image
        }
        guard let item = auxiliaryImages.first(where: { $0.kind == .original }), case .containerItem(_, let range) = item.location,
              range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return nil }
        return try Image.decoding(bytes: Array(bytes[range]), path: "\(path) [Dynamic Depth Original]", colorSpace: colorSpace).image
    }

    // MARK: Decoding

    func missing(_ what: String) -> AuxiliaryImageError {
        let available = auxiliaryImages.map { "\($0.kind.rawValue) (\($0.partName))" }
        let has = available.isEmpty ? "it has no auxiliary images" : "its auxiliary images: " + available.joined(separator: ", ")
        return AuxiliaryImageError(path: path, message: "\(info.format.name) file has no \(what); \(has)")
    }

    func checkUsable(_ aux: AuxiliaryImageInfo) throws {
        if let problem = aux.problems.first {
            throw AuxiliaryImageError(path: path, message: "\(aux.partName) cannot be used: \(problem)")
        }
    }

    /// The map as its container keeps it, to be written back unchanged while the map is: the
    /// auxiliary JPEG (Apple), the XMP's depth image (GDepth), the container item (Dynamic Depth);
    /// nil for a HEIF item (that container is not written). Called once the map has decoded, so a
    /// container item's range lies in the file.
    func encodedMap(of aux: AuxiliaryImageInfo) -> StoredAuxiliary.Encoded? {
        switch aux.location {
        case .jpeg(let stream): return .appleJPEG(Array(bytes[stream.range]))
        case .gDepth: return aux.gDepth.map { .gDepth($0) }
        case .containerItem(_, let range): return .containerItem(Array(bytes[range]))
        case .heifItem: return nil
        }
    }

    /// How the stored samples encode the map's values.
    func storedEncoding(_ aux: AuxiliaryImageInfo) throws -> DepthData.StoredEncoding {
        if let apple = aux.apple, apple.valueEncodingProblem == nil, let low = apple.floatMinValue, let high = apple.floatMaxValue {
            return .apple(floatMin: low, floatMax: high, intMin: apple.intMinValue ?? 0, intMax: apple.intMaxValue ?? 255,
                          nativeFormat: apple.nativeFormat, storedFormat: apple.storedFormat)
        }
        if let gDepth = aux.gDepth { return .gDepth(format: gDepth.format, near: gDepth.near, far: gDepth.far, units: gDepth.units) }
        if let depth = aux.dynamicDepth {
            // Dynamic Depth stores like GDepth; diopters become metres (see DynamicDepthMetadata).
            let equivalent = depth.gDepthEquivalent
            return .gDepth(format: equivalent.format, near: equivalent.near, far: equivalent.far, units: equivalent.units)
        }
        if let info = aux.depthRepresentation, DepthValues.range(of: info) != nil { return .depthRepresentation(info) }
        throw AuxiliaryImageError(path: path, message: "\(aux.partName) has no value range (no apdi:FloatMinValue/FloatMaxValue)")
    }

    /// One channel of the stored samples, oriented as asked.
    func decodeSamples(_ aux: AuxiliaryImageInfo, orientation: AuxiliaryOrientation, shrink: Int = 1) throws -> StoredSamples {
        let decoded: DecodedImage
        var needsOrientation = orientation == .upright && aux.orientation != 1
        do {
            switch aux.location {
            case .jpeg(let stream):
                decoded = try JPEGCodec.decode(Array(bytes[stream.range]),
                                               options: DecodeOptions(jpegScaleDenominator: shrink, applyOrientation: false))
            case .heifItem(let id):
                // libheif applies the item's own transformations while decoding.
                decoded = try HEIFCodec.decodeAuxiliary(bytes, itemID: id, applyTransformations: orientation == .upright)
                needsOrientation = false
            case .gDepth:
                guard let data = aux.gDepth?.data else { throw missing("GDepth depth data") }
                decoded = try ImageFile.decode(data, options: DecodeOptions(applyOrientation: false))
            case .containerItem(_, let range):
                guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else {
                    throw AuxiliaryImageError(path: path, message: "\(aux.partName) has no bytes in the file")
                }
                decoded = try ImageFile.decode(Array(bytes[range]), options: DecodeOptions(jpegScaleDenominator: shrink, applyOrientation: false))
            }
        } catch let error as CodecError {
            var located = error.at(path: path)
            located.segment = aux.partName + (error.segment.map { ": \($0)" } ?? "")
            throw located
        }
        // A map libjpeg or libpng had to patch up would hold wrong values: refused.
        if let warning = decoded.warnings.first {
            throw AuxiliaryImageError(path: path, message: "\(aux.partName) is damaged: \(warning)")
        }
        var samples = StoredSamples(decoded)
        if needsOrientation { samples.orient(aux.orientation) }
        samples.orientationApplied = orientation == .upright && aux.orientation != 1
        return samples
    }
}

/// The first channel of a decoded auxiliary image as integers, with its orientation.
struct StoredSamples {
    var values: [UInt16]
    var width: Int
    var height: Int
    /// The largest stored value (255 or 65535).
    let maximum: Double
    /// Whether an orientation other than 1 was applied (the map no longer has the stored geometry).
    var orientationApplied = false

    init(_ decoded: DecodedImage) {
        width = decoded.width
        height = decoded.height
        maximum = decoded.bitDepth == 16 ? 65535 : 255
        let channels = decoded.channels, count = decoded.width * decoded.height
        var values = [UInt16](repeating: 0, count: count)
        decoded.bytes.withUnsafeBytes { raw in
            if decoded.bitDepth == 16 {
                let samples = raw.bindMemory(to: UInt16.self)
                for i in 0..<min(count, samples.count / channels) { values[i] = samples[i * channels] }
            } else {
                for i in 0..<min(count, raw.count / channels) { values[i] = UInt16(raw[i * channels]) }
            }
        }
        self.values = values
    }

    mutating func orient(_ orientation: Int) {
        let bytes = values.withUnsafeBytes { Array($0) }
        let oriented = Orientation.apply(orientation, bytes: bytes, width: width, height: height, pixelBytes: 2)
        values = oriented.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        (width, height) = (oriented.width, oriented.height)
    }

    /// A data image of `table[sample]` per pixel (Float32 grey, no colour space); `table` covers 0...maximum.
    func image(_ table: [Float]) throws -> Image {
        let buffer = try ImageBuffer(width: width, height: height, format: .grayf, colorSpace: nil) { storage, rowBytes in
            let last = table.count - 1
            values.withUnsafeBufferPointer { samples in
                table.withUnsafeBufferPointer { table in
                    for y in 0..<height {
                        let row = (storage + y * rowBytes).assumingMemoryBound(to: Float.self), first = y * width
                        for x in 0..<width { row[x] = table[min(Int(samples[first + x]), last)] }
                    }
                }
            }
        }
        return Image(buffer: buffer)
    }
}

extension DepthPhoto: CustomStringConvertible {
    /// The file's path, then the lines `graph info` prints for its header and auxiliary images.
    public var description: String { ([path] + info.summaryLines).joined(separator: "\n") }
}
