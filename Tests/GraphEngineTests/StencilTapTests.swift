import Foundation
import XCTest
@testable import GraphEngine

/// Stencil taps (``Instruction/stencil(input:dx:dy:destination:)``): samples at `destCoord()` plus
/// whole pixels are lowered to row reads, and give the bytes the gather gives. The gather is forced
/// by writing the offset as `vec2(dx, dy) * one` with a uniform `one` = 1 (the same Float points,
/// which the compiler cannot see are whole).
final class StencilTapTests: XCTestCase {
    /// The taps of a 3×3 kernel and two farther ones.
    static let taps = [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1), (2, -2), (-3, 1)]

    /// A kernel summing the taps with distinct weights (`lowered`: whole offsets; else offsets
    /// times the uniform `one`), so every tap's value reaches the result.
    static func weightedSum(lowered: Bool) throws -> Kernel {
        var body = ""
        for (k, (dx, dy)) in taps.enumerated() {
            let offset = "vec2(\(Double(dx)), \(Double(dy)))" + (lowered ? "" : " * one")
            body += "    sum = sum * 0.75 + \(Double(k + 1) / 8) * sample(s, p + \(offset));\n"
        }
        return try Kernel(source: "kernel vec4 taps(sampler s, float one) {\n    vec2 p = destCoord();\n    vec4 sum = vec4(0.0);\n"
                          + body + "    return sum;\n}\n")
    }

    /// A kernel returning one tap as it is (−0, infinities and NaN reach the output unchanged).
    static func single(_ dx: Int, _ dy: Int, lowered: Bool) throws -> Kernel {
        let offset = "vec2(\(Double(dx)), \(Double(dy)))" + (lowered ? "" : " * one")
        return try Kernel(source: "kernel vec4 tap(sampler s, float one) { return sample(s, destCoord() + \(offset)); }")
    }

    static func applied(_ kernel: Kernel, _ input: Image, extent: Rect) throws -> Image {
        try Image.applying(kernel, arguments: [.image(input), .number(1)], extent: extent,
                           regionOfInterest: .callback { _, rect in rect.outset(dx: 3, dy: 3) })
    }

    /// Renders the lowered and the gathered kernel over `rect` and asserts the same bytes, for two
    /// tile sizes and thread counts.
    func assertSameBytes(_ input: Image, extent: Rect, rect: Rect? = nil, options base: ContextOptions = ContextOptions(),
                         _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var kernels = [("weighted sum", try Self.weightedSum(lowered: true), try Self.weightedSum(lowered: false))]
        for (dx, dy) in [(0, 0), (1, -1), (-1, 1)] {
            kernels.append(("tap \(dx) \(dy)", try Self.single(dx, dy, lowered: true), try Self.single(dx, dy, lowered: false)))
        }
        for (kernelName, lowered, gathered) in kernels {
            let stencil = try Self.applied(lowered, input, extent: extent), gather = try Self.applied(gathered, input, extent: extent)
            let area = rect ?? extent.integral
            for (tile, threads) in [(8, 3), (512, 1)] {
                var options = base
                options.tileSize = tile
                options.threads = threads
                let context = Context(options: options)
                let a = try context.render(stencil, rect: area, format: .rgbaf).bytes
                let b = try context.render(gather, rect: area, format: .rgbaf).bytes
                XCTAssertEqual(a.count, Int(area.width * area.height) * 16, file: file, line: line)
                XCTAssertTrue(a == b, "\(name), \(kernelName): tile \(tile), \(threads) threads differ", file: file, line: line)
            }
        }
    }

    func testProgramsReadWholePixelOffsetsAsStencilTaps() throws {
        let source = Image(buffer: try SpanGatherTests.buffer(.rgba8, alpha: .straight, colorSpace: nil, seed: 3))
        let lowered = try Self.applied(try Self.weightedSum(lowered: true), source.clampedToExtent(), extent: source.extent)
        let gathered = try Self.applied(try Self.weightedSum(lowered: false), source.clampedToExtent(), extent: source.extent)
        func listing(_ image: Image) throws -> String {
            try Context().dump(image).text(stages: [.programs])
        }
        let stencil = try listing(lowered), gather = try listing(gathered)
        XCTAssertTrue(stencil.contains("stencil in0 at destCoord + (-1, -1)"), stencil)
        XCTAssertTrue(stencil.contains("stencil in0 at destCoord + (-3, 1)"), stencil)
        XCTAssertFalse(stencil.contains("= sample"), stencil)
        XCTAssertFalse(gather.contains("stencil"), gather)
        // A point not at whole pixels from destCoord stays a gather.
        let between = try Kernel(source: "kernel vec4 between(sampler s) { return sample(s, destCoord() + vec2(0.5, 1.0)); }")
        let halfListing = try listing(try Image.applying(between, arguments: [.image(source)], extent: source.extent,
                                                         regionOfInterest: .radius(2)))
        XCTAssertTrue(halfListing.contains("= sample") && !halfListing.contains("stencil"), halfListing)
        // A tap of an opaque input with clamped edges has alpha 1 (one pixel of the extent): a
        // constant, so the code on it folds away.
        let opaque = Image(buffer: try SpanGatherTests.buffer(.rgb8, alpha: .opaque, colorSpace: nil, seed: 5))
        let alpha = try Kernel(source: "kernel vec4 alpha(sampler s) { vec4 t = sample(s, destCoord() + vec2(1.0, 0.0)); return vec4(t.r, t.g, t.a * 0.5, t.a); }")
        let alphaListing = try listing(try Image.applying(alpha, arguments: [.image(opaque.clampedToExtent())], extent: opaque.extent,
                                                          regionOfInterest: .radius(1)))
        XCTAssertTrue(alphaListing.contains("stencil in0 at destCoord + (1, 0)") && alphaListing.contains("0.5 1)"), alphaListing)
        XCTAssertFalse(alphaListing.contains("multiply"), alphaListing)
    }

    /// Every source layout (8-bit of 1–4 channels in each alpha mode, half and float buffers, the
    /// 16-bit per-pixel fallback), clamped and zero edges, with and without colour management.
    func testEveryLayoutGivesTheGathersBytes() throws {
        for managed in [true, false] {
            var options = ContextOptions()
            if !managed { options.workingColorSpace = nil }
            for (index, (format, alpha)) in SpanGatherTests.layouts.enumerated() {
                let colorSpace: ColorSpace? = format.channels >= 3 || format == .grayAlpha8 ? .sRGB : nil
                let source = Image(buffer: try SpanGatherTests.buffer(format, alpha: alpha, colorSpace: colorSpace, seed: UInt64(index + 50)))
                let name = "\(format) \(alpha.rawValue), managed \(managed)"
                try assertSameBytes(source.clampedToExtent(), extent: source.extent, options: options, name + " clamped")
                try assertSameBytes(source, extent: source.extent.outset(dx: 2, dy: 2), options: options, name + " zero edges")
            }
        }
    }

    /// Intermediates in each working format (a colour kernel in front materialises the source).
    func testEveryWorkingFormatGivesTheGathersBytes() throws {
        let dim = try Kernel(source: "kernel vec4 dim(__sample s) { return s * 0.75; }")
        let source = try Image.applying(dim, arguments: [.image(Image(buffer: try SpanGatherTests.buffer(.rgba8, alpha: .straight,
                                                                                                          colorSpace: nil, seed: 8)))])
        for format in [WorkingFormat.rgbaf, .rgbah, .rgba8] {
            var options = ContextOptions()
            options.workingFormat = format
            try assertSameBytes(source.clampedToExtent(), extent: source.extent, options: options, "\(format) clamped")
            try assertSameBytes(source, extent: source.extent.outset(dx: 3, dy: 1), options: options, "\(format) zero edges")
        }
    }

    /// −0, infinities and NaN in the input: the gather's `p00 + p10·0 + …` turns a neighbour's
    /// infinity into NaN and −0 into +0, and so must the rows.
    func testSpecialValuesGiveTheGathersBytes() throws {
        let specials: [Float] = [-0.0, .infinity, -.infinity, .nan, 0, -0.25, Float(bitPattern: 1), 3]
        var rng = SeededGenerator(seed: 21)
        var values: [Float] = []
        for _ in 0..<(11 * 9 * 4) {
            values.append(Int.random(in: 0..<3, using: &rng) == 0 ? specials[Int.random(in: 0..<specials.count, using: &rng)]
                              : Float.random(in: -1...2, using: &rng))
        }
        let bytes = values.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        for format in [WorkingFormat.rgbaf, .rgbah] {
            var options = ContextOptions()
            options.workingColorSpace = nil
            options.workingFormat = format
            let buffer = try ImageBuffer(width: 11, height: 9, format: .rgbaf, alphaMode: .premultiplied, colorSpace: nil, bytes: bytes)
            let source = Image(buffer: buffer)
            try assertSameBytes(source.clampedToExtent(), extent: source.extent, options: options, "specials \(format) clamped")
            try assertSameBytes(source, extent: source.extent.outset(dx: 2, dy: 2), options: options, "specials \(format) zero edges")
            // Through an intermediate (the half planes hold the specials too).
            let copy = try Kernel(source: "kernel vec4 copy(__sample s) { return s; }")
            let materialised = try Image.applying(copy, arguments: [.image(source)])
            try assertSameBytes(materialised.clampedToExtent(), extent: source.extent, options: options, "specials \(format) planes")
        }
    }

    /// One-pixel-wide and one-pixel-high images, an extent at a non-zero origin, and a render far
    /// from the origin (past 2²², where the rows give way to the gather).
    func testEdgeCasesGiveTheGathersBytes() throws {
        for (width, height) in [(1, 7), (9, 1), (1, 1)] {
            var rng = SeededGenerator(seed: UInt64(width * 10 + height))
            let bytes = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let source = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .premultiplied,
                                                       colorSpace: nil, bytes: bytes))
            try assertSameBytes(source.clampedToExtent(), extent: source.extent, "\(width)×\(height) clamped")
            try assertSameBytes(source, extent: source.extent.outset(dx: 2, dy: 2), "\(width)×\(height) zero edges")
        }
        let photo = Image(buffer: try SpanGatherTests.buffer(.rgb8, alpha: .opaque, colorSpace: .sRGB, seed: 4))
        let moved = photo.transformed(by: AffineTransform(translationX: 37, y: -12))
        XCTAssertEqual(moved.extent, Rect(x: 37, y: -12, width: 23, height: 17))
        try assertSameBytes(moved.clampedToExtent(), extent: moved.extent, "translated clamped")
        try assertSameBytes(moved, extent: moved.extent.outset(dx: 1, dy: 2), "translated zero edges")
        let far = Rect(x: 5_000_000, y: -4_200_000, width: 19, height: 5)
        try assertSameBytes(photo.clampedToExtent(), extent: far, rect: far, "far from the origin")
    }

    /// A photo (a baseline JPEG, decoded as the CLI decodes it) through a 3×3 Sobel magnitude.
    func testPhotoGivesTheGathersBytes() throws {
        let path = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/testdata/jpeg/libjpeg-turbo/testorig.jpg").path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("shared/testdata is not beside the repository") }
        let photo = try Image(contentsOf: path)
        func sobel(lowered: Bool) throws -> Kernel {
            let taps = (0..<9).map { i in
                "    vec4 p\(i) = sample(s, p + vec2(\(Double(i % 3 - 1)), \(Double(i / 3 - 1)))" + (lowered ? "" : " * one") + ");\n"
            }.joined()
            return try Kernel(source: "kernel vec4 sobel(sampler s, float one) {\n    vec2 p = destCoord();\n" + taps + """
                    vec4 gx = (p2 + 2.0 * p5 + p8) - (p0 + 2.0 * p3 + p6);
                    vec4 gy = (p6 + 2.0 * p7 + p8) - (p0 + 2.0 * p1 + p2);
                    return vec4(sqrt(gx.rgb * gx.rgb + gy.rgb * gy.rgb), 1.0);
                }
                """)
        }
        let a = try Self.applied(try sobel(lowered: true), photo.clampedToExtent(), extent: photo.extent)
        let b = try Self.applied(try sobel(lowered: false), photo.clampedToExtent(), extent: photo.extent)
        for format in [PixelFormat.rgba8, .rgbaf] {
            let lowered = try Context().render(a, format: format).bytes, gathered = try Context().render(b, format: format).bytes
            XCTAssertEqual(lowered.count, 227 * 149 * format.bytesPerPixel)
            XCTAssertTrue(lowered == gathered, "\(format)")
        }
    }
}
