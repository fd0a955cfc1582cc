/// Crop push-down, first half: a crop of a crop is one crop of the intersection. (The other half is
/// region-of-interest propagation in ``CutStages``: every stage computes only the pixels its
/// consumers read, so a crop at the root shrinks the work all the way down to the sources.)
struct MergeCrops: OptimizerPass {
    var name: String { "merge-crops" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard case .crop(let outer) = node.kind, let input = node.inputs.first,
                  case .crop(let inner) = input.kind, let source = input.inputs.first else { return node }
            let merged = outer.intersection(inner)
            log.append("merged crops \(inner) and \(outer) into \(merged)")
            return Node(.crop(merged), inputs: [source], extent: node.extent)
        }
    }
}
