/// A compiled program: the structure of one fused computation, without its parameter values.
///
/// Programs are `Hashable` by structure, so the context caches their executable form and reuses it
/// whenever a render produces the same structure again (only the uniforms differ).
package struct Program: Hashable, Sendable {
    package var instructions: [Instruction]
    package var registerCount: Int
    package var inputCount: Int
    package var uniformCount: Int

    package init(instructions: [Instruction], registerCount: Int, inputCount: Int, uniformCount: Int) {
        self.instructions = instructions
        self.registerCount = registerCount
        self.inputCount = inputCount
        self.uniformCount = uniformCount
    }

    /// A listing, one instruction per line (`r3 = multiply r1, u0`).
    package func listing(origins: [String]? = nil) -> [String] {
        instructions.enumerated().map { index, instruction in
            let text = instruction.listingText
            guard let origins, index < origins.count, !origins[index].isEmpty else { return text }
            return text.padding(toLength: max(text.count, 44), withPad: " ", startingAt: 0) + " ; " + origins[index]
        }
    }
}

extension Instruction {
    /// Assembly-like text for dumps.
    package var listingText: String {
        switch self {
        case .unary(let op, let d, let a): return "r\(d) = \(op.rawValue) \(a)"
        case .binary(let op, let d, let a, let b): return "r\(d) = \(op.rawValue) \(a), \(b)"
        case .ternary(let op, let d, let a, let b, let c): return "r\(d) = \(op.rawValue) \(a), \(b), \(c)"
        case .move(let d, let a): return "r\(d) = \(a)"
        case .destinationX(let d): return "r\(d) = destCoord.x"
        case .destinationY(let d): return "r\(d) = destCoord.y"
        case .load(let input, let q): return "\(q) = load in\(input)"
        case .sample(let input, let x, let y, let q): return "\(q) = sample in\(input) at (\(x), \(y))"
        case .stencil(let input, let dx, let dy, let q): return "\(q) = stencil in\(input) at destCoord + (\(dx), \(dy))"
        case .colorMatrix(let d, let s, let base): return "\(d) = matrix u\(base)..u\(base + 19) \(s)"
        case .colorMatrixRGB(let d, let s, let base): return "\(d) = matrix.rgb u\(base)..u\(base + 14) \(s)"
        case .lookup3D(let d, let s, let dimension, let extrapolate, let base):
            let table = "u\(base)..u\(base + 4 * dimension * dimension * dimension - 1)"
            return "\(d) = lut3d \(dimension)x\(dimension)x\(dimension)\(extrapolate ? " extrapolate" : "") \(table) \(s)"
        case .store(let q): return "store \(q)"
        }
    }
}
