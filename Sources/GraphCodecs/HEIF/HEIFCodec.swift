import CLibHeif

/// HEIF/HEIC reading: headers and metadata from the box structure (`HEIFStructure`, no decoding), pixels through
/// libheif (HEVC via libde265 on Debian).
///
/// - The primary image decodes to 8-bit RGB (RGBA with an alpha item), or 16-bit for deeper
///   images, with its `irot`/`imir`/`clap` applied unless `DecodeOptions.applyOrientation` is
///   false. HEIF's own transformations replace EXIF orientation, which is ignored (HEIF rule):
///   `metadata.exifOrientation` reports the equivalent of the item's transformations.
/// - Its colour profile is the `colr` ICC profile; an `nclx` colour of sRGB, Display P3 or
///   linear sRGB is given the matching built-in profile.
/// - Auxiliary items (depth, mattes, gain maps) decode to one grey channel.
public enum HEIFCodec {
    /// Reads the item structure and metadata: no pixels are decoded.
    public static func readInfo(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        let structure = try HEIFStructure.parse(bytes)
        guard let primary = structure.item(structure.primaryItemID) else {
            throw HEIFStructure.failure("no primary item", box: "pitm")
        }
        guard let (width, height) = extent(of: primary) else {
            throw HEIFStructure.failure("the primary item \(primary.id) has no size (ispe)", box: "ispe")
        }
        var warnings: [String] = []
        let metadata = self.metadata(structure, bytes, warnings: &warnings)
        let auxiliary = structure.items(referring: "auxl", to: primary.id)
        let hasAlpha = auxiliary.contains { urn(of: $0).map(isAlpha) ?? false }
        let bits = pixelBits(of: primary)
        let channels = max(1, bits.count) + (hasAlpha ? 1 : 0)
        let model = bits.count == 1 ? (hasAlpha ? "grey+alpha" : "grey") : (hasAlpha ? "YCbCr+alpha" : "YCbCr")
        let images = auxiliary.filter { !(urn(of: $0).map(isAlpha) ?? false) }.map {
            describeAuxiliary($0, structure, bytes, warnings: &warnings)
        }
        return ImageInfo(format: .heif, width: width, height: height, channels: channels, bitDepth: bits.max() ?? 8,
                         colorModel: "\(model) (\(primary.type))", metadata: metadata, warnings: warnings,
                         auxiliaryImages: images)
    }

