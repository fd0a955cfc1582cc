/// JPEG → JPEG re-encoding with decode and encode overlapped on two threads.
///
/// A dedicated thread runs `JPEGRowDecoder` into a bounded ring of row bands (`bandCount`
/// bands of `bandRows` rows); the calling thread feeds the filled bands to `JPEGRowEncoder`.
/// On two cores the wall time is about the slower of the two halves instead of their sum.
/// The pixels are the ones `JPEGCodec.decode` gives (without orientation) and the output is
/// byte-identical to `JPEGCodec.encode` of them with the same settings, whatever the band
/// size. An error on either side cancels the ring: both threads stop at the next band and
/// the first error is thrown (never a hang, never a partial file).
public enum JPEGTranscoder {
    /// The metadata segments the output carries.
    public enum Metadata: Sendable {
        /// None.
        case none
        /// The source's ICC profile, EXIF (orientation tag included: the pixels are not rotated,
        /// so viewers still show it upright), main XMP packet, extended XMP and first comment.
        /// The extended XMP is carried only when it was reassembled completely, its MD5 matches
        /// its GUID and the main packet names that GUID (`ImageMetadata.carriableExtendedXMP`);
        /// otherwise it is dropped (the transcoder returns no warnings; `JPEGCodec.readInfo` of
        /// the source says why). Other APPn segments (MPF and its auxiliary images included) are
        /// dropped.
        case source
        /// These segments, as `JPEGRowEncoder` writes them.
        case explicit(iccProfile: [UInt8]?, xmp: String?, extendedXMP: String?, exif: [UInt8]?, comment: String?)
    }

    /// Re-encodes `bytes` (a JPEG file).
    ///
    /// - `metadata`: which segments the output carries (see ``Metadata``).
    /// - `decodeOptions`: limits and scaled decoding (`jpegScaleDenominator`);
    ///   `outputRGBA` and `applyOrientation` are ignored. CMYK is converted to RGB.
    /// - `bandRows` × `bandCount` rows of memory sit between the threads; the image is never
    ///   held whole. With one band or less of image, no thread is started.
    /// - `eachBand`, when given, gets each band of decoded rows (packed rows of `width × channels`
    ///   bytes) on the encoding thread before they are encoded: it may change them in place (a
    ///   per-pixel filter on the way, such as a channel lookup: no render, no further copy) or
    ///   only count them (progress).
    /// - `transcode(_:toFile:...)` streams the output into the file instead of memory.
    public static func transcode(
        _ bytes: [UInt8], quality: Int = 90, subsampling: JPEGSubsampling = .s420, progressive: Bool = false,
        optimizeHuffman: Bool = false, metadata: Metadata = .source, decodeOptions: DecodeOptions = DecodeOptions(),
        bandRows: Int = 32, bandCount: Int = 4, eachBand: BandHook? = nil
    ) throws(CodecError) -> [UInt8] {
        try run(
            bytes, quality: quality, subsampling: subsampling, progressive: progressive, optimizeHuffman: optimizeHuffman,
            metadata: metadata, decodeOptions: decodeOptions, bandRows: bandRows, bandCount: bandCount,
            eachBand: eachBand, destination: .memory(bytes.count + 65536)
        ).bytes
    }

    /// Sees, and may change in place, `count` packed rows at `rows` (see `transcode`'s `eachBand`).
    public typealias BandHook = (_ rows: UnsafeMutableRawPointer, _ count: Int) -> Void

    /// The same, streaming the output into `path` atomically while it is encoded (temporary
    /// file beside it, fsync, rename: see `ImageFile.writeAtomically(to:body:)`); no output
    /// buffer is held. Returns the size of the file written. On error the target is untouched.
    @discardableResult
    public static func transcode(
        _ bytes: [UInt8], toFile path: String, allowOverwriting: Bool = true, quality: Int = 90,
        subsampling: JPEGSubsampling = .s420, progressive: Bool = false, optimizeHuffman: Bool = false,
        metadata: Metadata = .source, decodeOptions: DecodeOptions = DecodeOptions(), bandRows: Int = 32,
        bandCount: Int = 4
    ) throws(CodecError) -> Int {
        var size = 0
        try ImageFile.writeAtomically(to: path, allowOverwriting: allowOverwriting) { fd throws(CodecError) in
            size = try run(
                bytes, quality: quality, subsampling: subsampling, progressive: progressive,
                optimizeHuffman: optimizeHuffman, metadata: metadata, decodeOptions: decodeOptions,
                bandRows: bandRows, bandCount: bandCount, eachBand: nil, destination: .fileDescriptor(fd)
            ).count
        }
        return size
    }

