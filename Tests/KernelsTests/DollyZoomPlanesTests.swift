import Foundation
import GraphEngine
import XCTest
@testable import Kernels

/// The dolly zoom stores only the planes its result needs: three (alpha is 1), one when the image
/// it moves is grey (a depth map or matte following the photo), and gets a grey image in one plane:
/// the same bytes as the image warped in colour planes, and as the reference evaluator's.
final class DollyZoomPlanesTests: XCTestCase {
    typealias Scene = DollyZoomInvariantTests

    /// A grey value per pixel (NaN-free: a matte), as one Float32 channel or as RGBA with equal
    /// colour channels (`rgba`: not known grey, nor opaque).
    static func matte(rgba: Bool) throws -> Image {
        let (width, height) = (Scene.width, Scene.height)
        var floats: [Float] = []
        for row in (0..<height).reversed() {
            for x in 0..<width {
                let v = Float((x * 7 + row * 3) % 23) / 22
                floats += rgba ? [v, v, v, 1] : [v]
            }
        }
        let bytes = floats.withUnsafeBytes { Array($0) }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: rgba ? .rgbaf : .grayf,
                                             alphaMode: rgba ? .premultiplied : .opaque, colorSpace: nil, bytes: bytes))
    }

    func testAGreyImageIsMovedInOnePlaneAsInColourPlanes() throws {
        var options = ContextOptions()
        options.workingColorSpace = nil
        options.threads = 3
        for t in [-0.3, 0.25] {
            let grey = try Scene.zoomed(try Self.matte(rgba: false), t: t), colour = try Scene.zoomed(try Self.matte(rgba: true), t: t)
            let formats = { (image: Image) in try Context(options: options).dump(image).programs.filter { $0.kind == "processor" }.map(\.format) }
            XCTAssertEqual(try formats(grey), ["RGBAf (grey: 1 plane)"], "t = \(t)")
            XCTAssertEqual(try formats(colour), ["RGBAf (opaque: 3 planes)"], "t = \(t)")
            let greyBytes = try Context(options: options).render(grey, format: .rgbaf, colorSpace: .data).bytes
            XCTAssertEqual(greyBytes, try Context(options: options).render(colour, format: .rgbaf, colorSpace: .data).bytes, "t = \(t)")
            let buffer = try Context(options: options).render(grey, format: .rgbaf, colorSpace: .data)
            let pixels = (0..<buffer.height).reversed().flatMap { row in (0..<buffer.width).map { SIMD4<Float>(buffer.pixel(x: $0, row: row)) } }
            let reference = try ReferenceEvaluator().render(grey, rect: grey.extent, options: options)
            XCTAssertEqual(pixels, reference, "t = \(t)")
            // Holes (t < 0) filled, every pixel opaque and grey.
            XCTAssertTrue(pixels.allSatisfy { $0.w == 1 && $0.x == $0.y && $0.x == $0.z }, "t = \(t)")
        }
    }
}
