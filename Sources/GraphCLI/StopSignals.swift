import Dispatch
import Foundation
import GraphCodecs

/// SIGINT and SIGTERM while a batch runs. The first stops the batch from starting more files:
/// those in flight finish, are written and logged, and the summary says what stopped it. A
/// second ends the batch at once: the summary is logged (the files in flight counted as
/// abandoned), their temporary files are removed and the process ends of the signal; no output is
/// ever partial (each is renamed into place whole, and a commit under way finishes first).
final class BatchSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received = 0
    private var sources: [DispatchSourceSignal] = []
    private let signals: [Int32] = [SIGINT, SIGTERM]

    /// Installs the handlers; `stop` is called once, with the first signal; `abandon` with the
    /// second, before the process ends of it.
    init(stop: @escaping @Sendable (Int32) -> Void, abandon: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue.global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                self.lock.lock()
                self.received += 1
                let count = self.received
                self.lock.unlock()
                if count == 1 {
                    stop(number)
                } else if count == 2 {
                    abandon(number)
                    ImageFile.endProcess(ofSignal: number)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Removes the handlers: the signals act as usual again.
    func restore() {
        for source in sources { source.cancel() }
        sources = []
        for number in signals { signal(number, SIG_DFL) }
    }

    /// `SIGINT`, `SIGTERM`.
    static func name(_ number: Int32) -> String {
        number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
    }
}
