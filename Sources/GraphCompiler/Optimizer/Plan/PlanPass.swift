/// One decision step of planning a render. Passes run in order over one ``Plan``, each filling in
/// what it decides and saying so, one sentence a decision, so a dump shows why the stages are the
/// way they are (`graph dump --stage plan`).
protocol PlanPass: Sendable {
    var name: String { get }
    func run(_ plan: inout Plan, log: inout [String]) throws
}

/// The plan passes in the order they run.
package enum Planner {
    static let passes: [any PlanPass] = [
        CutStages(),
        MaterializeSharedNodes(),
        FuseSourceDecode(),
        FuseOutputEncode(),
        LowerStages(),
        ChooseRowKernels(),
        AssignScratchSlots(),
    ]

    /// Plans `root` rendered over `rect` into `destination` (nil: planar Float32, no fused encode).
    /// `materializeEverything`: every node gets its own program (only to measure what fusion buys).
    package static func plan(root: Node, rect: PixelRect, materializeEverything: Bool = false,
                     destination: PixelFormat? = nil) throws -> Plan {
        var plan = Plan(root: root, renderRect: rect, destination: destination, materializeEverything: materializeEverything)
        for pass in passes {
            var decisions: [String] = []
            try pass.run(&plan, log: &decisions)
            plan.log.append((pass.name, decisions))
        }
        return plan
    }
}
