import CCodecShims
import CZlib

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compresses a PNG's filtered image data on several threads, pigz's way, into one zlib stream.
///
/// The filtered rows are cut into bands of ``defaultBandBytes`` or more (whole rows). Each band is
/// deflated on its own by one of `threads` worker threads (raw deflate at the PNG's level, libpng's
/// window, memory level and `Z_FILTERED`), primed with the 32 KiB of filtered data before it
/// (`deflateSetDictionary`, so matches reach back across the cut as in one stream) and ended with a
/// sync flush: a byte-aligned empty stored block that is not final, so the next band's data can
/// follow. The first band starts with the zlib header, the last ends with the final block and the
/// stream's Adler-32, combined from the bands' (`adler32_combine`). The bands are handed to
/// `write` in order, on the caller's thread, as soon as each is done.
///
/// The caller fills the band ``fillSpace()`` points to (at most ``rowsFree`` rows) and ``commit(rows:)``s
/// them. Memory is bounded: `threads + 2` bands in flight (the one being filled, the ones being
/// deflated, one done and waiting for those before it); a band's rows are dropped once written.
/// The bands, and so the bytes written, depend only on the rows, not on `threads`.
final class PNGBandCompressor: @unchecked Sendable {
    /// Filtered bytes per band at least: 512 KiB cost +0.002% against one stream on the T8 photo
    /// (128 KiB: +0.02%), from the block ends and sync flushes.
    static let defaultBandBytes = 512 << 10
    /// Bytes of the previous band each band is primed with: deflate's whole window.
    static let dictionaryBytes = 32 << 10

    /// Bytes of one filtered row (filter type byte + row).
    let rowBytes: Int
    /// Rows per band (the last band has the rest).
    let rowsPerBand: Int
    /// Rows of the whole image.
    let totalRows: Int

    private let write: (UnsafeRawBufferPointer) throws(CodecError) -> Void
    private let queue: BandQueue
    private var slots: [BandSlot] { queue.slots }
    private var workers: [JoinableThread] = []
    // The caller's alone: rows committed, bands written, the stream's Adler-32 so far.
    private var committedRows = 0
    private var written = 0
    private var adler: UInt = 1

    /// A compressor of `totalRows` filtered rows of `rowBytes` bytes at zlib `level` on `threads`
    /// worker threads, in bands of `bandBytes` or more (at least 32 KiB, the dictionary the next
    /// band takes); `write` gets the zlib stream piece by piece.
    init(rowBytes: Int, totalRows: Int, level: Int, threads: Int, bandBytes: Int = defaultBandBytes,
         write: @escaping (UnsafeRawBufferPointer) throws(CodecError) -> Void) throws(CodecError) {
        self.rowBytes = rowBytes
        self.totalRows = totalRows
        self.write = write
        let bandBytes = max(bandBytes, Self.dictionaryBytes)
        let rowsPerBand = min(max(1, (bandBytes + rowBytes - 1) / rowBytes), totalRows)
        self.rowsPerBand = rowsPerBand
        let bandCount = (totalRows + rowsPerBand - 1) / rowsPerBand
        let threads = min(max(1, threads), bandCount)
        queue = BandQueue(slots: (0..<min(threads + 2, bandCount)).map { _ in
            BandSlot(capacity: Self.dictionaryBytes + rowsPerBand * rowBytes)
        })
        for _ in 0..<threads {
            guard let worker = JoinableThread({ [queue] in queue.work(level: level) }) else {
                throw CodecError(.tooLarge, "could not start a PNG compression thread", format: .png)
            }
            workers.append(worker)
        }
    }

    deinit { stopWorkers() }

    /// Bytes this compressor holds for an image with filtered rows of `rowBytes` on `threads`
    /// threads: the bands in flight, their compressed forms, and zlib's state per worker.
    static func workingBytes(rowBytes: Int, threads: Int) -> Int {
        let band = max(defaultBandBytes, rowBytes) + dictionaryBytes
        let deflateState = 256 << 10 + 8 << 10
        return (threads + 2) * 2 * band + threads * deflateState
    }

    /// Rows the band being filled can still take (0 once every row is committed).
    var rowsFree: Int {
        let bandEnd = min((committedRows / rowsPerBand + 1) * rowsPerBand, totalRows)
        return bandEnd - committedRows
    }

    /// Where the next filtered row goes: the band being filled, after the rows committed to it.
    /// Waits until the band's slot is free (writing the band that held it).
    func fillSpace() throws(CodecError) -> UnsafeMutablePointer<UInt8> {
        let band = committedRows / rowsPerBand
        let slot = slots[band % slots.count]
        if committedRows % rowsPerBand == 0 {
            // A new band: its slot was last used by band `band - slots.count`.
            while written <= band - slots.count { try writeNext(wait: true) }
            if band > 0 {
                // Primed with the end of the previous band (at least 32 KiB: bands are 512 KiB or more).
                let previous = slots[(band - 1) % slots.count]
                let length = min(Self.dictionaryBytes, previous.dataBytes)
                slot.start(dictionary: previous.data + previous.dataBytes - length, length: length)
            } else {
                slot.start(dictionary: nil, length: 0)
            }
        }
        return slot.data + slot.dataBytes
    }

    /// Adds `rows` filtered rows, written at ``fillSpace()``, to the band being filled (at most
    /// ``rowsFree``); a band that is full, or holds the last row, goes to the workers. Writes the
    /// bands that are done, in order.
    func commit(rows: Int) throws(CodecError) {
        let band = committedRows / rowsPerBand
        let slot = slots[band % slots.count]
        slot.dataBytes += rows * rowBytes
        committedRows += rows
        if committedRows % rowsPerBand == 0 || committedRows == totalRows {
            slot.seal(first: band == 0, last: committedRows == totalRows)
            queue.submit()
        }
        while written < queue.submitted, try writeNext(wait: false) {}
    }

