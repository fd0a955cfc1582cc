/// Google Dynamic Depth 1.0 (Pixel 3 and later, depth-formats.md 4): the depth map is a
/// container item (a grey JPEG or PNG appended after the primary image), described by the
/// `Device:Cameras` → `Camera:DepthMap` and `Camera:ImagingModel` XMP properties, which a
/// Pixel 8 writes in the extended XMP only.
///
/// Values: the stored sample v (0...vmax) gives dn = v / vmax, and dn relates to distance as in
/// GDepth (`Format` RangeInverse or RangeLinear; dark = near, dn 0 at the near plane). With
/// `Units` Diopters, `Near` and `Far` are inverse distances: the near plane is at 1 / the larger
/// of the two and the far plane at 1 / the smaller (a Pixel 8 writes Near 0.208841 < Far
/// 5.702907, the "Near" value being the far plane's diopters), so RangeInverse is linear in
/// diopters between them. With Meters (or no units) they are distances, as in GDepth.
public struct DynamicDepthMetadata: Sendable, Equatable, Hashable {
    /// `Camera:ImagingModel`: the pinhole intrinsics of the primary image.
    public struct ImagingModel: Sendable, Equatable, Hashable {
        /// Focal length in pixels along x.
        public var focalLengthX: Double
        /// Focal length in pixels along y.
        public var focalLengthY: Double
        /// Principal point x, in pixels of ``imageWidth``.
        public var principalPointX: Double
        /// Principal point y, in pixels of ``imageHeight``.
        public var principalPointY: Double
        /// Width of the image the intrinsics refer to.
        public var imageWidth: Int?
        /// Height of the image the intrinsics refer to.
        public var imageHeight: Int?

        /// Largest relative difference between the two axes' scale factors for two sizes to
        /// share a frame (a Pixel's 2024×2688 Original under its 3072×4080 primary: 0.0046 %).
        public static let framingTolerance = 2e-4

        /// The intrinsics of the same frame at `width`×`height` pixels: focal lengths and
        /// principal point scaled per axis (fx' = fx·width/imageWidth, cx' = cx·width/imageWidth;
        /// y alike), the image size replaced. Nil when the model names no image size, or the two
        /// sizes do not share a frame (their scale factors differ by more than ``framingTolerance``).
        public func scaled(toWidth width: Int, height: Int) -> ImagingModel? {
            guard let imageWidth, let imageHeight, imageWidth > 0, imageHeight > 0, width > 0, height > 0,
                  let map = PixelGridMap.scale(Double(width) / Double(imageWidth), Double(height) / Double(imageHeight)) else { return nil }
            let scales = map.sourceScales
            guard abs(scales.x - scales.y) <= Self.framingTolerance * max(scales.x, scales.y) else { return nil }
            return mapped(by: map, width: width, height: height)
        }

        /// The intrinsics of the image whose pixels are this model's image moved by `map` (a
        /// crop, scale, flip or quarter turn: the principal point moves with the map, so a crop
        /// at x0 gives cx − x0 and a scale by s gives cx·s, the corner convention of
        /// ``PixelGridMap`` that Android's camera intrinsics use), of `width`×`height` pixels:
        /// the focal lengths scale, and swap with the axes on a quarter turn (a flip keeps them
        /// positive).
        public func mapped(by map: PixelGridMap, width: Int, height: Int) -> ImagingModel {
            let scales = map.sourceScales
            let centre = map.apply(principalPointX, principalPointY)
            let (fx, fy) = map.swapsAxes ? (focalLengthY * scales.y, focalLengthX * scales.x)
                                         : (focalLengthX * scales.x, focalLengthY * scales.y)
            return ImagingModel(focalLengthX: fx, focalLengthY: fy, principalPointX: centre.x, principalPointY: centre.y,
                                imageWidth: width, imageHeight: height)
        }
    }

    /// `DepthMap:Format`.
    public var format: GDepthMetadata.Format
    /// `DepthMap:Near`, as written (in ``units``).
    public var near: Double
    /// `DepthMap:Far`, as written (in ``units``).
    public var far: Double
    /// `DepthMap:Units`: "Meters", "Diopters" or "None".
    public var units: String?
    /// `DepthMap:MeasureType`: "OpticalAxis" (default) or "OpticalRay".
    public var measureType: String?
    /// `DepthMap:ItemSemantic` ("Depth"), matched against the container items.
    public var itemSemantic: String?
    /// `DepthMap:DepthURI` (`android/depthmap`), matched against the items' `DataURI`.
    public var depthURI: String?
    /// `DepthMap:ConfidenceURI` (`android/confidencemap`).
    public var confidenceURI: String?
    /// `DepthMap:FocalTable` decoded: little-endian Float32 pairs (distance, circle of confusion radius).
    public var focalTable: [Float]
    /// `DepthMap:FocalTableEntryCount`.
    public var focalTableEntryCount: Int?
    /// The camera's intrinsics, when stored.
    public var imagingModel: ImagingModel?

