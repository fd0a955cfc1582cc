import GraphCodecs
import XCTest
@testable import GraphEngine

#if canImport(Glibc)
import Glibc
#endif

/// PNG outputs are rendered and compressed in bands (never the whole image at once) and are the
/// files a one-call encode of the rendered pixels gives: RGB when every pixel is opaque, else
/// straight RGBA, however late the first transparent pixel comes; the same file for any thread count.
final class StreamingPNGTests: XCTestCase {
    /// The reference: the whole image rendered premultiplied, made straight here (rounded to
    /// nearest, as PNG wants), alpha dropped when every pixel is opaque: the samples, and the file
    /// PNGRowEncoder makes of them given all rows at once on one thread.
    private func referencePNG(_ image: Image, bitDepth: Int, context: Context) throws -> (file: [UInt8], samples: [UInt8], channels: Int) {
        let rendered = try context.render(image, format: bitDepth == 16 ? .rgba16 : .rgba8)
        let one = bitDepth == 16 ? 65535.0 : 255.0
        var samples: [Double] = []
        for row in 0..<rendered.height {
            for x in 0..<rendered.width { samples += rendered.pixel(x: x, row: row).map { Double($0) * one } }
        }
        let opaque = stride(from: 3, to: samples.count, by: 4).allSatisfy { samples[$0] == one }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: samples.count, by: 4) {
            let a = samples[i + 3]
            var pixel = (0..<3).map { a == 0 ? 0 : min(one, (samples[i + $0] * one / a).rounded()) }
            if !opaque { pixel.append(a) }
            for value in pixel {
                if bitDepth == 16 { withUnsafeBytes(of: UInt16(value)) { bytes += $0 } } else { bytes.append(UInt8(value)) }
            }
        }
        let channels = opaque ? 3 : 4
        let encoder = try PNGRowEncoder(width: rendered.width, height: rendered.height, channels: channels, bitDepth: bitDepth,
                                        iccProfile: ICCProfile.sRGBBytes)
        try bytes.withUnsafeBytes {
            try encoder.writeRows($0.baseAddress!, rowBytes: encoder.rowBytes, count: rendered.height)
        }
        return (try encoder.finish(), bytes, channels)
    }
    /// Opaque except one pixel of the last row rendered (the bottom row: bands go top first), so
    /// the encode starts as RGB and starts over as RGBA after every other band was compressed.
    private func lateAlpha() throws -> Image {
        let (width, height) = (90, 200)
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            bytes[i * 4] = UInt8(i % 251)
            bytes[i * 4 + 1] = UInt8(i / width)
            bytes[i * 4 + 2] = UInt8((i * 7) % 256)
        }
        bytes[((height - 1) * width + 17) * 4 + 3] = 77
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .straight, bytes: bytes))
            .applyingColorMatrix(ColorMatrix(rgb: [0.9, 0.1, 0, 0, 1, 0, 0.2, 0, 0.8], sourceName: "mix"))
    }

    func testOutputsAreTheFilesOfTheRenderedSamples() throws {
        let context = Context()
        let opaque = Image(buffer: try makeTestBuffer(width: 70, height: 130, seed: 11))
            .applyingColorMatrix(ColorMatrix(rgb: [0, 1, 0, 0, 0, 1, 1, 0, 0], sourceName: "swap"))
        for (image, depth) in [(opaque, 8), (opaque, 16), (try lateAlpha(), 8), (try lateAlpha(), 16)] {
            let (expected, samples, _) = try referencePNG(image, bitDepth: depth, context: context)
            XCTAssertTrue(try ImageFile.decode(expected).bytes == samples)
            let progress = RenderProgress()
            let encoded = try context.encodedData(image, format: .png, options: ImageWriteOptions(bitDepth: depth),
                                                  progress: progress)
            XCTAssertEqual(encoded, expected, "\(depth) bits")
            XCTAssertEqual(progress.fraction, 1)
            // Streamed into a file, rewound when alpha turns up late.
            let path = NSTemporaryDirectory() + "streamed-\(UUID().uuidString).png"
            defer { unlink(path) }
            try context.write(image, to: path, options: ImageWriteOptions(bitDepth: depth))
            XCTAssertEqual(try ImageFile.read(path: path), expected, "\(depth) bits, file")
        }
        XCTAssertEqual(try ImageFile.info(context.encodedData(opaque, format: .png)).channels, 3)
        XCTAssertEqual(try ImageFile.info(context.encodedData(try lateAlpha(), format: .png)).channels, 4)
    }

    /// A pipe cannot be rewound: an image not known to be opaque is written as RGBA from the start
    /// (alpha 255 throughout); one known opaque stays RGB.
    func testAPipeGetsRGBAUnlessTheImageIsKnownOpaque() throws {
        let source = Image(buffer: try makeTestBuffer(width: 20, height: 12, seed: 5))
        let half = try Kernel(source: "kernel vec4 dim(__sample s) { return vec4(s.rgb * 0.5, s.a); }")
        let filtered = try Image.applying(half, arguments: [.image(source)])
        for (image, channels) in [(filtered, 4), (source, 3)] {
            var ends: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&ends), 0)
            try Context().encode(image, format: .png, to: ends[1])
            close(ends[1])
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(ends[0], &chunk, chunk.count)
                if count <= 0 { break }
                bytes += chunk[0..<count]
            }
            close(ends[0])
            let decoded = try ImageFile.decode(bytes)
            XCTAssertEqual(decoded.channels, channels)
            if channels == 4 { XCTAssertTrue(stride(from: 3, to: decoded.bytes.count, by: 4).allSatisfy { decoded.bytes[$0] == 255 }) }
            let file = try Context().encodedData(image, format: .png)
            XCTAssertEqual(try ImageFile.decode(file).channels, 3, "a file is rewound, so it is RGB")
        }
    }

    /// A `.data` output (a depth map, a mask) is grey when every pixel is, which is known only at
    /// the end: colour in the last band rendered restarts the encode in RGB, and the file is
    /// the whole-image encode of the same samples.
    func testDataOutputsAreGreyUntilAPixelIsNot() throws {
        let (width, height) = (64, 150)
        func data(colourAt: Int?) throws -> Image {
            var bytes = [UInt8](repeating: 255, count: width * height * 4)
            for i in 0..<(width * height) {
                let grey = UInt8((i * 5 + i / width) % 256)
                (bytes[i * 4], bytes[i * 4 + 1], bytes[i * 4 + 2]) = (grey, grey, grey)
            }
            if let colourAt { bytes[colourAt * 4 + 1] &+= 9 }
            let buffer = try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .straight,
                                         colorSpace: nil, bytes: bytes)
            return Image(buffer: buffer)
        }
        let lastRow = (height - 1) * width  // the bottom row renders last
        let cases: [(colour: Int?, channels: Int)] = [(nil, 1), (lastRow + 30, 3), (5, 3)]
        for (colourAt, channels) in cases {
            let image = try data(colourAt: colourAt)
            let file = NSTemporaryDirectory() + "data-\(UUID().uuidString).png"
            defer { unlink(file) }
            try Context().write(image, to: file, options: ImageWriteOptions(colorSpace: .data))
            let decoded = try ImageFile.decode(try ImageFile.read(path: file))
            XCTAssertEqual(decoded.channels, channels, "colour at \(String(describing: colourAt))")
            let rendered = try Context().render(image, format: .rgba8, colorSpace: .data)
            var expected: [UInt8] = []
            for row in 0..<height {
                for x in 0..<width {
                    let pixel = rendered.pixel(x: x, row: row).map { UInt8(($0 * 255).rounded()) }
                    expected += channels == 1 ? [pixel[0]] : Array(pixel[0..<3])
                }
            }
            XCTAssertTrue(decoded.bytes == expected, "samples differ, colour at \(String(describing: colourAt))")
        }
    }

    /// An image of two compression bands (560 KB of 16-bit RGBA, bands of 512 KiB) whose
    /// alpha turns up in the last band rendered (so the encode starts over) gives the same file on
    /// 1, 2 and 5 threads (its samples: ``testOutputsAreTheFilesOfTheRenderedSamples()``).
    func testTheFileIsTheSameForAnyThreadCount() throws {
        let (width, height) = (200, 350)
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            (bytes[i * 4], bytes[i * 4 + 1], bytes[i * 4 + 2]) = (UInt8(i % 251), UInt8(i / width % 256), UInt8(i * 7 % 256))
        }
        bytes[((height - 1) * width + 5) * 4 + 3] = 90
        let image = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .straight, bytes: bytes))
            .applyingColorMatrix(ColorMatrix(rgb: [0.8, 0.2, 0, 0, 1, 0, 0.1, 0, 0.9], sourceName: "mix"))
        var files: [[UInt8]] = []
        for threads in [1, 2, 5] {
            var options = ContextOptions()
            options.threads = threads
            let path = NSTemporaryDirectory() + "threads-\(UUID().uuidString).png"
            defer { unlink(path) }
            try Context(options: options).write(image, to: path, options: ImageWriteOptions(bitDepth: 16))
            files.append(try ImageFile.read(path: path))
        }
        XCTAssertTrue(files[1] == files[0] && files[2] == files[0], "the same bytes for 1, 2 and 5 threads")
        let decoded = try ImageFile.decode(files[0])
        XCTAssertEqual([decoded.channels, decoded.bitDepth], [4, 16])
        XCTAssertEqual(decoded.warnings, [])
    }
}
