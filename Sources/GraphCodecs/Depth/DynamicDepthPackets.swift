/// The XMP packets of an edited copy of a Dynamic Depth photo (depth-formats.md 4), made from the
/// photo's own: the `Container:Directory` listed anew (the items written, in file order, with
/// their new lengths), the depth map's `DepthMap:Format/Near/Far` replaced when the map was
/// re-encoded over another range, the descriptions of what the copy no longer has removed (the
/// Ultra HDR `hdrgm:Version` without a gain map, `Camera:Image` without the Original,
/// `Camera:ImagingModel` and the Google camera notes on the frame once the pixels moved),
/// `Camera:ImagingModel` scaled when the same frame is written at another size, and `xmpNote:HasExtendedXMP` set to the MD5 of
/// the new extended packet. Every other property stays as the camera wrote it (text edits, not
/// a re-serialisation: Google's own properties such as `GCamera:SpecialTypeID` are kept).
public enum DynamicDepthPackets {
    /// One directory entry written.
    public struct Item: Sendable, Equatable {
        /// `Item:Semantic` ("Primary", "GainMap", "Original", "Depth", "Confidence").
        public var semantic: String
        /// `Item:Mime`.
        public var mime: String
        /// `Item:Length` (0 for the primary).
        public var length: Int
        /// `Item:DataURI`, kept when the photo's directory had one.
        public var dataURI: String?

        /// An entry.
        public init(semantic: String, mime: String, length: Int, dataURI: String? = nil) {
            self.semantic = semantic
            self.mime = mime
            self.length = length
            self.dataURI = dataURI
        }
    }

    /// A depth map's `DepthMap:Format`, `Near` and `Far` as written (in the file's `Units`).
    public struct DepthRange: Sendable, Equatable {
        /// `DepthMap:Format`.
        public var format: GDepthMetadata.Format
        /// `DepthMap:Near`.
        public var near: Double
        /// `DepthMap:Far`.
        public var far: Double

        /// A range.
        public init(format: GDepthMetadata.Format, near: Double, far: Double) {
            self.format = format
            self.near = near
            self.far = far
        }
    }

    /// What the copy changes in the packets.
    public struct Changes: Sendable, Equatable {
        /// The directory, the primary first.
        public var directory: [Item]
        /// The depth map's new `Format`, `Near` and `Far`; nil keeps them.
        public var depthRange: DepthRange?
        /// The gain map is not written: `hdrgm:Version` goes, so no reader looks for one.
        public var dropsGainMap: Bool
        /// The Original is not written: `Camera:Image`, which names it, goes.
        public var dropsOriginal: Bool
        /// The pixels moved: `Camera:ImagingModel` (intrinsics of the unedited image) goes.
        public var dropsImagingModel: Bool
        /// `Camera:ImagingModel`'s new focal lengths, principal point and image size (the same
        /// frame written at another size); nil keeps them.
        public var imagingModel: DynamicDepthMetadata.ImagingModel?
        /// The pixels moved: the Google camera notes that describe the unedited frame
        /// (``frameNotes``) go.
        public var dropsFrameNotes: Bool

        /// The changes; by default only the directory.
        public init(directory: [Item], depthRange: DepthRange? = nil,
                    dropsGainMap: Bool = false, dropsOriginal: Bool = false, dropsImagingModel: Bool = false,
                    imagingModel: DynamicDepthMetadata.ImagingModel? = nil, dropsFrameNotes: Bool = false) {
            self.directory = directory
            self.depthRange = depthRange
            self.dropsGainMap = dropsGainMap
            self.dropsOriginal = dropsOriginal
            self.dropsImagingModel = dropsImagingModel
            self.imagingModel = imagingModel
            self.dropsFrameNotes = dropsFrameNotes
        }
    }

    /// Google's camera namespace (`GCamera:`).
    public static let googleCameraNamespace = "http://ns.google.com/photos/1.0/camera/"
    /// The `GCamera:` properties that describe the unedited frame, dropped once an edit moves
    /// pixels: a Pixel portrait's relighting input (`RelitInputImageData`, a 2024×2688 JPEG of
    /// the frame, and its mime type), the relighting light position and rendering options, and
    /// the portrait rendering note. `SpecialTypeID` (the photo is a portrait) and
    /// `HdrPlusMakernote` (the capture's notes) describe the capture, not its pixels, and stay.
    public static let frameNotes = ["PortraitNote", "RelitInputImageMime", "RelitInputImageData",
                                    "PortraitRelightingRenderingOptions", "PortraitRelightingLightPos"]

    /// The ``frameNotes`` present in `packets`, as `GCamera:Name`, in the list's order.
    public static func frameNotes(in packets: [String]) -> [String] {
        let edits = packets.map(XMPTextEdit.init)
        return frameNotes.filter { note in
            edits.contains { edit in edit.prefix(for: googleCameraNamespace).map { edit.valueRange($0, note) != nil } ?? false }
        }.map { "GCamera:\($0)" }
    }

