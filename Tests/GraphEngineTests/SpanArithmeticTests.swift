import CRowKernels
import XCTest

/// The span interpreter's arithmetic loops (`graph_span_unary`, `_binary`, `_ternary`,
/// `_color_matrix`): the path chosen for this CPU (AVX-512 or AVX2 here) gives the baseline path's
/// bits, and both give the bits of each operator's Float32 formula written out in Swift, on special
/// values (±0, ±∞, NaN, subnormals, 2²³ and beyond) and random ones, at every span length's tail.
final class SpanArithmeticTests: XCTestCase {
    private var values: [Float] = {
        var rng = SeededGenerator(seed: 2611)
        var x: [Float] = [0, -0, 1, -1, 0.5, -0.5, 1.5, -2.5, .infinity, -.infinity, .nan, 8_388_608, -8_388_608,
                          8_388_607.5, -8_388_607.5, 16_777_218, 1e30, -1e30, .leastNonzeroMagnitude,
                          -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 3, -3, 0.1, -0.1]
        for _ in 0..<300 { x.append(Float.random(in: -4...4, using: &rng)) }
        for _ in 0..<100 { x.append(Float.random(in: -1e6...1e6, using: &rng)) }
        return x
    }()

    /// Second and third operands: the values rotated, so every pair of kinds meets.
    private func rotated(_ by: Int) -> [Float] { Array(values[by...] + values[..<by]) }

    private let unary: [(GraphSpanUnary, String, (Float) -> Float)] = [
        (GRAPH_SPAN_NEGATE, "negate", { -$0 }),
        (GRAPH_SPAN_ABS, "abs", { abs($0) }),
        (GRAPH_SPAN_FLOOR, "floor", { $0.rounded(.down) }),
        (GRAPH_SPAN_CEIL, "ceil", { -(-$0).rounded(.down) }),
        (GRAPH_SPAN_FRACT, "fract", { $0 - $0.rounded(.down) }),
        (GRAPH_SPAN_SQRT, "sqrt", { $0.squareRoot() }),
        (GRAPH_SPAN_INVERSE_SQRT, "inverseSqrt", { 1 / $0.squareRoot() }),
        (GRAPH_SPAN_LOGICAL_NOT, "logicalNot", { $0 == 0 ? 1 : 0 }),
    ]

    private let binary: [(GraphSpanBinary, String, (Float, Float) -> Float)] = [
        (GRAPH_SPAN_ADD, "add", { $0 + $1 }),
        (GRAPH_SPAN_SUBTRACT, "subtract", { $0 - $1 }),
        (GRAPH_SPAN_MULTIPLY, "multiply", { $0 * $1 }),
        (GRAPH_SPAN_DIVIDE, "divide", { $0 / $1 }),
        (GRAPH_SPAN_MINIMUM, "minimum", { $1 < $0 ? $1 : $0 }),
        (GRAPH_SPAN_MAXIMUM, "maximum", { $1 > $0 ? $1 : $0 }),
        (GRAPH_SPAN_STEP, "step", { $1 < $0 ? 0 : 1 }),
        (GRAPH_SPAN_LESS_THAN, "lessThan", { $0 < $1 ? 1 : 0 }),
        (GRAPH_SPAN_LESS_THAN_OR_EQUAL, "lessThanOrEqual", { $0 <= $1 ? 1 : 0 }),
        (GRAPH_SPAN_GREATER_THAN, "greaterThan", { $0 > $1 ? 1 : 0 }),
        (GRAPH_SPAN_GREATER_THAN_OR_EQUAL, "greaterThanOrEqual", { $0 >= $1 ? 1 : 0 }),
        (GRAPH_SPAN_EQUAL, "equal", { $0 == $1 ? 1 : 0 }),
        (GRAPH_SPAN_NOT_EQUAL, "notEqual", { $0 != $1 ? 1 : 0 }),
        (GRAPH_SPAN_LOGICAL_AND, "logicalAnd", { ($0 != 0 && $1 != 0) ? 1 : 0 }),
        (GRAPH_SPAN_LOGICAL_OR, "logicalOr", { ($0 != 0 || $1 != 0) ? 1 : 0 }),
        (GRAPH_SPAN_MODULO, "modulo", { $0 - $1 * ($0 / $1).rounded(.down) }),
    ]

    private let ternary: [(GraphSpanTernary, String, (Float, Float, Float) -> Float)] = [
        (GRAPH_SPAN_MULTIPLY_ADD, "multiplyAdd", { $0 * $1 + $2 }),
        (GRAPH_SPAN_MIX, "mix", { $0 + ($1 - $0) * $2 }),
        (GRAPH_SPAN_CLAMP, "clamp", { x, lo, hi in
            let low = lo > x ? lo : x
            return hi < low ? hi : low
        }),
        (GRAPH_SPAN_SELECT, "select", { $0 != 0 ? $1 : $2 }),
        (GRAPH_SPAN_COMPARE, "compare", { $0 < 0 ? $1 : $2 }),
    ]

