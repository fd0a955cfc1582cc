#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// read(2), reachable from inside `ImageFile` whose `read(path:)` shadows the name.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// File-level entry points: read bytes, sniff the format, decode or inspect, and write
/// atomically (temp file beside the target, fsync, rename: never a partial file).
public enum ImageFile {
    /// Reads a whole regular file (an image, a recipe, a kernel, a raw frame). Errors name the
    /// path and the system error.
    ///
    /// Opened non-blocking and checked before reading: opening a FIFO for reading blocks until a
    /// writer comes (`graph info fifo` hung forever) and a device may never end, so anything but a
    /// regular file is an error saying what it is.
    public static func read(path: String) throws(CodecError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ioError("cannot open for reading", path: path) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw ioError("cannot stat", path: path) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw CodecError(.io, "not a regular file (\(fileTypeName(status.st_mode)))", path: path)
        }
        // Read straight into an array of the stat'ed size (no staging copy); a file that
        // grows meanwhile is read on in chunks, one that shrinks is cut to what was read.
        let expected = max(0, Int(status.st_size))
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            initialized = 0
            while initialized < expected {
                let count = posixRead(fd, buffer.baseAddress! + initialized, expected - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { break }
                initialized += count
            }
        }
        if failure != 0 {
            errno = failure
            throw ioError("read failed", path: path)
        }
        if bytes.count == expected {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ioError("read failed", path: path)
                }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
        }
        return bytes
    }

    /// The format of a file's bytes by magic number (``ImageFormatRegistry/sniff(_:)``), or an
    /// error naming what was found.
    public static func format(of bytes: [UInt8], path: String? = nil) throws(CodecError) -> ImageFormat {
        if let format = ImageFormatRegistry.sniff(bytes) ?? ImageFormatRegistry.damagedFormat(bytes) { return format }
        if let name = UnsupportedFormat.name(of: bytes) {
            throw CodecError(.unrecognizedFormat,
                             "a \(name) file, which is not supported (\(ImageFormatRegistry.names(conjunction: "and")) are)", path: path)
        }
        let head = bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")
        throw CodecError(
            .unrecognizedFormat,
            bytes.isEmpty ? "empty file" : "not a \(ImageFormatRegistry.names(conjunction: "or")) file (starts with \(head))", path: path)
    }

    /// Decodes the bytes of any format the registry reads (chosen by magic bytes).
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        try format(of: bytes).entry.load(bytes, options)
    }

    /// Reads and decodes a file; errors carry the path.
    public static func decode(path: String, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        do {
            return try decode(try read(path: path), options: options)
        } catch {
            throw error.at(path: path)
        }
    }

    /// Header and metadata without decoding pixels.
    public static func info(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        try format(of: bytes).entry.loadInfo(bytes)
    }

    /// Header and metadata of a file without decoding pixels; errors carry the path.
    public static func info(path: String) throws(CodecError) -> ImageInfo {
        do {
            return try info(try read(path: path))
        } catch {
            throw error.at(path: path)
        }
    }

    /// Writes `bytes` to `path` atomically through a ``PendingFile``: a temporary file in the
    /// same directory is written, fsync'ed and renamed over the target (then the directory is
    /// fsync'ed). On any failure the temporary file is removed and the target is untouched.
    /// With `allowOverwriting == false` an existing target is an error (checked atomically
    /// with link(2), so a concurrent writer cannot be clobbered either).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, allowOverwriting: Bool = true) throws(CodecError) {
        try writeAtomically(to: path, allowOverwriting: allowOverwriting) { fd throws(CodecError) in
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ioError("write failed", path: path)
                }
                written += count
            }
        }
    }

    /// The same for content produced by `body`, which writes it to the temporary file's
    /// descriptor (e.g. a streaming encoder): only when `body` returns normally is the file
    /// fsync'ed and renamed over `path`; if it throws, the temporary file is removed and the
    /// error (with the path attached) is rethrown. `body` must not close the descriptor.
    public static func writeAtomically(
        to path: String, allowOverwriting: Bool = true, _ body: (Int32) throws(CodecError) -> Void
    ) throws(CodecError) {
        let file = try PendingFile(path: path)
        do {
            try body(file.descriptor)
        } catch {
            file.discard()
            throw error.path == nil ? error.at(path: path) : error
        }
        try file.commit(allowOverwriting: allowOverwriting)
    }

    /// What a non-regular file is, in words.
    static func fileTypeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    static func ioError(_ what: String, path: String) -> CodecError {
        let code = errno
        let message = String(cString: strerror(code))
        var hint = ""
        if code == EMFILE {
            // Images of one file share a descriptor; each distinct file holds one while its images live.
            var limit = rlimit()
            if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
                hint = " (this process may hold \(limit.rlim_cur) open files and every distinct input file holds one: "
                    + "raise the limit with `ulimit -n`, or split the work over several recipes)"
            }
        }
        return CodecError(.io, "\(what): \(message)\(hint)", path: path, libraryMessage: message)
    }
}
