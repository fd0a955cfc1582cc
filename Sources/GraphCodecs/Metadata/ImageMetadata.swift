/// The colour space of the JPEG data itself (before conversion for output).
public enum JPEGColorSpace: String, Sendable, Equatable {
    /// The colour model of the stored JPEG components (`unknown` when the markers do not say).
    case grey, yCbCr, rgb, cmyk, ycck, unknown
}

/// Chroma subsampling of a 3-component JPEG, as luma sampling factors.
public enum JPEGSubsampling: String, Sendable, Equatable, CaseIterable {
    /// No subsampling (luma 1x1).
    case s444
    /// Horizontal 2:1 (luma 2x1).
    case s422
    /// Horizontal and vertical 2:1 (luma 2x2).
    case s420
    /// Vertical 2:1 (luma 1x2).
    case s440
    /// Horizontal 4:1 (luma 4x1).
    case s411

    /// Luma horizontal and vertical sampling factors (chroma is 1x1).
    public var lumaFactors: (h: Int, v: Int) {
        switch self {
        case .s444: return (1, 1)
        case .s422: return (2, 1)
        case .s420: return (2, 2)
        case .s440: return (1, 2)
        case .s411: return (4, 1)
        }
    }

    /// The subsampling whose luma factors are (h, v) with 1x1 chroma, or nil.
    public init?(lumaH: Int, lumaV: Int) {
        guard let match = JPEGSubsampling.allCases.first(where: { $0.lumaFactors == (lumaH, lumaV) }) else {
            return nil
        }
        self = match
    }
}

/// One metadata-bearing segment or chunk of the file (for `graph info`).
public struct MetadataSegment: Sendable, Equatable {
    /// E.g. "APP1 Exif", "APP2 ICC_PROFILE 1/3", "APP2 MPF", "iCCP", "eXIf".
    public var name: String
    /// Absolute file offset of the marker / chunk start.
    public var offset: Int
    /// Payload length in bytes.
    public var length: Int

    /// A segment named `name` at byte `offset`, `length` bytes long.
    public init(name: String, offset: Int, length: Int) {
        self.name = name
        self.offset = offset
        self.length = length
    }
}

/// Everything learnt from a file apart from the pixels.
public struct ImageMetadata: Sendable, Equatable {
    /// The format the metadata came from.
    public var format: ImageFormat
    /// The embedded ICC profile (PNG iCCP, or JPEG APP2 chunks reassembled).
    public var iccProfile: [UInt8]?
    /// EXIF orientation 1...8 (1 when absent or invalid).
    public var exifOrientation: Int
    /// True when the decoder rotated/flipped the pixels according to `exifOrientation`.
    public var orientationApplied: Bool
    /// The EXIF TIFF structure ("II*\0" / "MM\0*" ...), without the JPEG "Exif\0\0" prefix.
    public var exif: [UInt8]?
    /// The main XMP packet.
    public var xmp: String?
    /// The reassembled extended XMP packet (JPEG only), when complete.
    public var extendedXMP: String?
    /// GUID of the extended XMP (32 hex digits, as named by xmpNote:HasExtendedXMP).
    public var extendedXMPGUID: String?
    /// Declared full length of the extended XMP.
    public var extendedXMPLength: Int?
    /// Whether the MD5 of the reassembled extended XMP equals its GUID (nil when absent).
    public var extendedXMPDigestMatches: Bool?

    /// The extended XMP when it can be written back as is: complete, its MD5 matching the GUID
    /// the main packet names, and its text giving back those very bytes (a packet that is not
    /// valid UTF-8 would not), so the encoders' own check cannot fail. nil otherwise.
    public var carriableExtendedXMP: String? {
        guard let text = extendedXMP, extendedXMPDigestMatches == true, let guid = extendedXMPGUID,
              xmp.flatMap(XMP.extendedGUID(inMainPacket:))?.uppercased() == guid.uppercased(),
              XMP.digestGUID(ofExtended: text) == guid.uppercased()
        else { return nil }
        return text
    }
    /// JPEG Multi-Picture Format index (iPhone depth/matte images live here).
    public var mpfEntries: [MPFEntry]
    /// PNG gAMA (file gamma, e.g. 0.45455); reported, never applied.
    public var pngGamma: Double?
    /// PNG sRGB rendering intent 0...3.
    public var pngSRGBIntent: Int?
    /// PNG colour type as stored (0, 2, 3, 4, 6).
    public var pngColorType: Int?
    /// PNG Adam7 interlacing.
    public var pngInterlaced: Bool
    /// Sample precision in the file (PNG 1/2/4/8/16, JPEG 8/12/16).
    public var fileBitDepth: Int
    /// JPEG progressive (SOF2/SOF6/SOF10/SOF14).
    public var jpegProgressive: Bool
    /// JPEG arithmetic coding.
    public var jpegArithmetic: Bool
    /// The JPEG's colour space (YCbCr, grey, RGB, CMYK, YCCK), from its markers.
    public var jpegColorSpace: JPEGColorSpace?
    /// JPEG APP14 Adobe transform flag (0 none/CMYK, 1 YCbCr, 2 YCCK), when present.
    public var jpegAdobeTransform: Int?
    /// JPEG per-component sampling factors (h, v).
    public var jpegSampling: [[Int]]
    /// JPEG chroma subsampling, when it is one of the standard patterns.
    public var jpegSubsampling: JPEGSubsampling?
    /// JPEG COM segments and PNG tEXt/zTXt/iTXt comments ("key: text" for PNG).
    public var comments: [String]
    /// Metadata-bearing segments in file order.
    public var segments: [MetadataSegment]

    /// Empty metadata for a file of `format`.
    public init(format: ImageFormat) {
        self.format = format
        iccProfile = nil
        exifOrientation = 1
        orientationApplied = false
        exif = nil
        xmp = nil
        extendedXMP = nil
        extendedXMPGUID = nil
        extendedXMPLength = nil
        extendedXMPDigestMatches = nil
        mpfEntries = []
        pngGamma = nil
        pngSRGBIntent = nil
        pngColorType = nil
        pngInterlaced = false
        fileBitDepth = 8
        jpegProgressive = false
        jpegArithmetic = false
        jpegColorSpace = nil
        jpegAdobeTransform = nil
        jpegSampling = []
        jpegSubsampling = nil
        comments = []
        segments = []
    }

    /// The parsed ICC profile, when present and parseable.
    public var parsedICCProfile: ICCProfile? {
        guard let iccProfile else { return nil }
        return try? ICCProfile(bytes: iccProfile)
    }
}
