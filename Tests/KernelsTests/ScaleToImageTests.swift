import Foundation
import GraphEngine
import Kernels
import XCTest

/// GEScaleToImage: a small grey map stretched bilinearly onto another image's extent.
final class ScaleToImageTests: XCTestCase {
    /// A 2×1 map (0 and 1) onto an 8×2 target at (3, 5): output pixel X reads map position
    /// u = (X + ½)·2/8, the tent between the two map pixels (centres at 0.5 and 1.5), edges repeated.
    func testTwoPixelMapStretchesBilinearly() throws {
        let map = try ImageBuffer(width: 2, height: 1, format: .grayf, alphaMode: .opaque, colorSpace: nil,
                                  bytes: [Float(0), Float(1)].withUnsafeBytes { Array($0) })
        let target = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 3, y: 5, width: 8, height: 2))
        let image = try Image(buffer: map).applyingFilter("GEScaleToImage", parameters: ["inputTargetImage": .image(target)])
        XCTAssertEqual(image.extent, Rect(x: 3, y: 5, width: 8, height: 2))
        let rendered = try Context().render(image, format: .rgbaf, colorSpace: .data)
        let expected = (0..<8).map { x -> Float in
            let u = (Float(x) + 0.5) * 0.25
            return min(max(u - 0.5, 0), 1)
        }
        for row in 0..<2 {
            for x in 0..<8 { XCTAssertEqual(rendered.pixel(x: x, row: row)[0], expected[x], accuracy: 1e-3, "x \(x) row \(row)") }
        }
    }

    func testInfiniteTargetIsAnError() throws {
        let map = try ImageBuffer(width: 2, height: 1, format: .gray8, alphaMode: .opaque, colorSpace: nil, bytes: [0, 255])
        XCTAssertThrowsError(try Image(buffer: map).applyingFilter("GEScaleToImage",
                                                                   parameters: ["inputTargetImage": .image(Image(color: [1, 1, 1, 1]))]))
    }
}
