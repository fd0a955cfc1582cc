/// Decides which nodes are computed once into an intermediate rather than recomputed by each reader:
/// a node several nodes read (computed once per tile instead of once per consumer). Sources, area
/// passes and processors are read from their pixels anyway; a generator (a colour node without
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
            default:
                let readers = plan.consumers[ObjectIdentifier(node)] ?? 0
                guard readers > 1 else { continue }
                plan.materialized.insert(ObjectIdentifier(node))
                log.append("#\(node.serial) \(node.shortName): read by \(readers) nodes, computed once into an intermediate")
            }
        }
    }
}
