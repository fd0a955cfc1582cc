import Foundation
import Synchronization

/// How many rows of a buffer that is still being filled (a JPEG decoding on another thread) are
/// ready, so a render can start on the top rows while the bottom ones decode.
///
/// Readers wait per row; the common case (rows already there) is one atomic load.
package final class RowProgress: Sendable {
    private let ready = Atomic<Int>(0)
    private let total: Int
    private let condition = NSCondition()
    private let failure = Mutex<String?>(nil)

    package init(rows: Int) { total = rows }

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
        failure.withLock { $0 = message }
        condition.broadcast()
        condition.unlock()
    }

    /// The failure message, if the fill failed.
    package var failureMessage: String? { failure.withLock { $0 } }

    /// Waits until memory row `row` is ready; false if the fill failed first.
    @inline(__always)
    func wait(forRow row: Int) -> Bool {
        if ready.load(ordering: .acquiring) > row { return true }
        return slowWait(row)
    }

    /// Waits for every row; false if the fill failed.
    func waitForAll() -> Bool { total == 0 || wait(forRow: total - 1) }

    private func slowWait(_ row: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.load(ordering: .acquiring) <= row {
            if failure.withLock({ $0 }) != nil { return false }
            condition.wait()
        }
        return true
    }
}
