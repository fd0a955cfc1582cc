import Foundation

/// Removes the temporary files that a killed run (SIGKILL, power loss) left beside its outputs.
///
/// `ImageFile.writeAtomically` writes `.NAME.tmp-PID-RANDOM-ATTEMPT` in the output's folder and
/// renames it over `NAME`; a process killed in between leaves the temporary behind (never a
/// partial `NAME`). Only temporaries of the given outputs whose process is gone from this machine
/// are removed, so another batch writing elsewhere in the same folders is never disturbed.
enum StaleTemporaries {
    /// Lists each output folder once; returns the paths removed.
    @discardableResult
    static func remove(besides outputs: [String]) -> [String] {
        var namesByFolder: [String: Set<String>] = [:]
        for output in outputs {
            let url = URL(fileURLWithPath: output).standardizedFileURL
            namesByFolder[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        var removed: [String] = []
        for (folder, names) in namesByFolder {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for entry in entries {
                guard let (name, pid) = parse(entry), names.contains(name), !isRunning(pid) else { continue }
                let path = (folder as NSString).appendingPathComponent(entry)
                if unlink(path) == 0 { removed.append(path) }
            }
        }
        return removed
    }

    /// The output name and writer's process id of a temporary's file name, or nil.
    static func parse(_ entry: String) -> (name: String, pid: pid_t)? {
        guard entry.hasPrefix("."), let marker = entry.range(of: ".tmp-", options: .backwards) else { return nil }
        let name = String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound])
        let fields = entry[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard !name.isEmpty, fields.count == 3, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
              let pid = pid_t(fields[0]), pid > 0 else { return nil }
        return (name, pid)
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
