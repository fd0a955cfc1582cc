import GraphCodecs

/// How `Context.encodedData(_:format:options:progress:)` and
/// `Context.write(_:to:format:options:protectedPaths:progress:)` encode a rendered image.
public struct ImageWriteOptions: Sendable, Equatable {
    /// JPEG quality, 1...100 (libjpeg's scale); HEIC outputs take the same scale, turned into the
    /// libheif quality whose file has about the same SSIM (90 gives libheif's 70).
    public var quality: Int
    /// JPEG chroma subsampling.
    public var subsampling: JPEGSubsampling
    /// A progressive JPEG (several scans, coarse to fine) instead of a baseline one.
    public var progressive: Bool
    /// PNG bits per sample, 8 or 16 (JPEG and HEIC are always 8).
    public var bitDepth: Int
    /// Metadata to carry into the file, usually the source's (`Image.decoding(path:options:colorSpace:)`
    /// returns it): EXIF and XMP (JPEG APP1, PNG eXIf and iTXt), and in JPEG also the extended XMP
    /// (when complete and matching its GUID, as Google depth photos need) and the first comment.
    /// The ICC profile is never carried: outputs are tagged with the output colour space's.
    public var metadata: ImageMetadata?
    /// The orientation written into carried EXIF. 1 (upright) by default, because decoding turns
    /// the pixels upright; pass the source's `exifOrientation` when it was decoded with
    /// `applyOrientation: false`, so viewers still rotate it.
    public var exifOrientation: Int
    /// The colour space the file is written in; nil: the context's output colour space. `.data`
    /// writes the working values untagged (a PNG whose pixels are all grey is then written as grey).
    public var colorSpace: OutputColorSpace?
    /// Depth data and portrait matte to attach (JPEG only); see ``AuxiliaryImages``.
    public var auxiliaryImages: AuxiliaryImages
    /// XMP packets written instead of the carried ones (GDepth writes its own; a carried GDepth
    /// packet is dropped when no depth is written, since its map would no longer match).
    var replacedXMP: XMPPackets?

    /// Options for one output; every argument has the default a plain `write` uses.
    public init(quality: Int = 90, subsampling: JPEGSubsampling = .s420, progressive: Bool = false, bitDepth: Int = 8,
                metadata: ImageMetadata? = nil, exifOrientation: Int = 1, colorSpace: OutputColorSpace? = nil,
                auxiliaryImages: AuxiliaryImages = AuxiliaryImages()) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.bitDepth = bitDepth
        self.metadata = metadata
        self.exifOrientation = exifOrientation
        self.colorSpace = colorSpace
        self.auxiliaryImages = auxiliaryImages
    }

    /// The carried EXIF with its orientation set to ``exifOrientation``, its PixelXDimension /
    /// PixelYDimension to `size`, the written image's (a crop or scale no longer claims the
    /// source's size; nil leaves them), and no thumbnail (``EXIF/removingThumbnail(in:)``: it
    /// would show the source's pixels).
    func exif(size: PixelRect?) -> [UInt8]? {
        metadata?.exif.map { tiff in
            let oriented = EXIF.settingOrientation(exifOrientation, in: EXIF.removingThumbnail(in: tiff))
            guard let size else { return oriented }
            return EXIF.settingPixelDimensions(width: size.width, height: size.height, in: oriented)
        }
    }

    /// The JPEG segments the carried metadata becomes for an image of `size` (the rendered and
    /// the transcoded paths both write these, so their files are the same).
    func jpegSegments(size: PixelRect?) -> (xmp: String?, extendedXMP: String?, exif: [UInt8]?, comment: String?) {
        if let replacedXMP { return (replacedXMP.main, replacedXMP.extended, exif(size: size), metadata?.comments.first) }
        return (carriedXMP, metadata?.carriableExtendedXMP, exif(size: size), metadata?.comments.first)
    }

    /// The carried XMP, its MWG face and focus regions turned upright when the source stored its
    /// pixels rotated and they are written upright (orientation 1), so the regions still cover the
    /// subject. Crops, scales and flips move them with `ImageMetadata.following(_:from:)`, which
    /// `graph` applies to every output that carries a photo's metadata.
    var carriedXMP: String? {
        guard let metadata, let xmp = metadata.xmp else { return nil }
        return exifOrientation == 1 ? MWGRegionOrientation.upright(xmp, from: metadata.exifOrientation) : xmp
    }

    /// Checks the values against `format`, naming the offending key.
    func validate(for format: OutputFileFormat) throws {
        guard bitDepth == 8 || bitDepth == 16 else {
            throw GraphError.invalidParameter(filter: "output", key: "bitDepth", reason: "must be 8 or 16, got \(bitDepth)")
        }
        if !format.saving.bitDepths.contains(bitDepth) {
            throw GraphError.invalidParameter(filter: "output", key: "bitDepth",
                                              reason: "\(format.name) supports only \(format.saving.bitDepthList) bits here")
        }
        guard (1...100).contains(quality) else {
            throw GraphError.invalidParameter(filter: "output", key: "quality", reason: "must be 1...100, got \(quality)")
        }
        guard (1...8).contains(exifOrientation) else {
            throw GraphError.invalidParameter(filter: "output", key: "exifOrientation",
                                              reason: "must be 1...8, got \(exifOrientation)")
        }
        if !auxiliaryImages.isEmpty {
            guard format.saving.carriesAuxiliaryImages else {
                throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages",
                                                  reason: "depth data and mattes can be attached to \(ImageFormatRegistry.auxiliaryImageCarriers) outputs only")
            }
            guard (1...100).contains(auxiliaryImages.quality) else {
                throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.quality",
                                                  reason: "must be 1...100, got \(auxiliaryImages.quality)")
            }
            let format = auxiliaryImages.writtenFormat
            if let reason = format.unwritableReason {
                throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.format", reason: reason)
            }
            if !format.holdsPortraitMatte && auxiliaryImages.portraitEffectsMatte != nil {
                throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages",
                                                  reason: "\(format.shortName) has no portrait matte; write it in the Apple format")
            }
            if format == .dynamicDepth && auxiliaryImages.dynamicDepth == nil {
                throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.dynamicDepth",
                                                  reason: "Dynamic Depth is written from a Pixel photo's container (DepthPhoto.auxiliaryImages(following:from:) gives it); there is none")
            }
        }
    }
}

/// A main and an extended XMP packet to write (either may be absent).
struct XMPPackets: Sendable, Equatable {
    var main: String?
    var extended: String?
}
