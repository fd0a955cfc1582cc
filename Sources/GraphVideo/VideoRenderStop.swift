import Foundation

/// A request to stop a running ``VideoRender`` early, from any thread (a command's signal
/// handling, a user interface): recording it is all `request(_:)` does. The decoding stage reads
/// no frame after it; the frames already decoded are rendered and encoded, and the run ends with
/// ``VideoRenderStopped`` (the frames kept as a playable file with
/// ``VideoRenderOptions/keepPartial``, else removed).
public final class VideoRenderStop: @unchecked Sendable {
    private let lock = NSLock()
    private var requested: String?

    /// No request yet.
    public init() {}

    /// Asks the render to stop, saying why (`SIGINT`); the first reason given is kept.
    public func request(_ reason: String) {
        lock.lock()
        if requested == nil { requested = reason }
        lock.unlock()
    }

    /// Why a stop was requested, or nil.
    public var reason: String? {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }
}
