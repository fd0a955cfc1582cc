import Foundation

/// The first error any stage of a video render hit (later ones are consequences of stopping).
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?

    /// Records `error` unless one was recorded before.
    func record(_ error: Error) {
        lock.lock()
        if self.error == nil { self.error = error }
        lock.unlock()
    }

    /// The recorded error, if any.
    var value: Error? {
        lock.lock()
        defer { lock.unlock() }
        return error
    }
}
