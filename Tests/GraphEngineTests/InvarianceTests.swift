import XCTest
@testable import GraphEngine
import Kernels

/// Output bytes do not depend on tile size or thread count.
final class InvarianceTests: XCTestCase {
    func testSameBytesForEveryTileSizeAndThreadCount() throws {
        let source = Image(buffer: try makeTestBuffer(width: 700, height: 530, seed: 11, alpha: .straight))
        let warped = source.transformed(by: AffineTransform(rotationAngle: 0.3).concatenating(AffineTransform(translationX: 40, y: -20)))
        let blurred = try source.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(4)])
            .cropped(to: source.extent)
        let image = try blurred.applyingFilter("CISepiaTone")
            .applyingFilter("CIBlendWithMask", parameters: ["inputBackgroundImage": .image(warped), "inputMaskImage": .image(source)])
            .applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(0.7)])
        var reference: [UInt8]?
        for tile in [64, 128, 512, 4096] {
            for threads in [1, 2, 8] {
                var options = ContextOptions()
                options.tileSize = tile
                options.threads = threads
                let bytes = try Context(options: options).render(image, rect: source.extent, format: .rgbah).bytes
                if let reference {
                    XCTAssertTrue(bytes == reference, "tile \(tile), \(threads) threads differ")
                } else {
                    reference = bytes
                }
            }
        }
    }

    /// A camera frame through the fixed-point row kernel: the same bytes however the rows are
    /// split (tiles, strips, threads, an odd-column sub-rect rendered alone).
    func testCameraFrameSameBytesForEveryTileSizeAndThreadCount() throws {
        let width = 333, height = 211, cw = (width + 1) / 2, ch = (height + 1) / 2
        var bytes = [UInt8](repeating: 0, count: width * height + 2 * cw * ch)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
        let frame = try YUVFrame(bytes: bytes, width: width, height: height, layout: .biPlanar, siting: .center)
        let image = Image(yuv: frame)
        let inner = Rect(x: 17, y: 9, width: 250, height: 150)
        var reference: (whole: [UInt8], inner: [UInt8])?
        for tile in [16, 64, 4096] {
            for threads in [1, 2, 8] {
                var options = ContextOptions()
                options.tileSize = tile
                options.threads = threads
                let context = Context(options: options)
                let result = (whole: try context.render(image, rect: image.extent, format: .rgba8).bytes,
                              inner: try context.render(image, rect: inner, format: .rgba8).bytes)
                if let reference {
                    XCTAssertTrue(result.whole == reference.whole, "tile \(tile), \(threads) threads differ")
                    XCTAssertTrue(result.inner == reference.inner, "inner: tile \(tile), \(threads) threads differ")
                } else {
                    reference = result
                    // The sub-rect holds the whole frame's pixels (buffers are top row first, y up).
                    let wholeRow = 4 * width, innerRow = 4 * 250
                    for row in 0..<150 {
                        let sourceRow = height - 1 - (9 + 149 - row)
                        let start = sourceRow * wholeRow + 4 * 17
                        XCTAssertEqual(Array(result.whole[start..<(start + innerRow)]),
                                       Array(result.inner[(row * innerRow)..<((row + 1) * innerRow)]), "row \(row)")
                    }
                }
            }
        }
    }

    func testConcurrentRendersOnOneContext() throws {
        let context = Context()
        let source = Image(buffer: try makeTestBuffer(width: 120, height: 90, seed: 5))
        let expected = try context.render(try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(3)]), format: .rgba8).bytes
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let bytes = try? context.render(try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(3)]), format: .rgba8).bytes
            results.append(bytes == expected)
        }
        XCTAssertEqual(results.values, Array(repeating: true, count: 8))
    }
}

final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [Bool] = []
    func append(_ value: Bool) { lock.lock(); values.append(value); lock.unlock() }
}
