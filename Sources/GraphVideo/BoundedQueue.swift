import Foundation

/// A first-in first-out queue of at most `capacity` items between two threads: `push` waits while
/// it is full, `pop` while it is empty, so the stages of a video render hold a few frames each.
/// `close()` ends it after the items queued; `cancel()` ends it at once, dropping them.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int
    private var closed = false

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Adds `item`, waiting for room; false (dropping it) once the queue is closed or cancelled.
    @discardableResult
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity, !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The oldest item, waiting for one; nil once the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty, !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items: `pop` returns those queued, then nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the queue now, dropping what it holds.
    func cancel() {
        condition.lock()
        closed = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
