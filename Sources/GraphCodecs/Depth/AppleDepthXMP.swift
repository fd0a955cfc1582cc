/// What an iPhone auxiliary image's own XMP says about it (depth-formats.md 1.3): how its pixels
/// encode values (`apdi:`), the AVDepthData properties and calibration (`depthData:`), and, for a
/// portrait effects matte, its version (`portraitEffectsMatte:`). Values are as written; see
/// ``valueEncodingProblem`` for whether they are usable.
public struct AppleAuxiliaryMetadata: Sendable, Equatable, Hashable {
    /// `apdi:AuxiliaryImageType`: "disparity" or "depth" (a matte says "depth" too).
    public var auxiliaryImageType: String?
    /// `apdi:AuxiliaryImageSubType`: "portraiteffectsmatte" for a matte.
    public var auxiliaryImageSubType: String?
    /// `apdi:NativeFormat`: the CVPixelFormat Apple had (`hdis` DisparityFloat16, `fdis`, `hdep`, `fdep`).
    public var nativeFormat: UInt32?
    /// `apdi:StoredFormat`: what the file holds (`L008`, one 8-bit component).
    public var storedFormat: UInt32?
    /// `apdi:FloatMinValue` / `FloatMaxValue`: the value range the stored integers span.
    public var floatMinValue: Double?
    /// `apdi:FloatMaxValue`: the value the largest stored integer stands for.
    public var floatMaxValue: Double?
    /// `apdi:IntMinValue` / `IntMaxValue`: the stored integer range (0 and 255 in every file seen).
    public var intMinValue: Int?
    /// `apdi:IntMaxValue`: the largest stored integer.
    public var intMaxValue: Int?
    /// `depthData:DepthDataVersion`.
    public var depthDataVersion: Int?
    /// "relative" (not metric) or "absolute".
    public var accuracy: String?
    /// Hole-filled and smoothed.
    public var filtered: Bool?
    /// "high" or "low".
    public var quality: String?
    /// The camera calibration (`depthData:` intrinsics, extrinsics, lens distortion), when stored.
    public var calibration: CameraCalibration?
    /// `portraitEffectsMatte:PortraitEffectsMatteVersion`.
    public var portraitEffectsMatteVersion: Int?
    /// `HDRGainMap:HDRGainMapVersion`: set in an HDR gain map's XMP (iPhone 12 and later).
    public var hdrGainMapVersion: Int?
    /// `semanticSegmentationMatte:SemanticSegmentationMatteVersion`: set in a semantic matte's XMP
    /// (skin, hair, teeth, glasses, sky; iPhone XR and later).
    public var semanticSegmentationMatteVersion: Int?

    /// Nothing known yet.
    public init() {}

    /// A portrait effects matte: Apple marks it by sub-type or by its namespace, never by
    /// `AuxiliaryImageType` (which says "depth").
    public var isPortraitEffectsMatte: Bool {
        auxiliaryImageSubType?.lowercased() == "portraiteffectsmatte" || portraitEffectsMatteVersion != nil
    }

    /// Why the stored integers cannot be turned into values, or nil when they can:
    /// `FloatMin + (v − IntMin)·(FloatMax − FloatMin)/(IntMax − IntMin)` (IntMin/IntMax default
    /// to 0/255 when absent).
    public var valueEncodingProblem: String? {
        guard let low = floatMinValue else { return "the XMP has no apdi:FloatMinValue" }
        guard let high = floatMaxValue else { return "the XMP has no apdi:FloatMaxValue" }
        guard low.isFinite, high.isFinite, low <= high else {
            return "apdi:FloatMinValue \(low) and FloatMaxValue \(high) are not an increasing finite range"
        }
        let (intLow, intHigh) = (intMinValue ?? 0, intMaxValue ?? 255)
        guard intLow < intHigh else { return "apdi:IntMinValue \(intLow) is not below IntMaxValue \(intHigh)" }
        return nil
    }

