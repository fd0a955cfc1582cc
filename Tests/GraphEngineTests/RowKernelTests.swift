import Foundation
import CRowKernels
import XCTest

/// The wide row kernels (AVX, AVX2, AVX-512) against their portable loops and their definitions.
final class RowKernelTests: XCTestCase {
    func testWidePathMatchesPortableBitForBit() {
        var rng = SeededGenerator(seed: 77)
        let taps = (0..<61).map { _ in Float.random(in: 0...0.05, using: &rng) }
        let source = (0..<(200 * 70)).map { _ in Float.random(in: -1...2, using: &rng) }
        // Past 128 and 16 the AVX-512 loops run (where the CPU has them), their leftovers the AVX2 ones.
        for count in [1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 139, 255, 300] {
            for stride in [1, 200] {
                var fast = [Float](repeating: 0, count: count), portable = fast
                graph_convolve_row(source, stride, taps, 61, Int32(count), &fast)
                graph_convolve_row_portable(source, stride, taps, 61, Int32(count), &portable)
                XCTAssertEqual(fast.map(\.bitPattern), portable.map(\.bitPattern), "count \(count) stride \(stride)")
                // And against the definition.
                let expected = (0..<61).reduce(Float(0)) { $0.addingProduct(taps[$1], source[count - 1 + $1 * stride]) }
                XCTAssertEqual(portable[count - 1], expected)
            }
        }
        // Rows of a vertical pass, four at a time where they can be: each the single row's bits.
        for (count, rows) in [(16, 4), (17, 4), (32, 4), (33, 5), (40, 7), (64, 8), (139, 9), (160, 8), (5, 3)] {
            var batched = [Float](repeating: 0, count: count * rows)
            graph_convolve_rows(source, 200, taps, 61, Int32(count), Int32(rows), &batched, count)
            for row in 0..<rows {
                var single = [Float](repeating: 0, count: count)
                source.withUnsafeBufferPointer { graph_convolve_row_portable($0.baseAddress! + row * 200, 200, taps, 61, Int32(count), &single) }
                XCTAssertEqual(Array(batched[(row * count)..<((row + 1) * count)]).map(\.bitPattern), single.map(\.bitPattern),
                               "count \(count) row \(row) of \(rows)")
            }
        }
    }

    /// The resample's horizontal pass over row blocks: 16-lane blocks (AVX-512 where the CPU has it,
    /// sixteen outputs transposed at a time) and 8-lane ones give the portable loop's bits for every
    /// output count; interleaving 16 rows (transposed 16 columns at a time) is a plain copy.
    func testResampleColumnsAndInterleaveMatchPortable() {
        var rng = SeededGenerator(seed: 41)
        let width = 300, outputs = 200
        let rows = (0..<(16 * width)).map { _ in Float.random(in: -0.5...1.5, using: &rng) }
        for (count, length) in [(16, 300), (16, 17), (16, 5), (8, 300), (3, 40)] {
            var block = [Float](repeating: 0, count: count * length)
            graph_interleave_rows(rows, Int32(width), Int32(count), Int32(length), &block)
            for i in 0..<length {
                for j in 0..<count { XCTAssertEqual(block[i * count + j], rows[j * width + i], "\(count) rows, column \(i)") }
            }
        }
        let firsts = (0..<outputs).map { Int32($0) }, counts = (0..<outputs).map { Int32(1 + $0 % 7) }
        let weights = (0..<(outputs * 8)).map { _ in Float.random(in: -0.2...0.8, using: &rng) }
        for lanes in [16, 8] {
            var block = [Float](repeating: 0, count: lanes * width)
            graph_interleave_rows(rows, Int32(width), Int32(lanes), Int32(width), &block)
            for count in [0, 1, 15, 16, 17, 33, 100, 200] {
                var fast = [Float](repeating: 0, count: lanes * outputs), portable = fast
                graph_resample_columns(block, Int32(lanes), firsts, counts, weights, 8, Int32(count), &fast, Int32(outputs))
                graph_resample_columns_portable(block, Int32(lanes), firsts, counts, weights, 8, Int32(count), &portable, Int32(outputs))
                XCTAssertEqual(fast.map(\.bitPattern), portable.map(\.bitPattern), "lanes \(lanes) count \(count)")
            }
        }
    }

