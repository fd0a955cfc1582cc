import Foundation
import XCTest
@testable import GraphEngine

/// A test-only IR evaluator: runs a program's instructions on a single pixel with `ScalarMath`.
/// Loads and samples return values supplied by the test.
struct PixelEvaluator {
    var uniforms: [Float] = []
    var destination: (x: Float, y: Float) = (0.5, 0.5)
    /// The pixel `load(input:)` returns, per input slot.
    var loads: [Int: [Float]] = [:]
    /// What `sample(input:x:y:)` returns (and a stencil tap, at the destination plus its offset).
    var sample: (_ input: Int, _ x: Float, _ y: Float) -> [Float] = { _, _, _ in [0, 0, 0, 0] }

    /// Runs `instructions`; returns the register file and the stored pixel (if any).
    func run(_ instructions: [Instruction], registerCount: Int) -> (registers: [Float], stored: [Float]?) {
        var r = Array(repeating: Float.nan, count: Swift.max(registerCount, 1))
        var stored: [Float]?
        func v(_ operand: Operand) -> Float {
            switch operand {
            case .constant(let c): return c
            case .uniform(let u): return uniforms[u]
            case .register(let i): return r[i]
            }
        }
        for instruction in instructions {
            switch instruction {
            case .unary(let op, let d, let a): r[d] = ScalarMath.unary(op, v(a))
            case .binary(let op, let d, let a, let b): r[d] = ScalarMath.binary(op, v(a), v(b))
            case .ternary(let op, let d, let a, let b, let c): r[d] = ScalarMath.ternary(op, v(a), v(b), v(c))
            case .move(let d, let a): r[d] = v(a)
            case .destinationX(let d): r[d] = destination.x
            case .destinationY(let d): r[d] = destination.y
            case .load(let input, let q):
                let p = loads[input] ?? [0, 0, 0, 0]
                (r[q.r], r[q.g], r[q.b], r[q.a]) = (p[0], p[1], p[2], p[3])
            case .sample(let input, let x, let y, let q):
                let p = sample(input, v(x), v(y))
                (r[q.r], r[q.g], r[q.b], r[q.a]) = (p[0], p[1], p[2], p[3])
            case .stencil(let input, let dx, let dy, let q):
                let p = sample(input, destination.x + Float(dx), destination.y + Float(dy))
                (r[q.r], r[q.g], r[q.b], r[q.a]) = (p[0], p[1], p[2], p[3])
            case .colorMatrix(let d, let s, let base):
                let input = s.operands.map(v)
                var out: [Float] = []
                for row in 0..<4 {
                    var sum = uniforms[base + row * 5 + 4]
                    for column in 0..<4 { sum += uniforms[base + row * 5 + column] * input[column] }
                    out.append(sum)
                }
                (r[d.r], r[d.g], r[d.b], r[d.a]) = (out[0], out[1], out[2], out[3])
            case .colorMatrixRGB(let d, let s, let base):
                let input = s.operands.map(v)
                var out: [Float] = []
                for row in 0..<3 {
                    var sum = uniforms[base + row * 5 + 4]
                    for column in 0..<4 { sum += uniforms[base + row * 5 + column] * input[column] }
                    out.append(sum)
                }
                (r[d.r], r[d.g], r[d.b]) = (out[0], out[1], out[2])
            case .lookup3D: XCTFail("the kernel language never emits lut3d")
            case .store(let q): stored = q.operands.map(v)
            }
        }
        return (r, stored)
    }

    func value(_ operand: Operand, registers: [Float]) -> Float {
        switch operand {
        case .constant(let c): return c
        case .uniform(let u): return uniforms[u]
        case .register(let i): return registers[i]
        }
    }
}

/// How a test binds a kernel parameter.
enum TestArgument {
    case float(Float)
    case vector([Float])
    /// A `__sample`: the pixel the input's `load` returns.
    case pixel([Float])
    /// A `sampler` with extent (x, y, w, h) and a function giving the pixel at a point.
    case sampler(extent: [Float], (Float, Float) -> [Float])
    /// A float bound as a literal constant (so it folds).
    case constant(Float)
}

