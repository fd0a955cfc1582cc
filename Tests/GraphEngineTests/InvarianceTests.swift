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

    /// Every area pass (running sums anchored at absolute positions, van Herk blocks, disc spans,
    /// small convolutions, resampling, blur levels, the bilateral grid): the same bytes for every
    /// tile size and thread count, including tiles that start between anchors and blocks.
    func testAreaPassesSameBytesForEveryTileSizeAndThreadCount() throws {
        let source = Image(buffer: try makeTestBuffer(width: 181, height: 121, seed: 7, alpha: .straight))
        let small = Image(buffer: try makeTestBuffer(width: 61, height: 41, seed: 8))
        let mask = Image(buffer: try makeTestBuffer(width: 181, height: 121, seed: 9))
        let clamped = source.clampedToExtent()
        let images: [(String, Image)] = [
            ("box", try clamped.applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(40.5)])),
            ("rectangle", try source.applyingFilter("CIMorphologyRectangleMinimum", parameters: [
                "inputWidth": .number(23), "inputHeight": .number(9)])),
            ("disc", try source.applyingFilter("CIMorphologyMaximum", parameters: ["inputRadius": .number(6.5)])),
            ("disc blur", try source.applyingFilter("CIDiscBlur", parameters: ["inputRadius": .number(9)])),
            ("convolution", try clamped.applyingFilter("CIConvolution5X5", parameters: [
                "inputWeights": .vector((0..<25).map { Double($0 % 7) / 40 - 0.05 })])),
            ("lanczos", try source.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.37)])),
            ("bicubic", try source.applyingFilter("CIBicubicScaleTransform", parameters: ["inputScale": .number(1.7)])),
            ("masked blur", try source.applyingFilter("CIMaskedVariableBlur", parameters: [
                "inputMask": .image(mask), "inputRadius": .number(13)])),
            ("upsample", try source.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(small)])),
        ]
        for (name, image) in images {
            let rect = image.extent.intersection(Rect(x: -20, y: -20, width: 400, height: 300))
            var reference: [UInt8]?
            for tile in [16, 61, 512] {
                for threads in [1, 3] {
                    var options = ContextOptions()
                    options.tileSize = tile
                    options.threads = threads
                    // Float32 intermediates and output: half floats would hide one-ulp differences.
                    options.workingFormat = .rgbaf
                    let bytes = try Context(options: options).render(image, rect: rect, format: .rgbaf).bytes
                    if let reference {
                        XCTAssertTrue(bytes == reference, "\(name): tile \(tile), \(threads) threads differ")
                    } else {
                        reference = bytes
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
