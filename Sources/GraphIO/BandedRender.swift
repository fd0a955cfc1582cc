import GraphCodecs

extension Context {
    /// The producer side of a banded encode (JPEG and PNG alike): renders `bands` top first, each
    /// into a free slot of `ring` as `format` rows of `rowBytes`, for the encoder running on `thread`,
    /// then commits the end-of-image marker. A failure cancels the ring; the thread is joined either
    /// way, so the encoder's own outcome can be read afterwards.
    func renderBands(_ bands: [PixelRect], reads: SequentialSourceReads, backend: some Backend,
                     format: PixelFormat, rowBytes: Int, ring: BandRing, encoderThread thread: JoinableThread) throws {
        let timings = StageTimings(count: backend.plan.stages.count)
        do {
            for (index, band) in bands.enumerated() {
                guard let slot = ring.acquireFree() else { break }
                reads.prepare(band: index)
                try backend.render(band, into: .buffer(SendablePointer(ring.band(slot)), rowBytes: rowBytes, format: format),
                                   timings: timings)
                ring.commit(rows: band.height, error: nil)
            }
            // The end-of-image marker for the encoder thread.
            if ring.acquireFree() != nil { ring.commit(rows: 0, error: nil) }
        } catch {
            ring.cancel()
            thread.join()
            throw error
        }
        thread.join()
    }
}