/// The outcome of lowering a kernel and running it on one pixel.
struct KernelRun {
    var values: [Float]
    var builder: ProgramBuilder
    var operands: [Operand]
}

enum KernelTestError: Error { case mismatch(String) }

/// Compiles `source`, lowers it with the arguments bound (floats and vectors as uniforms, so they do
/// not fold), runs it on the pixel at `destination` and returns the kernel's result. Also checks that
/// the lowered code is SSA and that the register-allocated program computes the same result.
func runKernel(
    _ source: String, _ arguments: [TestArgument] = [], at destination: (x: Float, y: Float) = (0.5, 0.5),
    file: StaticString = #filePath, line: UInt = #line
) throws -> KernelRun {
    let kernel = try Kernel(source: source)
    var builder = ProgramBuilder()
    builder.currentOrigin = kernel.name
    let coordinate = builder.destinationCoordinate()
    var evaluator = PixelEvaluator()
    evaluator.destination = destination
    var samplers: [Int: (Float, Float) -> [Float]] = [:]
    var bound: [KernelArgumentValue] = []
    var nextSlot = 0
    for argument in arguments {
        switch argument {
        case .float(let value):
            bound.append(.scalar(builder.uniform(value)))
        case .constant(let value):
            bound.append(.scalar(.constant(value)))
        case .vector(let values):
            bound.append(.vector(values.map { builder.uniform($0) }))
        case .pixel(let values):
            let slot = nextSlot
            nextSlot += 1
            evaluator.loads[slot] = values
            bound.append(.pixel(builder.load(input: slot)))
        case .sampler(let extent, let function):
            let slot = nextSlot
            nextSlot += 1
            samplers[slot] = function
            bound.append(.sampler(slot: slot, extent: extent.map { builder.uniform($0) }))
        }
    }
    let operands = try kernel.lower(into: &builder, arguments: bound, destination: coordinate)
    evaluator.uniforms = builder.uniformValues
    evaluator.sample = { slot, x, y in samplers[slot]?(x, y) ?? [0, 0, 0, 0] }

    // SSA: every register is written once.
    var written = Set<Int>()
    for instruction in builder.instructions {
        for register in instruction.writtenRegisters {
            XCTAssertTrue(written.insert(register).inserted, "register r\(register) written twice", file: file, line: line)
        }
    }

    let raw = evaluator.run(builder.instructions, registerCount: builder.registerCount)
    let values = operands.map { evaluator.value($0, registers: raw.registers) }

    // The register-allocated program gives the same pixel.
    var finished = builder
    let padded = operands + Array(repeating: Operand.constant(0), count: Swift.max(0, 4 - operands.count))
    let result = finished.finish(storing: OperandQuad(Array(padded.prefix(4))))
    let allocated = evaluator.run(result.program.instructions, registerCount: result.program.registerCount)
    let stored = Array((allocated.stored ?? []).prefix(operands.count))
    XCTAssertTrue(
        zip(stored, values).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) },
        "allocated program gives \(stored), SSA gives \(values)", file: file, line: line)
    return KernelRun(values: values, builder: builder, operands: operands)
}

/// Asserts that compiling `source` fails with exactly `expected` ("line:column: message").
func assertCompileError(_ source: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
    do {
        let kernel = try Kernel(source: source)
        XCTFail("expected error \(expected), but '\(kernel.name)' compiled", file: file, line: line)
    } catch {
        XCTAssertEqual(error.description, expected, file: file, line: line)
    }
}

func assertClose(
    _ actual: [Float], _ expected: [Double], tolerance: Double = 1e-5, file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual.count, expected.count, "component count", file: file, line: line)
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        let scale = Swift.max(1, Swift.abs(e))
        XCTAssertTrue(
            Swift.abs(Double(a) - e) <= tolerance * scale || (a.isNaN && e.isNaN),
            "component \(index): got \(a), expected \(e) (all: \(actual) vs \(expected))", file: file, line: line)
    }
}