    /// The Ultra HDR gain map namespace (`hdrgm:`).
    static let gainMapNamespace = "http://ns.adobe.com/hdr-gain-map/1.0/"
    /// Dynamic Depth's `Camera:` namespace.
    static let cameraNamespace = "http://ns.google.com/photos/dd/1.0/camera/"

    /// The photo's `main` and `extended` packets with `changes` made. A `CodecError` when neither
    /// packet has a `Container:Directory` to replace, or its item namespace is not declared.
    public static func rewrite(main: String, extended: String?, changes: Changes) throws(CodecError) -> (main: String, extended: String?) {
        var packets = [XMPTextEdit(main)] + (extended.map { [XMPTextEdit($0)] } ?? [])
        var replaced = false
        search: for index in packets.indices {
            for (container, item) in GoogleContainer.namespaces {
                guard let prefix = packets[index].prefix(for: container), packets[index].elementRange(prefix, "Directory") != nil else { continue }
                guard let itemPrefix = packets[index].prefix(for: item) else {
                    throw failure("the packet with the Container:Directory does not declare the item namespace \(item)")
                }
                let rdf = packets[index].prefix(for: "http://www.w3.org/1999/02/22-rdf-syntax-ns#") ?? "rdf"
                packets[index].replaceElement(prefix, "Directory", with: directory(changes.directory, prefix: prefix, item: itemPrefix, rdf: rdf))
                replaced = true
                break search
            }
        }
        guard replaced else { throw failure("the photo's XMP has no Container:Directory to list the written items in") }
        for index in packets.indices {
            if changes.dropsGainMap, let prefix = packets[index].prefix(for: gainMapNamespace) {
                packets[index].remove(prefix, "Version")
            }
            if let prefix = packets[index].prefix(for: cameraNamespace) {
                if changes.dropsOriginal { packets[index].remove(prefix, "Image") }
                if changes.dropsImagingModel { packets[index].remove(prefix, "ImagingModel") }
            }
            if !changes.dropsImagingModel, let model = changes.imagingModel,
               let prefix = packets[index].prefix(for: DynamicDepth.imagingModelNamespace) {
                packets[index].setValue(prefix, "FocalLengthX", "\(model.focalLengthX)")
                packets[index].setValue(prefix, "FocalLengthY", "\(model.focalLengthY)")
                packets[index].setValue(prefix, "PrincipalPointX", "\(model.principalPointX)")
                packets[index].setValue(prefix, "PrincipalPointY", "\(model.principalPointY)")
                if let width = model.imageWidth { packets[index].setValue(prefix, "ImageWidth", "\(width)") }
                if let height = model.imageHeight { packets[index].setValue(prefix, "ImageHeight", "\(height)") }
            }
            if changes.dropsFrameNotes, let prefix = packets[index].prefix(for: googleCameraNamespace) {
                for note in frameNotes { packets[index].remove(prefix, note) }
            }
            if let range = changes.depthRange, let prefix = packets[index].prefix(for: DynamicDepth.depthMapNamespace) {
                packets[index].setValue(prefix, "Format", range.format.rawValue)
                packets[index].setValue(prefix, "Near", "\(range.near)")
                packets[index].setValue(prefix, "Far", "\(range.far)")
            }
        }
        var newMain = packets[0].text
        let newExtended = packets.count > 1 ? packets[1].text : nil
        if let newExtended {
            guard let named = XMP.settingExtendedGUID(XMP.digestGUID(ofExtended: newExtended), inMainPacket: newMain) else {
                throw failure("the main XMP packet names no extended packet (xmpNote:HasExtendedXMP), so the rewritten one cannot be named")
            }
            newMain = named
        }
        guard newMain.utf8.count <= XMP.maxMainPacketBytes else {
            throw failure("the rewritten main XMP packet is \(newMain.utf8.count) bytes; one APP1 segment holds \(XMP.maxMainPacketBytes)")
        }
        return (newMain, newExtended)
    }

    /// The `Container:Directory` element listing `items`, laid out as a Pixel writes it.
    static func directory(_ items: [Item], prefix: String, item: String, rdf: String) -> String {
        var lines = ["<\(prefix):Directory>", "        <\(rdf):Seq>"]
        for entry in items {
            var fields = ["\(item):Mime=\"\(XMPTextEdit.escaped(entry.mime))\"", "\(item):Length=\"\(entry.length)\""]
            if let uri = entry.dataURI { fields.append("\(item):DataURI=\"\(XMPTextEdit.escaped(uri))\"") }
            fields.append("\(item):Semantic=\"\(XMPTextEdit.escaped(entry.semantic))\"")
            lines.append("          <\(rdf):li \(rdf):parseType=\"Resource\">")
            lines.append("            <\(prefix):Item")
            lines.append(fields.map { "              " + $0 }.joined(separator: "\n") + "/>")
            lines.append("          </\(rdf):li>")
        }
        lines += ["        </\(rdf):Seq>", "      </\(prefix):Directory>"]
        return lines.joined(separator: "\n")
    }

    static func failure(_ message: String) -> CodecError {
        CodecError(.invalidArgument, "Dynamic Depth: \(message)", format: .jpeg, segment: "APP1 XMP (Container:Directory)")
    }
}