    /// Bit patterns, with every NaN as one pattern (the formulas' NaNs may carry other payloads).
    private func bits(_ x: [Float]) -> [UInt32] { x.map { $0.isNaN ? 0x7FC0_0000 : $0.bitPattern } }

    func testUnaryLoopsGiveTheFormulasBitsOnEveryPath() {
        for (op, name, formula) in unary {
            for count in [1, 15, 16, 17, 255, values.count] {
                let a = Array(values.prefix(count))
                var wide = [Float](repeating: 7, count: count), portable = wide
                graph_span_unary(op, a, &wide, Int32(count))
                graph_span_unary_portable(op, a, &portable, Int32(count))
                XCTAssertEqual(wide.map(\.bitPattern), portable.map(\.bitPattern), "\(name) count \(count)")
                XCTAssertEqual(bits(portable), bits(a.map(formula)), "\(name) count \(count)")
            }
        }
    }

    func testBinaryLoopsGiveTheFormulasBitsOnEveryPath() {
        let b = rotated(37)
        for (op, name, formula) in binary {
            for count in [1, 15, 16, 17, 255, values.count] {
                let a = Array(values.prefix(count)), bb = Array(b.prefix(count))
                var wide = [Float](repeating: 7, count: count), portable = wide
                graph_span_binary(op, a, bb, &wide, Int32(count))
                graph_span_binary_portable(op, a, bb, &portable, Int32(count))
                XCTAssertEqual(wide.map(\.bitPattern), portable.map(\.bitPattern), "\(name) count \(count)")
                XCTAssertEqual(bits(portable), bits(zip(a, bb).map(formula)), "\(name) count \(count)")
            }
        }
    }

    func testTernaryLoopsGiveTheFormulasBitsOnEveryPath() {
        let b = rotated(37), c = rotated(101)
        for (op, name, formula) in ternary {
            for count in [1, 15, 16, 17, 255, values.count] {
                let a = Array(values.prefix(count)), bb = Array(b.prefix(count)), cc = Array(c.prefix(count))
                var wide = [Float](repeating: 7, count: count), portable = wide
                graph_span_ternary(op, a, bb, cc, &wide, Int32(count))
                graph_span_ternary_portable(op, a, bb, cc, &portable, Int32(count))
                XCTAssertEqual(wide.map(\.bitPattern), portable.map(\.bitPattern), "\(name) count \(count)")
                let expected = (0..<count).map { formula(a[$0], bb[$0], cc[$0]) }
                XCTAssertEqual(bits(portable), bits(expected), "\(name) count \(count)")
            }
        }
    }

    /// The interpreter writes a result over one of its operands (`r2 = mix r2, r5, r7`).
    func testADestinationThatIsAnOperandGetsTheResult() {
        let b = rotated(37), c = rotated(101), n = Int32(values.count)
        var inPlace = values
        inPlace.withUnsafeMutableBufferPointer { d in
            graph_span_ternary(GRAPH_SPAN_MIX, d.baseAddress, b, c, d.baseAddress, n)
        }
        XCTAssertEqual(bits(inPlace), bits((0..<values.count).map { values[$0] + (b[$0] - values[$0]) * c[$0] }))
        var squared = values
        squared.withUnsafeMutableBufferPointer { d in
            graph_span_binary(GRAPH_SPAN_MULTIPLY, d.baseAddress, d.baseAddress, d.baseAddress, n)
        }
        XCTAssertEqual(bits(squared), bits(values.map { $0 * $0 }))
    }

