/// Reuses registers whose values are dead, so a long concatenated chain keeps its working set in
/// L1 cache (each register is a 1 KiB span).
///
/// Linear scan over the straight-line program: a register is freed after its last read, and a
/// destination never shares a register with a source of the same instruction (the span loops read
/// and write element by element, but matrix and sample write four registers from several sources).
enum RegisterAllocator {
    static func allocate(_ instructions: [Instruction]) -> (instructions: [Instruction], registerCount: Int) {
        var lastRead: [Int: Int] = [:]
        for (index, instruction) in instructions.enumerated() {
            for case .register(let r) in instruction.readOperands { lastRead[r] = index }
        }
        var mapping: [Int: Int] = [:]
        var free: [Int] = []
        var count = 0
        var result: [Instruction] = []
        result.reserveCapacity(instructions.count)
        for (index, instruction) in instructions.enumerated() {
            // Sources are mapped before this instruction frees anything.
            var dying: [Int] = []
            for case .register(let r) in instruction.readOperands where lastRead[r] == index {
                if let physical = mapping[r], !dying.contains(physical) { dying.append(physical) }
            }
            for virtual in instruction.writtenRegisters where mapping[virtual] == nil {
                if let reused = free.popLast() {
                    mapping[virtual] = reused
                } else {
                    mapping[virtual] = count
                    count += 1
                }
            }
            result.append(instruction.renamingRegisters { mapping[$0] ?? $0 })
            free.append(contentsOf: dying.reversed())
            // A value written but never read is dead at once.
            for virtual in instruction.writtenRegisters where lastRead[virtual] == nil {
                if let physical = mapping[virtual], !free.contains(physical) { free.append(physical) }
            }
        }
        return (result, count)
    }
}