    /// Decodes the primary image.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        let structure = try HEIFStructure.parse(bytes)
        var warnings: [String] = []
        var metadata = self.metadata(structure, bytes, warnings: &warnings)
        var decoded = try withContext(bytes, options: options) { context throws(CodecError) -> DecodedImage in
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle), "cannot open the primary image", segment: "pitm")
            guard let handle else { throw HEIFStructure.failure("no primary image", box: "pitm") }
            defer { heif_image_handle_release(handle) }
            try options.checkSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)),
                                  format: .heif)
            let alpha = heif_image_handle_has_alpha_channel(handle) != 0
            let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
            let chroma = deep ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
            return try decodeImage(handle, colorspace: heif_colorspace_RGB, chroma: chroma, channel: heif_channel_interleaved,
                                   channels: alpha ? 4 : 3, applyTransformations: options.applyOrientation,
                                   what: "the primary image (item \(structure.primaryItemID))")
        }
        metadata.orientationApplied = options.applyOrientation && metadata.exifOrientation != 1
        decoded.metadata = metadata
        decoded.warnings = warnings
        return decoded
    }

    /// Decodes auxiliary item `itemID` of the primary image (a depth map, matte or gain map) to
    /// one grey channel, 8-bit (16-bit when stored deeper), with its own `irot`/`imir` applied
    /// unless `applyTransformations` is false.
    public static func decodeAuxiliary(_ bytes: [UInt8], itemID: UInt32, applyTransformations: Bool = true,
                                       options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        try withContext(bytes, options: options) { context throws(CodecError) -> DecodedImage in
            var primary: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &primary), "cannot open the primary image", segment: "pitm")
            guard let primary else { throw HEIFStructure.failure("no primary image", box: "pitm") }
            defer { heif_image_handle_release(primary) }
            let part = "auxiliary item \(itemID)"
            var handle: OpaquePointer?
            if ids(count: heif_image_handle_get_number_of_depth_images(primary), {
                heif_image_handle_get_list_of_depth_image_IDs(primary, $0, $1)
            }).contains(itemID) {
                try check(heif_image_handle_get_depth_image_handle(primary, itemID, &handle), "cannot open \(part)", segment: part)
            } else if ids(count: heif_image_handle_get_number_of_auxiliary_images(primary, 0), {
                heif_image_handle_get_list_of_auxiliary_image_IDs(primary, 0, $0, $1)
            }).contains(itemID) {
                try check(heif_image_handle_get_auxiliary_image_handle(primary, itemID, &handle), "cannot open \(part)", segment: part)
            } else {
                throw CodecError(.invalidArgument, "item \(itemID) is not an auxiliary image of the primary image", format: .heif, segment: part)
            }
            guard let handle else { throw HEIFStructure.failure("cannot open \(part)", box: part) }
            defer { heif_image_handle_release(handle) }
            try options.checkSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)),
                                  format: .heif)
            var image = try decodeImage(handle, colorspace: heif_colorspace_monochrome, chroma: heif_chroma_monochrome,
                                        channel: heif_channel_Y, channels: 1, applyTransformations: applyTransformations, what: part)
            image.metadata = ImageMetadata(format: .heif)
            return image
        }
    }

    // MARK: libheif

    /// Runs `body` with a libheif context reading `bytes` in place (not copied: they outlive it).
    private static func withContext<R>(_ bytes: [UInt8], options: DecodeOptions,
                                       _ body: (OpaquePointer) throws(CodecError) -> R) throws(CodecError) -> R {
        let result: Result<R, CodecError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(CodecError) -> R in
                guard let context = heif_context_alloc() else {
                    throw CodecError(.tooLarge, "libheif could not allocate a context", format: .heif)
                }
                defer { heif_context_free(context) }
                // libheif's own limit is on each side (65536); ours on the pixel count is checked per image.
                heif_context_set_maximum_image_size_limit(context, 1 << 16)
                try check(heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil),
                          "cannot read the HEIF structure", segment: "meta")
                return try body(context)
            }
        }
        return try result.get()
    }

    private static func decodeImage(_ handle: OpaquePointer, colorspace: heif_colorspace, chroma: heif_chroma,
                                    channel: heif_channel, channels: Int, applyTransformations: Bool,
                                    what: String) throws(CodecError) -> DecodedImage {
        guard let options = heif_decoding_options_alloc() else {
            throw CodecError(.tooLarge, "libheif could not allocate decoding options", format: .heif, segment: what)
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = applyTransformations ? 0 : 1
        var decoded: OpaquePointer?
        try check(heif_decode_image(handle, &decoded, colorspace, chroma, options), "cannot decode \(what)", segment: what)
        guard let decoded else { throw HEIFStructure.failure("libheif returned no image for \(what)", box: what) }
        defer { heif_image_release(decoded) }
        let width = Int(heif_image_get_width(decoded, channel)), height = Int(heif_image_get_height(decoded, channel))
        let range = Int(heif_image_get_bits_per_pixel_range(decoded, channel))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(decoded, channel, &stride) else {
            throw HEIFStructure.failure("libheif returned no pixels for \(what)", box: what)
        }
        let deep = range > 8
        let rowBytes = width * channels * (deep ? 2 : 1)
        guard Int(stride) >= rowBytes else { throw HEIFStructure.failure("libheif returned a short row for \(what)", box: what) }
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { out in
            guard let base = out.baseAddress else { return }
            for row in 0..<height { (base + row * rowBytes).copyMemory(from: plane + row * Int(stride), byteCount: rowBytes) }
            if deep {
                // Little-endian samples of `range` bits to native-endian 16-bit full scale.
                let samples = out.bindMemory(to: UInt16.self)
                let top = Double((1 << range) - 1)
                for i in samples.indices {
                    let value = Double(UInt16(littleEndian: samples[i]))
                    samples[i] = UInt16(min(65535, (value * 65535 / top).rounded()))
                }
            }
        }
        return DecodedImage(width: width, height: height, channels: channels, bitDepth: deep ? 16 : 8, bytes: bytes,
                            metadata: ImageMetadata(format: .heif))
    }

    private static func ids(count: Int32, _ list: (UnsafeMutablePointer<heif_item_id>, Int32) -> Int32) -> [UInt32] {
        guard count > 0, count < 1 << 16 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: Int(count))
        let filled = ids.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { list($0, count) } ?? 0 }
        return Array(ids.prefix(Int(max(0, min(filled, count)))))
    }

    static func check(_ error: heif_error, _ what: String, segment: String) throws(CodecError) {
        guard error.code != heif_error_Ok else { return }
        // libheif's messages quote the file ("Security limit exceeded:\n [meta]…", box types).
        let message = error.message.map { FileText.escaped(cString: $0) } ?? "error \(error.code.rawValue)"
        let kind: CodecError.Kind
        switch error.code {
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature: kind = .unsupported
        case heif_error_Memory_allocation_error: kind = .tooLarge
        default: kind = error.subcode == heif_suberror_Security_limit_exceeded ? .tooLarge : .corrupt
        }
        throw CodecError(kind, "\(what): \(message)", format: .heif, segment: segment, libraryMessage: message)
    }

    // MARK: Structure

    /// The primary item's metadata: orientation from its transformations, colour profile, Exif and
    /// XMP items (`cdsc` references to it).
    static func metadata(_ structure: HEIFStructure, _ bytes: [UInt8], warnings: inout [String]) -> ImageMetadata {
        var metadata = ImageMetadata(format: .heif)
        guard let primary = structure.item(structure.primaryItemID) else { return metadata }
        metadata.exifOrientation = orientation(of: primary.properties)
        metadata.fileBitDepth = pixelBits(of: primary).max() ?? 8
        for property in primary.properties {
            switch property {
            case .iccProfile(let icc) where metadata.iccProfile == nil:
                metadata.iccProfile = icc
            case .nclx(let primaries, let transfer, _, _) where metadata.iccProfile == nil:
                switch (primaries, transfer) {
                case (1, 13), (1, 1), (1, 6), (2, 13), (2, 2): metadata.iccProfile = ICCProfile.sRGBBytes
                case (12, 13), (12, 1), (12, 6): metadata.iccProfile = ICCProfile.displayP3Bytes
                case (1, 8): metadata.iccProfile = ICCProfile.linearSRGBBytes
                default:
                    warnings.append("nclx colour (primaries \(primaries), transfer \(transfer)) is not one of sRGB, Display P3 or linear sRGB; treated as sRGB")
                }
            default: break
            }
        }
        for item in structure.items(referring: "cdsc", to: primary.id) {
            let segmentName: String
            do throws(CodecError) {
                if item.type == "Exif" {
                    segmentName = "item \(item.id) Exif"
                    let data = try structure.data(of: item.id, in: bytes)
                    // A 32-bit offset from after itself to the TIFF header.
                    guard let skip = ByteReader(data).u32(0).map(Int.init), skip <= data.count - 4 else {
                        warnings.append("\(segmentName): malformed (no TIFF header offset)")
                        continue
                    }
                    metadata.exif = Array(data[(4 + skip)...])
                } else if item.type == "mime", item.contentType == "application/rdf+xml" {
                    segmentName = "item \(item.id) XMP"
                    metadata.xmp = XMP.packetText(try structure.data(of: item.id, in: bytes))
                } else {
                    continue
                }
            } catch {
                warnings.append("metadata item \(item.id): \(error.message)")
                continue
            }
            let location = structure.locations[item.id]
            let offset = location?.constructionMethod == 0 ? location?.extents.first?.offset ?? -1 : -1
            let length = location?.extents.reduce(0) { $0 + $1.length } ?? 0
            metadata.segments.append(MetadataSegment(name: segmentName, offset: offset, length: length))
        }
        return metadata
    }

    /// One auxiliary item of the primary: its type, size, orientation, XMP and depth SEI.
    static func describeAuxiliary(_ item: HEIFStructure.Item, _ structure: HEIFStructure, _ bytes: [UInt8],
                                  warnings: inout [String]) -> AuxiliaryImageInfo {
        let urn = urn(of: item) ?? "(no auxC)"
        let (width, height) = extent(of: item) ?? (0, 0)
        let bits = pixelBits(of: item)
        var info = AuxiliaryImageInfo(kind: .unknown, type: urn, location: .heifItem(item.id), width: width, height: height,
                                      channels: max(1, bits.count), bitDepth: bits.max() ?? 8,
                                      codec: item.type == "hvc1" ? "HEVC" : item.type,
                                      orientation: orientation(of: item.properties))
        for described in structure.items(referring: "cdsc", to: item.id)
        where described.type == "mime" && described.contentType == "application/rdf+xml" {
            do throws(CodecError) {
                info.apple = AppleDepthXMP.parse(XMP.packetText(try structure.data(of: described.id, in: bytes)))
            } catch {
                info.problems.append("item \(item.id)'s XMP (item \(described.id)): \(error.message)")
            }
        }
        let isDepth = ["urn:mpeg:hevc:2015:auxid:2", "urn:mpeg:mpegB:cicp:systems:auxiliary:depth"].contains(urn)
        if isDepth {
            for case .auxiliaryType(_, let subtype) in item.properties where !subtype.isEmpty {
                info.depthRepresentation = HEVCDepthRepresentation.parse(auxiliarySubtype: subtype)
            }
            let appleType = info.apple?.auxiliaryImageType?.lowercased()
            if appleType == "depth" || (appleType == nil && info.depthRepresentation?.type == 2) {
                info.kind = .depth
            } else {
                info.kind = .disparity
            }
            if let apple = info.apple, apple.floatMinValue != nil || apple.floatMaxValue != nil {
                if let problem = apple.valueEncodingProblem { info.problems.append("item \(item.id): \(problem)") }
                if let sei = info.depthRepresentation, let low = sei.dMin, let high = sei.dMax,
                   let xmpLow = apple.floatMinValue, let xmpHigh = apple.floatMaxValue,
                   abs(low - xmpLow) > 1e-5 * max(1, abs(low)) || abs(high - xmpHigh) > 1e-5 * max(1, abs(high)) {
                    warnings.append("item \(item.id): the XMP range \(xmpLow)...\(xmpHigh) differs from the depth SEI's \(low)...\(high); the XMP is used")
                }
            } else if info.depthRepresentation?.type == 3 {
                info.problems.append("item \(item.id): non-uniform disparity (depth SEI type 3) is not supported")
            } else if info.valueRange == nil {
                info.problems.append("item \(item.id): no value range (no apdi:FloatMinValue/FloatMaxValue, no d_min/d_max or z_near/z_far in the depth SEI)")
            }
            if info.apple?.isPortraitEffectsMatte == true { info.kind = .portraitEffectsMatte }
        } else if let kind = AppleAuxiliaryType.kind(of: urn) {
            info.kind = kind
        }
        return info
    }

    static func urn(of item: HEIFStructure.Item) -> String? {
        for case .auxiliaryType(let urn, _) in item.properties { return urn }
        return nil
    }

    static func isAlpha(_ urn: String) -> Bool {
        urn == "urn:mpeg:hevc:2015:auxid:1" || urn == "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"
    }

    static func extent(of item: HEIFStructure.Item) -> (Int, Int)? {
        for case .spatialExtent(let width, let height) in item.properties { return (width, height) }
        return nil
    }

    static func pixelBits(of item: HEIFStructure.Item) -> [Int] {
        for case .pixelInformation(let bits) in item.properties { return bits }
        return []
    }

    /// The EXIF orientation (1...8) equivalent to an item's `irot` and `imir`, applied in
    /// property order. Each is a 2×2 integer matrix on direction vectors (x right, y down).
    static func orientation(of properties: [HEIFStructure.Property]) -> Int {
        var m = (1, 0, 0, 1)  // (a, b, c, d): x' = a·x + b·y, y' = c·x + d·y
        func apply(_ op: (Int, Int, Int, Int)) {
            m = (op.0 * m.0 + op.1 * m.2, op.0 * m.1 + op.1 * m.3, op.2 * m.0 + op.3 * m.2, op.2 * m.1 + op.3 * m.3)
        }
        for property in properties {
            switch property {
            case .rotation(let quarterTurns):
                for _ in 0..<quarterTurns { apply((0, 1, -1, 0)) }  // anticlockwise: right → up
            case .mirror(let axis):
                apply(axis == 0 ? (-1, 0, 0, 1) : (1, 0, 0, -1))
            default: break
            }
        }
        switch m {
        case (-1, 0, 0, 1): return 2
        case (-1, 0, 0, -1): return 3
        case (1, 0, 0, -1): return 4
        case (0, 1, 1, 0): return 5
        case (0, -1, 1, 0): return 6
        case (0, -1, -1, 0): return 7
        case (0, 1, -1, 0): return 8
        default: return 1
        }
    }
}
