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

    /// YCbCr -> RGBA8 spans: the wide path (FMA) within one code of the portable one, for every
    /// remainder and odd starts, both sitings and layouts; and the portable one against the formula.
    func testYUVSpansMatchPortableAndTheDefinition() {
        var rng = SeededGenerator(seed: 5)
        let m: [Float] = [1.164, 0, 1.793, -248.1, 1.164, -0.213, -0.533, 76.9, 1.164, 2.112, 0, -289.0]
        let chromaWidth = 40
        let top = (0..<(2 * chromaWidth)).map { _ in UInt8.random(in: 16...240, using: &rng) }
        let bottom = (0..<(2 * chromaWidth)).map { _ in UInt8.random(in: 16...240, using: &rng) }
        let luma = (0..<80).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var scratch = [Float](repeating: 0, count: 1024)
        for centred: Int32 in [0, 1] {
            for step: Int32 in [1, 2] {
                for (x0, count) in [(0, 1), (0, 16), (1, 17), (3, 40), (0, 80), (5, 60)] {
                    var fast = [UInt8](repeating: 0, count: 4 * count), portable = fast
                    top.withUnsafeBufferPointer { t in
                        bottom.withUnsafeBufferPointer { b in
                            luma.withUnsafeBufferPointer { l in
                                guard let t = t.baseAddress, let b = b.baseAddress, let l = l.baseAddress else { return }
                                graph_yuv_to_rgba8_span(l, t, b, t + 1, b + 1, step, Int32(chromaWidth), Int32(x0), Int32(count),
                                                        0.75, 0.25, centred, m, &fast, &scratch)
                                graph_yuv_to_rgba8_span_portable(l, t, b, t + 1, b + 1, step, Int32(chromaWidth), Int32(x0),
                                                                 Int32(count), 0.75, 0.25, centred, m, &portable, &scratch)
                            }
                        }
                    }
                    XCTAssertLessThanOrEqual(zip(fast, portable).map { abs(Int($0) - Int($1)) }.max() ?? 0, 1,
                                             "x0 \(x0) count \(count) step \(step) centred \(centred)")
                    // The last pixel's red against the formula, with chroma from the bilinear definition.
                    let i = count - 1, x = x0 + i
                    let cx = Double(x) / 2 - (centred == 1 ? 0.25 : 0)
                    let j = Int(cx.rounded(.down)), t = cx - cx.rounded(.down)
                    func chroma(_ offset: Int, _ k: Int) -> Double {
                        let c = min(max(k, 0), chromaWidth - 1) * Int(step) + offset
                        return Double(top[c]) * 0.75 + Double(bottom[c]) * 0.25
                    }
                    let u = chroma(0, j) * (1 - t) + chroma(0, j + 1) * t, v = chroma(1, j) * (1 - t) + chroma(1, j + 1) * t
                    let red = Double(m[0]) * Double(luma[i]) + Double(m[1]) * u + Double(m[2]) * v + Double(m[3])
                    XCTAssertEqual(Double(portable[4 * i]), min(max(red, 0), 255), accuracy: 1)
                    XCTAssertEqual(portable[4 * i + 3], 255)
                }
            }
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
