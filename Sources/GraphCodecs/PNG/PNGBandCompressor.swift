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
/// deflated on its own by one of `threads` worker threads with libdeflate at the PNG's level (on
/// zlib's scale; at level 6 on the T8 photo's filtered rows, three times the speed of zlib with
/// libpng's settings and 1% larger). Its
/// final block is then made non-final and followed by a byte-aligned empty stored block (what
/// zlib's sync flush writes), so the next band's data can follow: zlib's inflate with `Z_BLOCK`
/// finds where the last block starts (zlib's gzjoin method). The first band starts with the zlib
/// header, the last ends with the final block and the stream's Adler-32, combined from the bands'
/// (`adler32_combine`). The bands are handed to `write` in order, on the caller's thread, as soon
/// as each is done.
///
/// The caller fills the band ``fillSpace()`` points to (at most ``rowsFree`` rows) and ``commit(rows:)``s
/// them. Memory is bounded: `threads + 2` bands in flight (the one being filled, the ones being
/// deflated, one done and waiting for those before it); a band's rows are dropped once written.
/// The bands, and so the bytes written, depend only on the rows, not on `threads`.
final class PNGBandCompressor: @unchecked Sendable {
    /// Filtered bytes per band at least. Bands do not share matches (libdeflate takes no
    /// dictionary): on the T8 photo 512 KiB bands came out 0.05% smaller than one libdeflate
    /// stream, block splitting mattering more than the lost window.
    static let defaultBandBytes = 512 << 10

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

    /// A compressor of `totalRows` filtered rows of `rowBytes` bytes at `level` (0...9, zlib's
    /// scale) on `threads` worker threads, in bands of `bandBytes` or more; `write` gets the zlib
    /// stream piece by piece.
    init(rowBytes: Int, totalRows: Int, level: Int, threads: Int, bandBytes: Int = defaultBandBytes,
         write: @escaping (UnsafeRawBufferPointer) throws(CodecError) -> Void) throws(CodecError) {
        self.rowBytes = rowBytes
        self.totalRows = totalRows
        self.write = write
        let rowsPerBand = min(max(1, (bandBytes + rowBytes - 1) / rowBytes), totalRows)
        self.rowsPerBand = rowsPerBand
        let bandCount = (totalRows + rowsPerBand - 1) / rowsPerBand
        let threads = min(max(1, threads), bandCount)
        queue = BandQueue(slots: (0..<min(threads + 2, bandCount)).map { _ in
            BandSlot(capacity: rowsPerBand * rowBytes)
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
    /// threads: the bands in flight, their compressed forms, and each worker's libdeflate
    /// compressor (656 KiB at levels 2...9) and inflate walk (window and scratch).
    static func workingBytes(rowBytes: Int, threads: Int) -> Int {
        let band = max(defaultBandBytes, rowBytes)
        let workerState = 656 << 10 + 7 << 10 + 32 << 10 + 64 << 10
        return (threads + 2) * 2 * band + threads * workerState
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
            slot.start()
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
                             "failed to compress the PNG image data: \(reason)", format: .png, libraryMessage: reason)
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
    /// the compressor cannot start, each band it takes fails with Z_MEM_ERROR).
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

/// The memory of one band in flight: the filtered rows, and the C band record (with the
/// compressed bytes, which the C side grows as needed).
private final class BandSlot {
    /// The filtered rows.
    let data: UnsafeMutablePointer<UInt8>
    let band = UnsafeMutablePointer<ccs_png_band>.allocate(capacity: 1)
    /// Bytes of filtered rows so far.
    var dataBytes = 0
    // Set by a worker under the compressor's mutex; reset by the caller before the band is submitted.
    var done = false
    var status: Int32 = Z_OK

    init(capacity: Int) {
        data = .allocate(capacity: capacity)
        band.initialize(to: ccs_png_band())
    }

    deinit {
        ccs_free(band.pointee.output)
        band.deallocate()
        data.deallocate()
    }

    /// Starts a new band.
    func start() {
        dataBytes = 0
        done = false
    }

    /// Describes the band for the C side, once its rows are all in.
    func seal(first: Bool, last: Bool) {
        band.pointee.data = UnsafePointer(data)
        band.pointee.size = dataBytes
        band.pointee.first = first ? 1 : 0
        band.pointee.last = last ? 1 : 0
        band.pointee.output_size = 0
    }
}
