import Foundation
import Synchronization

/// How many rows of a buffer that is still being filled (a file decoding on another thread) are
/// ready, so a render can start on the top rows while the bottom ones decode.
///
/// Readers wait per row; the common case (rows already there) is one atomic load.
///
/// A *windowed* fill (a render that reads its source once, top to bottom: see
/// ``SequentialSourceReads``) is also bounded the other way: the filler writes only the rows
/// demanded so far (``demand(rows:)``; a reader waiting for a row demands it), and rows the render
/// has passed are released (``ImageBuffer/releaseRows(above:)``), so only a window of rows is ever
/// held. Reading a released row is reported as a failure of the render rather than read as zeros.
package final class RowProgress: Sendable {
    private let ready = Atomic<Int>(0)
    private let total: Int
    private let condition = NSCondition()
    private let failure = Mutex<String?>(nil)
    /// Rows `0 ..< demanded` may be filled; `total` unless windowed.
    private let demanded: Atomic<Int>
    /// Rows `0 ..< released` were handed back to the system; 0 unless windowed.
    private let released = Atomic<Int>(0)
    /// The reader is done: a windowed filler waiting for demand stops.
    private let stopped = Atomic<Bool>(false)
    /// Whether the filler waits for demand.
    package let isWindowed: Bool

    /// `windowed`: the filler writes only demanded rows (see the type's summary).
    package init(rows: Int, windowed: Bool = false) {
        total = rows
        isWindowed = windowed
        demanded = Atomic(windowed ? 0 : rows)
    }

    /// Rows `0 ..< count` (top first) are written.
    package func publish(_ count: Int) {
        condition.lock()
        ready.store(count, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// The fill failed: waiters stop waiting and the render reports `message`.
    package func fail(_ message: String) {
        condition.lock()
        failure.withLock { if $0 == nil { $0 = message } }
        condition.broadcast()
        condition.unlock()
    }

    /// The failure message, if the fill failed.
    package var failureMessage: String? { failure.withLock { $0 } }

    /// Waits until memory row `row` is ready; false if the fill failed first (or, windowed, the row
    /// was already released: a failure of the render).
    @inline(__always)
    package func wait(forRow row: Int) -> Bool {
        if ready.load(ordering: .acquiring) > row && row >= released.load(ordering: .relaxed) { return true }
        return slowWait(row)
    }

    /// Waits for every row; false if the fill failed.
    package func waitForAll() -> Bool { total == 0 || wait(forRow: total - 1) }

    private func slowWait(_ row: Int) -> Bool {
        if row < released.load(ordering: .acquiring) {
            fail("row \(row) was read after the render released it (a read outside the region of interest)")
            return false
        }
        if row >= demanded.load(ordering: .relaxed) { demand(rows: row + 1) }
        condition.lock()
        defer { condition.unlock() }
        while ready.load(ordering: .acquiring) <= row {
            if failure.withLock({ $0 }) != nil { return false }
            condition.wait()
        }
        return true
    }

    // MARK: Windowed fills

    /// Lets the filler write rows `0 ..< count` (demand only grows).
    package func demand(rows count: Int) {
        let count = min(count, total)
        guard demanded.load(ordering: .relaxed) < count else { return }
        condition.lock()
        if demanded.load(ordering: .relaxed) < count { demanded.store(count, ordering: .releasing) }
        condition.broadcast()
        condition.unlock()
    }

    /// Filler: waits until row `row` is demanded; false once the reader stopped (fill no further).
    package func waitForDemand(row: Int) -> Bool {
        if demanded.load(ordering: .acquiring) > row { return true }
        condition.lock()
        defer { condition.unlock() }
        while demanded.load(ordering: .acquiring) <= row {
            if stopped.load(ordering: .relaxed) { return false }
            condition.wait()
        }
        return true
    }

    /// The reader needs no more rows: a filler waiting for demand ends.
    package func stop() {
        condition.lock()
        stopped.store(true, ordering: .relaxed)
        condition.broadcast()
        condition.unlock()
    }

    /// Rows released so far (`0 ..< releasedRows`).
    var releasedRows: Int { released.load(ordering: .acquiring) }

    /// Records that rows `0 ..< count` were released (only grows).
    func markReleased(rows count: Int) {
        if released.load(ordering: .relaxed) < count { released.store(count, ordering: .releasing) }
    }
}

extension RowProgress {
    /// Filler: writes the rows of `buffer` top-down from a decoder of `decoded` size, up to 16 per
    /// `readRows(destination, rowBytes, maxRows)` call (which returns how many it wrote),
    /// publishing each batch; a windowed fill waits for demand and ends early when the reader
    /// stops. A decoder whose size is not the buffer's (a file changed since it was opened) and rows
    /// that end early fail the progress (`path` names the file). `checkSource` runs before each batch
    /// is published: an error it throws (the file was written meanwhile) fails the progress, so no
    /// render finishes on rows read from a file that changed under it.
    package func fill(_ buffer: ImageBuffer, from decoded: (width: Int, height: Int, rowBytes: Int), path: String,
                      checkSource: () throws -> Void = {},
                      readRows: (UnsafeMutableRawPointer, Int, Int) throws -> Int) rethrows {
        guard decoded.width == buffer.width, decoded.height == buffer.height, decoded.rowBytes == buffer.rowBytes else {
            fail("\(path): the decoder's size \(decoded.width)x\(decoded.height) (\(decoded.rowBytes) bytes a row) "
                 + "is not the header's \(buffer.width)x\(buffer.height) (\(buffer.rowBytes)): the file changed since it was opened")
            return
        }
        let rows = decoded.height
        let base = buffer.mutableStorageForFilling
        var row = 0
        while row < rows {
            guard waitForDemand(row: row) else { return }
            let count = try readRows(base + row * buffer.rowBytes, buffer.rowBytes, 16)
            if count == 0 { break }
            row += count
            do {
                try checkSource()
            } catch {
                fail("\(error)")
                return
            }
            publish(row)
        }
        if row < rows { fail("\(path): the decoder stopped at row \(row) of \(rows)") }
    }
}
