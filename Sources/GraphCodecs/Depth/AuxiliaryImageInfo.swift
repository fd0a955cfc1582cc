/// One auxiliary image of a photo, as its headers describe it (no pixels decoded): an iPhone
/// disparity or depth map or portrait matte (JPEG MPF image or HEIF auxiliary item), a HEIF
/// gain map, a Google GDepth depth map, or a Google container item (Dynamic Depth depth and
/// confidence maps, original photo, gain map).
public struct AuxiliaryImageInfo: Sendable, Equatable {
    /// What an auxiliary image holds.
    public enum Kind: String, Sendable, Equatable {
        /// A disparity or depth map, a portrait effects matte, an HDR gain map, a semantic matte, an alpha plane,
        /// a depth map's confidence (Dynamic Depth), the original photo before the camera's rendering, or a type not recognised.
        case disparity, depth, portraitEffectsMatte, hdrGainMap, semanticMatte, alpha, confidence, original, unknown
    }

    /// Where the image is stored.
    public enum Location: Sendable, Equatable {
        /// A JPEG stream appended to a JPEG file (``JPEGStreams/Embedded``).
        case jpeg(JPEGStreams.Embedded)
        /// A HEIF auxiliary item, by item ID.
        case heifItem(UInt32)
        /// GDepth: base64 in the extended XMP.
        case gDepth
        /// A Google container item (``GoogleContainer``): its `Item:Semantic` and its bytes in the file.
        case containerItem(semantic: String, range: Range<Int>)

        /// The depth container this location is part of.
        public var container: DepthContainer {
            switch self {
            case .jpeg: return .appleJPEG
            case .heifItem: return .appleHEIC
            case .gDepth: return .gDepth
            case .containerItem: return .dynamicDepth
            }
        }
    }

    /// What the image holds.
    public var kind: Kind
    /// The type as the file names it: Apple's `apdi:AuxiliaryImageType`, a HEIF `auxC` URN, "GDepth".
    public var type: String
    /// Where its bytes are in the file.
    public var location: Location
    /// Stored size, before ``orientation``.
    public var width: Int
    /// Stored height, before ``orientation``.
    public var height: Int
    /// Channels of the stored image.
    public var channels: Int
    /// Bits per stored channel.
    public var bitDepth: Int
    /// The codec of the stored image: "JPEG", "HEVC", "PNG" ...
    public var codec: String
    /// The EXIF-style orientation (1...8) that turns the stored image upright with the main
    /// image: the primary's EXIF orientation for JPEG auxiliary images (they have no EXIF of
    /// their own), the item's own `irot`/`imir` for HEIF.
    public var orientation: Int
    /// Apple's auxiliary-image XMP, when present.
    public var apple: AppleAuxiliaryMetadata?
    /// HEIF depth items: the depth representation SEI in `auxC`.
    public var depthRepresentation: HEVCDepthRepresentation?
    /// GDepth: format, range and the depth image itself.
    public var gDepth: GDepthMetadata?
    /// Dynamic Depth depth maps: format, near/far and units, focal table, intrinsics.
    public var dynamicDepth: DynamicDepthMetadata?
    /// Why this image cannot be decoded to values, if it cannot (no FloatMin/FloatMax, a
    /// truncated stream, ...). Listed by `graph info`; loading it fails with this message.
    public var problems: [String]

    /// An auxiliary image as found in a file's headers.
    public init(kind: Kind, type: String, location: Location, width: Int, height: Int, channels: Int, bitDepth: Int,
                codec: String, orientation: Int, apple: AppleAuxiliaryMetadata? = nil,
                depthRepresentation: HEVCDepthRepresentation? = nil, gDepth: GDepthMetadata? = nil, problems: [String] = []) {
        self.kind = kind
        self.type = type
        self.location = location
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        self.codec = codec
        self.orientation = orientation
        self.apple = apple
        self.depthRepresentation = depthRepresentation
        self.gDepth = gDepth
        self.problems = problems
    }

