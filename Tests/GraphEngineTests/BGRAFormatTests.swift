import XCTest
@testable import GraphEngine

/// BGRA8 (bytes B, G, R, A) as a source and as a render target: the same pixels as RGBA8 with
/// red and blue bytes swapped, through every path (row copy, span loads, sRGB table decode and
/// fused encode, sampling, the camera-frame kernel and its float fallback).
final class BGRAFormatTests: XCTestCase {
    private func swapRedAndBlue(_ bytes: [UInt8]) -> [UInt8] {
        var swapped = bytes
        for i in stride(from: 0, to: bytes.count, by: 4) { swapped.swapAt(i, i + 2) }
        return swapped
    }

    func testBGRASourcesAndTargetsMatchRGBA() throws {
        let rgba = try makeTestBuffer(width: 37, height: 23, seed: 4, alpha: .straight)
        for alpha in [AlphaMode.straight, .opaque, .premultiplied] {
            let rgbaSource = try ImageBuffer(width: 37, height: 23, format: .rgba8, alphaMode: alpha, bytes: rgba.bytes)
            let bgraSource = try ImageBuffer(width: 37, height: 23, format: .bgra8, alphaMode: alpha,
                                             bytes: swapRedAndBlue(rgba.bytes))
            let gain = ColorMatrix(rgb: [0.8, 0.1, 0.1, 0, 1, 0, 0.2, 0, 0.8], sourceName: "mix")
            let rotate = AffineTransform(rotationAngle: 0.2)
            var off = ContextOptions()
            off.workingColorSpace = nil
            for context in [Context(), Context(options: off)] {
                for (name, build) in [("plain", { (i: Image) in i }), ("matrix", { $0.applyingColorMatrix(gain) }),
                                      ("rotated", { $0.transformed(by: rotate) })] as [(String, (Image) -> Image)] {
                    let fromRGBA = build(Image(buffer: rgbaSource)), fromBGRA = build(Image(buffer: bgraSource))
                    let rect = fromRGBA.extent
                    let expected = try context.render(fromRGBA, rect: rect, format: .rgba8).bytes
                    XCTAssertEqual(try context.render(fromBGRA, rect: rect, format: .rgba8).bytes, expected, "\(name) \(alpha) in")
                    XCTAssertEqual(try context.render(fromRGBA, rect: rect, format: .bgra8).bytes, swapRedAndBlue(expected),
                                   "\(name) \(alpha) out")
                }
            }
        }
    }

    func testCameraFramesRenderToBGRA() throws {
        let width = 66, height = 40
        var bytes = [UInt8](repeating: 0, count: width * height * 3 / 2)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 37 &+ (i >> 5) &* 11) }
        let frame = try YUVFrame(bytes: bytes, width: width, height: height, layout: .biPlanar)
        // The fixed-point kernel, and (a gain it cannot hold) the float program.
        let gain = ColorMatrix(rgb: [5, 0, 0, 0, 1, 0, 0, 0, 1], bias: [-2, 0, 0], sourceName: "gain")
        for image in [Image(yuv: frame), Image(yuv: frame).applyingColorMatrix(gain)] {
            let rgba = try Context().render(image, format: .rgba8).bytes
            XCTAssertEqual(try Context().render(image, format: .bgra8).bytes, swapRedAndBlue(rgba))
        }
    }
}
