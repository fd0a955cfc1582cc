import XCTest
@testable import GraphEngine
@testable import GraphCPU

/// The interpreter's floor, ceil, fract and modulo round down without libm (``SpanLoops/roundedDown(_:)``):
/// bit for bit Swift's `rounded(.down)` on every kind of value.
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
        for x in values where !x.isNaN {
            XCTAssertEqual(SpanLoops.roundedDown(x).bitPattern, x.rounded(.down).bitPattern, "\(x)")
        }
        XCTAssertTrue(SpanLoops.roundedDown(.nan).isNaN)
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
