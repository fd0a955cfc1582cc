import GraphCodecs

extension Context {
    /// The JPEG file that `image` is pixel for pixel, when rendering it to an 8-bit RGB JPEG
    /// would only copy the file's decoded rows: the image is the file itself (no filter, crop or
    /// transform), fusion is on (the unfused baseline always renders), its colour conversions
    /// cancel (colour management off, the file tagged as data, or already in the output space, or
    /// in the working space for a `.data` output),
    /// and it decodes to three channels (a grey JPEG renders as RGB). Nil otherwise.
    func directlyTranscodable(_ image: Image, colorSpace: OutputColorSpace? = nil) -> JPEGFileSource? {
        guard options.fusion, case .file(let source as JPEGFileSource) = image.node.kind, source.channels == 3 else { return nil }
        guard let working = options.workingColorSpace, let space = source.colorSpace else { return source }
        return space == (outputTarget(colorSpace).convertTo ?? working) ? source : nil
    }

    /// JPEG → JPEG without a render (`JPEGTranscoder`: decode and encode overlap on two threads
    /// through a ring of row bands, and neither the image nor the file is ever held whole). The
    /// encoder settings and segments are the rendered path's, so the bytes are the same (tested). Into memory
    /// (returned) or `destination`'s descriptor (returns `[]`). `size`: the image's, which the
    /// carried EXIF states. `lookup`: each decoded band goes through it before it is encoded (the
    /// render is that lookup: see ``Context/streamedJPEG(_:options:iccProfile:destination:progress:)``).
    func transcoded(_ source: JPEGFileSource, options writeOptions: ImageWriteOptions, size: PixelRect?, iccProfile: [UInt8]?,
                    destination: EncodeDestination, progress: RenderProgress?, lookup: RowLookup? = nil) throws -> [UInt8] {
        progress?.expect(pixels: source.width * source.height)
        let segments = writeOptions.jpegSegments(size: size)
        let metadata = JPEGTranscoder.Metadata.explicit(
            iccProfile: iccProfile, xmp: segments.xmp, extendedXMP: segments.extendedXMP, exif: segments.exif,
            comment: segments.comment)
        let width = source.width
        // Each band: through the lookup, if any, then counted as written.
        let eachBand = { (rows: UnsafeMutableRawPointer, count: Int) in
            lookup?.apply(rows, width: width, rows: count)
            progress?.finished(pixels: count * width)
        }
        var options = source.options
        options.outputRGBA = false
        var bytes: [UInt8] = []
        do {
            // The decoder reads the file as it goes, on the decoding thread (or bytes in memory in place).
            try source.data.withJPEGDecoder(options: options) { decoder in
                if let fd = destination.fileDescriptor {
                    try JPEGTranscoder.transcode(
                        decoder, toFileDescriptor: fd, quality: writeOptions.quality, subsampling: writeOptions.subsampling,
                        progressive: writeOptions.progressive, metadata: metadata, eachBand: eachBand)
                } else {
                    bytes = try JPEGTranscoder.transcode(
                        decoder, quality: writeOptions.quality, subsampling: writeOptions.subsampling,
                        progressive: writeOptions.progressive, metadata: metadata, eachBand: eachBand)
                }
            }
            // Nothing is written from a file changed while it was read.
            try source.data.checkUnchanged()
        } catch let error as CodecError {
            throw error.at(path: source.path)
        }
        return bytes
    }
}
