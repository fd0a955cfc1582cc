import CRowKernels
import Foundation
import XCTest

/// The span kernels of exp, exp2, log, log2, sin, cos and atan (`graph_transcendental_span`): the AVX2
/// path gives the portable path's bits, the polynomials stay within their stated error of the
/// float64 functions over dense sweeps, and every value outside their ranges is libm's.
final class TranscendentalSpanTests: XCTestCase {
    private let functions: [(GraphTranscendental, String, (Double) -> Double, (Float) -> Float)] = [
        (GRAPH_TRANSCENDENTAL_EXP, "exp", { Foundation.exp($0) }, { Foundation.exp($0) }),
        (GRAPH_TRANSCENDENTAL_EXP2, "exp2", { Foundation.exp2($0) }, { Foundation.exp2($0) }),
        (GRAPH_TRANSCENDENTAL_LOG, "log", { Foundation.log($0) }, { Foundation.log($0) }),
        (GRAPH_TRANSCENDENTAL_LOG2, "log2", { Foundation.log2($0) }, { Foundation.log2($0) }),
        (GRAPH_TRANSCENDENTAL_SIN, "sin", { Foundation.sin($0) }, { Foundation.sin($0) }),
        (GRAPH_TRANSCENDENTAL_COS, "cos", { Foundation.cos($0) }, { Foundation.cos($0) }),
        (GRAPH_TRANSCENDENTAL_ATAN, "atan", { Foundation.atan($0) }, { Foundation.atan($0) }),
    ]

    private func span(_ f: GraphTranscendental, _ x: [Float], portable: Bool = false) -> [Float] {
        var out = [Float](repeating: 0, count: x.count)
        if portable { graph_transcendental_span_portable(f, x, &out, Int32(x.count)) } else { graph_transcendental_span(f, x, &out, Int32(x.count)) }
        return out
    }

    /// `count` values evenly spread over [lo, hi].
    private func sweep(_ lo: Double, _ hi: Double, _ count: Int) -> [Float] {
        (0..<count).map { Float(lo + (hi - lo) * Double($0) / Double(count - 1)) }
    }

    /// The largest error of `f` over `x` in units in the last place of the float64 result rounded
    /// to float (the spacing above its magnitude, at least the smallest normal's).
    private func worstULP(_ f: GraphTranscendental, _ exact: (Double) -> Double, _ x: [Float]) -> (ulp: Double, at: Float) {
        let y = span(f, x)
        var worst = (ulp: 0.0, at: Float(0))
        for i in x.indices {
            let e = exact(Double(x[i]))
            let magnitude = max(abs(Float(e)), Float.leastNormalMagnitude)
            let error = abs(Double(y[i]) - e) / Double(magnitude.nextUp - magnitude)
            if error > worst.ulp { worst = (error, x[i]) }
        }
        return worst
    }

    func testWidePathGivesThePortableBits() {
        var rng = SeededGenerator(seed: 26)
        let special: [Float] = [0, -0, 1, -1, .infinity, -.infinity, .nan, 88, 88.01, -87, -87.01, 127, 127.5, -125, -126,
                                Float.leastNormalMagnitude, Float.leastNonzeroMagnitude, .greatestFiniteMagnitude, 8192, -8192, 8192.5, 1e20,
                                .pi, -.pi / 2, 0.5, 2]
        var x = special
        for _ in 0..<600 { x.append(Float.random(in: -200...200, using: &rng)) }
        for _ in 0..<600 { x.append(Float.random(in: 0...2, using: &rng)) }
        for (f, name, _, _) in functions {
            for count in [1, 7, 8, 9, 13, 100, x.count] {
                let input = Array(x.prefix(count))
                XCTAssertEqual(span(f, input).map(\.bitPattern), span(f, input, portable: true).map(\.bitPattern), "\(name) count \(count)")
            }
        }
    }

