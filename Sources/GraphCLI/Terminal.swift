import Foundation
import GraphCodecs

/// Where commands print: stdout and stderr normally, a capture in tests.
final class Terminal: @unchecked Sendable {
    static let shared = Terminal()
    private let lock = NSLock()
    private var capture: (out: String, err: String)?

    /// Prints a line to standard output (`terminator` ends it).
    func out(_ line: String, terminator: String = "\n") {
        lock.lock(); defer { lock.unlock() }
        if capture != nil { capture?.out += line + terminator; return }
        FileHandle.standardOutput.write(Data((line + terminator).utf8))
    }

    /// Prints a line to standard error.
    func err(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        if capture != nil { capture?.err += line + "\n"; return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
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
