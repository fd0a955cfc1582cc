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
