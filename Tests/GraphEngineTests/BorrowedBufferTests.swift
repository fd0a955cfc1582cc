import Synchronization
import XCTest
@testable import GraphEngine

/// Buffers over caller memory (read in place, any row stride, released once), packed RGB float
/// buffers, and cancelled renders: what the C ABI (GraphEngineC) and the Python package rely on.
final class BorrowedBufferTests: XCTestCase {
    func testBorrowedMemoryWithAPaddedStrideRendersInPlaceAndIsReleasedOnce() throws {
        let width = 3, height = 2, rowBytes = 20  // 12 bytes of pixels, 8 of padding per row
        let memory = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * height, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE, count: rowBytes * height)
        for row in 0..<height {
            for x in 0..<width {
                let p = (memory + row * rowBytes + 4 * x).assumingMemoryBound(to: UInt8.self)
                p[0] = UInt8(10 * row + x); p[1] = 100; p[2] = 200; p[3] = 255
            }
        }
        let releases = Atomic<Int>(0)
        do {
            let buffer = try ImageBuffer(borrowing: memory, width: width, height: height, rowBytes: rowBytes, format: .rgba8,
                                         colorSpace: nil, release: { releases.add(1, ordering: .relaxed) })
            let image = Image(buffer: buffer)
            let context = Context()
            let out = try context.render(image, format: .rgba8, colorSpace: .data)
            XCTAssertEqual(out.bytes, [0, 100, 200, 255, 1, 100, 200, 255, 2, 100, 200, 255,
                                       10, 100, 200, 255, 11, 100, 200, 255, 12, 100, 200, 255])
            memory.storeBytes(of: 77, as: UInt8.self)  // read in place: the next render sees the change
            XCTAssertEqual(try context.render(image, format: .rgba8, colorSpace: .data).bytes[0], 77)
            XCTAssertEqual(buffer.withUnsafeBytes { $0.count }, rowBytes + width * 4)  // the last row ends at its pixels
            XCTAssertEqual(releases.load(ordering: .relaxed), 0)
        }
        XCTAssertEqual(releases.load(ordering: .relaxed), 1)
    }

    func testBorrowingRefusesAStrideShorterThanARow() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        XCTAssertThrowsError(try ImageBuffer(borrowing: memory, width: 4, height: 2, rowBytes: 15, format: .rgba8,
                                             release: {})) { error in
            XCTAssertEqual("\(error)", "rowBytes 15 is smaller than a row of 4 RGBA8 pixels")
        }
    }

    func testPackedRGBFloatRoundTripsExactly() throws {
        let values: [Float] = [0.25, -0.5, 1.75, 0.1, 0.2, 0.3, 3, 2, 1, 0, 0.5, 1]  // 2x2 RGB, extended range
        let buffer = try ImageBuffer(width: 2, height: 2, format: .rgbf, colorSpace: nil) { storage, rowBytes in
            XCTAssertEqual(rowBytes, 24)
            values.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: 48) }
        }
        let out = try Context().render(Image(buffer: buffer), format: .rgbf, colorSpace: .data)
        XCTAssertEqual(out.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, values)
        let rgba = try Context().render(Image(buffer: buffer), format: .rgbaf, colorSpace: .data)
        XCTAssertEqual(rgba.pixel(x: 1, row: 1), [0, 0.5, 1, 1])
    }

    func testACancelledRenderThrowsAndWritesNoMore() throws {
        let image = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 512, height: 512))
        let progress = RenderProgress()
        progress.cancel()
        XCTAssertTrue(progress.isCancelled)
        XCTAssertThrowsError(try Context().render(image, format: .rgba8, progress: progress)) { error in
            XCTAssertEqual(error as? GraphError, .renderFailed("render cancelled"))
        }
        XCTAssertEqual(progress.fraction, 0)
    }
}
