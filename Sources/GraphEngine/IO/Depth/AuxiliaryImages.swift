/// The auxiliary images a JPEG output carries (``ImageWriteOptions/auxiliaryImages``): a depth or
/// disparity map and a portrait matte, written Apple-style (an MPF file, each map an 8-bit grey
/// JPEG with its XMP) or as Google GDepth (the depth map in the XMP).
///
/// ```swift
/// let photo = try DepthPhoto(contentsOf: "portrait.jpg")
/// var options = ImageWriteOptions()
/// options.auxiliaryImages = AuxiliaryImages(depthData: try photo.depthData(),
///                                           portraitEffectsMatte: try? photo.portraitEffectsMatte())
/// try Context().write(try Image(contentsOf: "portrait.jpg"), to: "copy.jpg", options: options)
/// ```
public struct AuxiliaryImages: Sendable, Hashable {
    /// How the depth data is stored in the file.
    public enum Format: String, Sendable, Hashable {
        /// iPhone style: APP2 MPF index, each map an auxiliary JPEG with Apple XMP.
        case apple
        /// Google GDepth: the depth map as a PNG, base64 in the extended XMP (no matte).
        case gDepth
    }

    /// The depth or disparity map to write, with its metadata.
    public var depthData: DepthData?
    /// The portrait effects matte to write.
    public var portraitEffectsMatte: PortraitEffectsMatte?
    /// Apple only: the semantic mattes and HDR gain map, after the depth map and the matte.
    public var carriedMaps: [CarriedAuxiliaryMap]
    /// GDepth only: the original, unblurred photo (`GImage:Data`), written as a JPEG.
    public var originalImage: Image?
    /// nil: GDepth when the depth data came from a GDepth or Dynamic Depth file (Dynamic Depth's
    /// container is not written: its depth map is written as GDepth), Apple otherwise.
    public var format: Format?
    /// JPEG quality of the auxiliary maps (Apple) and of the original image (GDepth), 1...100. At 100
    /// (the default) a re-encoded 8-bit map comes back within about one step (two at worst).
    public var quality: Int

    /// The images to attach; nil ones are left out.
    public init(depthData: DepthData? = nil, portraitEffectsMatte: PortraitEffectsMatte? = nil,
                carriedMaps: [CarriedAuxiliaryMap] = [], originalImage: Image? = nil, format: Format? = nil, quality: Int = 100) {
        self.depthData = depthData
        self.portraitEffectsMatte = portraitEffectsMatte
        self.carriedMaps = carriedMaps
        self.originalImage = originalImage
        self.format = format
        self.quality = quality
    }

    /// Nothing to attach.
    public var isEmpty: Bool { depthData == nil && portraitEffectsMatte == nil && carriedMaps.isEmpty }

    /// The format the depth data is written in.
    public var writtenFormat: Format {
        format ?? (depthData?.sourceFormat == .gDepth || depthData?.sourceFormat == .dynamicDepth ? .gDepth : .apple)
    }
}