    /// A four-character code (`hdis`, `L008`) of a CVPixelFormat number.
    public static func fourCC(_ code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> UInt32($0)) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return String(code) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The CVPixelFormat number of a four-character code.
    public static func code(_ fourCC: String) -> UInt32 {
        fourCC.utf8.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// Reads and writes the XMP packet of an iPhone auxiliary image (depth-formats.md 1.3, 5.1).
public enum AppleDepthXMP {
    /// Apple's pixel-data-info namespace (`apdi:`).
    public static let pixelDataInfoNamespace = "http://ns.apple.com/pixeldatainfo/1.0/"
    /// Apple's depth-data namespace (`depthData:`).
    public static let depthDataNamespace = "http://ns.apple.com/depthData/1.0/"
    /// Apple's portrait-effects-matte namespace (`portraitEffectsMatte:`).
    public static let portraitEffectsMatteNamespace = "http://ns.apple.com/portraitEffectsMatte/1.0/"
    /// Apple's HDR gain map namespace (`HDRGainMap:`).
    public static let hdrGainMapNamespace = "http://ns.apple.com/HDRGainMap/1.0/"
    /// Apple's semantic segmentation matte namespace (`semanticSegmentationMatte:`).
    public static let semanticSegmentationMatteNamespace = "http://ns.apple.com/semanticSegmentationMatte/1.0/"

    /// The auxiliary-image properties of a packet; nil when it has none of Apple's depth or
    /// matte properties (an ordinary XMP packet).
    public static func parse(_ xmp: String) -> AppleAuxiliaryMetadata? {
        let properties = XMPProperties.parse(xmp)
        let apdi = pixelDataInfoNamespace, depth = depthDataNamespace
        guard properties.hasNamespace(apdi) || properties.hasNamespace(depth)
                || properties.hasNamespace(portraitEffectsMatteNamespace)
                || properties.hasNamespace(hdrGainMapNamespace)
                || properties.hasNamespace(semanticSegmentationMatteNamespace) else { return nil }
        func integer(_ namespace: String, _ name: String) -> Int? {
            properties.number(namespace, name).flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
        }
        var metadata = AppleAuxiliaryMetadata()
        metadata.auxiliaryImageType = properties.text(apdi, "AuxiliaryImageType")
        metadata.auxiliaryImageSubType = properties.text(apdi, "AuxiliaryImageSubType")
        metadata.nativeFormat = integer(apdi, "NativeFormat").flatMap { UInt32(exactly: $0) }
        metadata.storedFormat = integer(apdi, "StoredFormat").flatMap { UInt32(exactly: $0) }
        metadata.floatMinValue = properties.number(apdi, "FloatMinValue")
        metadata.floatMaxValue = properties.number(apdi, "FloatMaxValue")
        metadata.intMinValue = integer(apdi, "IntMinValue")
        metadata.intMaxValue = integer(apdi, "IntMaxValue")
        metadata.depthDataVersion = integer(depth, "DepthDataVersion")
        metadata.accuracy = properties.text(depth, "Accuracy")
        metadata.filtered = properties.bool(depth, "Filtered")
        metadata.quality = properties.text(depth, "Quality")
        metadata.portraitEffectsMatteVersion = integer(portraitEffectsMatteNamespace, "PortraitEffectsMatteVersion")
        metadata.hdrGainMapVersion = integer(hdrGainMapNamespace, "HDRGainMapVersion")
        metadata.semanticSegmentationMatteVersion = integer(semanticSegmentationMatteNamespace, "SemanticSegmentationMatteVersion")
        if let intrinsics = properties.numbers(depth, "IntrinsicMatrix"), intrinsics.count == 9,
           let width = properties.number(depth, "IntrinsicMatrixReferenceWidth"),
           let height = properties.number(depth, "IntrinsicMatrixReferenceHeight") {
            var center: (x: Double, y: Double)?
            if let x = properties.number(depth, "LensDistortionCenterOffsetX"),
               let y = properties.number(depth, "LensDistortionCenterOffsetY") {
                center = (x, y)
            }
            metadata.calibration = CameraCalibration(
                intrinsicMatrix: intrinsics, referenceWidth: width, referenceHeight: height,
                extrinsicMatrix: properties.numbers(depth, "ExtrinsicMatrix") ?? [],
                pixelSize: properties.number(depth, "PixelSize"), lensDistortionCenter: center,
                lensDistortionCoefficients: properties.numbers(depth, "LensDistortionCoefficients") ?? [],
                inverseLensDistortionCoefficients: properties.numbers(depth, "InverseLensDistortionCoefficients") ?? [])
        }
        return metadata
    }

    /// The packet Apple-style readers expect in an auxiliary JPEG: every `apdi:` key, the
    /// `depthData:` properties present, for a matte its version and sub-type, and for a gain map
    /// or a semantic matte its version.
    public static func packet(_ metadata: AppleAuxiliaryMetadata) -> String {
        var lines: [String] = []
        func element(_ name: String, _ value: String) { lines.append("         <\(name)>\(escaped(value))</\(name)>") }
        func sequence(_ name: String, _ values: [Double]) {
            guard !values.isEmpty else { return }
            lines.append("         <\(name)>")
            lines.append("            <rdf:Seq>")
            for value in values { lines.append("               <rdf:li>\(number(value))</rdf:li>") }
            lines.append("            </rdf:Seq>")
            lines.append("         </\(name)>")
        }
        if let version = metadata.portraitEffectsMatteVersion {
            element("portraitEffectsMatte:PortraitEffectsMatteVersion", String(version))
        }
        if let version = metadata.hdrGainMapVersion { element("HDRGainMap:HDRGainMapVersion", String(version)) }
        if let version = metadata.semanticSegmentationMatteVersion {
            element("semanticSegmentationMatte:SemanticSegmentationMatteVersion", String(version))
        }
        if let type = metadata.auxiliaryImageType { element("apdi:AuxiliaryImageType", type) }
        if let subType = metadata.auxiliaryImageSubType { element("apdi:AuxiliaryImageSubType", subType) }
        if let native = metadata.nativeFormat { element("apdi:NativeFormat", String(native)) }
        if let stored = metadata.storedFormat { element("apdi:StoredFormat", String(stored)) }
        if let low = metadata.floatMinValue { element("apdi:FloatMinValue", number(low)) }
        if let high = metadata.floatMaxValue { element("apdi:FloatMaxValue", number(high)) }
        if let low = metadata.intMinValue { element("apdi:IntMinValue", String(low)) }
        if let high = metadata.intMaxValue { element("apdi:IntMaxValue", String(high)) }
        if let version = metadata.depthDataVersion { element("depthData:DepthDataVersion", String(version)) }
        if let accuracy = metadata.accuracy { element("depthData:Accuracy", accuracy) }
        if let filtered = metadata.filtered { element("depthData:Filtered", filtered ? "True" : "False") }
        if let quality = metadata.quality { element("depthData:Quality", quality) }
        if let calibration = metadata.calibration {
            sequence("depthData:IntrinsicMatrix", calibration.intrinsicMatrix)
            element("depthData:IntrinsicMatrixReferenceWidth", number(calibration.referenceWidth))
            element("depthData:IntrinsicMatrixReferenceHeight", number(calibration.referenceHeight))
            sequence("depthData:ExtrinsicMatrix", calibration.extrinsicMatrix)
            if let size = calibration.pixelSize { element("depthData:PixelSize", number(size)) }
            if let center = calibration.lensDistortionCenter {
                element("depthData:LensDistortionCenterOffsetX", number(center.x))
                element("depthData:LensDistortionCenterOffsetY", number(center.y))
            }
            sequence("depthData:LensDistortionCoefficients", calibration.lensDistortionCoefficients)
            sequence("depthData:InverseLensDistortionCoefficients", calibration.inverseLensDistortionCoefficients)
        }
        var namespaces = "            xmlns:apdi=\"\(pixelDataInfoNamespace)\""
        if metadata.depthDataVersion != nil || metadata.accuracy != nil || metadata.filtered != nil
            || metadata.quality != nil || metadata.calibration != nil {
            namespaces = "            xmlns:depthData=\"\(depthDataNamespace)\"\n" + namespaces
        }
        if metadata.portraitEffectsMatteVersion != nil {
            namespaces = "            xmlns:portraitEffectsMatte=\"\(portraitEffectsMatteNamespace)\"\n" + namespaces
        }
        if metadata.hdrGainMapVersion != nil {
            namespaces = "            xmlns:HDRGainMap=\"\(hdrGainMapNamespace)\"\n" + namespaces
        }
        if metadata.semanticSegmentationMatteVersion != nil {
            namespaces = "            xmlns:semanticSegmentationMatte=\"\(semanticSegmentationMatteNamespace)\"\n" + namespaces
        }
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="GraphEngine">
               <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                  <rdf:Description rdf:about=""
            \(namespaces)>
            \(lines.joined(separator: "\n"))
                  </rdf:Description>
               </rdf:RDF>
            </x:xmpmeta>
            """
    }

    /// Shortest decimal text that reads back as the same Double.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// Text for element content or a double-quoted attribute value (GDepth writes attributes).
    static func escaped(_ text: String) -> String {
        text.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;").replacingAll("\"", "&quot;")
    }
}

extension String {
    /// Every occurrence of `target` replaced (GraphCodecs has no Foundation).
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
