import Foundation
import CCodecShims

/// The process's resident memory from Linux's /proc/self (for benchmarks that print the peak
/// memory of each figure, and tests that bound it). Nil where /proc cannot tell.
public enum ResidentMemory {
    /// The peak resident bytes since the process started or the last ``resetPeak()`` (VmHWM).
    public static var peakBytes: Int? { field("VmHWM:") }

    /// The resident bytes now (VmRSS).
    public static var currentBytes: Int? { field("VmRSS:") }

    /// Starts a new peak from the current resident size (Linux 4.0+: `5` into clear_refs);
    /// false where that is not allowed.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// Hands the memory freed since the last call back to the system (glibc's `malloc_trim(0)`:
    /// free pages in every arena, not only at the top of the heap), so that the next work's peak
    /// starts from what is in use. Call it between independent pieces of work (`graph batch` after
    /// each file): glibc keeps freed image buffers in the arena of the thread that freed them, and
    /// the next file's buffers, allocated by other threads or of other sizes, take new memory
    /// beside them, so a batch's resident size grew from file to file with nothing leaked.
    /// Costs a walk over the arenas' free memory; does nothing where the C library has no such call.
    public static func returnFreedMemory() {
        _ = ccs_release_free_memory()
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let kibibytes = Int(line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        else { return nil }
        return kibibytes * 1024
    }
}
