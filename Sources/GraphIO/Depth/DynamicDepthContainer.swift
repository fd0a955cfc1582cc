import GraphCodecs

/// The Google container an edit of a Dynamic Depth photo (a Pixel portrait) is written back in
/// (``AuxiliaryImages/dynamicDepth``): the items after the primary in the photo's directory order
/// (the depth map itself comes from ``AuxiliaryImages/depthData``), and the photo's XMP packets,
/// which the output rewrites (`DynamicDepthPackets` of GraphCodecs: new directory, depth range,
/// dropped descriptions, extended-XMP GUID). Each item is copied byte for byte while its image is
/// still the one the file's bytes decode to, and encoded anew otherwise (8-bit grey JPEG or PNG
/// as the directory's mime type says; the Original as a colour JPEG).
public struct DynamicDepthContainer: Sendable, Hashable {
    /// One item after the primary.
    public struct Item: Sendable, Hashable {
        /// What an item holds.
        public enum Content: Sendable, Hashable {
            /// The depth map: ``AuxiliaryImages/depthData``, written in the photo's format and range.
            case depth
            /// The depth map's confidence, 0 (none) to 1 (full).
            case confidence(Image)
            /// The Ultra HDR gain map's stored values, 0...1, with its own XMP packet
            /// (`hdrgm:GainMapMin/Max`…), which a re-encoded map keeps.
            case gainMap(Image, xmp: String?)
            /// The photo before the portrait blur was rendered, a colour image.
            case original(Image)
        }

        /// `Item:Semantic` as the photo's directory names it.
        public var semantic: String
        /// `Item:Mime` as the photo's directory gives it.
        public var mime: String
        /// `Item:DataURI`, kept when the photo's directory had one.
        public var dataURI: String?
        /// The item's image.
        public var content: Content
        /// The file's item while ``content``'s image is the one it decoded to.
        let stored: StoredAuxiliary?

        init(semantic: String, mime: String, dataURI: String?, content: Content, stored: StoredAuxiliary? = nil) {
            self.semantic = semantic
            self.mime = mime
            self.dataURI = dataURI
            self.content = content
            self.stored = stored
        }

        /// The file's bytes of the item while its image is unchanged.
        var unchangedStoredBytes: [UInt8]? {
            guard let stored, case .containerItem(let bytes) = stored.encoded else { return nil }
            switch content {
            case .depth: return nil
            case .confidence(let map), .gainMap(let map, _), .original(let map): return stored.map == map ? bytes : nil
            }
        }
    }

    /// The items to write after the primary, in the photo's directory order.
    public var items: [Item]
    /// The photo's main XMP packet (it holds the directory on a Pixel).
    public var mainPacket: String
    /// The photo's extended XMP packet (the Device/Camera/DepthMap description on a Pixel).
    public var extendedPacket: String?
    /// The photo's depth description (units, so a new range is written as the file writes it).
    public var description: DynamicDepthMetadata
    /// The semantics the photo's directory listed after the primary: those not among
    /// ``items`` were dropped, and their descriptions go too.
    public var sourceSemantics: [String]
    /// Whether the output's pixels are not the primary's (an edit moved them, or the output was
    /// rendered from the Original, another resolution): `Camera:ImagingModel`, the primary's
    /// intrinsics in its pixels, then no longer applies.
    public var geometryChanged: Bool
}
