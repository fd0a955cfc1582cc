#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An input file kept open and read in pieces (a JPEG whose scan data streams into the decoder
/// as rows decode), so a big file is never held whole. Opened with ``ImageFile/read(path:)``'s
/// checks (a FIFO or device is an error, never a hang); the descriptor closes with the object.
/// Deleting or replacing the path afterwards changes nothing; a file that shrinks reads short, and
/// one rewritten in place is noticed (``checkUnchanged()``) rather than read as a mix of old and new.
package final class InputFile: @unchecked Sendable {
    package let path: String
    package let descriptor: Int32
    /// The size when opened: reads never go past it.
    package let byteCount: Int
    /// What the file was when opened (device, inode, size, modification time).
    private let identity: FileIdentity

    /// The open file at `path`, shared with every other image of the same unchanged file still
    /// alive (``InputFile/shared(path:)``'s registry), so a recipe naming one photo thousands of
    /// times holds one descriptor, not one per image (100,000 images ran out of descriptors).
    package static func shared(path: String) throws(CodecError) -> InputFile {
        let file = try InputFile(path: path)
        return OpenInputFiles.registry.sharing(file)
    }

    package init(path: String) throws(CodecError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ImageFile.ioError("cannot open for reading", path: path) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = ImageFile.ioError("cannot stat", path: path)
            close(fd)
            throw error
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw CodecError(.io, "not a regular file (\(ImageFile.fileTypeName(status.st_mode)))", path: path)
        }
        self.path = path
        descriptor = fd
        byteCount = max(0, Int(status.st_size))
        identity = FileIdentity(status)
    }

    deinit {
        OpenInputFiles.registry.forget(self)
        close(descriptor)
    }

    /// The registry key: the path as given and what it was when opened.
    fileprivate var key: OpenInputFiles.Key { OpenInputFiles.Key(path: path, identity: identity) }

    /// Throws if the file was written since it was opened (its size or modification time differ): a render reading it as it decodes would mix old and new bytes, so the render fails
    /// instead of writing a silently wrong output. Touching the file (a new modification time, the
    /// same bytes) fails it too: the bytes are not compared.
    package func checkUnchanged() throws(CodecError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ImageFile.ioError("cannot stat", path: path) }
        let now = FileIdentity(status)
        guard now == identity else {
            let what = now.size != identity.size
                ? "its size went from \(identity.size) to \(now.size) bytes" : "it was modified"
            throw CodecError(.io, "the file changed while it was being read (\(what)); nothing was written from it, run again",
                             path: path)
        }
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file, or if it has shrunk).
    package func read(offset: Int, count: Int) throws(CodecError) -> [UInt8] {
        let count = max(0, min(count, byteCount - offset))
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let got = pread(descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }
                initialized += got
            }
        }
        if failure != 0 {
            errno = failure
            throw ImageFile.ioError("read failed", path: path)
        }
        return bytes
    }

    /// The whole file as it was opened; an error if it was written since (``checkUnchanged()``).
    package func readAll() throws(CodecError) -> [UInt8] {
        let bytes = try read(offset: 0, count: byteCount)
        try checkUnchanged()
        return bytes
    }

    /// The first bytes of a JPEG through its first SOS segment (what the marker walk and the
    /// header need), read in growing pieces; the whole file when it has no SOS. Of a file that
    /// does not start as a JPEG (SOI), the first 64 KiB (a 44 MB PNG was read 1.5 times over).
    package func jpegHeader() throws(CodecError) -> [UInt8] {
        var count = 1 << 16
        while true {
            let head = try read(offset: 0, count: count)
            if head.count < count || !head.starts(with: [0xFF, 0xD8]) || JPEGMarkers.headerLength(head) != nil { return head }
            count *= 4
        }
    }
}

/// What identifies a file's content cheaply: where it is (device, inode) and what stat(2) says of
/// its size and last write. Not the change time: removing or renaming over the path changes it
/// but not the content read through the open descriptor.
private struct FileIdentity: Hashable {
    let device: UInt64, inode: UInt64
    let size: Int64
    let modified: timespec

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
        hasher.combine(size)
        hasher.combine(modified.tv_sec)
        hasher.combine(modified.tv_nsec)
    }
}

/// The input files open in this process, by path and identity, held weakly: opening a file that is
/// already open and unchanged hands out the open one (its new descriptor closes at once).
private final class OpenInputFiles: Sendable {
    static let registry = OpenInputFiles()

    struct Key: Hashable {
        let path: String
        let identity: FileIdentity
    }

    private struct Weak {
        weak var file: InputFile?
    }

    private let files = Mutex<[Key: Weak]>([:])

    /// The open file equal to `file` if one is alive, else `file`, now registered.
    func sharing(_ file: InputFile) -> InputFile {
        files.withLock { files in
            let key = file.key
            if let open = files[key]?.file { return open }
            files[key] = Weak(file: file)
            return file
        }
    }

    /// Drops `file`'s entry (from its deinit) unless another file took the key.
    func forget(_ file: InputFile) {
        files.withLock { files in
            let key = file.key
            if let entry = files[key], entry.file == nil || entry.file === file { files[key] = nil }
        }
    }
}
