import Foundation
import GraphCodecs

/// A file format a ``/GraphCPU/Context`` can write: an `ImageFormatRegistry` entry with a saver
/// (`ImageSaving`), the encoder `Context.encode(_:format:options:to:progress:)` picks for it.
public struct OutputFileFormat: Sendable, Hashable {
    /// The registry's format.
    public let imageFormat: ImageFormat
    /// How it is written: its name, recipe key and bit depths.
    public let saving: ImageSaving

    /// PNG (8 or 16 bits).
    public static let png = OutputFileFormat(.png, saving: .png)
    /// JPEG (8 bits), with the photo's auxiliary images.
    public static let jpeg = OutputFileFormat(.jpeg, saving: .jpeg)
    /// HEIC (HEVC through libheif and x265): the main image only, 8-bit.
    public static let heic = OutputFileFormat(.heif, saving: .heic)

    private init(_ imageFormat: ImageFormat, saving: ImageSaving) {
        self.imageFormat = imageFormat
        self.saving = saving
    }

    /// The writer of `format`, or nil when the registry reads it only.
    public init?(_ format: ImageFormat) {
        guard let saving = format.entry.saving else { return nil }
        self.init(format, saving: saving)
    }

    /// The format implied by a path's extension (`.png`, `.jpg`, `.jpeg`, `.heic`, `.heif`: every
    /// suffix of a savable registry entry), or nil.
    public init?(path: String) {
        guard let format = ImageFormatRegistry.format(suffix: (path as NSString).pathExtension) else { return nil }
        self.init(format)
    }

    /// The format a recipe output's `"format"` names (`"png"`, `"jpeg"` or `"jpg"`, `"heic"`; any
    /// case), or nil.
    public init?(key: String) {
        let key = key.lowercased()
        guard let entry = ImageFormatRegistry.savable.first(where: { $0.saving?.key == key || $0.saving?.otherKeys.contains(key) == true })
        else { return nil }
        self.init(entry.format)
    }

    /// "PNG", "JPEG", "HEIC".
    public var name: String { saving.name }

    /// Why `path` (a file or a `graph batch` output template) names no output format, for an
    /// error: `unknown output format ".tiff" in 'out.tiff'; use .png, .jpg, .jpeg or .heic`. The one
    /// message of every command and the engine, listing the registry's savable suffixes.
    public static func unknownFormatMessage(path: String) -> String {
        let ext = (path as NSString).pathExtension
        return "unknown output format \(ext.isEmpty ? "(no extension)" : "\".\(ext)\"") in '\(path)'; use \(ImageFormatRegistry.savableSuffixes)"
    }
}

extension Image {
    /// Opens a PNG, JPEG or HEIF file (EXIF orientation, or HEIF's own, applied), tagged with the
    /// colour space of its ICC profile (see ``ImageBuffer/colorSpace(of:)``). HEIFs decode now;
    /// JPEGs and PNGs decode when first rendered, on a thread of their own (a render reads rows as
    /// they come), JPEGs at the scale the render needs. ``ImageReadOptions``
    /// changes what the values mean, the orientation, the image read (a depth map) and the limits.
    public init(contentsOf path: String, options: ImageReadOptions = ImageReadOptions()) throws {
        if let auxiliary = options.auxiliary {
            self = try DepthPhoto(contentsOf: path).image(auxiliary, orientation: options.applyOrientation ? .upright : .stored)
            return
        }
        self = try Image.decoding(path: path, options: options.decodeOptions, colorSpace: options.colorSpaceOverride).image
    }

