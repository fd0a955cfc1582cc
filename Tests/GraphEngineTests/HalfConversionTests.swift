import CHalf
import XCTest

/// The F16C path and the portable fallback must agree bit for bit.
final class HalfConversionTests: XCTestCase {
    func testEveryHalfConvertsIdenticallyOnBothPaths() {
        let halves = (0...UInt16.max).map { $0 }
        var fast = [Float](repeating: 0, count: halves.count)
        var portable = [Float](repeating: 0, count: halves.count)
        graph_half_to_float(halves, &fast, halves.count)
        graph_half_to_float_portable(halves, &portable, halves.count)
        for i in 0..<halves.count where !(fast[i].isNaN && portable[i].isNaN) {
            XCTAssertEqual(fast[i].bitPattern, portable[i].bitPattern, "half 0x\(String(halves[i], radix: 16))")
        }
        // Spot values from the IEEE definition.
        XCTAssertEqual(portable[0x3C00], 1)
        XCTAssertEqual(portable[0xC000], -2)
        XCTAssertEqual(portable[0x0001], 5.9604644775390625e-8)
        XCTAssertEqual(portable[0x7BFF], 65504)
    }

    func testFloatToHalfRoundsToNearestEvenOnBothPaths() {
        var rng = SeededGenerator(seed: 7)
        var values: [Float] = [0, -0, 1, 65504, 65520, 65519.99, 1e-8, -1e-8, 2.98e-8, .infinity, -.infinity,
                               1.0009765625 /* 1 + 2^-10 */, 1.00048828125 /* halfway: ties to even -> 1 */]
        for _ in 0..<200_000 {
            values.append(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &rng)))
        }
        var fast = [UInt16](repeating: 0, count: values.count)
        var portable = [UInt16](repeating: 0, count: values.count)
        graph_float_to_half(values, &fast, values.count)
        graph_float_to_half_portable(values, &portable, values.count)
        for i in 0..<values.count where !values[i].isNaN {
            XCTAssertEqual(fast[i], portable[i], "float \(values[i])")
        }
        XCTAssertEqual(portable[12], 0x3C00, "a tie rounds to even")
        XCTAssertEqual(portable[4], 0x7C00, "65520 overflows to infinity")
        XCTAssertEqual(portable[3], 0x7BFF)
    }
}
