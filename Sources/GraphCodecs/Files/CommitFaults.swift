#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure-injection point for the steps that make written files visible (fsync of a
/// temporary, the hard link that backs up a replaced file, the rename into place), so tests can
/// fail the k-th step of a commit for every k and check what the file system is left with.
/// Internal: only tests (`@testable import GraphCodecs`) set ``injector``; unset, every step runs
/// as usual.
enum CommitFaults {
    /// A step of a commit.
    enum Step: String, Sendable {
        case fsync, link, rename
    }

    /// Called before each step with the step and the target's path; returns the `errno` to fail
    /// the step with, or nil to let it run. It may also change the file system (create a folder
    /// where a target goes) to stage a real failure.
    nonisolated(unsafe) static var injector: ((Step, String) -> Int32?)?

    /// The errno the injector wants `step` on `path` to fail with, or nil.
    static func failure(_ step: Step, path: String) -> Int32? {
        injector?(step, path)
    }
}