    /// Decodes a file and returns the image with its metadata and the warnings of decoding and
    /// colour tagging (for example an unrecognised ICC profile treated as sRGB). `colorSpace`
    /// overrides the profile (`.some(nil)`: data, never converted).
    ///
    /// A JPEG without an orientation to apply, and a PNG that is not interlaced, has no orientation
    /// to apply and no chunks after the image data, become lazy file sources (`FileSource`):
    /// the header is read now (header errors throw here) and the pixels stream in when a render
    /// needs them, the file read as they decode; an error later in the file fails that render.
    /// Other files decode now.
    public static func decoding(path: String, options: DecodeOptions = DecodeOptions(), colorSpace: ColorSpace?? = nil)
        throws -> (image: Image, metadata: ImageMetadata, warnings: [String])
    {
        // A file source stays open and is read as it decodes (only its header now); others are read whole.
        let file = try InputFile.shared(path: path)
        let header = try file.jpegHeader()
        if let source = try fileSource(path: path, data: .file(file, header: header), options: options, colorSpace: colorSpace) {
            return source
        }
        return try decodingWhole(bytes: header.count == file.byteCount ? header : file.readAll(), path: path, options: options,
                                 colorSpace: colorSpace)
    }

    /// The image of a JPEG or PNG file source, or nil when the data decodes whole now.
    private static func fileSource(path: String, data: EncodedBytes, options: DecodeOptions, colorSpace: ColorSpace??) throws
        -> (image: Image, metadata: ImageMetadata, warnings: [String])?
    {
        func open() throws -> (any FileSource)? {
            try JPEGFileSource(path: path, data: data, options: options, colorSpace: colorSpace)
                ?? PNGFileSource(path: path, data: data, options: options, colorSpace: colorSpace)
        }
        let opened: (any FileSource)?
        if case .file(let file, _) = data {
            opened = try OpenFileSources.shared.source(of: file, options: options, colorSpace: colorSpace, open: open)
        } else {
            opened = try open()
        }
        guard let source = opened else { return nil }
        let node = Node(.file(source), inputs: [],
                        extent: Rect(x: 0, y: 0, width: Double(source.width), height: Double(source.height)))
        return (Image(node: node), source.metadata, source.warnings)
    }

    /// The same for a file's bytes already in memory (`path` names them in errors and dumps).
    static func decoding(bytes: [UInt8], path: String, options: DecodeOptions = DecodeOptions(), colorSpace: ColorSpace?? = nil)
        throws -> (image: Image, metadata: ImageMetadata, warnings: [String])
    {
        if let source = try fileSource(path: path, data: .bytes(bytes), options: options, colorSpace: colorSpace) {
            return source
        }
        return try decodingWhole(bytes: bytes, path: path, options: options, colorSpace: colorSpace)
    }

    /// Decodes the whole file now.
    private static func decodingWhole(bytes: [UInt8], path: String, options: DecodeOptions, colorSpace: ColorSpace??)
        throws -> (image: Image, metadata: ImageMetadata, warnings: [String])
    {
        let decoded: DecodedImage
        do {
            decoded = try ImageFile.decode(bytes, options: options)
        } catch {
            throw error.at(path: path)
        }
        var (space, note): (ColorSpace?, String?) = ImageBuffer.colorSpace(of: decoded.metadata)
        if let override = colorSpace { (space, note) = (override, nil) }
        let buffer = try ImageBuffer(decoded: decoded, colorSpace: space)
        return (Image(buffer: buffer), decoded.metadata, decoded.warnings + (note.map { ["\(path): \($0)"] } ?? []))
    }

    /// Opens a file as data (a mask, a depth map, a LUT): no colour space, never converted.
    public init(dataContentsOf path: String, options: DecodeOptions = DecodeOptions()) throws {
        self = try Image.decoding(path: path, options: options, colorSpace: .some(nil)).image
    }
}

extension ImageBuffer {
    /// The colour space an embedded ICC profile describes. sRGB, Display P3 and linear sRGB are
    /// recognised from their primaries and curves; any other matrix/TRC profile (RGB colorants
    /// and one shared gamma or parametric curve, or a GRAY curve) becomes its own space, converted
    /// exactly by matrix and curve. No profile means sRGB; what cannot be converted that way (LUT
    /// profiles, per-channel or sampled curves) is treated as sRGB, with a note saying so.
    public static func colorSpace(of metadata: ImageMetadata) -> (ColorSpace, String?) {
        guard let bytes = metadata.iccProfile else { return (.sRGB, nil) }
        guard let profile = try? ICCProfile(bytes: bytes) else {
            return (.sRGB, "unreadable ICC profile; treating the image as sRGB")
        }
        switch profile.kind {
        case .sRGB: return (.sRGB, nil)
        case .displayP3: return (.displayP3, nil)
        case .linearSRGB: return (.linearSRGB, nil)
        case .grey, .other:
            if let space = ColorSpace(profile: profile) { return (space, nil) }
            if profile.kind == .grey { return (.sRGB, nil) }
            return (.sRGB, "ICC profile \"\(profile.description)\" is not a matrix profile with one gamma or parametric curve; treating the image as sRGB")
        }
    }

