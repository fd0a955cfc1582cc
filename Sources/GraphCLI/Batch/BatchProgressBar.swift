import Dispatch
import Foundation

/// A progress bar on stderr while a batch runs, only when stderr is a terminal (never in logs,
/// pipes or tests): files done of the total, the rate, the time left and the failures, redrawn
/// in place five times a second and erased at the end.
///
///     [#########...........]  120/214  56%  14.2 files/s  ETA 0:07  3 failed
final class BatchProgressBar: @unchecked Sendable {
    private let total: Int
    private let start = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var done = 0
    private var processed = 0
    private var failed = 0
    private var timer: DispatchSourceTimer?
    private var shown = false

    /// nil when stderr is not a terminal.
    init?(total: Int) {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        self.total = total
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.redraw() }
        self.timer = timer
        timer.resume()
    }

    /// Counts a finished input.
    func count(_ status: BatchEntry.Status) {
        lock.lock(); defer { lock.unlock() }
        done += 1
        if status != .skipped { processed += 1 }
        if status == .failed { failed += 1 }
    }

    /// Runs `body` (which prints to the terminal) with the bar erased, then redraws it.
    func aside(_ body: () -> Void) {
        lock.lock(); defer { lock.unlock() }
        if shown { Terminal.shared.rawErr("\r\u{1B}[K") }
        body()
        if shown { draw() }
    }

    /// Stops and erases the bar.
    func finish() {
        timer?.cancel()
        lock.lock(); defer { lock.unlock() }
        if shown { Terminal.shared.rawErr("\r\u{1B}[K") }
        shown = false
    }

    private func redraw() {
        lock.lock(); defer { lock.unlock() }
        shown = true
        draw()
    }

    /// Draws the line; the lock is held.
    private func draw() {
        let width = 20
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = min(width, Int(fraction * Double(width)))
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let rate = seconds > 0 ? Double(processed) / seconds : 0
        var line = "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        line += String(format: "  %d/%d  %3.0f%%  %.1f files/s", done, total, fraction * 100, rate)
        if rate > 0 { line += "  ETA " + Self.duration(Double(total - done) / rate) }
        if failed > 0 { line += "  \(failed) failed" }
        Terminal.shared.rawErr(line + "\u{1B}[K")
    }

    /// `0:07`, `12:30`, `3:05:00`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
