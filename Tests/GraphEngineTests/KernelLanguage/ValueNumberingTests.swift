import XCTest
@testable import GraphEngine

/// ``ProgramBuilder`` emits each pure operation on the same operands once (value numbering), loads
/// grey inputs as one register, and gives a matrix with equal colour rows one result register:
/// what keeps grey data grey through per-channel code.
final class ValueNumberingTests: XCTestCase {
    /// The arithmetic instructions (not loads, coordinates or stores).
    func arithmetic(_ instructions: [Instruction]) -> Int {
        instructions.filter {
            switch $0 {
            case .unary, .binary, .ternary, .move: return true
            default: return false
            }
        }.count
    }

    func testRepeatedSubexpressionsAreComputedOnce() throws {
        let source = """
            kernel vec4 repeated(__sample s, float k, float j) {
                float a = sin(s.r) * k + s.g;
                float b = sin(s.r) * k + s.g;
                float c = k * sin(s.r) + s.g;
                float d = sin(s.r) * j + s.g;
                float e = s.g - sin(s.r);
                float f = sin(s.r) - s.g;
                return vec4(a + b, c * d, e, f);
            }
            """
        let run = try runKernel(source, [.pixel([0.3, 0.7, 0.1, 1]), .float(1.5), .float(2)])
        let sr = ScalarMath.unary(.sin, 0.3), a = sr * 1.5 + 0.7, d = sr * 2 + 0.7
        XCTAssertEqual(run.values, [a + a, a * d, 0.7 - sr, sr - 0.7])
        // a, b and c are one sin, one multiply and one add; d one more multiply and add; then
        // a + b, c · d and the two subtractions (which do not commute): 9 instead of 18.
        XCTAssertEqual(arithmetic(run.builder.instructions), 9)

        // Uniforms are operands, not values: j holding k's value changes neither the code nor the
        // result's form (programs are cached by structure).
        let same = try runKernel(source, [.pixel([0.3, 0.7, 0.1, 1]), .float(1.5), .float(1.5)])
        XCTAssertEqual(same.values, [a + a, a * a, 0.7 - sr, sr - 0.7])
        XCTAssertEqual(same.builder.instructions, run.builder.instructions)
    }

    func testGreyInputsLoadAndSampleAsOneRegister() {
        var builder = ProgramBuilder()
        builder.greyInputs = [1]
        let colour = builder.load(input: 0), grey = builder.load(input: 1)
        XCTAssertEqual(Set([colour.r, colour.g, colour.b, colour.a]).count, 4)
        XCTAssertEqual(grey.g, grey.r)
        XCTAssertEqual(grey.b, grey.r)
        XCTAssertNotEqual(grey.a, grey.r)
        let sampled = builder.sample(input: 1, x: .constant(1), y: .constant(2))
        XCTAssertEqual(Set([sampled.r, sampled.g, sampled.b]).count, 1)
        XCTAssertEqual(Set(builder.sample(input: 0, x: .constant(1), y: .constant(2)).operands).count, 4)
        // Per-channel code on the grey input computes one channel.
        let inverted = [grey.r, grey.g, grey.b].map { builder.binary(.subtract, grey.a, $0) }
        XCTAssertEqual(Set(inverted).count, 1)
    }

    func testMatrixWithEqualColourRowsGivesOneValue() {
        let row: [Float] = [0.3, 0.5, 0.2, 0.1, 0.05]
        var builder = ProgramBuilder()
        let source = builder.load(input: 0)
        let rgb = builder.colorMatrix(row + row + row + [0, 0, 0, 1, 0], source)
        XCTAssertEqual(Set([rgb.r, rgb.g, rgb.b]).count, 1)
        XCTAssertEqual(rgb.a, source.a)
        let full = builder.colorMatrix(row + row + row + [0, 0, 0, 0.5, 0], source)
        XCTAssertEqual(Set([full.r, full.g, full.b]).count, 1)
        XCTAssertNotEqual(full.a, full.r)
        // One bit of difference in any row keeps three values.
        for changed in [2, 7, 14] {
            var matrix = row + row + row + [0, 0, 0, 1, 0]
            matrix[changed] = matrix[changed].nextUp
            let value = builder.colorMatrix(matrix, source)
            XCTAssertEqual(Set([value.r, value.g, value.b]).count, 3, "coefficient \(changed)")
        }

        // The pixel is the matrix's, each row computed as the colour matrix computes it.
        var evaluator = PixelEvaluator()
        evaluator.loads[0] = [0.25, 0.6, 0.9, 0.8]
        evaluator.uniforms = builder.uniformValues
        let registers = evaluator.run(builder.instructions, registerCount: builder.registerCount).registers
        let expected = 0.3 * Float(0.25) + 0.5 * 0.6 + 0.2 * 0.9 + 0.1 * 0.8 + 0.05
        XCTAssertEqual(evaluator.value(rgb.b, registers: registers), expected)
    }
}