    /// A buffer holding decoded pixels in the matching pixel format.
    public convenience init(decoded: DecodedImage, colorSpace: ColorSpace? = .sRGB) throws {
        guard let format = ImageBuffer.format(channels: decoded.channels, bitDepth: decoded.bitDepth) else {
            throw GraphError.renderFailed("unsupported decoded image with \(decoded.channels) channels")
        }
        try self.init(width: decoded.width, height: decoded.height, format: format,
                      alphaMode: decoded.hasAlpha ? .straight : .opaque, colorSpace: colorSpace, bytes: decoded.bytes)
    }

    /// The pixel format of decoded samples: 1 to 4 channels of 8 or 16 bits (nil for others).
    static func format(channels: Int, bitDepth: Int) -> PixelFormat? {
        let sixteen = bitDepth == 16
        switch channels {
        case 1: return sixteen ? .gray16 : .gray8
        case 2: return sixteen ? .grayAlpha16 : .grayAlpha8
        case 3: return sixteen ? .rgb16 : .rgb8
        case 4: return sixteen ? .rgba16 : .rgba8
        default: return nil
        }
    }
}

extension Context {
    /// Renders `image` (its whole, finite extent) and encodes it as PNG, JPEG or HEIC.
    ///
    /// PNG: RGBA8 or RGBA16 with straight alpha, or RGB when every pixel is opaque (grey, or grey and
    /// alpha, for a `.data` output whose pixels are all grey). JPEG: 8-bit RGB (alpha dropped; the
    /// premultiplied colour is the image over black) with `options`' quality, subsampling and scan mode,
    /// followed by its auxiliary images (see ``AuxiliaryImages``). HEIC: 8-bit RGB or RGBA, HEVC at
    /// `options`' quality, no auxiliary images (libheif cannot write them). Each is tagged with the output
    /// colour space's ICC profile (none for `.data`) and carries `options.metadata`. PNG and JPEG
    /// are rendered and encoded in bands: only the file is held whole (HEIC: the pixels too).
    public func encodedData(_ image: Image, format: OutputFileFormat, options: ImageWriteOptions = ImageWriteOptions(),
                            progress: RenderProgress? = nil) throws -> [UInt8]
    {
        try encode(image, format: format, options: options, destination: .memory, progress: progress)
    }

    /// The same, streamed into `fileDescriptor` (a regular file open for writing, from its current
    /// offset; left open) as it is encoded: neither the pixels nor the file are ever held whole.
    /// Usually the descriptor of a `PendingFile` (GraphCodecs), committed once every output of a job is written.
    public func encode(_ image: Image, format: OutputFileFormat, options: ImageWriteOptions = ImageWriteOptions(),
                       to fileDescriptor: Int32, progress: RenderProgress? = nil) throws {
        _ = try encode(image, format: format, options: options, destination: .file(fileDescriptor), progress: progress)
    }

