import Foundation
import XCTest
@testable import GraphEngine

/// The largest difference of any channel of any pixel.
func largestDifference(_ a: [SIMD4<Float>], _ b: [SIMD4<Float>]) -> Float {
    var worst: Float = 0
    for (p, q) in zip(a, b) {
        for c in 0..<4 { worst = max(worst, abs(p[c] - q[c])) }
    }
    return worst
}

/// The `sample` instruction's per-storage loops (``SpanGather``): every source layout, alpha mode,
/// working format, edge mode and filter samples as the reference evaluator does (which reads pixels
/// through ``PixelIO`` one at a time), and gives the same bytes for every tile size and thread count.
final class SpanGatherTests: XCTestCase {
    static let width = 23, height = 17

    /// A buffer of `format` with pseudo-random samples (alpha in 40...255 where there is one).
    static func buffer(_ format: PixelFormat, alpha: AlphaMode, colorSpace: ColorSpace?, seed: UInt64) throws -> ImageBuffer {
        var rng = SeededGenerator(seed: seed)
        let channels = format.channels, samples = width * height * channels
        func isAlpha(_ i: Int) -> Bool { (channels == 2 && i % 2 == 1) || (channels == 4 && i % 4 == 3) }
        var bytes: [UInt8] = []
        switch format.component {
        case .uint8:
            bytes = (0..<samples).map { UInt8(isAlpha($0) ? Int.random(in: 40...255, using: &rng) : Int.random(in: 0...255, using: &rng)) }
            if alpha == .premultiplied, channels == 4 {
                for p in stride(from: 0, to: samples, by: 4) {
                    for c in 0..<3 { bytes[p + c] = UInt8(Int(bytes[p + c]) * Int(bytes[p + 3]) / 255) }
                }
            }
        case .uint16:
            for i in 0..<samples {
                let v = UInt16(isAlpha(i) ? Int.random(in: 10_000...65_535, using: &rng) : Int.random(in: 0...65_535, using: &rng))
                bytes += [UInt8(v & 0xFF), UInt8(v >> 8)]
            }
        case .float16:
            for i in 0..<samples {
                let v = Float16(isAlpha(i) ? Float.random(in: 0.2...1, using: &rng) : Float.random(in: -0.1...1.2, using: &rng))
                bytes += [UInt8(v.bitPattern & 0xFF), UInt8(v.bitPattern >> 8)]
            }
        case .float32:
            for i in 0..<samples {
                let v = isAlpha(i) ? Float.random(in: 0.2...1, using: &rng) : Float.random(in: -0.1...1.2, using: &rng)
                withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 }
            }
        }
        return try ImageBuffer(width: width, height: height, format: format, alphaMode: alpha, colorSpace: colorSpace, bytes: bytes)
    }

    /// Sources covering every gather: 8-bit buffers of 1–4 channels in each alpha mode, BGRA, grey
    /// and RGBA half and float buffers in each alpha mode, and the per-pixel fallback (16-bit).
    static let layouts: [(PixelFormat, AlphaMode)] = [
        (.gray8, .opaque), (.grayAlpha8, .straight), (.grayAlpha8, .premultiplied), (.rgb8, .opaque),
        (.rgba8, .straight), (.rgba8, .premultiplied), (.rgba8, .opaque), (.bgra8, .straight),
        (.rgba16, .straight), (.rgbah, .premultiplied), (.rgbah, .straight), (.rgbah, .opaque),
        (.rgbaf, .premultiplied), (.rgbaf, .straight), (.rgbaf, .opaque), (.grayf, .opaque), (.grayh, .opaque),
    ]

    /// A rotation with scale and a fractional offset: every tap weight and edge case occurs.
    static let warp = GraphEngine.AffineTransform(a: 1.3 * cos(0.4), b: 1.3 * sin(0.4), c: -0.8 * sin(0.4), d: 0.8 * cos(0.4), tx: 9.37, ty: -2.61)

    /// The images a source is sampled through: bilinear (zero edges), nearest, and clamped edges.
    static func sampled(_ source: Image) -> [(String, Image)] {
        [("bilinear", source.transformed(by: warp)),
         ("nearest", source.transformed(by: warp, filter: .nearest)),
         ("clamped", source.clampedToExtent().transformed(by: warp).cropped(to: Rect(x: -4, y: -6, width: 40, height: 36)))]
    }

    func testEveryLayoutSamplesLikeTheReference() throws {
        for managed in [false, true] {
            var options = ContextOptions()
            options.workingFormat = .rgbaf
            if !managed { options.workingColorSpace = nil }
            let context = Context(options: options)
            for (index, (format, alpha)) in Self.layouts.enumerated() {
                let colorSpace: ColorSpace? = format.channels >= 3 || format == .grayAlpha8 ? .sRGB : nil
                let source = Image(buffer: try Self.buffer(format, alpha: alpha, colorSpace: colorSpace, seed: UInt64(index + 1)))
                for (name, image) in Self.sampled(source) {
                    let rect = image.extent.integral
                    let fast = bottomUpPixels(try context.render(image, rect: rect, format: .rgbaf))
                    let reference = try ReferenceEvaluator().render(image, rect: rect, options: options)
                    // Float32 throughout. The reference maps pixel centres in Double (the program in
                    // Float32: about 1e-6 apart) and decodes sRGB in Double, the engine by an exact
                    // 256-entry table (8-bit sources) or the interpolated 4097-entry one (about 2e-5).
                    XCTAssertEqual(fast.count, reference.count)
                    let worst = largestDifference(fast, reference)
                    XCTAssertLessThan(worst, managed ? 5e-5 : 1e-5, "\(format) \(alpha.rawValue) \(name), colour management \(managed)")
                }
            }
        }
    }

    /// Sampled intermediates in each working format (a colour kernel in front materialises the
    /// source): Float32, half and 8-bit planes.
    func testEveryWorkingFormatSamplesLikeTheReference() throws {
        let source = Image(buffer: try Self.buffer(.rgba8, alpha: .straight, colorSpace: nil, seed: 40))
        let kernel = try Kernel(source: "kernel vec4 dim(__sample s) { return s * 0.75; }")
        let dimmed = try Image.applying(kernel, arguments: [.image(source)])
        for (format, tolerance) in [(WorkingFormat.rgbaf, Float(4e-6)), (.rgbah, 1e-3), (.rgba8, 2.1 / 255)] {
            var options = ContextOptions()
            options.workingFormat = format
            options.workingColorSpace = nil
            let context = Context(options: options)
            for (name, image) in Self.sampled(dimmed) {
                let rect = image.extent.integral
                let fast = bottomUpPixels(try context.render(image, rect: rect, format: .rgbaf))
                let reference = try ReferenceEvaluator().render(image, rect: rect, options: options)
                let worst = largestDifference(fast, reference)
                XCTAssertLessThan(worst, tolerance, "\(format) \(name)")
                XCTAssertEqual(fast.count, reference.count)
            }
        }
    }

    /// A clamped single pixel (a reduction's result spread over the plane) samples as that pixel
    /// at every finite point, far-away ones included (a NaN point reads 0, as in every gather).
    func testClampedSinglePixelSamplesAsItsValueEverywhere() throws {
        let pixel = try ImageBuffer(width: 1, height: 1, format: .rgbaf, alphaMode: .premultiplied, colorSpace: nil,
                                    bytes: [0.25, -0.5, 3, 0.75].flatMap { (v: Float) in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } })
        let kernel = try Kernel(source: "kernel vec4 far(sampler s) { vec2 p = destCoord(); return sample(s, vec2(p.x * 1e7, p.y / 0.0 - p.y / 0.0)) + sample(s, p * 0.37); }")
        let image = try Image.applying(kernel, arguments: [.image(Image(buffer: pixel).clampedToExtent())],
                                       extent: Rect(x: -5, y: -3, width: 40, height: 7))
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.workingColorSpace = nil
        let fast = bottomUpPixels(try Context(options: options).render(image, rect: image.extent, format: .rgbaf))
        let reference = try ReferenceEvaluator().render(image, rect: image.extent, options: options)
        XCTAssertEqual(fast.count, 280)
        // The reference blends four equal taps (a rounding apart); a NaN point reads 0.
        XCTAssertLessThan(largestDifference(fast, reference), 1e-6)
        XCTAssertEqual(fast.first, SIMD4<Float>(0.25, -0.5, 3, 0.75))
    }

    func testSameBytesForEveryTileSizeAndThreadCount() throws {
        var images: [(String, Image, ContextOptions)] = []
        for (index, (format, alpha)) in Self.layouts.enumerated() {
            let source = Image(buffer: try Self.buffer(format, alpha: alpha, colorSpace: .sRGB, seed: UInt64(100 + index)))
            for (name, image) in Self.sampled(source) {
                images.append(("\(format) \(alpha.rawValue) \(name)", image, ContextOptions()))
            }
        }
        let kernel = try Kernel(source: "kernel vec4 dim(__sample s) { return s * 0.75; }")
        let dimmed = try Image.applying(kernel, arguments: [.image(Image(buffer: try Self.buffer(.rgb8, alpha: .opaque,
                                                                                                 colorSpace: nil, seed: 7)))])
        for format in [WorkingFormat.rgbaf, .rgbah, .rgba8] {
            var options = ContextOptions()
            options.workingFormat = format
            for (name, image) in Self.sampled(dimmed) { images.append(("\(format) planes \(name)", image, options)) }
        }
        for (name, image, base) in images {
            var reference: [UInt8]?
            for tile in [8, 13, 512] {
                for threads in [1, 3] {
                    var options = base
                    options.tileSize = tile
                    options.threads = threads
                    let bytes = try Context(options: options).render(image, rect: image.extent.integral, format: .rgbaf).bytes
                    if let reference {
                        XCTAssertTrue(bytes == reference, "\(name): tile \(tile), \(threads) threads differ")
                    } else {
                        reference = bytes
                    }
                }
            }
        }
    }

    /// A source still being decoded (rows published top first on another thread) samples the same
    /// as the finished buffer: each span waits for the lowest row it can touch.
    func testStreamingSourceSamplesAsTheFinishedBuffer() throws {
        let complete = try Self.buffer(.rgba8, alpha: .straight, colorSpace: nil, seed: 9)
        let progress = RowProgress(rows: Self.height)
        let streaming = try ImageBuffer(width: Self.width, height: Self.height, format: .rgba8, alphaMode: .straight,
                                        colorSpace: nil, rowProgress: progress)
        var options = ContextOptions()
        options.workingColorSpace = nil
        options.threads = 1
        let context = Context(options: options)
        let expected = try context.render(Image(buffer: complete).transformed(by: Self.warp), format: .rgbaf).bytes
        let bytes = complete.bytes, rowBytes = complete.rowBytes
        let target = UInt(bitPattern: streaming.mutableStorageForFilling)
        let filler = Thread {
            guard let storage = UnsafeMutableRawPointer(bitPattern: target) else { return }
            for row in 0..<Self.height {
                Thread.sleep(forTimeInterval: 0.002)
                bytes.withUnsafeBytes { source in
                    if let base = source.baseAddress { (storage + row * rowBytes).copyMemory(from: base + row * rowBytes, byteCount: rowBytes) }
                }
                progress.publish(row + 1)
            }
        }
        filler.start()
        let rendered = try context.render(Image(buffer: streaming).transformed(by: Self.warp), format: .rgbaf).bytes
        XCTAssertTrue(rendered == expected)
    }

    /// The branch-free half → float conversion of the half-plane gather is the IEEE one for every
    /// one of the 65,536 bit patterns (NaNs quieted, as `VCVTPH2PS` does).
    func testHalfConversionIsExactForEveryBitPattern() {
        for bits in 0...UInt16.max {
            let expected = Float(Float16(bitPattern: bits))
            let converted = HalfFloat.float(bits)
            if expected.isNaN {
                XCTAssertTrue(converted.isNaN, "\(bits)")
                XCTAssertEqual(converted.bitPattern & 0x0040_0000, 0x0040_0000, "NaN \(bits) is quiet")
            } else if converted.bitPattern != expected.bitPattern {
                XCTFail("half \(String(bits, radix: 16)): \(converted) instead of \(expected)")
                return
            }
        }
    }
}