    /// The values the stored samples span, in the map's own unit (disparity in 1/m, depth in
    /// m or GDepth units, 0...1 for mattes), and how that range is stored.
    public var valueRange: (min: Double, max: Double, source: String)? {
        if let apple, apple.valueEncodingProblem == nil, let low = apple.floatMinValue, let high = apple.floatMaxValue {
            return (low, high, "apdi:FloatMinValue/FloatMaxValue")
        }
        if let info = depthRepresentation, let low = info.dMin, let high = info.dMax { return (low, high, "depth SEI d_min/d_max") }
        if let info = depthRepresentation, let low = info.zNear, let high = info.zFar { return (low, high, "depth SEI z_near/z_far") }
        if let gDepth { return (min(gDepth.near, gDepth.far), max(gDepth.near, gDepth.far), "\(type == "XDM" ? "Depthmap" : "GDepth"):Near/Far (\(gDepth.format.rawValue))") }
        if let depth = dynamicDepth {
            let range = depth.distanceRange
            let units = depth.units.map { $0.lowercased() == "diopters" ? "Diopters \(depth.near)/\(depth.far) as metres" : $0 } ?? "no units"
            return (min(range.near, range.far), max(range.near, range.far), "DepthMap:Near/Far (\(depth.format.rawValue), \(units))")
        }
        if kind == .confidence { return (0, 1, "8-bit confidence") }
        if kind == .portraitEffectsMatte || kind == .semanticMatte { return (0, 1, "8-bit alpha") }
        return nil
    }

    /// For a semantic matte, what it segments ("skin", "hair", "teeth", "glasses", "sky"), from
    /// its type; nil for other images and for a semantic matte whose type does not say.
    public var semanticMatteSubject: String? {
        kind == .semanticMatte ? AppleAuxiliaryType.semanticSubject(of: type) : nil
    }

    /// The stored samples: "8-bit grey", "8-bit RGBA" ...
    public var pixelFormat: String {
        let models = [1: "grey", 2: "grey+alpha", 3: "RGB", 4: "RGBA"]
        return "\(bitDepth)-bit \(models[channels] ?? "\(channels)-channel")"
    }

    /// Which part of the file it is, for messages: "MPF image 2 (disparity)", "HEIF item 5
    /// (urn:...)", "GDepth depth map", "Dynamic Depth item Depthmap".
    public var partName: String {
        switch location {
        case .jpeg(let stream): return "\(stream.mpfImage.map { "MPF image \($0)" } ?? "embedded JPEG") (\(type))"
        case .heifItem(let id): return "HEIF item \(id) (\(type))"
        case .gDepth: return "\(type) depth map"
        case .containerItem(let semantic, _): return "Dynamic Depth item \(semantic)"
        }
    }

    /// Whether camera calibration (intrinsics) is stored with it.
    public var hasCalibration: Bool { apple?.calibration != nil || dynamicDepth?.imagingModel != nil }

    /// "relative" / "absolute", when stored.
    public var accuracy: String? { apple?.accuracy }

    /// Whether the map was hole-filled and smoothed, when stored.
    public var filtered: Bool? { apple?.filtered }

    /// A one-line description for `graph info`.
    public var summary: String {
        var parts = ["\(kind.rawValue)" + (type != kind.rawValue ? " (\(type))" : "")]
        switch location {
        case .jpeg(let stream):
            parts.append((stream.mpfImage.map { "MPF image \($0)" } ?? "embedded JPEG")
                + " at \(stream.range.lowerBound), \(stream.range.count) bytes" + (stream.foundByScan ? " (found by scanning)" : ""))
        case .heifItem(let id): parts.append("item \(id)")
        case .gDepth: parts.append(type == "GDepth" ? "GDepth extended XMP" : "\(type) XMP (inline)")
        case .containerItem(let semantic, let range):
            parts.append("Dynamic Depth item \(semantic) at \(range.lowerBound), \(range.count) bytes")
        }
        parts.append("\(width)x\(height) \(pixelFormat) \(codec)")
        if let range = valueRange { parts.append("range \(range.min)...\(range.max) [\(range.source)]") }
        if let info = depthRepresentation { parts.append(info.typeName) }
        if let depth = dynamicDepth {
            parts.append([depth.measureType, depth.focalTableEntryCount.map { "focal table \($0) entries" },
                          depth.imagingModel.map { "fx \($0.focalLengthX) cx \($0.principalPointX) cy \($0.principalPointY)" }]
                .compactMap { $0 }.joined(separator: ", "))
        }
        parts.append("orientation \(orientation)")
        if let accuracy { parts.append("accuracy \(accuracy)") }
        if let filtered { parts.append(filtered ? "filtered" : "not filtered") }
        if let quality = apple?.quality { parts.append("quality \(quality)") }
        if kind == .disparity || kind == .depth { parts.append(hasCalibration ? "calibration present" : "no calibration") }
        return parts.joined(separator: ", ")
    }
}

extension AuxiliaryImageInfo: CustomStringConvertible {
    /// ``summary``, the line `graph info` prints after "auxiliary image:" (`disparity (…), MPF image 2
    /// at 131407, 12502 bytes, 576x768 L8 JPEG, …`).
    public var description: String { summary }
}

extension ImageInfo: CustomStringConvertible {
    /// ``summaryLines``, one per line, as `graph info` prints them.
    public var description: String { summaryLines.joined(separator: "\n") }
}
