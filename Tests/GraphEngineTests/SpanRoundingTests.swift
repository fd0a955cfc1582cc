import CRowKernels
import XCTest
@testable import GraphEngine
@testable import GraphCPU

/// The interpreter's floor, ceil, fract and modulo: the baseline loop rounds down by selects (no
/// libm), the wide loops by the CPU's rounding instruction, both bit for bit Swift's `rounded(.down)`
/// on every kind of value.
final class SpanRoundingTests: XCTestCase {
    func testRoundedDownIsFloorBitForBit() {
        var values: [Float] = [0, -0, 0.5, -0.5, 1, -1, 0.9999999, -0.9999999, 1.5, -1.5, 2.5, -2.5, 8_388_607.5, -8_388_607.5,
                               8_388_608, -8_388_608, 8_388_609, 16_777_218, -16_777_218, 1e30, -1e30, .infinity, -.infinity,
                               .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            values.append(Float.random(in: -1e4...1e4, using: &random))
            values.append(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &random)))
        }
        values.append(.nan)
        var portable = [Float](repeating: 0, count: values.count), wide = portable
        graph_span_unary_portable(GRAPH_SPAN_FLOOR, values, &portable, Int32(values.count))
        graph_span_unary(GRAPH_SPAN_FLOOR, values, &wide, Int32(values.count))
        for (i, x) in values.enumerated() where !x.isNaN {
            XCTAssertEqual(portable[i].bitPattern, x.rounded(.down).bitPattern, "\(x)")
            XCTAssertEqual(wide[i].bitPattern, x.rounded(.down).bitPattern, "\(x)")
        }
        XCTAssertTrue(portable[values.count - 1].isNaN && wide[values.count - 1].isNaN)
    }

    func testFloorCeilFractAndModuloSpans() {
        let n = 37
        let a = UnsafeMutablePointer<Float>.allocate(capacity: n), b = UnsafeMutablePointer<Float>.allocate(capacity: n)
        let d = UnsafeMutablePointer<Float>.allocate(capacity: n)
        defer { a.deallocate(); b.deallocate(); d.deallocate() }
        for i in 0..<n { a[i] = Float(i - 18) * 0.37 - 0.1; b[i] = Float(i % 5) + 0.75 }
        SpanLoops.unary(.floor, d, a, n)
        for i in 0..<n { XCTAssertEqual(d[i], a[i].rounded(.down)) }
        SpanLoops.unary(.ceil, d, a, n)
        for i in 0..<n { XCTAssertEqual(d[i].bitPattern, a[i].rounded(.up).bitPattern) }
        SpanLoops.unary(.fract, d, a, n)
        for i in 0..<n { XCTAssertEqual(d[i], a[i] - a[i].rounded(.down)) }
        SpanLoops.binary(.modulo, d, a, b, n)
        for i in 0..<n { XCTAssertEqual(d[i], a[i] - b[i] * (a[i] / b[i]).rounded(.down)) }
    }
}
