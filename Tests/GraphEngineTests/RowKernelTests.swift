import CRowKernels
import XCTest

/// The wide row kernels (AVX, AVX2) against their portable loops and their definitions.
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

    /// YCbCr -> RGBA8 rows: both paths within one code (the wide one uses FMA), for every
    /// remainder, including values that clamp and NaN chroma (which becomes 0).
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
            // FMA on the wide path: at most one code apart.
            XCTAssertLessThanOrEqual(zip(fast, portable).map { abs(Int($0) - Int($1)) }.max() ?? 0, 1, "count \(count)")
            let i = count - 1
            let red = m[0] * Float(luma[i]) + m[1] * cb[i] + m[2] * cr[i] + m[3]
            XCTAssertEqual(Float(portable[4 * i]), min(max(red, 0), 255).rounded(.toNearestOrEven))
            XCTAssertEqual(portable[4 * i + 3], 255)
        }
    }

    /// Chroma spans for both sitings, odd and even starts and both layouts match a per-pixel
    /// bilinear definition with clamped edges.
    func testChromaSpanMatchesBilinearDefinition() {
        let width = 21
        let top = (0..<(2 * width)).map { UInt8(truncatingIfNeeded: $0 * 29 + 7) }
        let bottom = (0..<(2 * width)).map { UInt8(truncatingIfNeeded: $0 * 13 + 100) }
        let (w0, w1): (Float, Float) = (0.75, 0.25)
        var scratch = [Float](repeating: 0, count: 512)
        for centred in [0, 1] {
            for x0 in [0, 1, 5, 30] {
                let count = 11
                var cb = [Float](repeating: 0, count: count), cr = cb
                top.withUnsafeBufferPointer { t in
                    bottom.withUnsafeBufferPointer { b in
                        guard let t = t.baseAddress, let b = b.baseAddress else { return }
                        graph_yuv_chroma_span(t, b, t + 1, b + 1, 2, Int32(width), Int32(x0), Int32(count), w0, w1,
                                              Int32(centred), &cb, &cr, &scratch)
                    }
                }
                for i in 0..<count {
                    let cx = Double(x0 + i) / 2 - (centred == 1 ? 0.25 : 0)
                    let j = Int(cx.rounded(.down)), t = cx - cx.rounded(.down)
                    func at(_ k: Int) -> Double {
                        let c = min(max(k, 0), width - 1) * 2
                        return Double(top[c]) * 0.75 + Double(bottom[c]) * 0.25
                    }
                    XCTAssertEqual(Double(cb[i]), at(j) * (1 - t) + at(j + 1) * t, accuracy: 1e-3, "x0 \(x0) i \(i)")
                }
            }
        }
    }
}
