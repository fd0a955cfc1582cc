import XCTest
@testable import GraphEngine

/// An unfiltered source rendered into its own format is a byte copy (the `load → store` shortcut),
/// and only when a copy is exact.
final class SourceCopyTests: XCTestCase {
    private func noColorManagement() -> Context {
        var options = ContextOptions()
        options.workingColorSpace = nil
        return Context(options: options)
    }

    func testRGB8SourceRendersToItsOwnBytes() throws {
        let width = 37, height = 23
        let bytes = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 7)) }
        let image = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgb8, alphaMode: .opaque, bytes: bytes))
        let context = noColorManagement()
        XCTAssertEqual(try context.render(image, format: .rgb8).bytes, bytes)
        // A sub-rect: rows 3...12 from the top, columns 5..<30.
        let inner = try context.render(image, rect: Rect(x: 5, y: Double(height - 13), width: 25, height: 10), format: .rgb8)
        for row in 0..<10 {
            let start = ((3 + row) * width + 5) * 3
            XCTAssertEqual(Array(inner.bytes[(row * 75)..<((row + 1) * 75)]), Array(bytes[start..<(start + 75)]), "row \(row)")
        }
        // A rect reaching outside the source is not a copy: transparent black there.
        let outside = try context.render(image, rect: Rect(x: -2, y: 0, width: 4, height: 1), format: .rgb8)
        XCTAssertEqual(Array(outside.bytes[0..<6]), [0, 0, 0, 0, 0, 0])
        let last = (height - 1) * width * 3
        XCTAssertEqual(Array(outside.bytes[6..<12]), Array(bytes[last..<(last + 6)]))
    }

    func testStraightAlphaIsPremultipliedNotCopied() throws {
        let straight = try makeTestBuffer(width: 9, height: 4, seed: 3, alpha: .straight)
        let rendered = try noColorManagement().render(Image(buffer: straight), format: .rgba8).bytes
        XCTAssertNotEqual(rendered, straight.bytes)
        for pixel in 0..<(9 * 4) {
            let alpha = Double(straight.bytes[4 * pixel + 3])
            XCTAssertEqual(rendered[4 * pixel + 3], straight.bytes[4 * pixel + 3])
            for c in 0..<3 {
                let expected = (Double(straight.bytes[4 * pixel + c]) * alpha / 255).rounded()
                XCTAssertEqual(Double(rendered[4 * pixel + c]), expected, accuracy: 1, "pixel \(pixel) channel \(c)")
            }
        }
        let premultiplied = try makeTestBuffer(width: 9, height: 4, seed: 3, alpha: .premultiplied)
        XCTAssertEqual(try noColorManagement().render(Image(buffer: premultiplied), format: .rgba8).bytes, premultiplied.bytes)
    }

    /// An opaque RGBA8 buffer's alpha bytes are ignored: alpha reads as 1, colour as stored, in the
    /// span loads, the pixel fetches of sampling, and with or without colour management.
    func testOpaqueBufferIgnoresItsAlphaBytes() throws {
        let bytes: [UInt8] = [200, 100, 50, 0, 10, 20, 30, 7, 255, 255, 255, 128, 1, 2, 3, 255]
        let buffer = try ImageBuffer(width: 4, height: 1, format: .rgba8, alphaMode: .opaque, bytes: bytes)
        for context in [noColorManagement(), Context()] {
            for image in [Image(buffer: buffer), Image(buffer: buffer).transformed(by: AffineTransform(translationX: 0.5, y: 0))
                .cropped(to: Rect(x: 1, y: 0, width: 3, height: 1))] {
                let rendered = try context.render(image, format: .rgba8)
                for x in 0..<rendered.width {
                    XCTAssertEqual(rendered.pixel(x: x, row: 0)[3], 1, "alpha of pixel \(x)")
                }
            }
            let plain = try context.render(Image(buffer: buffer), format: .rgba8).bytes
            XCTAssertEqual(plain, [200, 100, 50, 255, 10, 20, 30, 255, 255, 255, 255, 255, 1, 2, 3, 255])
        }
    }
}
