import GraphCodecs

/// A depth or disparity map with what its file says about it: the library's AVDepthData.
///
/// ``map`` is a data ``/GraphCore/Image`` (no colour space, never colour-converted) holding the real values
/// in red, green and blue (alpha 1): disparity in 1/metre for iPhone maps (relative unless
/// ``accuracy`` is absolute), depth in the file's units for GDepth maps. It has the map's own
/// resolution (an iPhone map is about 1/5 of the photo) and, by default, the photo's displayed
/// orientation, so scaling it to the photo's extent lines the two up.
///
/// ```swift
/// let depth = try DepthData(contentsOf: "portrait.jpg")            // disparity, upright
/// print(depth.kind, depth.storedRange!)                            // disparity 0.787109...1.735352
/// let metres = depth.converting(to: .depth)                        // 1 / disparity, lazily
/// let photo = try Image(contentsOf: "portrait.jpg")
/// let scale = AffineTransform(scaleX: photo.extent.width / depth.map.extent.width,
///                             y: photo.extent.height / depth.map.extent.height)
/// let aligned = depth.map.transformed(by: scale)                   // lies over the photo
/// ```
public struct DepthData: Sendable, Hashable {
    /// What the values are.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Disparity: 1 / depth (bright = near in iPhone files).
        case disparity
        /// Depth: distance along the optical axis (dark = near in GDepth files).
        case depth
    }

    /// Whether the values are metric.
    public enum Accuracy: String, Sendable, Hashable {
        /// Only relatively meaningful (every iPhone file seen).
        case relative
        /// Metric.
        case absolute
    }

    /// How the file stores the values.
    public enum StoredEncoding: Sendable, Hashable {
        /// Apple: `value = floatMin + (v − intMin)·(floatMax − floatMin)/(intMax − intMin)` for stored
        /// integers v; `nativeFormat` is the CVPixelFormat Apple had (`hdis`...), `storedFormat` what
        /// the file holds (`L008`).
        case apple(floatMin: Double, floatMax: Double, intMin: Int, intMax: Int, nativeFormat: UInt32?, storedFormat: UInt32?)
        /// HEIC depth item without Apple XMP: its HEVC depth representation SEI.
        case depthRepresentation(HEVCDepthRepresentation)
        /// Google GDepth: stored dn = v / vmax encodes depth between `near` and `far` (see
        /// `GDepthMetadata.Format` in GraphCodecs). Dynamic Depth maps are read this way too,
        /// their Near/Far in diopters turned to metres (`DynamicDepthMetadata.gDepthEquivalent`).
        case gDepth(format: GDepthMetadata.Format, near: Double, far: Double, units: String?)

        /// The range of values the stored integers span, in the stored kind's unit.
        public var range: ClosedRange<Double> {
            switch self {
            case .apple(let low, let high, _, _, _, _): return min(low, high)...max(low, high)
            case .depthRepresentation(let info):
                let (low, high) = DepthValues.range(of: info) ?? (.nan, .nan)
                return min(low, high)...max(low, high)
            case .gDepth(_, let near, let far, _): return min(near, far)...max(near, far)
            }
        }
    }

    /// The values, as a data image (see the type's description).
    public var map: Image
    /// Depth (metres) or disparity (1/metres): what ``map`` holds.
    public var kind: Kind
    /// How the file stored the values, and which kind it stored; nil for maps made in code.
    public var storedEncoding: StoredEncoding?
    /// The kind the file stored (``kind`` may differ after a conversion); nil for maps made in code.
    public var storedKind: Kind?
    /// Absolute (metric) or relative values, when the file says.
    public var accuracy: Accuracy?
    /// Hole-filled and smoothed (`depthData:Filtered`).
    public var isFiltered: Bool?
    /// `depthData:Quality`: "high" or "low".
    public var quality: String?
    /// `depthData:DepthDataVersion`.
    public var version: Int?
    /// The camera calibration, when stored, for the map's geometry: turned with the map when it is
    /// loaded upright; moved with it when an edit crops, scales, flips or turns it by quarter turns
    /// (its reference size then the output's), left out under other motion.
    public var calibration: CameraCalibration?
    /// The depth container the map came from; nil for maps made in code.
    public var sourceFormat: DepthContainer?
    /// The EXIF-style orientation (1...8) still to apply to ``map`` to show it upright with the
    /// photo: 1 when it was loaded upright (the default), the stored orientation otherwise.
    public var orientation: Int
    /// The file's encoded map, kept to write it back byte for byte while ``map`` is unchanged.
    let stored: StoredAuxiliary?
    /// Bits per stored sample of the file's map (16 for a 16-bit PNG), so a moved map is written
    /// back as precisely where its container allows (a PNG); 8 for maps made in code.
    let storedBitDepth: Int

    /// A map made in code (a refined or synthetic one), with optional metadata.
    public init(map: Image, kind: Kind, accuracy: Accuracy? = nil, isFiltered: Bool? = nil, quality: String? = nil,
                calibration: CameraCalibration? = nil, orientation: Int = 1) {
        self.init(map: map, kind: kind, storedEncoding: nil, storedKind: nil, accuracy: accuracy, isFiltered: isFiltered,
                  quality: quality, version: nil, calibration: calibration, sourceFormat: nil, orientation: orientation,
                  stored: nil)
    }

    init(map: Image, kind: Kind, storedEncoding: StoredEncoding?, storedKind: Kind?, accuracy: Accuracy?, isFiltered: Bool?,
         quality: String?, version: Int?, calibration: CameraCalibration?, sourceFormat: DepthContainer?, orientation: Int,
         stored: StoredAuxiliary?, storedBitDepth: Int = 8) {
        self.map = map
        self.kind = kind
        self.storedEncoding = storedEncoding
        self.storedKind = storedKind
        self.accuracy = accuracy
        self.isFiltered = isFiltered
        self.quality = quality
        self.version = version
        self.calibration = calibration
        self.sourceFormat = sourceFormat
        self.orientation = orientation
        self.stored = stored
        self.storedBitDepth = storedBitDepth
    }

    /// The range of values as stored, converted to this data's ``kind`` (nil for maps made in
    /// code). A disparity range d0...d1 is the depth range 1/d1...1/d0.
    public var storedRange: ClosedRange<Double>? {
        guard let range = storedEncoding?.range, let storedKind else { return nil }
        if storedKind == kind { return range }
        return (1 / range.upperBound)...(1 / range.lowerBound)
    }

    /// The same data as `kind`: depth = 1 / disparity and disparity = 1 / depth, pixel by pixel
    /// (a zero becomes infinity, NaN stays NaN). Lazy: the map gains one reciprocal per pixel.
    public func converting(to kind: Kind) -> DepthData {
        guard kind != self.kind else { return self }
        var converted = self
        converted.kind = kind
        converted.map = map.applying(DepthReciprocal(to: kind))
        return converted
    }

    /// The same data with ``map`` replaced (after an edit); the file's encoded map no longer applies.
    public func replacingMap(_ map: Image, calibration: CameraCalibration?) -> DepthData {
        DepthData(map: map, kind: kind, storedEncoding: storedEncoding, storedKind: storedKind, accuracy: accuracy,
                  isFiltered: isFiltered, quality: quality, version: version, calibration: calibration,
                  sourceFormat: sourceFormat, orientation: orientation, stored: nil, storedBitDepth: storedBitDepth)
    }

    /// The encoded map to write back as is: the file's bytes, while ``map``, ``kind`` and the
    /// orientation are still the file's.
    var unchangedStoredMap: StoredAuxiliary? {
        guard let stored, stored.map == map, stored.kind == kind else { return nil }
        return stored
    }
}

