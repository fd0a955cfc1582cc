import CRowKernels
import XCTest

/// The wide row kernels (AVX, AVX2) give the same bits as their portable loops.
final class RowKernelTests: XCTestCase {
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

    /// YCbCr -> RGBA8 rows: same bytes on both paths, for every remainder, including values that
    /// clamp and NaN chroma (which becomes 0).
    func testYUVRowsMatchPortableAndTheDefinition() {
        var rng = SeededGenerator(seed: 5)
        let m: [Float] = [1.164, 0, 1.793, -248.1, 1.164, -0.213, -0.533, 76.9, 1.164, 2.112, 0, -289.0]
        for count in [1, 7, 8, 9, 31, 64, 100] {
            let luma = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var cb = (0..<count).map { _ in Float.random(in: 0...255, using: &rng) }
            let cr = (0..<count).map { _ in Float.random(in: 0...255, using: &rng) }
            if count > 3 { cb[3] = .nan }
            var fast = [UInt8](repeating: 0, count: 4 * count), portable = fast
            graph_yuv_to_rgba8_row(luma, cb, cr, Int32(count), m, &fast)
            graph_yuv_to_rgba8_row_portable(luma, cb, cr, Int32(count), m, &portable)
            XCTAssertEqual(fast, portable, "count \(count)")
            let i = count - 1
            let red = m[0] * Float(luma[i]) + m[1] * cb[i] + m[2] * cr[i] + m[3]
            XCTAssertEqual(Float(portable[4 * i]), min(max(red, 0), 255).rounded(.toNearestOrEven))
            XCTAssertEqual(portable[4 * i + 3], 255)
        }
    }
}
