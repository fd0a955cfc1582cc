import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GraphCodecs

/// Where commands print: stdout and stderr normally, a capture in tests.
///
/// Written with write(2), never Foundation's `FileHandle.write`, which ends the process when the
/// system refuses (a full disk or a closed pipe behind a redirection crashed `graph run` after its
/// outputs were written). A failed write to standard output is remembered
/// (``standardOutputFailure``) for the exit status; one to standard error has nowhere to go.
final class Terminal: @unchecked Sendable {
    static let shared = Terminal()
    private let lock = NSLock()
    private var capture: (out: String, err: String)?
    private var outputFailure: Int32?

    /// Prints a line to standard output (`terminator` ends it).
    func out(_ line: String, terminator: String = "\n") {
        lock.lock(); defer { lock.unlock() }
        if capture != nil { capture?.out += line + terminator; return }
        if !Self.write(line + terminator, to: STDOUT_FILENO), outputFailure == nil { outputFailure = errno }
    }

    /// Prints a line to standard error.
    func err(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        if capture != nil { capture?.err += line + "\n"; return }
        _ = Self.write(line + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to standard error as it is (a progress bar's redraw: no newline, not captured).
    func rawErr(_ text: String) {
        _ = Self.write(text, to: STDERR_FILENO)
    }

    /// Why the first write to standard output failed (`strerror`), nil when none did.
    var standardOutputFailure: String? {
        lock.lock(); defer { lock.unlock() }
        return outputFailure.map { String(cString: strerror($0)) }
    }

    /// Writes all of `text` to `descriptor`, retrying interrupted and short writes; false (with
    /// errno set) when the system refuses.
    private static func write(_ text: String, to descriptor: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var written = 0
        return bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            while written < raw.count {
                let count = Glibc.write(descriptor, base + written, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return true
        }
    }

    /// Prints a diagnostic (`graph: error: …`, `graph: warning: …`) to standard error as one line:
    /// control characters in it (from file content a message quotes) are escaped as `\xNN`
    /// (`FileText`), whatever the code that built the message did.
    func diagnostic(_ line: String) {
        err(FileText.escaped(line))
    }

    /// Runs `body` with output captured; returns what was printed.
    func capturing(_ body: () -> Void) -> (out: String, err: String) {
        lock.lock(); capture = ("", ""); lock.unlock()
        body()
        lock.lock(); defer { capture = nil; lock.unlock() }
        return capture ?? ("", "")
    }
}
