import Kernels
import XCTest
@testable import GraphEngine
@testable import GraphCore

/// Absurd sizes and coordinates from user input are errors that name the extent, never a trap in a
/// Double-to-Int conversion or an Int overflow.
final class LimitTests: XCTestCase {
    func testAnyRectConvertsToPixels() {
        let bound = PixelRect.coordinateBound
        XCTAssertEqual(PixelRect(Rect(x: 1e300, y: 0, width: 1e300, height: 5)), .empty)
        XCTAssertEqual(PixelRect(Rect(x: -1e20, y: 2.5, width: 2e20, height: 1)),
                       PixelRect(x: -bound, y: 2, width: 2 * bound, height: 2))
        XCTAssertEqual(PixelRect(Rect(x: .nan, y: 0, width: 4, height: 4)), .empty)
        XCTAssertEqual(PixelRect(Rect(x: 0, y: 0, width: .nan, height: 4)), .empty)
        XCTAssertEqual(PixelRect(Rect(x: 1.5, y: -2, width: 3, height: 2)), PixelRect(x: 1, y: -2, width: 4, height: 2))
        let widest = PixelRect(Rect(x: -1e30, y: -1e30, width: 2e30, height: 2e30))
        XCTAssertEqual(widest.pixelCount, 4 * bound * bound)
    }

    func testRenderingBeyondTheCoordinateLimitIsAnError() throws {
        let pixel = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 2, height: 2))
        let far = pixel.transformed(by: AffineTransform(translationX: 1e9, y: 0))
        XCTAssertThrowsError(try Context().render(far)) { error in
            XCTAssertEqual(error as? GraphError, .invalidExtent(
                "cannot render the rect [1e+09 0 2 2]: it reaches beyond ±8388608, the largest coordinate a render supports; crop the image or pass a smaller rect"))
        }
        let huge = pixel.transformed(by: AffineTransform(scaleX: 1e17, y: 1))
        XCTAssertThrowsError(try Context().render(huge)) { XCTAssertTrue("\($0)".contains("[0 0 2e+17 2]"), "\($0)") }
        XCTAssertThrowsError(try Context().render(pixel, rect: Rect(x: -3e7, y: 0, width: 2, height: 2)))
        // At the limit it renders.
        let edge = pixel.transformed(by: AffineTransform(translationX: 8_388_606, y: -8_388_608))
        // (A generator alone is data: no output conversion, so 0.5 is stored as 128.)
        XCTAssertEqual(try Context().render(edge).pixel(x: 1, row: 0), [128 / 255, 128 / 255, 128 / 255, 1])
    }

    /// A transform shrinking a generator a billionfold reads 10^19 of its pixels for a 10×10 render:
    /// that count overflowed Int (a trap) before it could allocate anything. (A constant colour
    /// would not do: its transform is the constant.)
    func testAnIntermediateOverTheLimitFailsBeforeAllocating() throws {
        let shrunk = try Image.filter("CIStripesGenerator", parameters: [:]).transformed(by: AffineTransform(scaleX: 1e-9, y: 1e-9))
            .cropped(to: Rect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertThrowsError(try Context().render(shrunk)) { error in
            guard case .invalidSize(let message) = error as? GraphError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.hasPrefix("rendering [0 0 10 10] needs 1073741825x1073741825 pixels of #"), message)
            XCTAssertTrue(message.hasSuffix("above the limit of 1073741824 pixels"), message)
        }
    }

    /// Image processors render their inputs in renders of their own: 64 nested ones work, more are
    /// refused (1,000 nested took 150 s, and nesting recursed once per level).
    func testNestedImageProcessorsAreLimited() throws {
        var image = Image(buffer: try makeTestBuffer(width: 6, height: 4, seed: 9))
        for _ in 0..<Context.maximumProcessorNesting { image = try image.applyingFilter("CIAreaMinMaxRed") }
        let reduced = try Context().render(image, format: .rgbaf).pixel(x: 0, row: 0)
        XCTAssertEqual(reduced[2], 0)
        let deeper = try image.applyingFilter("CIAreaMinMaxRed")
        XCTAssertThrowsError(try Context().render(deeper)) { error in
            XCTAssertTrue("\(error)".hasPrefix("image processors are nested 65 deep at #"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("CIAreaMinMaxRed; at most 64 can be"), "\(error)")
        }
    }

    /// Thread count, tile size and render limit past what sizes can be computed from are clamped.
    func testExtremeContextOptionsAreClamped() throws {
        var options = ContextOptions()
        options.threads = .max
        options.tileSize = .max
        options.maximumRenderPixels = .max
        let context = Context(options: options)
        XCTAssertEqual(context.options.threads, 1024)
        XCTAssertEqual(context.options.tileSize, 65536)
        XCTAssertEqual(context.options.maximumRenderPixels, 1 << 40)
        options.threads = -5
        options.tileSize = 0
        XCTAssertEqual(Context(options: options).options.threads, 1)
        XCTAssertEqual(Context(options: options).options.tileSize, 8)
        let wavy = try Kernel(source: "kernel vec2 w() { vec2 p = destCoord(); return vec2(p.x + sin(p.y), p.y); }")
        let image = try Image.applying(wavy, arguments: [.image(Image(buffer: try makeTestBuffer(width: 40, height: 30, seed: 3)))],
                                       regionOfInterest: .radius(2))
        XCTAssertEqual(try context.render(image).bytes, try Context().render(image).bytes)
    }
}
