/// Where a photo file keeps its depth map and the maps that go with it, and what each container
/// can do. One value serves reading (``AuxiliaryImageInfo/Location/container``), what a loaded
/// map remembers of its file (GraphEngine's `DepthData.sourceFormat`) and the container an output
/// writes (`AuxiliaryImages.format`). A new container is a case here, its reading in GraphCodecs
/// (a ``AuxiliaryImageInfo/Location`` and the code that lists it) and, when writable, its writer
/// in GraphEngine's `AuxiliaryImageWriting`.
public enum DepthContainer: String, Sendable, Hashable, CaseIterable {
    /// An iPhone JPEG: each map (depth or disparity, portrait matte, semantic mattes, gain map) an
    /// auxiliary JPEG with Apple XMP, appended after the primary and indexed by its APP2 MPF segment.
    case appleJPEG = "Apple JPEG (MPF)"
    /// An iPhone HEIC: each map an auxiliary HEVC item with Apple XMP and the depth SEI. Read only.
    case appleHEIC = "Apple HEIC"
    /// A Google GDepth (Lens Blur) JPEG: the depth map, a PNG or JPEG, base64 in the extended XMP,
    /// with the original photo beside it (`GImage:Data`).
    case gDepth = "Google GDepth"
    /// A Google Dynamic Depth JPEG (Pixel portraits): the depth and confidence maps, the original
    /// photo and the gain map as container items appended after the primary, listed by its XMP.
    case dynamicDepth = "Google Dynamic Depth"

    /// The container's name in messages about writing: "Apple", "GDepth", "Dynamic Depth".
    public var shortName: String {
        switch self {
        case .appleJPEG, .appleHEIC: return "Apple"
        case .gDepth: return "GDepth"
        case .dynamicDepth: return "Dynamic Depth"
        }
    }

    /// Whether it holds a portrait effects matte beside the depth map (Google's hold no matte).
    public var holdsPortraitMatte: Bool { self == .appleJPEG || self == .appleHEIC }

    /// Why an output cannot be written in this container; nil when it can.
    public var unwritableReason: String? {
        self == .appleHEIC ? "HEIF auxiliary items cannot be written (libheif cannot write them); write the Apple JPEG (MPF) container" : nil
    }

    /// The container a map read from this one is written back in when the output chooses none:
    /// Apple JPEG for both Apple containers, GDepth for both Google ones (Dynamic Depth needs the
    /// photo's other container items as well, which an output gives explicitly).
    public var rewrittenAs: DepthContainer {
        switch self {
        case .appleJPEG, .appleHEIC: return .appleJPEG
        case .gDepth, .dynamicDepth: return .gDepth
        }
    }
}
