import Foundation

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

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let kibibytes = Int(line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        else { return nil }
        return kibibytes * 1024
    }
}