/// A portrait effects matte: where the person is, 0 (background) to 1 (person), as a data image
/// (Apple's AVPortraitEffectsMatte). Usually half the photo's size; upright with the photo by
/// default.
public struct PortraitEffectsMatte: Sendable, Hashable {
    /// The matte, 0 (background) to 1 (person), as a data image.
    public var map: Image
    /// `portraitEffectsMatte:PortraitEffectsMatteVersion`.
    public var version: Int?
    /// The depth container the matte came from; nil for mattes made in code.
    public var sourceFormat: DepthContainer?
    /// The EXIF-style orientation still to apply to ``map`` (1 when loaded upright).
    public var orientation: Int
    let stored: StoredAuxiliary?

    /// A matte made in code from `map` (a data image), to write with a photo.
    public init(map: Image, version: Int? = nil, orientation: Int = 1) {
        self.init(map: map, version: version, sourceFormat: nil, orientation: orientation, stored: nil)
    }

    init(map: Image, version: Int?, sourceFormat: DepthContainer?, orientation: Int, stored: StoredAuxiliary?) {
        self.map = map
        self.version = version
        self.sourceFormat = sourceFormat
        self.orientation = orientation
        self.stored = stored
    }

    /// The same matte with ``map`` replaced.
    public func replacingMap(_ map: Image) -> PortraitEffectsMatte {
        PortraitEffectsMatte(map: map, version: version, sourceFormat: sourceFormat, orientation: orientation, stored: nil)
    }

    var unchangedStoredMap: StoredAuxiliary? {
        guard let stored, stored.map == map else { return nil }
        return stored
    }
}

/// An auxiliary image as the file encoded it, and the map it decoded to.
final class StoredAuxiliary: Sendable, Hashable {
    enum Encoded: Sendable {
        /// A complete auxiliary JPEG stream (Apple), its XMP included.
        case appleJPEG([UInt8])
        /// The GDepth map and its properties.
        case gDepth(GDepthMetadata)
        /// A Google container item (Dynamic Depth): the item's bytes, its description in the photo's XMP.
        case containerItem([UInt8])
    }

    let encoded: Encoded
    let map: Image
    let kind: DepthData.Kind?

    init(encoded: Encoded, map: Image, kind: DepthData.Kind?) {
        self.encoded = encoded
        self.map = map
        self.kind = kind
    }

    static func == (a: StoredAuxiliary, b: StoredAuxiliary) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension DepthData: CustomStringConvertible {
    /// One line: kind, map size, accuracy, the stored range, where it came from and the
    /// orientation still to apply (`disparity 576x768, relative, stored 0.787109...1.735352, Apple
    /// JPEG (MPF), filtered, quality high, calibration present, orientation 1`).
    public var description: String {
        let extent = map.extent
        var parts = ["\(kind.rawValue) " + (extent.isInfinite ? "infinite" : "\(Int(extent.width))x\(Int(extent.height))")]
        if let accuracy { parts.append(accuracy.rawValue) }
        if let storedKind, let range = storedEncoding?.range {
            parts.append("stored \(storedKind.rawValue) \(range.lowerBound)...\(range.upperBound)")
        }
        if let sourceFormat { parts.append(sourceFormat.rawValue) }
        if let isFiltered { parts.append(isFiltered ? "filtered" : "not filtered") }
        if let quality { parts.append("quality \(quality)") }
        if calibration != nil { parts.append("calibration present") }
        parts.append("orientation \(orientation)")
        return parts.joined(separator: ", ")
    }
}
