import XCTest
@testable import GraphEngine

/// DiscSpans combines eight values a step with a scalar tail: every lane must give the scalar
/// NaN-ignoring maximum/minimum (and the sum), bit for bit, at every column of rows whose widths are
/// not multiples of eight, with NaNs and signed zeros among the values.
final class DiscSpansLaneTests: XCTestCase {
    func testEveryColumnMatchesThePlainDiscReduction() throws {
        let width = 37, height = 23
        var floats: [Float] = []
        var state: UInt32 = 12345
        for i in 0..<(width * height * 4) {
            state = state &* 1_664_525 &+ 1_013_904_223
            let value = Float(state >> 8) / Float(1 << 24) - 0.25
            floats.append(i % 53 == 0 ? .nan : (i % 61 == 0 ? -0.0 : value))
        }
        let bytes = floats.withUnsafeBytes { Array($0) }
        let source = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .premultiplied,
                                                   colorSpace: nil, bytes: bytes))
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.workingColorSpace = nil
        options.outputColorSpace = nil
        options.tileSize = 16
        for reduction in [DiscSpans.Reduction.maximum, .minimum, .mean] {
            let image = source.applying(DiscSpans(radius: 3.5, reduction: reduction, filterName: "disc"))
            let rect = image.extent
            let fast = bottomUpPixels(try Context(options: options).render(image, rect: rect, format: .rgbaf))
            let reference = try ReferenceEvaluator().render(image, rect: rect, options: options)
            XCTAssertEqual(fast.count, reference.count)
            for (index, (a, b)) in zip(fast, reference).enumerated() {
                for c in 0..<4 {
                    if reduction == .mean {
                        XCTAssertTrue(a[c].isNaN == b[c].isNaN && (a[c].isNaN || abs(a[c] - b[c]) <= 1e-6),
                                      "\(reduction) pixel \(index) channel \(c): \(a[c]) vs \(b[c])")
                    } else {
                        XCTAssertTrue(a[c].bitPattern == b[c].bitPattern || (a[c] == 0 && b[c] == 0) || (a[c].isNaN && b[c].isNaN),
                                      "\(reduction) pixel \(index) channel \(c): \(a[c]) vs \(b[c])")
                    }
                }
            }
        }
    }
}
