import Foundation
import GraphCodecs
import Kernels
import XCTest
@testable import GraphEngine

/// ContextOptions.memoryLimit: a streamed render fits the limit (smaller bands, fewer workers,
/// the same bytes), and one that cannot fit fails before allocating, naming the limit.
final class MemoryLimitTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "memory-limit-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func context(limit: Int?, threads: Int = 2) -> Context {
        var options = ContextOptions()
        options.memoryLimit = limit
        options.threads = threads
        return Context(options: options)
    }

    /// A generated image whose pixels vary in both directions (so a blur changes them), blurred.
    private func blurredRamp(width: Int, height: Int, sigma: Double) throws -> Image {
        let ramp = try Image.filter("CILinearGradient", parameters: [
            "inputPoint0": .vector([0, 0]), "inputPoint1": .vector([Double(width), Double(height)]),
            "inputColor0": .color([0.1, 0.2, 0.9, 1]), "inputColor1": .color([0.9, 0.6, 0.1, 1]),
        ])
        return try ramp.cropped(to: Rect(x: 0, y: 0, width: Double(width), height: Double(height))).clampedToExtent()
            .applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(sigma)])
            .cropped(to: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    }

    /// 20000×20000 pixels (1.6 GB as RGBA8) blurred into a JPEG file under a 256 MiB limit: the
    /// process grows by less than the limit, and rows decoded back from the file match a render
    /// of the same rows alone. A debug build (the interpreter unoptimised: about 100 times slower)
    /// renders the first 400 rows at the same width instead: what a band holds (ring, decode
    /// window, worker scratch) depends on the width and the blur's reach, not the height, so the
    /// memory is the same; `swift test -c release --filter MemoryLimitTests` renders it all.
    func testBigBlurStreamsToAFileUnderTheLimit() throws {
        let side = 20000
        #if DEBUG
        let height = 400
        #else
        let height = side
        #endif
        let image = try blurredRamp(width: side, height: side, sigma: 2)
            .cropped(to: Rect(x: 0, y: Double(side - height), width: Double(side), height: Double(height)))
        let limit = 256 << 20
        let file = folder + "/big.jpg"
        guard ResidentMemory.resetPeak(), let before = ResidentMemory.currentBytes else {
            throw XCTSkip("no /proc/self/clear_refs here")
        }
        try context(limit: limit).write(image, to: file)
        let grown = try XCTUnwrap(ResidentMemory.peakBytes) - before
        XCTAssertLessThan(grown, limit, "the process grew by \(grown >> 20) MiB")

        // The top rows and the middle ones, decoded from the file, against renders of those rows.
        let input = try InputFile(path: file)
        let decoder = try JPEGRowDecoder(fileDescriptor: input.descriptor, byteCount: input.byteCount, header: input.jpegHeader())
        XCTAssertEqual(decoder.width, side)
        XCTAssertEqual(decoder.height, height)
        let reference = Context()
        var rows = [UInt8](repeating: 0, count: side * 3 * 16)
        var next = 0
        for wanted in [0, height / 2] {
            while next + 16 <= wanted {
                next += try rows.withUnsafeMutableBytes { try decoder.readRows(into: $0.baseAddress!, rowBytes: side * 3, maxRows: 16) }
            }
            let count = try rows.withUnsafeMutableBytes { try decoder.readRows(into: $0.baseAddress!, rowBytes: side * 3, maxRows: 16) }
            let band = Rect(x: 0, y: Double(side - next - count), width: Double(side), height: Double(count))  // top-down rows
            let expected = try reference.render(image, rect: band, format: .rgb8).bytes
            // JPEG q90 4:2:0 of a smooth ramp: every sample within a few codes.
            let worst = zip(rows.prefix(expected.count), expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 6, "rows \(next)..<\(next + count)")
            next += count
        }
    }

    /// A limit too small for even 16-row bands on one thread fails before anything is written or
    /// allocated, naming the limit; so does a render into a buffer bigger than the limit.
    func testARenderThatCannotFitFailsNamingTheLimit() throws {
        let image = try blurredRamp(width: 4000, height: 3000, sigma: 3)
        let file = folder + "/small.png"
        XCTAssertThrowsError(try context(limit: 1 << 20).write(image, to: file)) { error in
            XCTAssertTrue("\(error)".contains("above the context's memory limit of 1 MiB"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "a temporary file was left")
        XCTAssertThrowsError(try context(limit: 16 << 20).render(image)) { error in
            XCTAssertTrue("\(error)".contains("a 4000x3000 RGBA8 buffer needs about 46 MiB, above the context's memory limit of 16 MiB"),
                          "\(error)")
        }
    }

    /// Under a limit that forces smaller bands and fewer workers, the file has the same bytes.
    func testALimitChangesBandsNotBytes() throws {
        let image = try blurredRamp(width: 700, height: 300, sigma: 6)
        let free = try context(limit: nil).encodedData(image, format: .png)
        let tight = try context(limit: 6 << 20).encodedData(image, format: .png)
        XCTAssertEqual(free, tight)
        XCTAssertThrowsError(try context(limit: 256 << 10).encodedData(image, format: .png))
    }
}
