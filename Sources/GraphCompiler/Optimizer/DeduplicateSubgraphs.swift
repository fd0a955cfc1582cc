/// Common sub-recipes: structurally equal nodes become one shared node, so the work runs once.
struct DeduplicateSubgraphs: OptimizerPass {
    var name: String { "deduplicate" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var canonical: [Node: Node] = [:]
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            if let existing = canonical[node] {
                if existing !== node { log.append("#\(node.serial) \(node.shortName) is the same as #\(existing.serial)") }
                return existing
            }
            canonical[node] = node
            return node
        }
    }
}