    /// Four rows and three, sums left to right, the destinations written over the sources.
    func testColorMatrixSumsLeftToRightAndMayOverwriteItsSources() {
        let m: [Float] = [0.4124, 0.3576, 0.1805, 0.01, -0.02, 0.2126, 0.7152, 0.0722, 0, 0.5,
                          0.0193, 0.1192, 0.9505, -0.3, 1e-3, 0.1, 0.2, 0.3, 0.4, 0.05]
        let count = 203
        let r = Array(values.prefix(count)), g = Array(rotated(11).prefix(count))
        let b = Array(rotated(59).prefix(count)), a = Array(rotated(120).prefix(count))
        func expected(_ row: Int) -> [Float] {
            (0..<count).map { i in
                m[5 * row] * r[i] + m[5 * row + 1] * g[i] + m[5 * row + 2] * b[i] + m[5 * row + 3] * a[i] + m[5 * row + 4]
            }
        }
        /// Runs one path with the destinations written over the sources.
        func inPlace(_ run: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                             UnsafeMutablePointer<Float>) -> Void) -> [[Float]] {
            let planes = [r, g, b, a].map { plane -> UnsafeMutablePointer<Float> in
                let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
                p.initialize(from: plane, count: count)
                return p
            }
            defer { planes.forEach { $0.deallocate() } }
            run(planes[0], planes[1], planes[2], planes[3])
            return planes.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
        }
        for rows in [3, 4] {
            let wide = inPlace { graph_span_color_matrix($0, $1, $2, $3, m, Int32(rows), $0, $1, $2, $3, Int32(count)) }
            let portable = inPlace { graph_span_color_matrix_portable($0, $1, $2, $3, m, Int32(rows), $0, $1, $2, $3, Int32(count)) }
            XCTAssertEqual(wide.map { $0.map(\.bitPattern) }, portable.map { $0.map(\.bitPattern) }, "rows \(rows)")
            XCTAssertEqual(bits(portable[0]), bits(expected(0)))
            XCTAssertEqual(bits(portable[1]), bits(expected(1)))
            XCTAssertEqual(bits(portable[2]), bits(expected(2)))
            XCTAssertEqual(bits(portable[3]), rows == 4 ? bits(expected(3)) : bits(a), "rows \(rows): alpha")
        }
    }

    /// A step list (what the interpreter runs for a run of arithmetic) gives the bits of the same
    /// operators called one by one, on every path, with destinations that are operands.
    func testAStepListGivesTheBitsOfItsOperatorsOneByOne() {
        let width = 64, registers = 6
        func file() -> [Float] {
            (0..<registers * width).map { values[$0 % values.count] * (1 + Float($0 / values.count)) }
        }
        func step(_ kind: Int32, _ code: UInt32, _ d: Int, _ a: Int, _ b: Int = 0, _ c: Int = 0) -> GraphSpanStep {
            GraphSpanStep(code: kind + Int32(code), d: Int32(d * width), a: Int32(a * width), b: Int32(b * width), c: Int32(c * width))
        }
        let unary = Int32(GRAPH_SPAN_STEP_UNARY), binary = Int32(GRAPH_SPAN_STEP_BINARY), ternary = Int32(GRAPH_SPAN_STEP_TERNARY)
        let steps = [
            step(binary, GRAPH_SPAN_MULTIPLY.rawValue, 4, 0, 1),
            step(ternary, GRAPH_SPAN_MIX.rawValue, 4, 4, 2, 3),
            step(unary, GRAPH_SPAN_FRACT.rawValue, 5, 4),
            step(ternary, GRAPH_SPAN_CLAMP.rawValue, 0, 5, 1, 2),
            step(binary, GRAPH_SPAN_MODULO.rawValue, 1, 0, 3),
            step(ternary, GRAPH_SPAN_SELECT.rawValue, 2, 1, 4, 5),
            step(binary, GRAPH_SPAN_MAXIMUM.rawValue, 3, 3, 2),
        ]
        var oneByOne = file()
        oneByOne.withUnsafeMutableBufferPointer { r in
            guard let base = r.baseAddress else { return }
            func at(_ register: Int) -> UnsafeMutablePointer<Float> { base + register * width }
            let n = Int32(width)
            graph_span_binary(GRAPH_SPAN_MULTIPLY, at(0), at(1), at(4), n)
            graph_span_ternary(GRAPH_SPAN_MIX, at(4), at(2), at(3), at(4), n)
            graph_span_unary(GRAPH_SPAN_FRACT, at(4), at(5), n)
            graph_span_ternary(GRAPH_SPAN_CLAMP, at(5), at(1), at(2), at(0), n)
            graph_span_binary(GRAPH_SPAN_MODULO, at(0), at(3), at(1), n)
            graph_span_ternary(GRAPH_SPAN_SELECT, at(1), at(4), at(5), at(2), n)
            graph_span_binary(GRAPH_SPAN_MAXIMUM, at(3), at(2), at(3), n)
        }
        for portable in [false, true] {
            var stepped = file()
            stepped.withUnsafeMutableBufferPointer { r in
                if portable {
                    graph_span_steps_portable(steps, Int32(steps.count), r.baseAddress, Int32(width))
                } else {
                    graph_span_steps(steps, Int32(steps.count), r.baseAddress, Int32(width))
                }
            }
            XCTAssertEqual(stepped.map(\.bitPattern), oneByOne.map(\.bitPattern), portable ? "portable" : "wide")
        }
    }
}