    func encode(_ image: Image, format: OutputFileFormat, options: ImageWriteOptions, destination: EncodeDestination,
                progress: RenderProgress?) throws -> [UInt8] {
        try options.validate(for: format)
        let (options, appended) = try preparingAuxiliaryImages(options, format: format)
        // The carried EXIF states the written size.
        let size = try? renderRect(image, nil)
        // The auxiliary images render and encode on a thread of their own beside the primary.
        appended?.start()
        defer { appended?.cancel() }
        let target = outputTarget(options.colorSpace)
        let profile = target.tag.flatMap(Context.iccProfile(for:))
        switch format.imageFormat {
        case .jpeg:
            // With auxiliary images the primary is assembled in memory (its MPF index points past it).
            let primaryDestination = appended == nil ? destination : .memory
            let primary: [UInt8]
            if let source = directlyTranscodable(image, colorSpace: options.colorSpace) {
                // An unfiltered JPEG file is re-encoded without a render.
                _ = try renderRect(image, nil)  // the render-size limit holds here too
                primary = try transcoded(source, options: options, size: size, iccProfile: profile, destination: primaryDestination,
                                         progress: progress)
            } else {
                // Rendered straight to RGB in bands that encode while the next renders: JPEG has no
                // alpha (premultiplied colour is the image over black).
                primary = try streamedJPEG(image, options: options, iccProfile: profile, destination: primaryDestination,
                                           progress: progress)
            }
            guard let appended else { return primary }
            return try destination.deliver(appended.assemble(primary: primary))
        case .png:
            return try streamedPNG(image, bitDepth: options.bitDepth, colorSpace: options.colorSpace, iccProfile: profile,
                                   exif: options.exif(size: size), xmp: options.jpegSegments(size: size).xmp, destination: destination,
                                   progress: progress)
        case .heif:
            // 8-bit RGB(A), straight alpha, converted to YCbCr by libheif (which takes the image whole).
            let buffer = try render(image, format: .rgba8, colorSpace: options.colorSpace, progress: progress)
            var samples = buffer.bytes
            let pixels = buffer.width * buffer.height
            let opaque = samples.withUnsafeMutableBytes { raw in
                let words = raw.bindMemory(to: UInt8.self).baseAddress!
                let opaque = StraightAlpha.convert(words, pixels: pixels)
                if opaque { StraightAlpha.dropAlpha(words, pixels: pixels) }
                return opaque
            }
            if opaque { samples.removeLast(pixels) }
            return try destination.deliver(
                HEIFCodec.encode(width: buffer.width, height: buffer.height, channels: opaque ? 3 : 4, bytes: samples,
                                 quality: options.quality, iccProfile: profile, exif: options.exif(size: size),
                                 xmp: options.jpegSegments(size: size).xmp))
        }
    }

    /// Renders and writes `image` to `path` atomically (streamed into a `PendingFile` of GraphCodecs beside it,
    /// then renamed): a failed render or encode leaves no file. The format comes from the extension
    /// unless given. Paths in `protectedPaths` (the render's inputs) are never overwritten.
    /// `progress`, when given, counts the pixels written and can cancel the write (no file is left).
    public func write(_ image: Image, to path: String, format: OutputFileFormat? = nil,
                      options: ImageWriteOptions = ImageWriteOptions(), protectedPaths: [String] = [],
                      progress: RenderProgress? = nil) throws {
        guard let resolved = format ?? OutputFileFormat(path: path) else {
            throw GraphError.invalidParameter(filter: "output", key: "file",
                                              reason: OutputFileFormat.unknownFormatMessage(path: path))
        }
        if Context.isSameFile(path, asAnyOf: protectedPaths) {
            throw GraphError.renderFailed("refusing to overwrite '\(path)': it is an input of this render")
        }
        let file = try PendingFile(path: path)
        do {
            try encode(image, format: resolved, options: options, to: file.descriptor, progress: progress)
        } catch let error as CodecError where error.path == nil {
            throw error.at(path: path)  // e.g. a full disk
        }
        try file.commit()
    }

    /// The ICC profile that tags an output in `space` (nil for spaces without a built-in profile).
    static func iccProfile(for space: ColorSpace) -> [UInt8]? {
        switch space {
        case .sRGB: return ICCProfile.sRGBBytes
        case .displayP3: return ICCProfile.displayP3Bytes
        case .linearSRGB: return ICCProfile.linearSRGBBytes
        default: return nil
        }
    }

    /// Whether `path` names the same file as any of `others` (after resolving symlinks).
    public static func isSameFile(_ path: String, asAnyOf others: [String]) -> Bool {
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return others.contains { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path == target }
    }
}
