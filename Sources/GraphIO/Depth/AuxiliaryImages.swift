import GraphCodecs

/// The auxiliary images a JPEG output carries (``ImageWriteOptions/auxiliaryImages``): a depth or
/// disparity map and a portrait matte, written Apple-style (an MPF file, each map an 8-bit grey
/// JPEG with its XMP), as Google GDepth (the depth map in the XMP) or as Google Dynamic Depth
/// (the depth map and the photo's other container items appended, listed by the XMP).
///
/// ```swift
/// let photo = try DepthPhoto(contentsOf: "portrait.jpg")
/// var options = ImageWriteOptions()
/// options.auxiliaryImages = AuxiliaryImages(depthData: try photo.depthData(),
///                                           portraitEffectsMatte: try? photo.portraitEffectsMatte())
/// try Context().write(try Image(contentsOf: "portrait.jpg"), to: "copy.jpg", options: options)
/// ```
public struct AuxiliaryImages: Sendable, Hashable {
    /// The depth or disparity map to write, with its metadata.
    public var depthData: DepthData?
    /// The portrait effects matte to write.
    public var portraitEffectsMatte: PortraitEffectsMatte?
    /// Apple only: the semantic mattes and HDR gain map, after the depth map and the matte.
    public var carriedMaps: [CarriedAuxiliaryMap]
    /// GDepth only: the original, unblurred photo (`GImage:Data`), written as a JPEG.
    public var originalImage: Image?
    /// Dynamic Depth only: the photo's container (its confidence map, Original and gain map, its
    /// XMP), which ``DepthPhoto/auxiliaryImages(following:from:orientation:fromOriginal:)`` gives for a Pixel portrait.
    public var dynamicDepth: DynamicDepthContainer?
    /// The container the depth data is written in: Apple JPEG (MPF, each map an auxiliary JPEG
    /// with Apple XMP), GDepth (the depth map as a PNG, base64 in the extended XMP; no matte) or
    /// Dynamic Depth (the items of ``dynamicDepth`` appended after the primary and listed by its
    /// `Container:Directory`; no matte). nil: Dynamic Depth when ``dynamicDepth`` is set, else
    /// where the depth data came from says (`DepthContainer.rewrittenAs`), Apple JPEG for maps
    /// made in code.
    public var format: DepthContainer?
    /// JPEG quality of the auxiliary maps (Apple) and of the original image (GDepth), 1...100. At 100
    /// (the default) a re-encoded 8-bit map comes back within about one step (two at worst).
    public var quality: Int

    /// The images to attach; nil ones are left out.
    public init(depthData: DepthData? = nil, portraitEffectsMatte: PortraitEffectsMatte? = nil,
                carriedMaps: [CarriedAuxiliaryMap] = [], originalImage: Image? = nil, dynamicDepth: DynamicDepthContainer? = nil,
                format: DepthContainer? = nil, quality: Int = 100) {
        self.depthData = depthData
        self.portraitEffectsMatte = portraitEffectsMatte
        self.carriedMaps = carriedMaps
        self.originalImage = originalImage
        self.dynamicDepth = dynamicDepth
        self.format = format
        self.quality = quality
    }

    /// Nothing to attach.
    public var isEmpty: Bool { depthData == nil && portraitEffectsMatte == nil && carriedMaps.isEmpty }

    /// The container the depth data is written in.
    public var writtenFormat: DepthContainer {
        if let format { return format }
        if dynamicDepth != nil { return .dynamicDepth }
        return depthData?.sourceFormat?.rewrittenAs ?? .appleJPEG
    }
}
