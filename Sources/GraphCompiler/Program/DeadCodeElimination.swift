/// Drops instructions whose results are never read (for example `destCoord()` asked for by a
/// lowering that ended up not using it), walking backwards from the store.
enum DeadCodeElimination {
    static func run(_ instructions: [Instruction], origins: [String]) -> (instructions: [Instruction], origins: [String]) {
        var live = Set<Int>()
        var keep = [Bool](repeating: false, count: instructions.count)
        for index in instructions.indices.reversed() {
            let instruction = instructions[index]
            let isStore: Bool
            if case .store = instruction { isStore = true } else { isStore = false }
            guard isStore || instruction.writtenRegisters.contains(where: live.contains) else { continue }
            keep[index] = true
            for case .register(let r) in instruction.readOperands { live.insert(r) }
        }
        let kept = instructions.indices.filter { keep[$0] }
        return (kept.map { instructions[$0] }, kept.map { index in index < origins.count ? origins[index] : "" })
    }
}
