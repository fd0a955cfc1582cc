import GraphCodecs

/// An iPhone auxiliary image an edit carries besides the depth map and the portrait matte: a
/// semantic segmentation matte (skin, hair, teeth, glasses, sky) or the HDR gain map, with the
/// type and version the file gave it, written back as Apple writes it in a JPEG (an MPF image with
/// `apdi:AuxiliaryImageType` set to its URN and its own version key). Values are the stored
/// samples scaled to 0...1 (the gain map's headroom lives in the photo's EXIF, which is carried).
public struct CarriedAuxiliaryMap: Sendable, Hashable {
    /// Which image it is (``AuxiliaryImage/skinMatte`` … ``AuxiliaryImage/gainMap``).
    public var kind: AuxiliaryImage
    /// The map, 0...1, as a data image.
    public var map: Image
    /// Apple's type URN (`urn:com:apple:photo:2019:aux:semanticskinmatte`), written as is.
    public var type: String
    /// `semanticSegmentationMatte:SemanticSegmentationMatteVersion` or `HDRGainMap:HDRGainMapVersion`.
    public var version: Int?
    let stored: StoredAuxiliary?

    /// A map made in code, to write with a photo: `kind` a semantic matte or the gain map.
    public init(kind: AuxiliaryImage, map: Image, type: String, version: Int? = nil) {
        self.init(kind: kind, map: map, type: type, version: version, stored: nil)
    }

    init(kind: AuxiliaryImage, map: Image, type: String, version: Int?, stored: StoredAuxiliary?) {
        self.kind = kind
        self.map = map
        self.type = type
        self.version = version
        self.stored = stored
    }

    /// The same map with ``map`` replaced (moved like the edited photo).
    public func replacingMap(_ map: Image) -> CarriedAuxiliaryMap {
        CarriedAuxiliaryMap(kind: kind, map: map, type: type, version: version, stored: nil)
    }

    /// The file's own JPEG stream while the map is unchanged (copied byte for byte).
    var unchangedStoredBytes: [UInt8]? {
        guard let stored, stored.map == map, case .appleJPEG(let bytes) = stored.encoded else { return nil }
        return bytes
    }
}

extension DepthPhoto {
    /// The photo's semantic mattes and HDR gain map, in the file's order, each ready to carry.
    func carriedMaps(orientation: AuxiliaryOrientation) throws -> [CarriedAuxiliaryMap] {
        let kinds: [AuxiliaryImage] = [.skinMatte, .hairMatte, .teethMatte, .glassesMatte, .skyMatte, .gainMap]
        var maps: [(index: Int, map: CarriedAuxiliaryMap)] = []
        for kind in kinds {
            guard let index = kind.index(in: auxiliaryImages), auxiliaryImages[index].isApple else { continue }
            let aux = auxiliaryImages[index]
            try checkUsable(aux)
            let samples = try decodeSamples(aux, orientation: orientation)
            let map = try samples.image((0...Int(samples.maximum)).map { Float(Double($0) / samples.maximum) })
            var stored: StoredAuxiliary?
            if case .jpeg(let stream) = aux.location, orientation == .stored || !samples.orientationApplied {
                stored = StoredAuxiliary(encoded: .appleJPEG(Array(bytes[stream.range])), map: map, kind: nil)
            }
            let version = kind == .gainMap ? aux.apple?.hdrGainMapVersion : aux.apple?.semanticSegmentationMatteVersion
            maps.append((index, CarriedAuxiliaryMap(kind: kind, map: map, type: aux.type, version: version, stored: stored)))
        }
        return maps.sorted { $0.index < $1.index }.map(\.map)
    }
}

extension AuxiliaryImageInfo {
    /// Typed by one of Apple's URNs (`urn:com:apple:photo:…`): an iPhone's own image, which an
    /// edit writes back (an Ultra HDR gain map is not).
    var isApple: Bool { type.lowercased().hasPrefix("urn:com:apple:") }
}

extension Context {
    /// A carried map as an Apple auxiliary JPEG (0...1 to 0...255): the file's own stream while
    /// unchanged, else encoded with an XMP packet naming its type and version.
    func appleJPEG(_ carried: CarriedAuxiliaryMap, quality: Int) throws -> [UInt8] {
        if let bytes = carried.unchangedStoredBytes { return bytes }
        let map = try mapValues(carried.map, what: "the \(carried.kind.rawValue)")
        var apple = AppleAuxiliaryMetadata()
        apple.auxiliaryImageType = carried.type
        apple.nativeFormat = AppleAuxiliaryMetadata.code("L008")
        apple.storedFormat = apple.nativeFormat
        if carried.kind == .gainMap {
            apple.hdrGainMapVersion = carried.version ?? 65536
        } else {
            apple.semanticSegmentationMatteVersion = carried.version ?? 65536
        }
        return try JPEGCodec.encode(width: map.width, height: map.height, channels: 1, bytes: map.quantized { $0 }, quality: quality,
                                    xmp: AppleDepthXMP.packet(apple))
    }
}