    /// The same, streaming the output into `fileDescriptor` at its current offset (left open; the
    /// caller owns the file, e.g. a `PendingFile`). Returns the number of bytes written.
    @discardableResult
    public static func transcode(
        _ bytes: [UInt8], toFileDescriptor fileDescriptor: Int32, quality: Int = 90, subsampling: JPEGSubsampling = .s420,
        progressive: Bool = false, optimizeHuffman: Bool = false, metadata: Metadata = .source,
        decodeOptions: DecodeOptions = DecodeOptions(), bandRows: Int = 32, bandCount: Int = 4,
        eachBand: BandHook? = nil
    ) throws(CodecError) -> Int {
        try run(
            bytes, quality: quality, subsampling: subsampling, progressive: progressive, optimizeHuffman: optimizeHuffman,
            metadata: metadata, decodeOptions: decodeOptions, bandRows: bandRows, bandCount: bandCount,
            eachBand: eachBand, destination: .fileDescriptor(fileDescriptor)
        ).count
    }

    /// The same from `decoder`, its header read and no row yet (one reading a file as it goes:
    /// `JPEGRowDecoder(fileDescriptor:byteCount:header:options:)`), into memory. The decoder is
    /// used up; its options' `outputRGBA` should be off.
    public static func transcode(
        _ decoder: JPEGRowDecoder, quality: Int = 90, subsampling: JPEGSubsampling = .s420, progressive: Bool = false,
        optimizeHuffman: Bool = false, metadata: Metadata = .source, bandRows: Int = 32, bandCount: Int = 4,
        eachBand: BandHook? = nil
    ) throws(CodecError) -> [UInt8] {
        try run(
            decoder, quality: quality, subsampling: subsampling, progressive: progressive, optimizeHuffman: optimizeHuffman,
            metadata: metadata, bandRows: bandRows, bandCount: bandCount, eachBand: eachBand,
            destination: .memory(decoder.width * decoder.height / 4 + 65536)
        ).bytes
    }

    /// The same from `decoder`, streaming the output into `fileDescriptor` at its current offset
    /// (left open). Returns the number of bytes written.
    @discardableResult
    public static func transcode(
        _ decoder: JPEGRowDecoder, toFileDescriptor fileDescriptor: Int32, quality: Int = 90,
        subsampling: JPEGSubsampling = .s420, progressive: Bool = false, optimizeHuffman: Bool = false,
        metadata: Metadata = .source, bandRows: Int = 32, bandCount: Int = 4, eachBand: BandHook? = nil
    ) throws(CodecError) -> Int {
        try run(
            decoder, quality: quality, subsampling: subsampling, progressive: progressive, optimizeHuffman: optimizeHuffman,
            metadata: metadata, bandRows: bandRows, bandCount: bandCount, eachBand: eachBand,
            destination: .fileDescriptor(fileDescriptor)
        ).count
    }

