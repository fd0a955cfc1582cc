/// Lowers the plan's stages: the program of the root (planned last: it writes the output) and,
/// first, every stage it reads, each once, producers before consumers (the order a depth-first walk
/// from the root discovers them in). A program stage lowers its node and every node the earlier
/// passes left inline into one IR program (``StageLowering``); an area pass or a processor becomes
/// a stage reading its inputs through slots. Decides what each stage stores: fewer planes when
/// what it computes is opaque or grey.
struct LowerStages: PlanPass {
    let name = "lower"

    func run(_ plan: inout Plan, log: inout [String]) throws {
        var builder = StageBuilder(plan: plan)
        try builder.planStages()
        plan = builder.plan
        for (index, stage) in plan.stages.enumerated() {
            log.append("p\(index) #\(stage.node.serial) \(stage.node.shortName): \(LowerStages.describe(stage.work)), "
                       + (index == plan.rootStage ? "writes the output" : LowerStages.describe(stored: stage.storedChannels)))
        }
    }

    private static func describe(_ work: Plan.Work) -> String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        switch work {
        case .program(_, _, _, let slots, _): return "a program reading \(count(slots.count, "input"))"
        case .area(_, let inputs, _): return "an area pass reading \(count(inputs.count, "input"))"
        case .processor(let processor, _): return processor is Intermediate ? "an intermediate" : "an image processor"
        }
    }

    private static func describe(stored channels: Int) -> String {
        switch channels {
        case 1: return "stores 1 plane (grey and opaque)"
        case 3: return "stores 3 planes (opaque)"
        default: return "stores 4 planes"
        }
    }
}

/// The state of the lower pass: the plan with the stages so far, where each node's stage is, and
/// what is known of the stored values (opaque, grey) of the stages planned.
struct StageBuilder {
    var plan: Plan
    private var programStageIndex: [ObjectIdentifier: Int] = [:]
    private var materialStageIndex: [ObjectIdentifier: Int] = [:]
    /// Area passes and program stages known grey or not (``Greyness``).
    private var greyness: [ObjectIdentifier: Bool] = [:]
    /// Program stages whose stored alpha is the constant 1.
    private var storedOpaque: Set<ObjectIdentifier> = []

    init(plan: Plan) {
        self.plan = plan
    }

    /// Planning met a stage that reads another stage not planned yet (planning works from an
    /// explicit stack rather than recursion, so a graph thousands of stages deep plans in constant
    /// stack): plan `node` first, then try again.
    struct UnplannedStage: Error {
        let node: Node
    }

    /// Plans the program of `root` (planned last: the root stage writes the output) and, first,
    /// every stage it reads, each once, producers before consumers (the order a depth-first walk
    /// from the root discovers them in).
    mutating func planStages() throws {
        let root = plan.root
        var pending = [root]
        var waiting: Set<ObjectIdentifier> = [ObjectIdentifier(root)]
        while let node = pending.last {
            do {
                if node !== root, CutStages.isMaterialStage(node) {
                    _ = try slot(for: node, edge: .zero, filter: .linear)
                } else {
                    try planProgramStage(for: node)
                }
                waiting.remove(ObjectIdentifier(pending.removeLast()))
            } catch let unplanned as UnplannedStage {
                // A stage waiting for itself would loop forever; a graph has no cycles, so this
                // would be a planner bug, reported rather than hung on.
                guard waiting.insert(ObjectIdentifier(unplanned.node)).inserted else {
                    throw GraphError.renderFailed("planning #\(unplanned.node.serial) \(unplanned.node.shortName) depends on itself")
                }
                pending.append(unplanned.node)
            }
        }
    }

    /// Lowers the program that computes `node`, unless planned already. The stages this needs and
    /// that exist complete (area passes, processors) stay planned even when it stops at one
    /// not planned yet.
    private mutating func planProgramStage(for node: Node) throws {
        if programStageIndex[ObjectIdentifier(node)] != nil { return }
        let outcome: Result<(builder: (Program, [Float], [String]), slots: [Plan.Slot], nodes: [Node], name: String, stored: OperandQuad), Error>
        do {
            var lowering = StageLowering(root: node, stageBuilder: self)
            // The lowering holds the only reference to the stages meanwhile, so adding to them
            // never copies them (planning stays linear in the number of stages).
            plan.stages = []
            programStageIndex = [:]
            materialStageIndex = [:]
            outcome = Result { try lowering.lowerRoot() }
            self = lowering.stageBuilder
        }
        let result = try outcome.get()
        let (program, uniforms, origins) = result.builder
        // What the program stores, as its readers see it: alpha the constant 1 (a blend whose
        // alpha folded away) makes it opaque, one value in red, green and blue makes it grey.
        let stored = result.stored
        let opaque = stored.a == .constant(1), grey = stored.r == stored.g && stored.r == stored.b
        if opaque { storedOpaque.insert(ObjectIdentifier(node)) }
        if grey { greyness[ObjectIdentifier(node)] = true }
        plan.stages.append(Plan.Stage(node: node, work: .program(program, uniforms: uniforms, origins: origins,
                                                     slots: result.slots, name: result.name),
                            nodes: result.nodes, storedChannels: opaque ? (grey ? 1 : 3) : 4))
        programStageIndex[ObjectIdentifier(node)] = plan.stages.count - 1
    }

