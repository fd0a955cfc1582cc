/// The "channel lookup table" decision: a program whose only input is an 8-bit source and whose
/// every result channel depends on one input channel (red on red, green on green, blue on blue;
/// alpha, known 1, on nothing) has at most 256 different results per channel. The backend then
/// computes them once per render and looks every pixel up (``ChannelTable``) instead of running
/// the program's instructions (a gamma curve's `pow` per channel becomes a lookup, as `vips gamma`
/// does).
enum ChannelLookup {
    /// Below this many instructions besides loads and stores a program is cheaper than the lookups.
    static let minimumInstructions = 4

    /// Whether `program` reading `slots` takes the lookup path: its one input is an 8-bit buffer
    /// whose alpha is 1, read whole and without a primaries change, and ``isPerChannel(_:)``.
    static func applies(to program: Program, slots: [Plan.Slot]) -> Bool {
        guard slots.count == 1, case .buffer(let buffer) = slots[0].source, slots[0].primaries == nil, slots[0].window == nil,
              buffer.format.component == .uint8, buffer.alphaMode == .opaque || !buffer.format.hasAlpha,
              buffer.format != .grayAlpha8 else { return false }
        return isPerChannel(program)
    }

    /// Whether each stored channel of `program` depends on the same loaded channel of its one input
    /// (and on alpha) only: one `load` of input 0, no `sample` and no `destCoord`, and at least
    /// ``minimumInstructions`` other instructions. Found by following which loaded channels
    /// (bits 1 red, 2 green, 4 blue, 8 alpha) flow into every register.
    static func isPerChannel(_ program: Program) -> Bool {
        guard program.inputCount == 1 else { return false }
        var masks = [UInt8](repeating: 0, count: program.registerCount)
        var loads = 0, work = 0
        func mask(_ operand: Operand) -> UInt8 {
            if case .register(let r) = operand, r < masks.count { return masks[r] }
            return 0
        }
        for instruction in program.instructions {
            switch instruction {
            case .load(0, let q):
                loads += 1
                for (bit, r) in zip([UInt8(1), 2, 4, 8], q.registers) where r < masks.count { masks[r] = bit }
            case .load, .sample, .stencil, .destinationX, .destinationY:
                return false
            case .store(let q):
                let stored = q.operands.map(mask)
                guard stored[0] & ~9 == 0, stored[1] & ~10 == 0, stored[2] & ~12 == 0, stored[3] & ~8 == 0 else { return false }
            default:
                work += 1
                let read = instruction.readOperands.reduce(UInt8(0)) { $0 | mask($1) }
                for r in instruction.writtenRegisters where r < masks.count { masks[r] = read }
            }
        }
        return loads == 1 && work >= minimumInstructions
    }
}