    /// Writes every band still in flight (all rows committed) and stops the workers.
    func finish() throws(CodecError) {
        while written < queue.submitted { try writeNext(wait: true) }
        stopWorkers()
    }

    /// Writes the next band in order when it is done (waiting for it when `wait`); whether it did.
    @discardableResult
    private func writeNext(wait: Bool) throws(CodecError) -> Bool {
        let slot = slots[written % slots.count]
        guard queue.isDone(slot, wait: wait) else { return false }
        let band = slot.band
        guard slot.status == Z_OK else {
            let reason = String(cString: zError(slot.status))
            throw CodecError(slot.status == Z_MEM_ERROR ? .tooLarge : .corrupt,
                             "zlib failed to compress the PNG image data: \(reason)", format: .png, libraryMessage: reason)
        }
        adler = adler32_combine(adler, band.pointee.adler, off_t(band.pointee.size))
        var size = band.pointee.output_size
        if band.pointee.last != 0 {
            // The stream's Adler-32, big-endian, in the 4 bytes the last band keeps free.
            for i in 0..<4 { band.pointee.output[size + i] = UInt8(truncatingIfNeeded: adler >> (24 - 8 * i)) }
            size += 4
        }
        try write(UnsafeRawBufferPointer(start: band.pointee.output, count: size))
        written += 1
        return true
    }

    private func stopWorkers() {
        queue.stop()
        for worker in workers { worker.join() }
        workers = []
    }
}

/// The bands in flight and the workers' queue: bands are deflated in the order they are submitted.
private final class BandQueue: @unchecked Sendable {
    let slots: [BandSlot]
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workReady = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let bandDone = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`: bands submitted, bands taken by a worker; stop the workers.
    private var submittedCount = 0, taken = 0
    private var stopping = false

    init(slots: [BandSlot]) {
        self.slots = slots
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workReady, nil)
        pthread_cond_init(bandDone, nil)
    }

    deinit {
        pthread_cond_destroy(bandDone)
        pthread_cond_destroy(workReady)
        pthread_mutex_destroy(mutex)
        bandDone.deallocate()
        workReady.deallocate()
        mutex.deallocate()
    }

    /// Bands submitted so far.
    var submitted: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return submittedCount
    }

    /// Hands the next band (in slot order) to the workers.
    func submit() {
        pthread_mutex_lock(mutex)
        submittedCount += 1
        pthread_cond_signal(workReady)
        pthread_mutex_unlock(mutex)
    }

    /// Whether `slot`'s band is deflated, waiting for it when `wait`.
    func isDone(_ slot: BandSlot, wait: Bool) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !slot.done && wait { pthread_cond_wait(bandDone, mutex) }
        return slot.done
    }

    /// A worker: deflates the bands in the order they come, one at a time, until stopped (when
    /// zlib cannot start, each band it takes fails with Z_MEM_ERROR).
    func work(level: Int) {
        let deflater = ccs_png_deflater_create(Int32(level))
        defer { ccs_png_deflater_destroy(deflater) }
        while true {
            pthread_mutex_lock(mutex)
            while taken == submittedCount && !stopping { pthread_cond_wait(workReady, mutex) }
            if stopping {
                pthread_mutex_unlock(mutex)
                return
            }
            let slot = slots[taken % slots.count]
            taken += 1
            pthread_mutex_unlock(mutex)
            let status = deflater.map { ccs_png_deflate_band($0, slot.band) } ?? Z_MEM_ERROR
            pthread_mutex_lock(mutex)
            slot.status = status
            slot.done = true
            pthread_cond_broadcast(bandDone)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Wakes the workers to end (a band being deflated is finished first).
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(workReady)
        pthread_mutex_unlock(mutex)
    }
}

/// The memory of one band in flight: the dictionary and filtered rows, and the C band record
/// (with the compressed bytes, which zlib's side grows as needed).
private final class BandSlot {
    let memory: UnsafeMutablePointer<UInt8>
    let band = UnsafeMutablePointer<ccs_png_band>.allocate(capacity: 1)
    /// Bytes of the dictionary in front of the rows.
    private(set) var dictionaryBytes = 0
    /// Bytes of filtered rows so far.
    var dataBytes = 0
    // Set by a worker under the compressor's mutex; reset by the caller before the band is submitted.
    var done = false
    var status: Int32 = Z_OK

    init(capacity: Int) {
        memory = .allocate(capacity: capacity)
        band.initialize(to: ccs_png_band())
    }

    deinit {
        ccs_free(band.pointee.output)
        band.deallocate()
        memory.deallocate()
    }

    /// The filtered rows (after the dictionary).
    var data: UnsafeMutablePointer<UInt8> { memory + dictionaryBytes }

    /// Starts a new band primed with `length` bytes from `dictionary`.
    func start(dictionary: UnsafePointer<UInt8>?, length: Int) {
        if let dictionary { memory.update(from: dictionary, count: length) }
        dictionaryBytes = length
        dataBytes = 0
        done = false
    }

    /// Describes the band for zlib, once its rows are all in.
    func seal(first: Bool, last: Bool) {
        band.pointee.dictionary = UnsafePointer(memory)
        band.pointee.dictionary_size = dictionaryBytes
        band.pointee.data = UnsafePointer(data)
        band.pointee.size = dataBytes
        band.pointee.first = first ? 1 : 0
        band.pointee.last = last ? 1 : 0
        band.pointee.output_size = 0
    }
}
