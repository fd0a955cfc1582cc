import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's peak resident memory so far, in bytes: Linux's `VmHWM`, the high-water mark of
/// this program's own memory. (getrusage's `ru_maxrss` also counts what the parent held when it
/// spawned this process, so a big parent reports its own size for a small child.) Elsewhere, or
/// when /proc is not mounted, `ru_maxrss`.
func peakResidentBytes() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kilobytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) {
        return kilobytes * 1024
    }
    var usage = rusage()
    #if canImport(Darwin)
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #endif
}
