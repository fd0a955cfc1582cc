import Foundation
import GraphRecipes

/// What happened to one input: a line of the batch log.
struct BatchEntry: Sendable {
    enum Status: String, Sendable {
        case ok, skipped, failed
    }

    let item: BatchItem
    let status: Status
    /// Why it failed (`images.photo.file: …: not a PNG or JPEG file`), nil otherwise.
    let error: String?
    /// Wall time spent on this input.
    let milliseconds: Double
    /// The process's peak resident memory when the input finished (files in flight share it).
    let peakBytes: Int
    /// Decoder and colour-tagging warnings of this input.
    let warnings: [String]

    /// `{"input", "index", "output", "outputs", "status", "error", "ms", "peak_bytes", "warnings"}`:
    /// `output` is the first (usually only) output, `outputs` all of them.
    var json: JSON {
        .object([
            ("input", .string(item.input.path)),
            ("index", .number(Double(item.input.index))),
            ("output", item.outputs.first.map(JSON.string) ?? .null),
            ("outputs", .array(item.outputs.map(JSON.string))),
            ("status", .string(status.rawValue)),
            ("error", error.map(JSON.string) ?? .null),
            ("ms", .number((milliseconds * 10).rounded() / 10)),
            ("peak_bytes", .number(Double(peakBytes))),
            ("warnings", .array(warnings.map(JSON.string))),
        ])
    }
}

/// The totals of a batch: the last line of its log, and one line on stderr.
struct BatchSummary: Sendable {
    var total = 0
    var ok = 0
    var skipped = 0
    var failed = 0
    var seconds = 0.0
    var peakBytes = 0
    /// Files in flight when a second signal ended the batch at once: not logged, their outputs
    /// either committed whole or not at all.
    var abandoned = 0
    /// Why the batch stopped before its end (`fail-fast`, `SIGINT`, `SIGTERM`), nil when it did not.
    var stoppedBy: String?

    /// Inputs never started (after a stop).
    var notRun: Int { total - ok - skipped - failed - abandoned }

    /// Files rendered (or failed) per second; skipped files cost almost nothing and are left out.
    var filesPerSecond: Double { seconds > 0 ? Double(ok + failed) / seconds : 0 }

    mutating func count(_ status: BatchEntry.Status) {
        switch status {
        case .ok: ok += 1
        case .skipped: skipped += 1
        case .failed: failed += 1
        }
    }

    var json: JSON {
        .object([("summary", .object([
            ("total", .number(Double(total))), ("ok", .number(Double(ok))), ("skipped", .number(Double(skipped))),
            ("failed", .number(Double(failed))), ("abandoned", .number(Double(abandoned))), ("not_run", .number(Double(notRun))),
            ("seconds", .number((seconds * 1000).rounded() / 1000)),
            ("files_per_second", .number((filesPerSecond * 10).rounded() / 10)),
            ("peak_bytes", .number(Double(peakBytes))), ("stopped_by", stoppedBy.map(JSON.string) ?? .null),
        ]))])
    }

    /// `graph: batch: 214 files: 200 ok, 0 skipped, 14 failed in 3.2 s (66.9 files/s), peak 52.1 MB`.
    var line: String {
        var text = "graph: batch: \(total) file\(total == 1 ? "" : "s"): \(ok) ok, \(skipped) skipped, \(failed) failed"
        if abandoned > 0 { text += ", \(abandoned) abandoned" }
        if notRun > 0 { text += ", \(notRun) not run" }
        text += String(format: " in %.1f s (%.1f files/s), peak %.1f MB", seconds, filesPerSecond, Double(peakBytes) / 1e6)
        if let stoppedBy { text += "; stopped by \(stoppedBy)" }
        return text
    }
}

/// The machine-readable log: one compact JSON object per line, on stdout or in a file (created
/// or truncated when the batch starts, each line written whole as it happens, so an interrupted
/// batch leaves a valid prefix).
final class BatchLog: @unchecked Sendable {
    private let lock = NSLock()
    private let descriptor: Int32?

    /// `path` nil: standard output.
    init(path: String?) throws {
        guard let path else {
            descriptor = nil
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecipeError("--log", "cannot create '\(path)': \(String(cString: strerror(errno)))") }
        descriptor = fd
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Whether the log goes to a terminal (then the progress bar must step aside for each line).
    var isTerminal: Bool { descriptor == nil && isatty(STDOUT_FILENO) == 1 }

    func record(_ value: JSON) {
        let line = value.compact
        lock.lock(); defer { lock.unlock() }
        guard let descriptor else {
            Terminal.shared.out(line)
            return
        }
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}
