import Dispatch
import Foundation
import GraphEngine

/// A progress line on stderr for renders that take more than about a second, only when stderr is
/// a terminal (never in logs, pipes or tests). Rewritten in place with `\r`, cleared at the end.
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let progress: RenderProgress
    private let timer: DispatchSourceTimer?
    private let lock = NSLock()
    private var shown = false

    init(label: String, progress: RenderProgress) {
        self.label = label
        self.progress = progress
        guard isatty(STDERR_FILENO) == 1 else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: .milliseconds(200))
        self.timer = timer
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    private func draw() {
        lock.lock(); defer { lock.unlock() }
        shown = true
        let line = String(format: "\rgraph: rendering %@ %3.0f%%", label as NSString, progress.fraction * 100)
        Terminal.shared.rawErr(line)
    }

    /// Stops updating and erases the line.
    func finish() {
        timer?.cancel()
        lock.lock(); defer { lock.unlock() }
        if shown { Terminal.shared.rawErr("\r\u{1B}[K") }
    }
}
