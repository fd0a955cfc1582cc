import Dispatch
import Foundation

/// SIGINT and SIGTERM while a batch runs. The first stops the batch from starting more files:
/// those in flight finish, are written and logged, and the summary says what stopped it. A
/// second exits at once; no output is ever partial (each is renamed into place whole), and the
/// next run removes the temporaries the exit left.
final class BatchSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received = 0
    private var sources: [DispatchSourceSignal] = []
    private let signals: [Int32] = [SIGINT, SIGTERM]

    /// Installs the handlers; `stop` is called once, with the first signal.
    init(stop: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue.global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                self.lock.lock()
                self.received += 1
                let first = self.received == 1
                self.lock.unlock()
                if first {
                    stop(number)
                } else {
                    _exit(128 + number)
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
