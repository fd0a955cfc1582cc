import CLibHeif

extension HEIFCodec {
    /// The x265 settings HEIC outputs are encoded with. libheif's defaults (preset `slow`, intra
    /// transform depth 2) took 22.5 s of wall time and 25.5 s of CPU for a 12 MP photo on a 2-core
    /// machine; preset `ultrafast` with transform depth 1 takes about 1.7 s of CPU in x265, and
    /// rate-distortion level 1 (ultrafast's is 2) 10 % less again for the same SSIM and size.
    /// docs/recipes.md has the figures, ``libheifQuality(matchingJPEGQuality:)`` the quality.
    public static let encoderParameters: [(name: String, value: String)] = [
        ("preset", "ultrafast"), ("tu-intra-depth", "1"), ("x265:rd", "1"),
    ]

    /// JPEG qualities and the libheif qualities whose HEIC (with ``encoderParameters``) has about
    /// the same SSIM against the source, measured on a 12 MP iPhone photo; linear in between.
    static let qualityMatches: [(jpeg: Int, libheif: Int)] = [(1, 1), (50, 40), (75, 53), (90, 70), (95, 85), (100, 100)]

    /// The libheif quality (its lossy scale, 1...100) whose HEIC output has about the SSIM of a
    /// libjpeg JPEG of `quality`: 90 (the default) gives 70. So one `quality` means the same for
    /// both formats.
    public static func libheifQuality(matchingJPEGQuality quality: Int) -> Int {
        let quality = min(max(quality, 1), 100)
        guard let upper = qualityMatches.firstIndex(where: { $0.jpeg >= quality }), upper > 0 else { return quality }
        let (low, high) = (qualityMatches[upper - 1], qualityMatches[upper])
        let t = Double(quality - low.jpeg) / Double(high.jpeg - low.jpeg)
        return Int((Double(low.libheif) + t * Double(high.libheif - low.libheif)).rounded())
    }

    /// Encodes 8-bit RGB (3) or RGBA (4, alpha as an auxiliary alpha item) pixels as a HEIC
    /// image with libheif's HEVC encoder (x265, ``encoderParameters``): `quality` 1...100 on
    /// JPEG's scale (``libheifQuality(matchingJPEGQuality:)`` turns it into libheif's),
    /// `iccProfile` as a `colr prof` property, `exif` (a TIFF structure, with or without the
    /// "Exif\0\0" prefix) and `xmp` as metadata items. Auxiliary images (depth, mattes) cannot be
    /// added: libheif 1.15 has no API for them.
    public static func encode(
        width: Int, height: Int, channels: Int, bytes: [UInt8], quality: Int = 90, iccProfile: [UInt8]? = nil,
        exif: [UInt8]? = nil, xmp: String? = nil
    ) throws(CodecError) -> [UInt8] {
        guard channels == 3 || channels == 4 else {
            throw CodecError(.invalidArgument, "HEIC output takes 3 (RGB) or 4 (RGBA) channels, got \(channels)", format: .heif)
        }
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw CodecError(.invalidArgument, "invalid size \(width)x\(height)", format: .heif)
        }
        guard (1...100).contains(quality) else {
            throw CodecError(.invalidArgument, "quality must be 1...100, got \(quality)", format: .heif)
        }
        guard bytes.count == width * height * channels else {
            throw CodecError(.invalidArgument, "expected \(width * height * channels) bytes for \(width)x\(height)x\(channels), got \(bytes.count)", format: .heif)
        }
        guard let context = heif_context_alloc() else { throw CodecError(.tooLarge, "libheif could not allocate a context", format: .heif) }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "no HEVC encoder", segment: "encoder")
        guard let encoder else { throw CodecError(.unsupported, "libheif has no HEVC encoder", format: .heif) }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(libheifQuality(matchingJPEGQuality: quality))),
                  "cannot set the quality", segment: "encoder")
        for parameter in encoderParameters {
            try check(heif_encoder_set_parameter(encoder, parameter.name, parameter.value),
                      "cannot set the encoder's \(parameter.name) to \(parameter.value)", segment: "encoder")
        }

        var image: OpaquePointer?
        try check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB,
                                    channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image),
                  "cannot create the image", segment: "image")
        guard let image else { throw CodecError(.tooLarge, "libheif could not create a \(width)x\(height) image", format: .heif) }
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8),
                  "cannot add the pixel plane", segment: "image")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride), Int(stride) >= width * channels else {
            throw CodecError(.tooLarge, "libheif gave no pixel plane for \(width)x\(height)", format: .heif)
        }
        bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<height {
                (plane + row * Int(stride)).update(from: (base + row * width * channels).assumingMemoryBound(to: UInt8.self),
                                                   count: width * channels)
            }
        }
        if let iccProfile, !iccProfile.isEmpty {
            let status = iccProfile.withUnsafeBytes { heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count) }
            try check(status, "cannot attach the ICC profile", segment: "colr")
        }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, nil, &handle), "cannot encode the image", segment: "encoder")
        defer { if let handle { heif_image_handle_release(handle) } }
        if let exif, let handle {
            let tiff = exif.hasBytePrefix(EXIF.jpegPrefix) ? Array(exif[EXIF.jpegPrefix.count...]) : exif
            let status = tiff.withUnsafeBytes { heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) }
            try check(status, "cannot add the EXIF item", segment: "Exif")
        }
        if let xmp, let handle {
            let packet = Array(xmp.utf8)
            let status = packet.withUnsafeBytes { heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count)) }
            try check(status, "cannot add the XMP item", segment: "XMP")
        }
        let output = HEIFOutput()
        var writer = heif_writer(writer_api_version: 1, write: { _, data, size, userdata in
            if let userdata, let data {
                Unmanaged<HEIFOutput>.fromOpaque(userdata).takeUnretainedValue().bytes
                    += UnsafeRawBufferPointer(start: data, count: size)
            }
            let success = UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: success)
        })
        try check(heif_context_write(context, &writer, Unmanaged.passUnretained(output).toOpaque()), "cannot write the file",
                  segment: "write")
        return output.bytes
    }
}

/// Collects what libheif's writer callback hands over.
private final class HEIFOutput {
    var bytes: [UInt8] = []
}