    /// The near and far planes as distances in metres (or the file's unit when it has none):
    /// see the type's description for diopters.
    public var distanceRange: (near: Double, far: Double) {
        guard units?.lowercased() == "diopters" else { return (near, far) }
        return (1 / max(near, far), 1 / min(near, far))
    }

    /// The GDepth-style description of the stored values with ``distanceRange``: what the
    /// engine's depth readers convert with. Units become "Meters" once diopters are converted.
    public var gDepthEquivalent: (format: GDepthMetadata.Format, near: Double, far: Double, units: String?) {
        let range = distanceRange
        return (format, range.near, range.far, units?.lowercased() == "diopters" ? "Meters" : units)
    }
}

/// Reads the Dynamic Depth description of a photo's XMP.
public enum DynamicDepth {
    /// The Dynamic Depth namespaces (`http://ns.google.com/photos/dd/1.0/...`).
    public static let depthMapNamespace = "http://ns.google.com/photos/dd/1.0/depthmap/"
    /// `ImagingModel:`.
    public static let imagingModelNamespace = "http://ns.google.com/photos/dd/1.0/imagingmodel/"

    /// The depth map description of the first camera that has one, from either packet: nil
    /// when neither packet has `DepthMap:` properties; a `CodecError` naming the property when
    /// they cannot be used (no or unknown Format, no Near/Far, a range that does not make one).
    public static func parse(mainPacket: XMPProperties, extendedPacket: XMPProperties) throws(CodecError) -> DynamicDepthMetadata? {
        let packets = [mainPacket, extendedPacket]
        guard packets.contains(where: { $0.hasNamespace(depthMapNamespace) }) else { return nil }
        func text(_ namespace: String, _ name: String) -> String? {
            for packet in packets { if let value = packet.text(namespace, name) { return value } }
            return nil
        }
        func number(_ namespace: String, _ name: String) -> Double? { text(namespace, name).flatMap(parseXMLDouble) }
        func failure(_ message: String) -> CodecError {
            CodecError(.corrupt, "Dynamic Depth: \(message)", format: .jpeg, segment: "APP1 XMP (Camera:DepthMap)")
        }
        let ns = depthMapNamespace
        guard let formatText = text(ns, "Format") else { throw failure("no DepthMap:Format") }
        guard let format = GDepthMetadata.Format(rawValue: formatText) else {
            throw failure("unknown DepthMap:Format \"\(FileText.escaped(String(formatText.prefix(40))))\" (expected RangeInverse or RangeLinear)")
        }
        guard let near = number(ns, "Near"), let far = number(ns, "Far") else {
            throw failure("DepthMap:Format \(formatText) needs DepthMap:Near and DepthMap:Far")
        }
        let units = text(ns, "Units")
        let inverse = units?.lowercased() == "diopters"
        guard near != far, (!inverse && format == .rangeLinear) || (near > 0 && far > 0) else {
            throw failure("DepthMap:Near \(near) and Far \(far) (\(units ?? "no units")) do not make a \(formatText) range")
        }
        var focalTable: [Float] = []
        if let encoded = text(ns, "FocalTable"), let bytes = Base64.decode(encoded) {
            focalTable = stride(from: 0, to: bytes.count - 3, by: 4).map { i in
                Float(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
            }
        }
        var metadata = DynamicDepthMetadata(
            format: format, near: near, far: far, units: units, measureType: text(ns, "MeasureType"),
            itemSemantic: text(ns, "ItemSemantic"), depthURI: text(ns, "DepthURI"), confidenceURI: text(ns, "ConfidenceURI"),
            focalTable: focalTable, focalTableEntryCount: number(ns, "FocalTableEntryCount").flatMap { Int(exactly: $0) },
            imagingModel: nil)
        let model = imagingModelNamespace
        if let fx = number(model, "FocalLengthX"), let fy = number(model, "FocalLengthY"),
           let cx = number(model, "PrincipalPointX"), let cy = number(model, "PrincipalPointY") {
            metadata.imagingModel = DynamicDepthMetadata.ImagingModel(
                focalLengthX: fx, focalLengthY: fy, principalPointX: cx, principalPointY: cy,
                imageWidth: number(model, "ImageWidth").flatMap { Int(exactly: $0) },
                imageHeight: number(model, "ImageHeight").flatMap { Int(exactly: $0) })
        }
        return metadata
    }
}