    /// Measured (this sweep): exp 0.97 ulp, exp2 0.97, log 0.87, log2 1.38, atan 2.8 (just above
    /// tan π/8, where π/4 + atan r cancels); sin and cos 1.5 ulp on [−4, 4] and within 8e-8
    /// absolute over [−8192, 8192] (relative error grows near the zeros of large arguments, as for
    /// any float reduction of a float argument).
    func testPolynomialsAreWithinTheirStatedErrorOfFloat64() {
        let count = 200_003
        // Every binade of the positive normal floats, a dense stretch around 1, and 8-bit codes.
        let positive = (0..<count).map { Float(bitPattern: UInt32(0x0080_0000 + UInt64($0) * UInt64(0x7F7F_FFFF - 0x0080_0000) / UInt64(count))) }
            + sweep(0.5, 2, count) + (1...255).map { Float($0) / 255 }
        let limits: [String: (inputs: [Float], ulp: Double)] = [
            "exp": (sweep(-87, 88, count) + sweep(-2, 2, count), 1.0),
            "exp2": (sweep(-125, 127, count) + sweep(-2, 2, count), 1.0),
            "log": (positive, 1.0),
            "log2": (positive, 1.5),
            "sin": (sweep(-4, 4, count), 2.0),
            "cos": (sweep(-4, 4, count), 2.0),
            "atan": (sweep(-10, 10, count) + sweep(-1e4, 1e4, count), 3.0),
        ]
        for (f, name, exact, _) in functions {
            guard let (inputs, limit) = limits[name] else { continue }
            let worst = worstULP(f, exact, inputs)
            XCTAssertLessThanOrEqual(worst.ulp, limit, "\(name) at \(worst.at)")
            if name == "sin" || name == "cos" {
                let wide = sweep(-8192, 8192, count), y = span(f, wide)
                let absolute = wide.indices.map { abs(Double(y[$0]) - exact(Double(wide[$0]))) }.max() ?? 0
                XCTAssertLessThanOrEqual(absolute, 1e-7, name)
            }
        }
    }

    /// Outside the polynomials' ranges (and at zero, negatives for the logarithms, NaN and
    /// infinities) the result is libm's float function, bit for bit.
    func testValuesOutsideThePolynomialsAreLibms() {
        let outside: [String: [Float]] = [
            "exp": [-87.01, -100, -104, 88.01, 88.7, 89, .infinity, -.infinity, .nan],
            "exp2": [-125.01, -140, -150, 127.01, 127.9, 128, .infinity, -.infinity, .nan],
            "log": [0, -0, -1, Float.leastNonzeroMagnitude, Float.leastNormalMagnitude / 2, .infinity, -.infinity, .nan],
            "log2": [0, -0, -1, Float.leastNonzeroMagnitude, Float.leastNormalMagnitude / 2, .infinity, -.infinity, .nan],
            "sin": [8192.01, -8193, 1e6, 1e30, .infinity, -.infinity, .nan],
            "cos": [8192.01, -8193, 1e6, 1e30, .infinity, -.infinity, .nan],
        ]
        for (f, name, _, libm) in functions {
            guard let x = outside[name] else { continue }
            // Padded to a whole AVX2 step and a remainder.
            let input = x + Array(repeating: 1, count: 16 - x.count % 8)
            let y = span(f, input)
            for i in x.indices {
                let expected = libm(x[i])
                XCTAssertTrue(y[i].bitPattern == expected.bitPattern || (y[i].isNaN && expected.isNaN), "\(name)(\(x[i])): \(y[i]) vs \(expected)")
            }
        }
        // Zeros keep their sign through sin; exact powers of two have exact logarithms.
        XCTAssertEqual(span(GRAPH_TRANSCENDENTAL_SIN, [-0.0, 0.0]).map(\.bitPattern), [Float(-0.0).bitPattern, 0])
        XCTAssertEqual(span(GRAPH_TRANSCENDENTAL_LOG2, [0.25, 1, 8, 1024]), [-2, 0, 3, 10])
        XCTAssertEqual(span(GRAPH_TRANSCENDENTAL_EXP2, [-3, 0, 10]), [0.125, 1, 1024])
        // atan has no range to leave: its ends and NaN come out of the reduction as libm's.
        let ends: [Float] = [.infinity, -.infinity, 1e30, -0.0]
        XCTAssertEqual(span(GRAPH_TRANSCENDENTAL_ATAN, ends).map(\.bitPattern), ends.map { Foundation.atan($0).bitPattern })
        XCTAssertTrue(span(GRAPH_TRANSCENDENTAL_ATAN, [.nan])[0].isNaN)
    }
}
