import Dispatch
import GraphCodecs

extension Context {
    /// Renders `image` in bands of rows, top first, and JPEG-encodes each band on another thread
    /// while the next band renders (a ring of three bands between them). With a streaming source
    /// the decode overlaps too: decode, filter and encode run as a pipeline, and only a window of
    /// its rows is held. Bands: see ``streamedBands(_:area:outputBytesPerPixel:ringSlots:encoderBytes:)``. The
    /// file goes to memory (returned) or streams into `destination`'s descriptor (returns `[]`).
    func streamedJPEG(_ image: Image, options writeOptions: ImageWriteOptions, iccProfile: [UInt8]?,
                      destination: EncodeDestination, progress: RenderProgress? = nil) throws -> [UInt8] {
        let area = try renderRect(image, nil)
        let (root, plan, _) = try self.plan(image, rect: area, destination: .rgb8, colorSpace: writeOptions.colorSpace,
                                            sequential: true)
        defer { SequentialSourceReads.stopDecodes(of: root) }
        var executor = backend(for: plan)
        if let lookup = try executor.rowLookup(area: area), let source = jpegFile(image, decodedAs: lookup.source) {
            // One channel lookup over the whole of one JPEG: its rows go from the decoder through the
            // tables to the encoder on two threads, without the render's decoded buffer and workers.
            SequentialSourceReads.stopDecodes(of: root)  // the plan's windowed decode waits for demand: none comes
            return try transcoded(source, options: writeOptions, size: area, iccProfile: iccProfile, destination: destination,
                                  progress: progress, lookup: lookup)
        }
        executor.progress = progress
        progress?.expect(pixels: area.pixelCount)
        let (bands, reads) = try streamedBands(&executor, area: area, outputBytesPerPixel: 3, ringSlots: 3)
        let bandRows = bands.first?.height ?? 1
        let rowBytes = area.width * 3
        let segments = writeOptions.jpegSegments(size: area)
        let encoder: JPEGRowEncoder
        if let fd = destination.fileDescriptor {
            encoder = try JPEGRowEncoder(width: area.width, height: area.height, channels: 3, quality: writeOptions.quality,
                                         subsampling: writeOptions.subsampling, progressive: writeOptions.progressive,
                                         iccProfile: iccProfile, xmp: segments.xmp, extendedXMP: segments.extendedXMP,
                                         exif: segments.exif, comment: segments.comment, fileDescriptor: fd)
        } else {
            encoder = try JPEGRowEncoder(width: area.width, height: area.height, channels: 3, quality: writeOptions.quality,
                                         subsampling: writeOptions.subsampling, progressive: writeOptions.progressive,
                                         iccProfile: iccProfile, xmp: segments.xmp, extendedXMP: segments.extendedXMP,
                                         exif: segments.exif, comment: segments.comment, initialCapacity: area.pixelCount / 4)
        }
        let ring = BandRing(count: 3, bandBytes: rowBytes * bandRows)
        let consumer = EncodeConsumer(encoder: encoder, ring: ring, rowBytes: rowBytes)
        guard let thread = JoinableThread({ consumer.run() }) else {
            throw GraphError.renderFailed("could not start the encoder thread")
        }
        try renderBands(bands, reads: reads, backend: executor, format: .rgb8, rowBytes: rowBytes,
                        ring: ring, encoderThread: thread)
        if let failure = consumer.failure { throw failure }
        try plan.checkStreamingSources()
        return try encoder.finish()
    }
}

extension Context {
    /// The JPEG file whose full-size decode `buffer` is, when `image` reads exactly one file, a
    /// three-channel JPEG of `buffer`'s size (at least 2×2: a reduced decode of that is smaller).
    func jpegFile(_ image: Image, decodedAs buffer: ImageBuffer) -> JPEGFileSource? {
        let files = RegionOfInterest.topologicalOrder(image.node).compactMap { node -> (any FileSource)? in
            if case .file(let source) = node.kind { return source }
            return nil
        }
        guard files.count == 1, let source = files[0] as? JPEGFileSource, source.channels == 3, source.width >= 2,
              source.height >= 2, source.width == buffer.width, source.height == buffer.height else { return nil }
        return source
    }
}

/// The encoder side of ``Context/streamedJPEG(_:options:iccProfile:progress:)``.
private final class EncodeConsumer: @unchecked Sendable {
    let encoder: JPEGRowEncoder
    let ring: BandRing
    let rowBytes: Int
    /// Set by the encoder thread before it ends; read after joining it.
    var failure: CodecError?

    init(encoder: JPEGRowEncoder, ring: BandRing, rowBytes: Int) {
        self.encoder = encoder
        self.ring = ring
        self.rowBytes = rowBytes
    }

    func run() {
        while let (slot, rows, _) = ring.acquireFilled() {
            if rows == 0 {
                ring.release()
                return
            }
            do {
                try encoder.writeRows(ring.band(slot), rowBytes: rowBytes, count: rows)
            } catch {
                failure = error
                ring.cancel()
                return
            }
            ring.release()
        }
    }
}