    /// Whether `node` has alpha 1 inside its extent: known from its kind (``Opacity``) or from the
    /// program that stores it.
    func isOpaque(_ node: Node) -> Bool { Opacity.isOpaque(node, storedOpaque: storedOpaque) }

    /// Whether what `slot` reads has R = G = B bit for bit (``Greyness``: a grey buffer, a program
    /// stage storing one value in red, green and blue, a grey area pass), so a program loads it as
    /// one register. A camera frame's (Y, Cb, Cr) and a slot converting primaries are not grey.
    mutating func isGrey(_ slot: Plan.Slot) -> Bool {
        if case .yuv = slot.source { return false }
        guard slot.primaries == nil else { return false }
        return Greyness.isGrey(slot.node, known: &greyness, storedOpaque: storedOpaque)
    }

    /// The slot for reading `node` from another program.
    mutating func slot(for node: Node, edge: EdgeMode, filter: SamplingFilter) throws -> Plan.Slot {
        switch node.kind {
        case .buffer(let buffer):
            return Plan.Slot(source: .buffer(buffer), edge: edge, filter: filter, node: node)
        case .area(let op):
            if let index = materialStageIndex[ObjectIdentifier(node)] {
                return Plan.Slot(source: .stage(index), edge: edge, filter: filter, node: node)
            }
            // The pass reads its inputs directly: a buffer, another pass, or (through the slot's edge
            // mode and window) a clamped or cropped one; anything else is computed by a program first.
            // Inputs that are stages of their own are planned first (from the planner's stack, not
            // by recursion here: chains of passes may be long).
            var sources: [(node: Node, edge: EdgeMode, window: PixelRect?, conversion: ColorConversion?)] = []
            for input in node.inputs {
                var source = input, inputEdge = EdgeMode.zero
                if case .clamp = source.kind {
                    source = source.inputs[0]
                    inputEdge = .clamp
                }
                let window = AreaInputWindow.of(source)
                if window != nil { source = source.inputs[0] }
                // An 8-bit photo under its conversion to the linear working space is read from its
                // bytes, decoded by a table (and its primaries converted) while loading.
                var conversion: ColorConversion?
                if !plan.isMaterialized(source), case .colorConversion(let c) = source.kind, c.to.transfer == .linear,
                   plan.decodesWhileLoading(source) {
                    conversion = c
                    source = source.inputs[0]
                }
                if CutStages.isMaterialStage(source), materialStageIndex[ObjectIdentifier(source)] == nil {
                    throw UnplannedStage(node: source)
                }
                sources.append((source, inputEdge, window, conversion))
            }
            var inputs: [Plan.Slot] = []
            for (source, inputEdge, window, conversion) in sources {
                var slot = try slot(for: source, edge: inputEdge, filter: .linear)
                slot.window = window
                slot.decode = conversion?.from.transfer
                slot.primaries = conversion?.primariesMatrix?.map { Float($0) }
                inputs.append(slot)
            }
            let layout = areaLayout(node, op)
            plan.stages.append(Plan.Stage(node: node, work: .area(op, inputs: inputs, layout: layout), nodes: [node],
                                storedChannels: layout.channels))
            materialStageIndex[ObjectIdentifier(node)] = plan.stages.count - 1
            return Plan.Slot(source: .stage(plan.stages.count - 1), edge: edge, filter: filter, node: node)
        case .processor(let processor):
            if let index = materialStageIndex[ObjectIdentifier(node)] {
                return Plan.Slot(source: .stage(index), edge: edge, filter: filter, node: node)
            }
            plan.stages.append(Plan.Stage(node: node, work: .processor(processor, inputs: node.inputs), nodes: [node],
                                storedChannels: processor is Intermediate ? 4 : ProcessorPlanes(processor, inputs: node.inputs).output))
            materialStageIndex[ObjectIdentifier(node)] = plan.stages.count - 1
            return Plan.Slot(source: .stage(plan.stages.count - 1), edge: edge, filter: filter, node: node)
        default:
            guard let index = programStageIndex[ObjectIdentifier(node)] else { throw UnplannedStage(node: node) }
            return Plan.Slot(source: .stage(index), edge: edge, filter: filter, node: node)
        }
    }

    /// The channels an area stage computes: 1 when its output is grey and opaque (its grey inputs
    /// then load one channel), 3 when opaque, else 4.
    private mutating func areaLayout(_ node: Node, _ op: any AreaOperation) -> AreaLayout {
        guard isOpaque(node) else { return AreaLayout(channels: 4, greyInputs: node.inputs.map { _ in false }) }
        guard Greyness.isGrey(node, known: &greyness, storedOpaque: storedOpaque) else {
            return AreaLayout(channels: 3, greyInputs: node.inputs.map { _ in false })
        }
        return AreaLayout(channels: 1, greyInputs: node.inputs.map { Greyness.isGrey($0, known: &greyness, storedOpaque: storedOpaque) })
    }
}
