import CCodecShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// write(2), reachable from inside `PendingFile` whose `write(_:)` shadows the name.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// A file being written: the bytes go to a temporary file beside the target
/// (`.NAME.tmp-PID-RANDOM`), which becomes visible under the target's name only when
/// ``commit(allowOverwriting:)`` fsyncs it and renames it over the target. Until then the target
/// is untouched; ``discard()`` (or releasing the file uncommitted) removes the temporary.
///
/// No temporary outlives its process for long:
/// - a failure or an interrupted write removes it (`discard`, `deinit`);
/// - after ``ImageFile/removeTemporaryFilesOnSignals()``, SIGINT, SIGTERM and SIGHUP remove
///   every uncommitted one before the process ends;
/// - SIGKILL cannot be caught: the next write to the same target removes temporaries of that
///   target whose process is gone.
///
/// Several pending files make a multi-file write all or nothing: prepare and write every one, then
/// commit them together with ``PendingFileGroup/commit(_:)`` (`graph run` and `graph batch` do
/// this for a recipe's outputs).
public final class PendingFile {
    /// The target.
    public let path: String
    /// The temporary file (removed or renamed over ``path`` by the end).
    public let temporaryPath: String
    /// The temporary file's descriptor, open for writing at offset 0 (not for closing: the file
    /// owns it).
    public var descriptor: Int32 { fd }

    private var fd: Int32
    private let directory: String
    private var signalSlot: Int32
    private var finished = false

    /// Creates the temporary file beside `path` (the folder must exist), removing stale
    /// temporaries of `path` left by processes that no longer run.
    public init(path: String) throws(CodecError) {
        let (directory, name) = PendingFile.split(path)
        guard !name.isEmpty else { throw CodecError(.io, "path names a directory, not a file", path: path) }
        self.path = path
        self.directory = directory
        PendingFile.removeStaleTemporaries(in: directory, names: [name])
        var temporary = ""
        var fd: Int32 = -1
        var slot: Int32 = -1
        for attempt in 0..<100 {
            temporary = PendingFile.temporaryPath(directory: directory, name: name, attempt: attempt)
            // Registered before it exists: a signal arriving just after it appears removes it too.
            slot = ccs_temp_register(temporary)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { break }
            let failure = errno
            ccs_temp_unregister(slot)
            slot = -1
            errno = failure
            if failure != EEXIST { break }
        }
        guard fd >= 0 else { throw PendingFile.ioError("cannot create a temporary file in \(directory)", path: path) }
        self.fd = fd
        self.temporaryPath = temporary
        self.signalSlot = slot
    }

    deinit { discard() }

