import CConvolution
import XCTest

/// The AVX convolution rows and the portable loop give the same bits, for every length remainder
/// and both tap strides.
final class ConvolutionRowTests: XCTestCase {
    func testWidePathMatchesPortableBitForBit() {
        var rng = SeededGenerator(seed: 77)
        let taps = (0..<61).map { _ in Float.random(in: 0...0.05, using: &rng) }
        let source = (0..<(200 * 70)).map { _ in Float.random(in: -1...2, using: &rng) }
        for count in [1, 7, 8, 31, 32, 33, 100, 139] {
            for stride in [1, 200] {
                var fast = [Float](repeating: 0, count: count), portable = fast
                graph_convolve_row(source, stride, taps, 61, Int32(count), &fast)
                graph_convolve_row_portable(source, stride, taps, 61, Int32(count), &portable)
                XCTAssertEqual(fast.map(\.bitPattern), portable.map(\.bitPattern), "count \(count) stride \(stride)")
                // And against the definition.
                let expected = (0..<61).reduce(Float(0)) { $0 + taps[$1] * source[count - 1 + $1 * stride] }
                XCTAssertEqual(portable[count - 1], expected)
            }
        }
    }
}
