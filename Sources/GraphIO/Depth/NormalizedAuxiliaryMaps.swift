import GraphCodecs

extension AuxiliaryImage {
    /// For a semantic matte, what it segments as the file's type names it ("skin", "hair",
    /// "teeth", "glasses", "sky"); nil for the other images.
    public var semanticMatteSubject: String? {
        switch self {
        case .skinMatte: return "skin"
        case .hairMatte: return "hair"
        case .teethMatte: return "teeth"
        case .glassesMatte: return "glasses"
        case .skyMatte: return "sky"
        case .disparity, .depth, .portraitEffectsMatte, .gainMap, .confidence, .original: return nil
        }
    }

    /// Which of `images` (a file's auxiliary images, from its headers) this loads: the first of
    /// its kind (for disparity and depth, the depth map whichever kind it stores); nil when none.
    public func index(in images: [AuxiliaryImageInfo]) -> Int? {
        switch self {
        case .disparity, .depth: return images.firstIndex { $0.kind == .disparity || $0.kind == .depth }
        case .portraitEffectsMatte: return images.firstIndex { $0.kind == .portraitEffectsMatte }
        case .gainMap: return images.firstIndex { $0.kind == .hdrGainMap }
        case .confidence: return images.firstIndex { $0.kind == .confidence }
        case .original: return images.firstIndex { $0.kind == .original }
        case .skinMatte, .hairMatte, .teethMatte, .glassesMatte, .skyMatte:
            return images.firstIndex { $0.kind == .semanticMatte && $0.semanticMatteSubject == semanticMatteSubject }
        }
    }

    /// How an error names it: "skin matte", "HDR gain map", "depth or disparity map" ...
    var readableName: String {
        if let subject = semanticMatteSubject { return "semantic \(subject) matte" }
        switch self {
        case .disparity, .depth: return "depth or disparity map"
        case .portraitEffectsMatte: return "portrait effects matte"
        case .confidence: return "depth confidence map"
        case .original: return "original (unblurred) image"
        default: return "HDR gain map"
        }
    }
}

/// The auxiliary images read as their stored samples scaled to 0...1, with no value encoding of
/// their own: Apple's semantic segmentation mattes (0 outside, 1 on the skin, hair, teeth,
/// glasses or sky), the HDR gain map and a Dynamic Depth confidence map. They are picked by the type their file gives them (a
/// HEIF `auxC` URN, a JPEG MPF image's `apdi:AuxiliaryImageType`), never by their position: an
/// iPhone JPEG may store the gain map before the disparity.
extension DepthPhoto {
    /// The file's auxiliary image that `auxiliary` loads, when it has one (for disparity and
    /// depth, the depth map whichever kind it stores).
    public func info(for auxiliary: AuxiliaryImage) -> AuxiliaryImageInfo? {
        auxiliary.index(in: auxiliaryImages).map { auxiliaryImages[$0] }
    }

    /// A semantic matte, the gain map or the confidence map as a data image: the first stored channel divided by its
    /// largest value (255 for 8-bit), upright with the photo unless `orientation` is `.stored`.
    /// A gain map's own encoding (Apple's headroom in the photo's EXIF/maker note, Ultra HDR's
    /// `hdrgm:GainMapMin/Max/Gamma`) is not applied: these are the stored values. Only this
    /// image is decoded, never the photo. Throws an ``AuxiliaryImageError`` naming what the
    /// file has when it has no such image; disparity, depth and the portrait matte are loaded
    /// by ``image(_:orientation:)`` with their own values.
    public func normalizedMap(_ auxiliary: AuxiliaryImage, orientation: AuxiliaryOrientation = .upright) throws -> Image {
        guard auxiliary.semanticMatteSubject != nil || auxiliary == .gainMap || auxiliary == .confidence else {
            return try image(auxiliary, orientation: orientation)
        }
        guard let aux = info(for: auxiliary) else { throw missing(auxiliary.readableName) }
        try checkUsable(aux)
        let samples = try decodeSamples(aux, orientation: orientation)
        return try samples.image((0...Int(samples.maximum)).map { Float(Double($0) / samples.maximum) })
    }
}
