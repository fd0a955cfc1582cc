/// Google's GDepth depth photo ("Lens Blur", depth-formats.md 3): the depth map is an image
/// (PNG or JPEG) carried base64 in the extended XMP, normalised between `Near` and `Far`.
public struct GDepthMetadata: Sendable, Equatable, Hashable {
    /// How normalised values dn = v / vmax relate to depth d.
    public enum Format: String, Sendable, Hashable {
        /// `dn = Far·(d − Near) / (d·(Far − Near))`, so `d = Far·Near / (Far − dn·(Far − Near))`.
        case rangeInverse = "RangeInverse"
        /// `dn = (d − Near) / (Far − Near)`.
        case rangeLinear = "RangeLinear"
    }

    /// How the stored values map to depth (`GDepth:Format`).
    public var format: Format
    /// Depth at dn = 0 (dark), in ``units`` (unspecified in GDepth: Lens Blur values are
    /// structure-from-motion units).
    public var near: Double
    /// Depth at dn = 1 (white), in ``units``.
    public var far: Double
    /// `GDepth:Units` when a writer gave it (not part of GDepth 1.0).
    public var units: String?
    /// `GDepth:MeasureType`: "OpticalAxis" (default) or "OpticalRay".
    public var measureType: String?
    /// MIME type of the depth image (`image/png` or `image/jpeg`).
    public var mime: String
    /// The depth image file (decoded from base64).
    public var data: [UInt8]
    /// `GImage:Mime` / `GImage:Data`: the original, unblurred photo, when present.
    public var originalImageMime: String?
    /// The original photo's bytes (`GImage:Data`, base64-decoded), when present.
    public var originalImage: [UInt8]?

    /// GDepth metadata from its fields.
    public init(format: Format, near: Double, far: Double, units: String? = nil, measureType: String? = nil,
                mime: String, data: [UInt8], originalImageMime: String? = nil, originalImage: [UInt8]? = nil) {
        self.format = format
        self.near = near
        self.far = far
        self.units = units
        self.measureType = measureType
        self.mime = mime
        self.data = data
        self.originalImageMime = originalImageMime
        self.originalImage = originalImage
    }

    /// The depth of a normalised stored value `dn` (0...1).
    public func depth(normalized dn: Double) -> Double {
        switch format {
        case .rangeInverse: return far * near / (far - dn * (far - near))
        case .rangeLinear: return dn * (far - near) + near
        }
    }

    /// The normalised stored value (0...1) of a depth, the inverse of ``depth(normalized:)``.
    public func normalized(depth d: Double) -> Double {
        switch format {
        case .rangeInverse: return far * (d - near) / (d * (far - near))
        case .rangeLinear: return (d - near) / (far - near)
        }
    }
}

/// Reads and writes GDepth XMP (the depth map's properties in the main packet, its data in the
/// extended packet).
public enum GDepth {
    /// The GDepth namespace.
    public static let depthNamespace = "http://ns.google.com/photos/1.0/depthmap/"
    /// The GImage namespace (the original photo).
    public static let imageNamespace = "http://ns.google.com/photos/1.0/image/"
    /// The GFocus namespace (the blur settings).
    public static let focusNamespace = "http://ns.google.com/photos/1.0/focus/"
    /// The XMP note namespace (`xmpNote:HasExtendedXMP`).
    public static let noteNamespace = "http://ns.adobe.com/xmp/note/"

    /// Whether a main packet declares GDepth properties at all (cheap check before `parse`).
    public static func isPresent(inMainPacket xmp: String) -> Bool {
        xmp.contains(depthNamespace)
    }

