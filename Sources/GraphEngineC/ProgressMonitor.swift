import Foundation
import GraphEngine

/// The C type of a progress callback (`ge_progress_fn`): called with the fraction done (0...1) and
/// the caller's pointer; a non-zero return cancels the render.
public typealias ProgressCallback = @convention(c) (Double, UnsafeMutableRawPointer?) -> Int32

/// Calls a progress callback from a thread of its own every 50 ms while a render runs, and cancels
/// the render when the callback asks; the render itself runs on the caller's thread.
final class ProgressMonitor: @unchecked Sendable {
    let progress = RenderProgress()
    private let callback: ProgressCallback
    private let user: UnsafeMutableRawPointer?
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    private init(callback: ProgressCallback, user: UnsafeMutableRawPointer?) {
        self.callback = callback
        self.user = user
    }

    /// Runs `body` with a progress counter the callback watches (none without a callback), then
    /// reports 1.0 when it succeeded. A cancelled render throws "render cancelled".
    static func run<T>(_ callback: ProgressCallback?, _ user: UnsafeMutableRawPointer?,
                       _ body: (RenderProgress?) throws -> T) throws -> T {
        guard let callback else { return try body(nil) }
        let monitor = ProgressMonitor(callback: callback, user: user)
        let thread = Thread { monitor.watch() }
        thread.start()
        let result: T
        do {
            result = try body(monitor.progress)
        } catch {
            monitor.stop()
            throw error
        }
        monitor.stop()
        if monitor.progress.isCancelled { throw GraphError.renderFailed("render cancelled") }
        _ = callback(1, user)
        return result
    }

    private func watch() {
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if callback(progress.fraction, user) != 0 { progress.cancel() }
        }
        stopped.signal()
    }

    private func stop() {
        finished.signal()
        stopped.wait()
    }
}