    /// Plain 8-bit rows in and out (no transfer): the AVX2 loops give the portable loops' bits for
    /// every count (the wide part and the tail), both channel orders, and out-of-range, NaN and
    /// half-way values on the way out; the values are the definitions'.
    func testUnpackAndPackRowsMatchPortable() {
        var rng = SeededGenerator(seed: 31)
        let pixels = (0..<(4 * 300)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for channels: Int32 in [3, 4] {
            for (red, blue): (Int32, Int32) in [(0, 2), (2, 0)] where channels == 4 || red == 0 {
                for count in [0, 1, 7, 8, 9, 17, 100, 300] {
                    let empty = [Float](repeating: -1, count: count)
                    var (r, g, b, a) = (empty, empty, empty, empty), (pr, pg, pb, pa) = (empty, empty, empty, empty)
                    graph_unpack8_row(pixels, channels, red, blue, Int32(count), &r, &g, &b, &a)
                    graph_unpack8_row_portable(pixels, channels, red, blue, Int32(count), &pr, &pg, &pb, &pa)
                    let fast = [r, g, b, a], portable = [pr, pg, pb, pa]
                    XCTAssertEqual(fast.map { $0.map(\.bitPattern) }, portable.map { $0.map(\.bitPattern) }, "\(channels) \(count)")
                    if count > 0 {
                        XCTAssertEqual(fast[0][count - 1], Float(pixels[(count - 1) * Int(channels) + Int(red)]) * (1 / 255))
                        XCTAssertEqual(fast[3][count - 1], channels == 4 ? Float(pixels[count * 4 - 1]) * (1 / 255) : 1)
                    }
                }
            }
        }
        let specials: [Float] = [.nan, .infinity, -.infinity, -0.5, 1.5, 0.5 / 255, 1.5 / 255, 2.5 / 255, 254.5 / 255]
        let values = (0..<3).map { _ in
            (0..<300).map { i in i % 4 == 0 ? specials[i / 4 % specials.count] : Float.random(in: -0.2...1.2, using: &rng) }
        }
        for count in [0, 1, 9, 10, 11, 18, 100, 300] {
            var fast = [UInt8](repeating: 7, count: 3 * count + 16), portable = fast
            graph_pack8_rgb_row(values[0], values[1], values[2], Int32(count), &fast)
            graph_pack8_rgb_row_portable(values[0], values[1], values[2], Int32(count), &portable)
            XCTAssertEqual(fast, portable, "count \(count)")
            XCTAssertEqual(Array(fast[(3 * count)...]), [UInt8](repeating: 7, count: 16), "nothing written past the row")
            for i in 0..<count {
                let scaled = values[1][i] * 255
                let code = scaled.isNaN ? 0 : UInt8(min(max(scaled, 0), 255).rounded(.toNearestOrEven))
                XCTAssertEqual(fast[3 * i + 1], code, "pixel \(i): \(values[1][i])")
            }
        }
    }

    /// The byte-table lookup of in-order RGB rows (AVX-512 VBMI where the CPU has it): the portable
    /// loop's bytes for every length and start phase, one table or three, and in place.
    func testLookupRowsMatchPortable() {
        var rng = SeededGenerator(seed: 31)
        let pixels = (0..<(3 * 402)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let distinct = (0..<768).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let shared = Array((0..<3).map { _ in distinct.prefix(256) }.joined())
        for codes in [distinct, shared] {
            for count in [0, 1, 5, 21, 22, 64, 65, 128, 200, 399] {
                for start in [0, 1, 2] {
                    let source = Array(pixels[(3 * start)...].prefix(3 * count))
                    var fast = [UInt8](repeating: 7, count: 3 * count + 16), portable = fast
                    graph_lookup8_rgb_row(source, 3, 0, 2, codes, Int32(count), &fast)
                    graph_lookup8_rgb_row_portable(source, 3, 0, 2, codes, Int32(count), &portable)
                    XCTAssertEqual(fast, portable, "count \(count) start \(start)")
                    XCTAssertEqual(Array(fast[(3 * count)...]), [UInt8](repeating: 7, count: 16), "nothing written past the row")
                    for k in 0..<(3 * count) { XCTAssertEqual(portable[k], codes[256 * (k % 3) + Int(source[k])]) }
                    var inPlace = source
                    inPlace.withUnsafeMutableBufferPointer { row in
                        graph_lookup8_rgb_row(row.baseAddress, 3, 0, 2, codes, Int32(count), row.baseAddress)
                    }
                    XCTAssertEqual(inPlace, Array(portable.prefix(3 * count)), "in place, count \(count)")
                }
            }
        }
    }

    /// YCbCr -> RGBA8 rows in fixed point: the wide path byte-identical to the portable one for
    /// every start and remainder, both sitings and layouts and both vertical weights, including
    /// the clamped edges; and every pixel within one code of the double-precision formula with
    /// bilinear chroma (within 0.65 before rounding, so one code at most).
    func testYUVRowsMatchPortableAndTheDefinition() {
        var rng = SeededGenerator(seed: 5)
        // BT.709 video range in byte units (the matrix the T6 benchmark renders).
        let m: [Float] = [1.164, 0, 1.793, -248.1, 1.164, -0.213, -0.533, 76.9, 1.164, 2.112, 0, -289.0]
        var fixed = graph_yuv_fixed_matrix()
        XCTAssertEqual(graph_yuv_fixed_matrix_make(m, &fixed), 1)
        let chromaWidth = 40
        let top = (0..<(2 * chromaWidth)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let bottom = (0..<(2 * chromaWidth)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let luma = (0..<80).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for centred: Int32 in [0, 1] {
            for step: Int32 in [1, 2] {
                for topWeight: Int32 in [1, 3] {
                    for (x0, count) in [(0, 1), (0, 16), (1, 17), (2, 32), (3, 40), (0, 80), (5, 75), (62, 18)] {
                        var fast = [UInt8](repeating: 0, count: 4 * count), portable = fast
                        // Scratch of the documented size, then a guard band that must stay untouched.
                        let scratchCount = Int(graph_yuv_to_rgba8_scratch_count(Int32(count)))
                        var scratch = [Int16](repeating: 0, count: scratchCount) + [Int16](repeating: -7, count: 16)
                        top.withUnsafeBufferPointer { t in
                            bottom.withUnsafeBufferPointer { b in
                                luma.withUnsafeBufferPointer { l in
                                    guard let t = t.baseAddress, let b = b.baseAddress, let l = l.baseAddress else { return }
                                    // Planar rows: Cb in the first half of each row, Cr in the second.
                                    let (cbTop, crTop) = step == 2 ? (t, t + 1) : (t, t + chromaWidth)
                                    let (cbBottom, crBottom) = step == 2 ? (b, b + 1) : (b, b + chromaWidth)
                                    graph_yuv_to_rgba8_row(l + x0, cbTop, cbBottom, crTop, crBottom, step, Int32(chromaWidth),
                                                           Int32(x0), Int32(count), topWeight, centred, &fixed, &scratch, &fast)
                                    graph_yuv_to_rgba8_row_portable(l + x0, cbTop, cbBottom, crTop, crBottom, step,
                                                                    Int32(chromaWidth), Int32(x0), Int32(count), topWeight,
                                                                    centred, &fixed, &scratch, &portable)
                                }
                            }
                        }
                        let label = "x0 \(x0) count \(count) step \(step) centred \(centred) top \(topWeight)"
                        XCTAssertEqual(fast, portable, label)
                        XCTAssertEqual(Array(scratch[scratchCount...]), [Int16](repeating: -7, count: 16), label)
                        let wTop = Double(topWeight) / 4
                        func chroma(_ plane: Int, _ k: Int) -> Double {
                            let j = min(max(k, 0), chromaWidth - 1)
                            let c = step == 2 ? 2 * j + plane : j + plane * chromaWidth
                            return Double(top[c]) * wTop + Double(bottom[c]) * (1 - wTop)
                        }
                        for i in 0..<count {
                            let x = x0 + i
                            let cx = Double(x) / 2 - (centred == 1 ? 0.25 : 0)
                            let j = Int(cx.rounded(.down)), t = cx - cx.rounded(.down)
                            let u = chroma(0, j) * (1 - t) + chroma(0, j + 1) * t
                            let v = chroma(1, j) * (1 - t) + chroma(1, j + 1) * t
                            for c in 0..<3 {
                                let exact = Double(m[4 * c]) * Double(luma[x]) + Double(m[4 * c + 1]) * u
                                    + Double(m[4 * c + 2]) * v + Double(m[4 * c + 3])
                                XCTAssertEqual(Double(portable[4 * i + c]), min(max(exact, 0), 255), accuracy: 1,
                                               "\(label) pixel \(i) channel \(c)")
                            }
                            XCTAssertEqual(portable[4 * i + 3], 255)
                        }
                    }
                }
            }
        }
    }

    /// The fixed-point matrix refuses what 16 bits cannot hold, so those frames take the float path.
    func testFixedMatrixRefusesWhatDoesNotFit() {
        var fixed = graph_yuv_fixed_matrix()
        let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]
        XCTAssertEqual(graph_yuv_fixed_matrix_make(identity, &fixed), 1)
        XCTAssertEqual(fixed.coefficients.0, 8192)
        XCTAssertEqual(fixed.offsets.0, 8)
        for (index, value) in [(0, Float(4)), (9, -4.5), (3, 3000), (2, .nan), (11, .infinity)] {
            var m = identity
            m[index] = value
            XCTAssertEqual(graph_yuv_fixed_matrix_make(m, &fixed), 0, "a[\(index)] = \(value)")
        }
    }

    /// The IR's power: the wide path gives the portable bits for every remainder; both are within
    /// 2e-6 of the exact power where the polynomials apply, and powf's value everywhere else.
    func testPowerSpanMatchesPortableExactAndPowf() {
        var rng = SeededGenerator(seed: 31)
        let special: [(Float, Float)] = [(0, 2.2), (0, -1), (-0.5, 2), (-0.5, 3), (-0.5, 0.5), (.infinity, 0.5), (.nan, 2),
                                         (0.5, .nan), (0.5, .infinity), (Float.leastNormalMagnitude / 8, 2), (1e-30, 10), (3e38, 2), (1, 1e30)]
        var x = special.map(\.0), y = special.map(\.1)
        for _ in 0..<500 {
            x.append(Float.random(in: 0...4, using: &rng))
            y.append([2.2, 1 / 2.4, 0.45, Float.random(in: -3...3, using: &rng)][Int.random(in: 0..<4, using: &rng)])
        }
        for count in [1, 7, 8, 9, 13, 100, x.count] {
            var wide = [Float](repeating: 0, count: count), portable = wide
            graph_pow_span(x, y, &wide, Int32(count))
            graph_pow_span_portable(x, y, &portable, Int32(count))
            XCTAssertEqual(wide.map(\.bitPattern), portable.map(\.bitPattern), "count \(count)")
        }
        var result = [Float](repeating: 0, count: x.count)
        graph_pow_span_portable(x, y, &result, Int32(x.count))
        for i in x.indices {
            let exact = Foundation.pow(Double(x[i]), Double(y[i]))
            if x[i] >= Float.leastNormalMagnitude, x[i].isFinite, y[i].isFinite, exact >= 1.2e-38, exact <= 1.7e38 {
                XCTAssertEqual(Double(result[i]), exact, accuracy: 2e-6 * exact, "\(x[i])^\(y[i])")
            } else {
                let powf = Foundation.pow(x[i], y[i])
                XCTAssertTrue(result[i] == powf || (result[i].isNaN && powf.isNaN), "\(x[i])^\(y[i]): \(result[i]) vs \(powf)")
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

    /// The IR's sRGB curves through their tables: the AVX2 path (gathers) gives the portable bits for
    /// every remainder, for values inside and outside [−1, 1], NaN and −0, both directions.
    func testTransferSpanMatchesPortable() {
        let resolution = 4096
        var rng = SeededGenerator(seed: 43)
        var x: [Float] = [0, -0.0, 1, -1, 1.5, -2, .nan, .infinity, 0.002, 0.04]
        for _ in 0..<700 { x.append(Float.random(in: -1.2...1.2, using: &rng)) }
        for decode in [Int32(0), 1] {
            let table = (0...resolution).map { Float($0) / Float(resolution) * (decode == 1 ? 0.9 : 1.1) + 0.001 }
            for count in [1, 7, 8, 9, 16, 17, x.count] {
                var wide = [Float](repeating: 0, count: count), portable = wide
                graph_transfer_span(table, Int32(resolution), decode, x, &wide, Int32(count))
                graph_transfer_span_portable(table, Int32(resolution), decode, x, &portable, Int32(count))
                XCTAssertEqual(wide.map(\.bitPattern), portable.map(\.bitPattern), "count \(count), decode \(decode)")
            }
        }
    }

    /// The guide luma of the joint bilateral upsample: the AVX2 path (gathers) gives the portable
    /// bits for every remainder, with and without alpha, including negative values, values outside
    /// [−1, 1], NaN, −0 and alpha 0; both are within 1.7e-5 of the exact sRGB-encoded luma on [−1, 1].
    func testGuideLumaMatchesPortableAndTheExactEncode() {
        let resolution = 4096
        func encode(_ x: Double) -> Double { x <= 0.0031308 ? 12.92 * x : 1.055 * Foundation.pow(x, 1 / 2.4) - 0.055 }
        let table = (0...resolution).map { k -> Float in
            let x = Float(Double(k) / Double(resolution))
            return x <= 0.0031308 ? x * 12.92 : 1.055 * Foundation.pow(x, 1 / 2.4) - 0.055
        }
        var rng = SeededGenerator(seed: 41)
        var r: [Float] = [0, -0.0, 1, 2, -0.5, .nan, 0.002, 0.5], g: [Float] = [0, -0.0, 1, 0.5, -0.5, 0.3, 0.004, 0.5]
        var b: [Float] = [0, -0.0, 1, 0.2, -0.5, 0.3, 0.001, 0.5], a: [Float] = [1, 1, 1, 1, 1, 1, 0, 0.5]
        for _ in 0..<600 {
            r.append(Float.random(in: -0.3...1, using: &rng)); g.append(Float.random(in: -0.3...1, using: &rng))
            b.append(Float.random(in: -0.3...1, using: &rng)); a.append(Float.random(in: 0.5...1, using: &rng))
        }
        for count in [1, 7, 8, 9, 15, 16, 17, r.count] {
            for alpha in [true, false] {
                var wide = [Float](repeating: 0, count: count), portable = wide
                a.withUnsafeBufferPointer { alphas in
                    let pointer = alpha ? alphas.baseAddress : nil
                    graph_guide_luma_row(r, g, b, pointer, Int32(count), table, Int32(resolution), &wide)
                    graph_guide_luma_row_portable(r, g, b, pointer, Int32(count), table, Int32(resolution), &portable)
                }
                XCTAssertEqual(wide.map(\.bitPattern), portable.map(\.bitPattern), "count \(count), alpha \(alpha)")
            }
        }
        var result = [Float](repeating: 0, count: r.count)
        graph_guide_luma_row(r, g, b, nil, Int32(r.count), table, Int32(resolution), &result)
        var worst = 0.0
        for i in 8..<r.count {
            let y = 0.2125 * Double(r[i]) + 0.7154 * Double(g[i]) + 0.0721 * Double(b[i])
            worst = max(worst, abs(Double(result[i]) - (y < 0 ? -encode(-y) : encode(y))))
        }
        XCTAssertLessThan(worst, 1.7e-5)
        XCTAssertEqual(result[1].bitPattern, Float(0).bitPattern, "−0 encodes as +0")
        XCTAssertTrue(result[5].isNaN)
        XCTAssertEqual(Double(result[3]), encode(0.2125 * 2 + 0.7154 * 0.5 + 0.0721 * 0.2), accuracy: 1e-6)
        XCTAssertEqual(Double(result[4]), -encode(0.5), accuracy: 2e-5)
    }
    /// The integer rows of the 8-bit resample (AVX-512 VNNI, AVX2 where the CPU has them, their
    /// leftovers the portable loop) give the portable loop's bits for every count, tap count (odd
    /// ones pair the last tap with a zero) and stride, and the portable loops are the exact sums.
    func testIntegerResampleRowsMatchPortableAndTheExactSum() {
        var rng = SeededGenerator(seed: 27)
        // Vertical: codes, signed weights shared by the row.
        let codes = (0..<(300 * 20)).map { _ in Int16.random(in: 0...255, using: &rng) }
        for taps in [1, 2, 3, 7, 8, 13] {
            let weights = (0..<taps).map { _ in Int16.random(in: -8000...20000, using: &rng) }
            for count in [1, 15, 16, 17, 31, 32, 33, 63, 100, 200] {
                for stride in [1, 300] where count - 1 + (taps - 1) * stride < codes.count {
                    var fast = [Int16](repeating: 0, count: count), portable = fast
                    graph_weighted_rows_to_int16(codes, stride, weights, Int32(taps), Int32(count), 14, &fast)
                    graph_weighted_rows_to_int16_portable(codes, stride, weights, Int32(taps), Int32(count), 14, &portable)
                    XCTAssertEqual(fast, portable, "taps \(taps) count \(count) stride \(stride)")
                    let i = count - 1
                    let exact = (0..<taps).reduce(0) { $0 + Int(weights[$1]) * Int(codes[i + $1 * stride]) }
                    XCTAssertEqual(Int(portable[i]), (exact + 8192) >> 14, "taps \(taps) count \(count) stride \(stride)")
                }
            }
        }
        // Horizontal: each output its own first tap and pairs of weights; first taps anywhere (spread
        // wide: the AVX-512 path gathers) and a resample's, ascending (the taps of 16 outputs within 64
        // values: it permutes).
        let row = (0..<464).map { _ in Int16.random(in: -2000...9000, using: &rng) }
        for (pairCount, spread) in [1, 3, 4, 7].flatMap({ [($0, true), ($0, false)] }) {
            for count in [1, 7, 8, 9, 15, 16, 17, 33, 100] {
                let firsts = (0..<count).map { o in
                    spread ? Int32.random(in: 0...Int32(400 - 2 * pairCount), using: &rng) : Int32(o * 10 / 3 + o % 2)
                }
                let pairs = (0..<(pairCount * count)).map { _ -> Int32 in
                    let lo = UInt16(bitPattern: Int16.random(in: -3000...8000, using: &rng))
                    let hi = UInt16(bitPattern: Int16.random(in: -3000...8000, using: &rng))
                    return Int32(bitPattern: UInt32(lo) | UInt32(hi) << 16)
                }
                var fast = [Float](repeating: 0, count: count), portable = fast
                graph_resample_codes_row(row, firsts, pairs, count, Int32(pairCount), Int32(count), 1e-6, &fast)
                graph_resample_codes_row_portable(row, firsts, pairs, count, Int32(pairCount), Int32(count), 1e-6, &portable)
                XCTAssertEqual(fast.map(\.bitPattern), portable.map(\.bitPattern), "pairs \(pairCount) count \(count) spread \(spread)")
                let o = count - 1, first = Int(firsts[o])
                var exact = 0
                for p in 0..<pairCount {
                    let w = UInt32(bitPattern: pairs[p * count + o])
                    exact += Int(Int16(truncatingIfNeeded: w)) * Int(row[first + 2 * p])
                        + Int(Int16(truncatingIfNeeded: w >> 16)) * Int(row[first + 2 * p + 1])
                }
                XCTAssertEqual(portable[o], Float(exact) * 1e-6, "pairs \(pairCount) count \(count)")
            }
        }
    }

    /// The integer rows of the 8-bit Gaussian (AVX-512 VNNI, AVX2 where the CPU has them, their
    /// leftovers the narrower loops) give the portable loop's bits for every count, radius (odd and
    /// even: the centre pairs differently) and stride, and the portable loop is the exact sum.
    func testSymmetricIntegerConvolutionMatchesPortableAndTheExactSum() {
        var rng = SeededGenerator(seed: 26)
        let source = (0..<(300 * 80)).map { _ in Int16.random(in: 0...16320, using: &rng) }
        for radius in [0, 1, 2, 3, 8, 17, 30, 31] {
            let half = (0...radius).map { _ in Int16.random(in: 0...2000, using: &rng) }
            let weights = half + half.dropLast().reversed()
            let taps = Int32(weights.count)
            for count in [1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129, 200] {
                for stride in [1, 300] where count - 1 + 2 * radius * stride < source.count {
                    var fast = [Int16](repeating: 0, count: count), portable = fast
                    var fastFloat = [Float](repeating: 0, count: count), portableFloat = fastFloat
                    graph_symmetric_convolve_to_int16(source, stride, weights, taps, Int32(count), 16, &fast)
                    graph_symmetric_convolve_to_int16_portable(source, stride, weights, taps, Int32(count), 16, &portable)
                    graph_symmetric_convolve_to_float(source, stride, weights, taps, Int32(count), 1e-6, &fastFloat)
                    graph_symmetric_convolve_to_float_portable(source, stride, weights, taps, Int32(count), 1e-6, &portableFloat)
                    XCTAssertEqual(fast, portable, "radius \(radius) count \(count) stride \(stride)")
                    XCTAssertEqual(fastFloat.map(\.bitPattern), portableFloat.map(\.bitPattern), "radius \(radius) count \(count) stride \(stride)")
                    let i = count - 1
                    let exact = weights.indices.reduce(0) { $0 + Int(weights[$1]) * Int(source[i + $1 * stride]) }
                    XCTAssertEqual(Int(portable[i]), (exact + 32768) >> 16)
                    XCTAssertEqual(portableFloat[i], Float(exact) * 1e-6)
                }
            }
        }
        // A vertical pass over column blocks: each row the single row's bits.
        let weights = (0...30).map { _ in Int16.random(in: 0...2000, using: &rng) }
        let taps = weights + weights.dropLast().reversed()
        for width in [1, 16, 33, 64, 100, 150] {
            let rows = 70
            var blocked = [Float](repeating: 0, count: 150 * rows)
            graph_symmetric_convolve_columns_to_float(source, 150, taps, 61, Int32(width), Int32(rows), 1e-6, &blocked, 150)
            for y in 0..<rows {
                var single = [Float](repeating: 0, count: width)
                source.withUnsafeBufferPointer {
                    graph_symmetric_convolve_to_float_portable($0.baseAddress! + y * 150, 150, taps, 61, Int32(width), 1e-6, &single)
                }
                XCTAssertEqual(blocked[(y * 150)..<(y * 150 + width)].map(\.bitPattern), single.map(\.bitPattern), "width \(width) row \(y)")
            }
        }
        // The vertical pass to codes (32 columns and four rows at a time with AVX-512 VNNI, the last
        // block overlapping): each row the portable row's bytes, and that the exact sum rounded.
        for width in [1, 16, 31, 32, 33, 64, 100, 150] {
            for rows in [1, 3, 4, 5, 9, 70] {
                var blocked = [UInt8](repeating: 0, count: 150 * rows)
                graph_symmetric_convolve_columns_to_codes(source, 150, taps, 61, Int32(width), Int32(rows), 23, &blocked, 150)
                for y in 0..<rows {
                    var single = [UInt8](repeating: 0, count: width)
                    source.withUnsafeBufferPointer {
                        graph_symmetric_convolve_to_codes_portable($0.baseAddress! + y * 150, 150, taps, 61, Int32(width), 23, &single)
                    }
                    XCTAssertEqual(Array(blocked[(y * 150)..<(y * 150 + width)]), single, "width \(width) rows \(rows) row \(y)")
                    let x = width - 1
                    let exact = taps.indices.reduce(0) { $0 + Int(taps[$1]) * Int(source[(y + $1) * 150 + x]) }
                    XCTAssertEqual(Int(single[x]), min(255, (exact + (1 << 22)) >> 23), "width \(width) row \(y)")
                }
            }
        }
        // The horizontal pass of a transposed strip: columns to int16 (four rows at a time with
        // AVX-512 VNNI) are the single rows' values; the transpose is the definition.
        for width in [1, 16, 31, 32, 33, 64, 100, 150] {
            for rows in [1, 3, 4, 5, 9, 70] {
                var blocked = [Int16](repeating: 0, count: 150 * rows)
                graph_symmetric_convolve_columns_to_int16(source, 150, taps, 61, Int32(width), Int32(rows), 16, &blocked, 150)
                for y in 0..<rows {
                    var single = [Int16](repeating: 0, count: width)
                    source.withUnsafeBufferPointer {
                        graph_symmetric_convolve_to_int16_portable($0.baseAddress! + y * 150, 150, taps, 61, Int32(width), 16, &single)
                    }
                    XCTAssertEqual(Array(blocked[(y * 150)..<(y * 150 + width)]), single, "int16 width \(width) rows \(rows) row \(y)")
                }
            }
        }
        for (rows, columns) in [(1, 1), (7, 9), (8, 8), (16, 24), (17, 33), (40, 29)] {
            var transposed = [Int16](repeating: -1, count: columns * 50)
            graph_transpose16(source, 150, Int32(rows), Int32(columns), &transposed, 50)
            for y in 0..<rows {
                for x in 0..<columns where transposed[x * 50 + y] != source[y * 150 + x] {
                    XCTFail("transpose \(rows)x\(columns) at row \(y) column \(x)")
                }
            }
        }
        // Three planes of codes interleaved (RGB 64 pixels a step with AVX-512 VBMI; RGBA and BGRA with alpha 255).
        let planes = (0..<(3 * 140)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for count in [0, 1, 8, 9, 63, 64, 65, 129, 140] {
            for (channels, red, blue) in [(3, 0, 2), (4, 0, 2), (4, 2, 0)] {
                var out = [UInt8](repeating: 7, count: channels * count)
                graph_interleave8_row(planes, Array(planes[140...]), Array(planes[280...]), Int32(count), Int32(channels),
                                      Int32(red), Int32(blue), &out)
                var expected = out
                for i in 0..<count {
                    expected[channels * i + red] = planes[i]
                    expected[channels * i + 1] = planes[140 + i]
                    expected[channels * i + blue] = planes[280 + i]
                    if channels == 4 { expected[channels * i + 3] = 255 }
                }
                XCTAssertEqual(out, expected, "count \(count) channels \(channels) red \(red)")
            }
        }
        // Interleaved 8-bit pixels to code rows (RGB 64 pixels a step where the CPU has AVX-512 VBMI,
        // then 16 with AVX2; BGRA).
        let pixels = (0..<(4 * 140)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for count in [0, 1, 15, 16, 17, 33, 63, 64, 65, 100, 140] {
            var r = [Int16](repeating: -1, count: count), g = r, b = r
            graph_unpack8_codes_row(pixels, 3, 0, 2, Int32(count), &r, &g, &b)
            XCTAssertEqual(r, (0..<count).map { Int16(pixels[3 * $0]) }, "RGB count \(count)")
            XCTAssertEqual(g, (0..<count).map { Int16(pixels[3 * $0 + 1]) }, "RGB count \(count)")
            XCTAssertEqual(b, (0..<count).map { Int16(pixels[3 * $0 + 2]) }, "RGB count \(count)")
            graph_unpack8_codes_row(pixels, 4, 2, 0, Int32(count), &r, &g, &b)
            XCTAssertEqual(r, (0..<count).map { Int16(pixels[4 * $0 + 2]) }, "BGRA count \(count)")
            XCTAssertEqual(b, (0..<count).map { Int16(pixels[4 * $0]) }, "BGRA count \(count)")
        }
        // Floats to codes: nearest, clamped, NaN to 0, the same on every path.
        let values: [Float] = (0..<100).map { Float($0 - 20) / 70 } + [.nan, 1e30, -1e30, 0.5 / 255, 1.5 / 255, 2.5 / 255]
        var codes = [Int16](repeating: -1, count: values.count)
        graph_float_to_code16(values, Int32(values.count), &codes)
        XCTAssertEqual(codes, values.map { v in Int16(((v * 255).isNaN ? 0 : min(max(v * 255, 0), 255)).rounded(.toNearestOrEven)) })
        let exactCodes = (0...255).map { Float($0) * (1 / 255) }
        var decoded = [Int16](repeating: -1, count: 256)
        graph_float_to_code16(exactCodes, 256, &decoded)
        XCTAssertEqual(decoded.map(Int.init), Array(0...255))
    }
}
