/// Decides which nodes are computed once into an intermediate rather than recomputed by each reader:
/// a node several nodes read (computed once per tile instead of once per consumer). Sources, area
/// passes and processors are read from their pixels anyway, and so is the clamp of one or of its
/// crop (each reader
/// loads those pixels at clamped coordinates: stored at the readers' whole region instead, a 1×1
/// focus value read across a 12 MP photo was a 12 MP plane); a generator (a colour node without
/// inputs) costs less to compute again than to load. With fusion off, every node is.
struct MaterializeSharedNodes: PlanPass {
    let name = "materialize"

    func run(_ plan: inout Plan, log: inout [String]) throws {
        if plan.materializeEverything {
            plan.materialized = Set(plan.order.map(ObjectIdentifier.init))
            log.append("fusion off: each of the \(plan.order.count) nodes is computed into an intermediate of its own")
            return
        }
        for node in plan.order {
            switch node.kind {
            case .buffer, .area, .processor: continue
            case .color where node.inputs.isEmpty: continue
            case .clamp where node.inputs.first.map(Self.isStored) ?? false: continue
            default:
                let readers = plan.consumers[ObjectIdentifier(node)] ?? 0
                guard readers > 1 else { continue }
                plan.materialized.insert(ObjectIdentifier(node))
                log.append("#\(node.serial) \(node.shortName): read by \(readers) nodes, computed once into an intermediate")
            }
        }
    }

    /// Whether a node's pixels are stored whatever reads them: an area pass's or a processor's
    /// output, or a crop of one.
    static func isStored(_ node: Node) -> Bool {
        switch node.kind {
        case .area, .processor: return true
        case .crop: return node.inputs.first.map(isStored) ?? false
        default: return false
        }
    }
}
