import XCTest

@testable import GraphCodecs

#if canImport(Glibc)
import Glibc
#endif

/// PNGRowEncoder and PendingFile: streamed files do not depend on how the rows come or where they
/// go, failures of the disk are clear errors, and no temporary file outlives its write.
final class StreamingWriteTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/graphcodecs-stream-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("mkdtemp failed") }
        folder = String(cString: made)
    }

    override func tearDown() {
        for name in TestPaths.listFiles(folder) { unlink(folder + "/" + name) }
        rmdir(folder)
    }

    private func pixels(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// Rows fed in bands of any size, to memory or to a file, give the bytes of the rows given in
    /// one call, metadata chunks included, and decode to the image (PNGBandCompressionTests
    /// compares the chunks and the image data with libpng's).
    func testBandsGiveTheOneCallBytes() throws {
        let xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#
        let exif = EXIF.makeOrientationTIFF(1)
        for (channels, bitDepth) in [(3, 8), (4, 8), (4, 16), (1, 16)] {
            let (width, height) = (37, 23)
            let rowBytes = width * channels * bitDepth / 8
            let image = pixels(rowBytes * height, seed: UInt64(channels * bitDepth))
            let icc: [UInt8]? = channels >= 3 ? ICCProfile.sRGBBytes : nil
            func streamed(_ fd: Int32?, feed: [Int] = [5, 1, 9, 0, 8]) throws -> [UInt8] {
                let encoder = try PNGRowEncoder(width: width, height: height, channels: channels, bitDepth: bitDepth,
                                                iccProfile: icc, exif: exif, xmp: xmp, fileDescriptor: fd)
                var row = 0
                for band in feed where row < height {
                    let count = min(band, height - row)
                    try image.withUnsafeBytes { try encoder.writeRows($0.baseAddress! + row * rowBytes, rowBytes: rowBytes, count: count) }
                    row += count
                }
                try image.withUnsafeBytes { try encoder.writeRows($0.baseAddress! + row * rowBytes, rowBytes: rowBytes, count: height - row) }
                return try encoder.finish()
            }
            let whole = try streamed(nil, feed: [])
            XCTAssertTrue(try ImageFile.decode(whole).bytes == image, "\(channels) channels, \(bitDepth) bits")
            XCTAssertEqual(try streamed(nil), whole, "\(channels) channels, \(bitDepth) bits")
            let file = try PendingFile(path: folder + "/streamed.png")
            XCTAssertEqual(try streamed(file.descriptor), [])
            try file.commit()
            XCTAssertEqual(try ImageFile.read(path: folder + "/streamed.png"), whole)
            XCTAssertEqual(try ImageFile.decode(path: folder + "/streamed.png").bytes.count, width * height * channels * bitDepth / 8)
        }
    }

    /// A full disk (/dev/full answers every write with ENOSPC) is an I/O error saying so, from the
    /// streaming PNG and JPEG encoders and from a pending file.
    func testAFullDiskIsAClearError() throws {
        let full = open("/dev/full", O_WRONLY)
        guard full >= 0 else { throw XCTSkip("no /dev/full") }
        defer { close(full) }
        let rows = UnsafeMutableRawBufferPointer.allocate(byteCount: 300 * 200 * 3, alignment: 16)
        defer { rows.deallocate() }
        rows.copyBytes(from: pixels(300 * 200 * 3, seed: 7))
        let png = try PNGRowEncoder(width: 300, height: 200, channels: 3, bitDepth: 8, fileDescriptor: full)
        let pngError = expectCodecError { () throws(CodecError) in
            try png.writeRows(rows.baseAddress!, rowBytes: 900, count: 200)
            _ = try png.finish()
        }
        XCTAssertEqual(pngError?.kind, .io)
        XCTAssertEqual(pngError?.message, "writing the PNG file failed: No space left on device")
        let jpeg = try JPEGRowEncoder(width: 300, height: 200, channels: 3, fileDescriptor: full)
        let jpegError = expectCodecError { () throws(CodecError) in
            try jpeg.writeRows(rows.baseAddress!, rowBytes: 900, count: 200)
            _ = try jpeg.finish()
        }
        XCTAssertEqual(jpegError?.kind, .io)
        XCTAssertEqual(jpegError?.message, "writing the JPEG file failed: No space left on device")
    }

    /// Discarding or dropping a pending file removes its temporary; the target never appears.
    func testUncommittedFilesLeaveNothing() throws {
        let target = folder + "/out.png"
        do {
            let file = try PendingFile(path: target)
            try file.write([1, 2, 3])
            XCTAssertEqual(TestPaths.listFiles(folder), [String(file.temporaryPath.split(separator: "/").last!)])
        }
        XCTAssertEqual(TestPaths.listFiles(folder), [])
        let file = try PendingFile(path: target)
        try file.write([4])
        file.discard()
        XCTAssertEqual(TestPaths.listFiles(folder), [])
        XCTAssertNotNil(expectCodecError { () throws(CodecError) in try file.commit() })
        XCTAssertEqual(TestPaths.listFiles(folder), [])
    }

    /// Temporaries of a target left by a process that no longer runs (killed with SIGKILL) are
    /// removed by the next write of that target; a running process's and other targets' are kept.
    func testStaleTemporariesOfDeadProcessesAreRemoved() throws {
        let dead = try deadProcessID()
        let stale = [".out.png.tmp-\(dead)-123-0", ".out.png.tmp-\(dead)-9-3"]
        let kept = [".out.png.tmp-\(getppid())-5-0", ".other.png.tmp-\(dead)-1-0", "out.png.tmp-\(dead)-1-0"]
        for name in stale + kept { try ImageFile.writeAtomically([0], to: folder + "/" + name) }
        try ImageFile.writeAtomically([9], to: folder + "/out.png")
        XCTAssertEqual(TestPaths.listFiles(folder), (kept + ["out.png"]).sorted())
        XCTAssertEqual(try ImageFile.read(path: folder + "/out.png"), [9])
    }

    /// Stale temporaries of several targets are removed in one call (as `graph batch` does for its
    /// outputs when it starts); the temporary names are parsed strictly.
    func testStaleTemporariesOfSeveralTargetsAreRemovedAtOnce() throws {
        let dead = try deadProcessID()
        let stale = [".a.png.tmp-\(dead)-1-0", ".b.jpg.tmp-\(dead)-2-1", ".a.tmp-b.png.tmp-\(dead)-3-0"]
        let kept = [".a.png.tmp-\(getppid())-5-0", ".c.png.tmp-\(dead)-1-0", ".a.png.tmp-\(dead)-x-0", ".a.png.tmp-\(dead)-1"]
        for name in stale + kept { try ImageFile.writeAtomically([0], to: folder + "/" + name) }
        let removed = PendingFile.removeStaleTemporaries(of: ["a.png", "b.jpg", "a.tmp-b.png", "missing/d.png"].map { folder + "/" + $0 })
        XCTAssertEqual(removed.sorted(), stale.map { folder + "/" + $0 }.sorted())
        XCTAssertEqual(TestPaths.listFiles(folder), kept.sorted())
        XCTAssertEqual(PendingFile.temporaryName(".a.tmp-b.png.tmp-12-3-0")?.name, "a.tmp-b.png")
        XCTAssertNil(PendingFile.temporaryName(".img.png.tmp-12-x-0"))
        XCTAssertNil(PendingFile.temporaryName("img.png.tmp-12-3-0"))
    }

    /// A writer that has exited but is not reaped yet (a zombie, as a `graph batch` killed with
    /// its Ray worker is until someone collects it) will never write again: its temporaries go.
    func testTemporariesOfAnExitedUnreapedWriterAreRemoved() throws {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ), 0)
        var status: Int32 = 0
        defer { waitpid(pid, &status, 0) }
        var waited: siginfo_t = siginfo_t()
        // Wait for it to exit without reaping it (WNOWAIT).
        XCTAssertEqual(waitid(P_PID, id_t(pid), &waited, WEXITED | WNOWAIT), 0)
        XCTAssertFalse(PendingFile.writerIsGone(getpid()))
        let name = ".z.png.tmp-\(pid)-7-0"
        try ImageFile.writeAtomically([0], to: folder + "/" + name)
        XCTAssertEqual(PendingFile.removeStaleTemporaries(of: [folder + "/z.png"]), [folder + "/" + name])
    }

    /// A process ID that no longer runs: a child that has exited and been reaped.
    private func deadProcessID() throws -> Int32 {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(argv[0]) }
        guard posix_spawn(&pid, "/bin/true", nil, nil, &argv, environ) == 0 else { throw XCTSkip("cannot spawn /bin/true") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return pid
    }
}
