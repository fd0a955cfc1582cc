/// Gives each stage computed in the work units the worker-scratch planes it is computed into
/// (``Plan/scratchSlots``); the root writes the destination and image processors are computed
/// before the work units, so they take none.
///
/// Slots go by liveness, in execution order (stage order): a stage takes a free slot (the one freed
/// last, still warm in cache) or a new one, and its slot is freed once the last stage reading it
/// has run. A stage never shares a slot with one of its inputs.
struct AssignScratchSlots: PlanPass {
    let name = "assign-scratch"

    func run(_ plan: inout Plan, log: inout [String]) throws {
        (plan.scratchSlots, plan.scratchSlotCount) = AssignScratchSlots.assign(plan.stages)
        var sharing = Array(repeating: [Int](), count: plan.scratchSlotCount)
        for (stage, slot) in plan.scratchSlots.enumerated() {
            if let slot { sharing[slot].append(stage) }
        }
        let computed = sharing.reduce(0) { $0 + $1.count }
        log.append(computed == 0 ? "no scratch slots: the output stage writes the destination"
                   : "\(computed) stages computed into \(plan.scratchSlotCount) scratch slots per worker")
        for (slot, stages) in sharing.enumerated() where stages.count > 1 {
            log.append("slot \(slot): " + stages.map { "p\($0)" }.joined(separator: " "))
        }
    }

    /// The slot of each stage (nil: none) and how many slots there are.
    static func assign(_ stages: [Plan.Stage]) -> (slots: [Int?], count: Int) {
        var lastReader = Array(stages.indices)
        for (index, stage) in stages.enumerated() {
            for source in stage.work.stageInputs { lastReader[source] = max(lastReader[source], index) }
        }
        var freedAfter: [Int: [Int]] = [:]
        var slots: [Int?] = Array(repeating: nil, count: stages.count)
        var free: [Int] = [], count = 0
        for (index, stage) in stages.enumerated() {
            if index != stages.count - 1, !stage.work.isProcessor {
                let slot = free.popLast() ?? count
                if slot == count { count += 1 }
                slots[index] = slot
                freedAfter[lastReader[index], default: []].append(slot)
            }
            free += freedAfter.removeValue(forKey: index) ?? []
        }
        return (slots, count)
    }
}
