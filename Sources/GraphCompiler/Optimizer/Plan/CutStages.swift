/// Cuts the graph where a stage must end: every area pass and image processor computes a stage of
/// its own (it reads its inputs' pixels around each output pixel, or whole buffers). Counts, for the
/// passes after it, how many nodes read each node and how many area passes load it, and the region
/// each node is computed over.
struct CutStages: PlanPass {
    let name = "cut-stages"

    func run(_ plan: inout Plan, log: inout [String]) throws {
        let order = RegionOfInterest.topologicalOrder(plan.root)
        var consumers: [ObjectIdentifier: Int] = [:], areaReaders: [ObjectIdentifier: Int] = [:]
        for node in order {
            for input in node.inputs { consumers[ObjectIdentifier(input), default: 0] += 1 }
            switch node.kind {
            case .area:
                log.append("#\(node.serial) \(node.shortName): an area pass, a stage of its own")
                for input in node.inputs {
                    // What the pass loads: through a clamp and a whole-pixel crop.
                    var source = input
                    if case .clamp = source.kind { source = source.inputs[0] }
                    if AreaInputWindow.of(source) != nil { source = source.inputs[0] }
                    areaReaders[ObjectIdentifier(source), default: 0] += 1
                }
            case .processor(let processor):
                log.append("#\(node.serial) \(node.shortName): "
                           + (processor is Intermediate ? "an intermediate" : "an image processor")
                           + ", computed whole before the work units")
            default:
                break
            }
        }
        plan.order = order
        plan.consumers = consumers
        plan.areaReaders = areaReaders
        plan.regions = RegionOfInterest.propagate(root: plan.root, rect: plan.renderRect, order: order,
                                                  precomputed: RegionOfInterest.computedBeforeWorkUnits)
    }

    /// An area pass or an image processor: a stage of its own, not a program.
    static func isMaterialStage(_ node: Node) -> Bool {
        switch node.kind {
        case .area, .processor: return true
        default: return false
        }
    }
}
