#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input file kept open and read in pieces (a JPEG whose scan data streams into the decoder
/// as rows decode), so a big file is never held whole. Opened with ``ImageFile/read(path:)``'s
/// checks (a FIFO or device is an error, never a hang); the descriptor closes with the object.
/// Deleting or replacing the path afterwards changes nothing; a file that shrinks reads short.
package final class InputFile: @unchecked Sendable {
    package let path: String
    package let descriptor: Int32
    /// The size when opened: reads never go past it.
    package let byteCount: Int

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
    }

    deinit { close(descriptor) }

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

    /// The whole file as it was opened.
    package func readAll() throws(CodecError) -> [UInt8] { try read(offset: 0, count: byteCount) }

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