    /// The shared body over the bytes: a decoder reading them in place.
    private static func run(
        _ bytes: [UInt8], quality: Int, subsampling: JPEGSubsampling, progressive: Bool, optimizeHuffman: Bool,
        metadata: Metadata, decodeOptions: DecodeOptions, bandRows: Int, bandCount: Int, eachBand: BandHook?,
        destination: JPEGRowEncoder.Destination
    ) throws(CodecError) -> (bytes: [UInt8], count: Int) {
        let result: Result<(bytes: [UInt8], count: Int), CodecError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(CodecError) -> (bytes: [UInt8], count: Int) in
                var options = decodeOptions
                options.outputRGBA = false
                return try run(
                    JPEGRowDecoder(bytes, unownedBuffer: buffer, options: options), quality: quality, subsampling: subsampling,
                    progressive: progressive, optimizeHuffman: optimizeHuffman, metadata: metadata, bandRows: bandRows,
                    bandCount: bandCount, eachBand: eachBand, destination: destination)
            }
        }
        return try result.get()
    }

    /// The shared body: the bytes (memory destination) or `[]` (file), and the output size.
    private static func run(
        _ decoder: JPEGRowDecoder, quality: Int, subsampling: JPEGSubsampling, progressive: Bool, optimizeHuffman: Bool,
        metadata: Metadata, bandRows: Int, bandCount: Int, eachBand: BandHook?,
        destination: JPEGRowEncoder.Destination
    ) throws(CodecError) -> (bytes: [UInt8], count: Int) {
        guard bandRows >= 1, bandCount >= 1 else {
            throw CodecError(.invalidArgument, "bandRows and bandCount must be at least 1 (got \(bandRows), \(bandCount))", format: .jpeg)
        }
        guard decoder.nextRow == 0 else {
            throw CodecError(.invalidArgument, "the decoder has read rows already (\(decoder.nextRow))", format: .jpeg)
        }
        let source = decoder.metadata
        let (icc, xmp, extendedXMP, exif, comment): ([UInt8]?, String?, String?, [UInt8]?, String?)
        switch metadata {
        case .none: (icc, xmp, extendedXMP, exif, comment) = (nil, nil, nil, nil, nil)
        case .source:
            (icc, xmp, extendedXMP, exif, comment) = (source.iccProfile, source.xmp, source.carriableExtendedXMP,
                                                      source.exif, source.comments.first)
        case .explicit(let i, let x, let e, let f, let c): (icc, xmp, extendedXMP, exif, comment) = (i, x, e, f, c)
        }
        let encoder = try JPEGRowEncoder(
            width: decoder.width, height: decoder.height, channels: decoder.channels, quality: quality,
            subsampling: subsampling, progressive: progressive, optimizeHuffman: optimizeHuffman,
            iccProfile: icc, xmp: xmp, extendedXMP: extendedXMP, exif: exif, comment: comment,
            destination: destination)
        try pump(decoder, into: encoder, bandRows: bandRows, bandCount: bandCount, eachBand: eachBand)
        let output = try encoder.finish()
        return (output, encoder.outputByteCount)
    }

    /// Moves every row from `decoder` to `encoder` (same size and channels), overlapped on
    /// two threads through a ring of bands; single-threaded when one band holds the image.
    /// `eachBand` gets each band before it is encoded, on the calling thread.
    /// The decoder must not be touched by the caller until this returns.
    static func pump(_ decoder: JPEGRowDecoder, into encoder: JPEGRowEncoder, bandRows: Int, bandCount: Int,
                     eachBand: BandHook? = nil) throws(CodecError) {
        let rowBytes = decoder.rowBytes
        let rowsLeft = decoder.height - decoder.nextRow
        if rowsLeft <= bandRows || bandCount < 2 {
            let band = UnsafeMutableRawPointer.allocate(byteCount: max(1, min(bandRows, rowsLeft) * rowBytes), alignment: 64)
            defer { band.deallocate() }
            while true {
                let rows = try decoder.readRows(into: band, rowBytes: rowBytes, maxRows: bandRows)
                if rows == 0 { return }
                eachBand?(band, rows)
                try encoder.writeRows(band, rowBytes: rowBytes, count: rows)
            }
        }

        let ring = BandRing(count: bandCount, bandBytes: bandRows * rowBytes)
        let producer = UncheckedBox(decoder)
        guard
            let thread = JoinableThread({
                let decoder = producer.value
                while let slot = ring.acquireFree() {
                    do throws(CodecError) {
                        let rows = try decoder.readRows(into: ring.band(slot), rowBytes: rowBytes, maxRows: bandRows)
                        ring.commit(rows: rows, error: nil)
                        if rows == 0 { return }
                    } catch {
                        ring.commit(rows: 0, error: error)
                        return
                    }
                }
            })
        else {
            throw CodecError(.io, "cannot start the decoder thread", format: .jpeg)
        }
        var failure: CodecError?
        while let (slot, rows, error) = ring.acquireFilled() {
            if let error { failure = error; break }
            if rows == 0 { break }
            do throws(CodecError) {
                eachBand?(ring.band(slot), rows)
                try encoder.writeRows(ring.band(slot), rowBytes: rowBytes, count: rows)
            } catch {
                failure = error
                break
            }
            ring.release()
        }
        ring.cancel()
        thread.join()
        if let failure { throw failure }
    }
}

/// Hands a non-Sendable object to exactly one other thread (the sender stops using it).
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
