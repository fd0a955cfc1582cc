import Foundation

/// A thread-safe least-recently-used cache with a byte limit (the context's cache of materialised
/// whole images; its program cache counts each program as 1). An entry larger than the limit is not
/// kept.
final class ByteLimitedCache<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let byteLimit: Int
    private var entries: [Key: (value: Value, bytes: Int, stamp: Int)] = [:]
    private var totalBytes = 0
    private var clock = 0

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    func value(for key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.value, entry.bytes, clock)
        return entry.value
    }

    func insert(_ value: Value, for key: Key, bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard bytes <= byteLimit else { return }
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.bytes }
        while totalBytes + bytes > byteLimit,
              let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp }) {
            totalBytes -= oldest.value.bytes
            entries.removeValue(forKey: oldest.key)
        }
        clock += 1
        entries[key] = (value, bytes, clock)
        totalBytes += bytes
    }

    /// Drops every entry (values in use elsewhere live on with their users).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries = [:]
        totalBytes = 0
    }

    /// Entries held now.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    /// Bytes held now.
    var byteCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return totalBytes
    }
}
