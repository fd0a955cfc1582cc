import GraphCodecs

/// The Google container an edit of a Dynamic Depth photo (a Pixel portrait) is written back in
/// (``AuxiliaryImages/dynamicDepth``): the items after the primary in the photo's directory order
/// (the depth map itself comes from ``AuxiliaryImages/depthData``), and the photo's XMP packets,
/// which the output rewrites (`DynamicDepthPackets` of GraphCodecs: new directory, depth range,
/// dropped descriptions, extended-XMP GUID). Each item is copied byte for byte while its image is
/// still the one the file's bytes decode to, and encoded anew otherwise (8-bit grey JPEG or PNG
/// as the directory's mime type says; the Original as a colour JPEG at the quality its own
/// tables are nearest to, keeping its own EXIF, XMP and Ultra HDR gain map: ``Item/OriginalStructure``).
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
            /// The photo before the portrait blur was rendered, a colour image, with what its own
            /// JPEG holds beside the pixels (nil: written as a plain JPEG).
            case original(Image, own: OriginalStructure?)
        }

        /// What an Original item's own JPEG holds beside its pixels: a Pixel's is itself an Ultra
        /// HDR JPEG, whose XMP (`hdrgm:Version`, a `Container:Directory` of Primary and GainMap)
        /// names a gain map appended after it and indexed by its MPF. A re-encoded Original keeps
        /// its EXIF and packets (the directory listing the written gain map) and its gain map,
        /// moved like the Original.
        public struct OriginalStructure: Sendable, Hashable {
            /// The libjpeg quality the Original's quantisation tables are nearest to
            /// (`JPEGQuality.estimate`), which a re-encoded Original is written at; nil: the primary's.
            public var quality: Int?
            /// The Original's EXIF block.
            public var exif: [UInt8]?
            /// The Original's main XMP packet.
            public var mainPacket: String?
            /// The Original's extended XMP packet, when it matches its GUID.
            public var extendedPacket: String?
            /// Its gain map's stored values, 0...1, moved like the Original; nil when it has none
            /// (or it could not be kept: `hdrgm:Version` then goes from the written packet).
            public var gainMap: Image?
            /// The gain map's own XMP packet (`hdrgm:GainMapMin/Max`…), which a re-encoded map keeps.
            public var gainMapPacket: String?
            /// The file's bytes of the gain map, and the image they decode to: copied while
            /// ``gainMap`` is still that image.
            let stored: (bytes: [UInt8], map: Image)?

            init(quality: Int?, exif: [UInt8]?, mainPacket: String?, extendedPacket: String?, gainMap: Image?, gainMapPacket: String?,
                 stored: (bytes: [UInt8], map: Image)?) {
                (self.quality, self.exif, self.mainPacket, self.extendedPacket) = (quality, exif, mainPacket, extendedPacket)
                (self.gainMap, self.gainMapPacket, self.stored) = (gainMap, gainMapPacket, stored)
            }

            /// Equal when every part is (the stored gain map by its bytes and image).
            public static func == (a: Self, b: Self) -> Bool {
                a.quality == b.quality && a.exif == b.exif && a.mainPacket == b.mainPacket && a.extendedPacket == b.extendedPacket && a.gainMap == b.gainMap
                    && a.gainMapPacket == b.gainMapPacket && a.stored?.bytes == b.stored?.bytes && a.stored?.map == b.stored?.map
            }

            /// Hashes the main packet and the gain map (enough to tell structures apart).
            public func hash(into hasher: inout Hasher) {
                hasher.combine(mainPacket)
                hasher.combine(gainMap)
            }

            /// The libjpeg quality the file's gain map was written at (`JPEGQuality.estimate`):
            /// a moved gain map is re-encoded at it. Nil without a stored gain map.
            var gainMapQuality: Int? { stored.flatMap { JPEGQuality.estimate($0.bytes) } }

            /// The gain map's file bytes while it is unchanged.
            var unchangedGainMapBytes: [UInt8]? {
                guard let stored, let gainMap, stored.map == gainMap else { return nil }
                return stored.bytes
            }
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

        /// The libjpeg quality the file's item was written at (`JPEGQuality.estimate`), when it is
        /// a JPEG the file stores.
        var storedQuality: Int? {
            guard let stored, case .containerItem(let bytes) = stored.encoded else { return nil }
            return JPEGQuality.estimate(bytes)
        }

        /// The file's bytes of the item while its image is unchanged.
        var unchangedStoredBytes: [UInt8]? {
            guard let stored, case .containerItem(let bytes) = stored.encoded else { return nil }
            switch content {
            case .depth: return nil
            case .confidence(let map), .gainMap(let map, _), .original(let map, _): return stored.map == map ? bytes : nil
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
    /// Whether an edit moved the output's pixels (a crop, a rotation, a scale): the Google camera
    /// notes on the unedited frame (`DynamicDepthPackets.frameNotes`) then no longer apply and
    /// are not written.
    public var pixelsMoved: Bool
    /// `Camera:ImagingModel` as written: the photo's while the output is its primary's frame at
    /// its size, moved with the pixels by a crop, scale, flip or quarter turn (and scaled when the
    /// output is rendered from the Original, the same frame at another size), nil (not written)
    /// under a warp or a rotation by another angle, or when the frame differs.
    public var imagingModel: DynamicDepthMetadata.ImagingModel?
}