    /// The GDepth depth map of a photo: nil when the main packet has no GDepth properties; an
    /// error naming what is wrong when it has some but they cannot be used (no Near/Far, an
    /// unknown Format, depth data missing because the extended packet is absent or incomplete,
    /// base64 that does not decode). Properties are read from both packets.
    public static func parse(mainPacket: String?, extendedPacket: String?) throws(CodecError) -> GDepthMetadata? {
        let main = mainPacket.map(XMPProperties.parse) ?? XMPProperties()
        let extended = extendedPacket.map(XMPProperties.parse) ?? XMPProperties()
        func text(_ namespace: String, _ name: String) -> String? {
            main.text(namespace, name) ?? extended.text(namespace, name)
        }
        func number(_ name: String) -> Double? { main.number(depthNamespace, name) ?? extended.number(depthNamespace, name) }
        guard main.hasNamespace(depthNamespace) || extended.hasNamespace(depthNamespace) else { return nil }
        func failure(_ message: String) -> CodecError {
            CodecError(.corrupt, "GDepth: \(message)", format: .jpeg, segment: "APP1 XMP (GDepth)")
        }
        guard let formatText = text(depthNamespace, "Format") else { throw failure("no GDepth:Format") }
        guard let format = GDepthMetadata.Format(rawValue: formatText) else {
            throw failure("unknown GDepth:Format \"\(FileText.escaped(String(formatText.prefix(40))))\" (expected RangeInverse or RangeLinear)")
        }
        guard let near = number("Near"), let far = number("Far") else {
            throw failure("GDepth:Format \(formatText) needs GDepth:Near and GDepth:Far")
        }
        guard near != far, format == .rangeLinear || (near > 0 && far > 0) else {
            throw failure("GDepth:Near \(near) and Far \(far) do not make a \(formatText) range")
        }
        guard let encoded = text(depthNamespace, "Data") else {
            throw failure(extendedPacket == nil
                ? "no GDepth:Data: the extended XMP that should carry the depth map is missing or incomplete"
                : "no GDepth:Data in the XMP")
        }
        guard let data = Base64.decode(encoded), !data.isEmpty else { throw failure("GDepth:Data is not valid base64") }
        var metadata = GDepthMetadata(
            format: format, near: near, far: far, units: text(depthNamespace, "Units"),
            measureType: text(depthNamespace, "MeasureType"), mime: text(depthNamespace, "Mime") ?? "image/png", data: data)
        if let original = text(imageNamespace, "Data") {
            guard let bytes = Base64.decode(original) else { throw failure("GImage:Data is not valid base64") }
            metadata.originalImage = bytes
            metadata.originalImageMime = text(imageNamespace, "Mime") ?? "image/jpeg"
        }
        return metadata
    }

    /// The main and extended packets that carry `metadata`: the small properties (and
    /// `focus`, the `GFocus:` properties to keep, by local name) in the main packet, naming the
    /// extended packet by its MD5 in `xmpNote:HasExtendedXMP`; the depth image (and original
    /// image) base64 in the extended packet.
    public static func packets(_ metadata: GDepthMetadata, focus: [(String, String)] = []) -> (main: String, extended: String) {
        var extendedAttributes = ["      GDepth:Data=\"\(Base64.encode(metadata.data))\""]
        if let original = metadata.originalImage {
            extendedAttributes.append("      GImage:Data=\"\(Base64.encode(original))\"")
        }
        let extended = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="GraphEngine">
              <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about=""
                    xmlns:GImage="\(imageNamespace)"
                    xmlns:GDepth="\(depthNamespace)"
            \(extendedAttributes.joined(separator: "\n"))/>
              </rdf:RDF>
            </x:xmpmeta>
            """
        var attributes: [String] = focus.map { "      GFocus:\($0.0)=\"\(AppleDepthXMP.escaped($0.1))\"" }
        if let mime = metadata.originalImageMime, metadata.originalImage != nil {
            attributes.append("      GImage:Mime=\"\(AppleDepthXMP.escaped(mime))\"")
        }
        attributes.append("      GDepth:Format=\"\(metadata.format.rawValue)\"")
        attributes.append("      GDepth:Near=\"\(metadata.near)\"")
        attributes.append("      GDepth:Far=\"\(metadata.far)\"")
        if let units = metadata.units { attributes.append("      GDepth:Units=\"\(AppleDepthXMP.escaped(units))\"") }
        if let measure = metadata.measureType {
            attributes.append("      GDepth:MeasureType=\"\(AppleDepthXMP.escaped(measure))\"")
        }
        attributes.append("      GDepth:Mime=\"\(AppleDepthXMP.escaped(metadata.mime))\"")
        attributes.append("      xmpNote:HasExtendedXMP=\"\(XMP.digestGUID(ofExtended: extended))\"")
        let main = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="GraphEngine">
              <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about=""
                    xmlns:GFocus="\(focusNamespace)"
                    xmlns:GImage="\(imageNamespace)"
                    xmlns:GDepth="\(depthNamespace)"
                    xmlns:xmpNote="\(noteNamespace)"
            \(attributes.joined(separator: "\n"))/>
              </rdf:RDF>
            </x:xmpmeta>
            """
        return (main, extended)
    }

    /// The `GFocus:` properties of a main packet (name, value), to carry into a rewritten one.
    public static func focusProperties(inMainPacket xmp: String) -> [(String, String)] {
        let properties = XMPProperties.parse(xmp)
        return properties.values.compactMap { name, value in
            guard name.namespace == focusNamespace, case .text(let text) = value else { return nil }
            return (name.local, text)
        }.sorted { $0.0 < $1.0 }
    }
}
