import CCodecShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Commits several ``PendingFile``s as one: either every target gets its new content or none
/// changes, as far as a POSIX file system allows (a multi-file rename is not atomic).
///
/// The steps:
/// 1. fsync and close every temporary (a failure here changes no target);
/// 2. hard-link a backup (`.NAME.tmp-PID-…`, beside it) of every existing target that a later
///    rename could have to undo;
/// 3. rename the temporaries over their targets one by one;
/// 4. on a failed rename, undo the renames already done: each replaced target gets its backup
///    back (a rename, atomic), each new one is removed; then every temporary and backup is
///    removed and the error names the output that failed;
/// 5. on success, remove the backups and fsync the folders.
///
/// SIGINT, SIGTERM and SIGHUP (with ``ImageFile/removeTemporaryFilesOnSignals()``) wait while
/// steps 2 to 5 run, so an interrupt lands before or after the whole group. What is not covered:
/// SIGKILL or a power loss during step 3 or 4 (microseconds for a few files) can leave some
/// targets new and others old, and another process that reads the targets during step 3 or 4
/// can see such a mix. A backup left by a killed process is removed by the next write of its
/// target, like a temporary.
public enum PendingFileGroup {
    /// Commits `files` all or nothing (see the type's description). On failure every temporary is
    /// removed, no target is changed (unless restoring one failed, which the error then says), and
    /// the error names the file whose step failed.
    public static func commit(_ files: [PendingFile]) throws(CodecError) {
        defer { for file in files { file.discard() } }
        for file in files {
            do {
                try file.flush()
            } catch {
                throw report(error, count: files.count, unrestored: [])
            }
        }
        ccs_temp_defer_signals()
        defer { ccs_temp_resume_signals() }
        // The last rename needs no backup: when it fails its target is untouched, when it succeeds
        // nothing after it can fail.
        var backups: [Backup] = []
        defer { for case .replaced(let copy) in backups { unlink(copy) } }
        for file in files.dropLast() {
            do {
                backups.append(try backUp(file))
            } catch {
                throw report(error, count: files.count, unrestored: [])
            }
        }
        backups.append(.none)
        for (index, file) in files.enumerated() {
            do {
                try file.renameOverTarget()
            } catch {
                let unrestored = rollBack(files[..<index], backups: &backups)
                throw report(error, count: files.count, unrestored: unrestored)
            }
        }
        var folders: [String] = []
        for file in files where !folders.contains(file.folder) { folders.append(file.folder) }
        for folder in folders { PendingFile.syncDirectory(folder) }
    }

    /// What a target was before its rename.
    enum Backup {
        /// Nothing (or a folder the rename will refuse): undo by removing the new file.
        case none
        /// A file, hard-linked to this path: undo by renaming it back.
        case replaced(String)
    }

    /// Hard-links the file `file` will replace (a symbolic link is linked itself, as the rename
    /// replaces the link, not what it points to).
    static func backUp(_ file: PendingFile) throws(CodecError) -> Backup {
        var info = stat()
        guard lstat(file.path, &info) == 0 else {
            if errno == ENOENT { return .none }
            throw PendingFile.ioError("cannot inspect the file this output replaces", path: file.path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .none }
        let name = PendingFile.split(file.path).name
        for attempt in 0..<100 {
            let copy = PendingFile.temporaryPath(directory: file.folder, name: name, attempt: attempt)
            let injected = CommitFaults.failure(.link, path: file.path)
            if let injected { errno = injected }
            if injected == nil, link(file.path, copy) == 0 { return .replaced(copy) }
            if errno != EEXIST { break }
        }
        throw PendingFile.ioError(
            "cannot hard-link a backup of the file this output replaces (needed to undo it if a later output fails)",
            path: file.path)
    }

    /// Undoes the renames of `done`, last first; returns the targets that could not be restored,
    /// with the reason. A backup put back, or one that could not be (kept: the error names it), is
    /// set to `.none` in `backups` so that it is not removed.
    static func rollBack(_ done: ArraySlice<PendingFile>, backups: inout [Backup]) -> [String] {
        var unrestored: [String] = []
        for (index, file) in zip(done.indices, done).reversed() {
            let backup = backups[index]
            backups[index] = .none
            switch backup {
            case .none:
                if unlink(file.path) != 0 && errno != ENOENT {
                    unrestored.append("\(file.path) (new, cannot remove it: \(String(cString: strerror(errno))))")
                }
            case .replaced(let copy):
                if rename(copy, file.path) != 0 {
                    unrestored.append("\(file.path) (cannot put the old file back from \(copy): \(String(cString: strerror(errno))))")
                }
            }
        }
        return unrestored
    }

    /// The rename failure, saying what the group was left with.
    static func report(_ error: CodecError, count: Int, unrestored: [String]) -> CodecError {
        var failure = error
        if unrestored.isEmpty {
            failure.message += count > 1 ? "; none of the \(count) outputs was changed" : ""
        } else {
            failure.message += "; could not undo the outputs already written: " + unrestored.joined(separator: ", ")
        }
        return failure
    }
}
