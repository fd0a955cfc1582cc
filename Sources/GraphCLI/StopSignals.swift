import Dispatch
import Foundation
import GraphCodecs

/// SIGINT and SIGTERM handled in two steps, for commands that can stop cleanly. The first calls
/// `stop`, which only records the request: the command's own loop sees it and ends its work
/// properly (`graph batch` starts no more files and finishes those in flight; `graph video
/// --keep-partial` finishes the container with the frames encoded so far). A second calls
/// `abandon`, then removes every uncommitted temporary file and ends the process of the signal:
/// no output is left partial (each is renamed into place whole, and a commit under way finishes
/// first). The handlers run on a dispatch queue, not in signal context.
final class StopSignals: @unchecked Sendable {
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
