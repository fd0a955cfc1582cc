#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded ring of row bands between one producer thread and one consumer thread
/// (pthread mutex + two condition variables). The producer fills a free slot and commits
/// it with its row count (0 = end of image) or an error; the consumer takes filled slots in
/// order and releases them. `cancel()` wakes both sides for good, so neither can hang
/// when the other stops early. (Public: the engine's band-streaming renders use it too.)
package final class BandRing: @unchecked Sendable {
    /// Slot memory: `count` bands of `bandBytes` each.
    package let count: Int
    /// Bytes of one band slot.
    package let bandBytes: Int
    private let memory: UnsafeMutableRawPointer
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let notFull: UnsafeMutablePointer<pthread_cond_t>
    private let notEmpty: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `mutex`.
    private var rows: [Int]
    private var errors: [CodecError?]
    private var readIndex = 0, writeIndex = 0, filled = 0
    private var cancelled = false

    /// A ring of `count` slots of `bandBytes` each (allocated once, freed with the ring).
    package init(count: Int, bandBytes: Int) {
        self.count = count
        self.bandBytes = bandBytes
        memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, count * bandBytes), alignment: 64)
        mutex = .allocate(capacity: 1)
        notFull = .allocate(capacity: 1)
        notEmpty = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(notFull, nil)
        pthread_cond_init(notEmpty, nil)
        rows = Array(repeating: 0, count: count)
        errors = Array(repeating: nil, count: count)
    }

    deinit {
        pthread_cond_destroy(notEmpty)
        pthread_cond_destroy(notFull)
        pthread_mutex_destroy(mutex)
        notEmpty.deallocate()
        notFull.deallocate()
        mutex.deallocate()
        memory.deallocate()
    }

    /// The memory of slot `slot`.
    package func band(_ slot: Int) -> UnsafeMutableRawPointer { memory + slot * bandBytes }

    /// Producer: waits for a free slot; nil once cancelled.
    package func acquireFree() -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while filled == count && !cancelled { pthread_cond_wait(notFull, mutex) }
        return cancelled ? nil : writeIndex
    }

    /// Producer: publishes the slot from `acquireFree` (0 rows = end of image).
    package func commit(rows count: Int, error: CodecError?) {
        pthread_mutex_lock(mutex)
        rows[writeIndex] = count
        errors[writeIndex] = error
        writeIndex = (writeIndex + 1) % self.count
        filled += 1
        pthread_cond_signal(notEmpty)
        pthread_mutex_unlock(mutex)
    }

    /// Consumer: waits for the next filled slot; nil once cancelled.
    package func acquireFilled() -> (slot: Int, rows: Int, error: CodecError?)? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while filled == 0 && !cancelled { pthread_cond_wait(notEmpty, mutex) }
        if filled == 0 { return nil }
        return (readIndex, rows[readIndex], errors[readIndex])
    }

    /// Consumer: returns the slot from `acquireFilled` to the producer.
    package func release() {
        pthread_mutex_lock(mutex)
        readIndex = (readIndex + 1) % count
        filled -= 1
        pthread_cond_signal(notFull)
        pthread_mutex_unlock(mutex)
    }

    /// Stops both sides: waits return nil from now on.
    package func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_broadcast(notFull)
        pthread_cond_broadcast(notEmpty)
        pthread_mutex_unlock(mutex)
    }
}

/// A joinable pthread running `body` (a dedicated thread, not a pool worker).
package final class JoinableThread: @unchecked Sendable {
    private var thread: pthread_t?

    /// Starts `body` on a new thread; nil when the thread cannot be created. Join it before it is released.
    package init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { context in
            guard let context else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            return nil
        }
        thread = handle
    }

    /// Waits for the thread to end (once; later calls return at once).
    package func join() {
        guard let handle = thread else { return }
        thread = nil
        pthread_join(handle, nil)
    }

    deinit { join() }
}

private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
