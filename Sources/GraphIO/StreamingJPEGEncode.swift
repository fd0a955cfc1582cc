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