    /// Appends `bytes` at the current offset.
    public func write(_ bytes: [UInt8]) throws(CodecError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PendingFile.ioError("write failed", path: path)
            }
            written += count
        }
    }

    /// Makes the file visible under its name: fsync, close, rename over the target (or, without
    /// `allowOverwriting`, link it there, failing when the target exists), fsync of the folder.
    /// On failure the temporary is removed and the target is untouched. Several files that must
    /// change together go through ``PendingFileGroup/commit(_:)`` instead.
    public func commit(allowOverwriting: Bool = true) throws(CodecError) {
        guard !finished else { throw CodecError(.io, "the file was already committed or discarded", path: path) }
        defer { discard() }
        try flush()
        if allowOverwriting {
            try renameOverTarget()
        } else {
            let injected = CommitFaults.failure(.link, path: path)
            if let injected { errno = injected }
            guard injected == nil, link(temporaryPath, path) == 0 else {
                throw errno == EEXIST
                    ? CodecError(.io, "file exists and overwriting is not allowed", path: path)
                    : PendingFile.ioError("cannot create the target", path: path)
            }
            unlink(temporaryPath)
            markFinished()
        }
        PendingFile.syncDirectory(directory)
    }

    /// First step of a commit: fsync and close the temporary, so its bytes are on disk before any
    /// name changes. Nothing once done.
    func flush() throws(CodecError) {
        guard !finished else { throw CodecError(.io, "the file was already committed or discarded", path: path) }
        guard fd >= 0 else { return }
        if let code = CommitFaults.failure(.fsync, path: path) {
            errno = code
            throw PendingFile.ioError("fsync failed", path: path)
        }
        guard fsync(fd) == 0 else { throw PendingFile.ioError("fsync failed", path: path) }
        let closed = close(fd)
        fd = -1
        guard closed == 0 else { throw PendingFile.ioError("close failed", path: path) }
    }

    /// Second step of a commit (after ``flush()``): renames the temporary over the target, which
    /// is then finished (no longer removed by ``discard()`` or a signal). On failure the target is
    /// untouched and the temporary still exists.
    func renameOverTarget() throws(CodecError) {
        if let code = CommitFaults.failure(.rename, path: path) {
            errno = code
            throw PendingFile.ioError("cannot rename the temporary file over the target", path: path)
        }
        guard rename(temporaryPath, path) == 0 else {
            throw PendingFile.ioError("cannot rename the temporary file over the target", path: path)
        }
        markFinished()
    }

    private func markFinished() {
        ccs_temp_unregister(signalSlot)
        signalSlot = -1
        finished = true
    }

    /// fsyncs a folder, so the names changed in it survive a power loss (best effort: some file
    /// systems refuse to open or fsync a folder).
    static func syncDirectory(_ directory: String) {
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// The folder the target and its temporary are in.
    var folder: String { directory }

    /// Removes the temporary file (nothing when already committed or discarded).
    public func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if !finished {
            unlink(temporaryPath)
            finished = true
        }
        ccs_temp_unregister(signalSlot)
        signalSlot = -1
    }

    /// A fresh name for a temporary of `name` in `directory`: `.NAME.tmp-PID-RANDOM-ATTEMPT`, the
    /// form ``removeStaleTemporaries(of:)`` recognises once this process is gone.
    static func temporaryPath(directory: String, name: String, attempt: Int) -> String {
        "\(directory)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(attempt)"
    }

    /// Folder and file name of a path (`.` for a bare name).
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (slash == path.startIndex ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// Removes the temporaries that writers of `paths` left behind (`.NAME.tmp-PID-RANDOM-ATTEMPT`
    /// beside each path) when their process no longer exists: a write killed by SIGKILL, or a
    /// crash. Another process's live write, and temporaries of other files, are left alone. Each
    /// folder is listed once. Every write does this for its own target; `graph batch` does it for
    /// all its outputs when it starts, since a restarted batch may never write some of them again.
    /// Returns the paths removed.
    @discardableResult
    public static func removeStaleTemporaries(of paths: [String]) -> [String] {
        var namesByDirectory: [String: Set<String>] = [:]
        for path in paths {
            let (directory, name) = split(path)
            if !name.isEmpty { namesByDirectory[directory, default: []].insert(name) }
        }
        return namesByDirectory.flatMap { removeStaleTemporaries(in: $0.key, names: $0.value) }
    }

    @discardableResult
    static func removeStaleTemporaries(in directory: String, names: Set<String>) -> [String] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var removed: [String] = []
        while let entry = readdir(folder) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let (name, pid) = temporaryName(entryName), names.contains(name), writerIsGone(pid) else { continue }
            let path = "\(directory)/\(entryName)"
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// Whether process `pid` will never write again: it does not exist, or it has exited and
    /// waits to be reaped (a zombie: a `graph batch` killed with its parent, not yet collected).
    static func writerIsGone(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 { return errno == ESRCH }
        // /proc/PID/stat: "PID (COMM) STATE ...", COMM may hold spaces and parentheses.
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let end = buffer[..<count].lastIndex(of: UInt8(ascii: ")")), end + 2 < count else { return false }
        return buffer[end + 2] == UInt8(ascii: "Z")
    }

    /// The target's name and the writer's process ID of a temporary's file name
    /// `.NAME.tmp-PID-RANDOM-ATTEMPT` (NAME may itself hold ".tmp-"), or nil for any other name.
    static func temporaryName(_ entry: String) -> (name: String, pid: pid_t)? {
        let bytes = Array(entry.utf8)
        let marker = Array(".tmp-".utf8)
        guard bytes.first == UInt8(ascii: "."), bytes.count > marker.count + 1 else { return nil }
        guard let at = stride(from: bytes.count - marker.count, through: 2, by: -1).first(where: {
            bytes[$0..<($0 + marker.count)].elementsEqual(marker)
        }) else { return nil }
        let fields = bytes[(at + marker.count)...].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard fields.count == 3, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let pid = pid_t(String(decoding: fields[0], as: UTF8.self)), pid > 0 else { return nil }
        return (String(decoding: bytes[1..<at], as: UTF8.self), pid)
    }

    static func ioError(_ what: String, path: String) -> CodecError {
        let code = errno
        let message = String(cString: strerror(code))
        return CodecError(.io, "\(what): \(message)", path: path, libraryMessage: message)
    }
}

extension ImageFile {
    /// Installs handlers (once) so that SIGINT, SIGTERM and SIGHUP remove every uncommitted
    /// ``PendingFile`` before the process ends of the signal as it would have. For command-line
    /// tools; a library leaves signal handling to its application. A signal the process ignores
    /// stays ignored.
    public static func removeTemporaryFilesOnSignals() {
        ccs_temp_install_signal_handlers()
    }

    /// Ends the process of signal `number` as if it had not been handled, after removing every
    /// uncommitted ``PendingFile``; when a ``PendingFileGroup`` is renaming its files it returns,
    /// and the group ends the process when its renames are done (so no commit is left half done).
    /// For a command-line tool that handles the signal itself (a batch's second interrupt).
    public static func endProcess(ofSignal number: Int32) {
        ccs_temp_die_of_signal(number)
    }
}
