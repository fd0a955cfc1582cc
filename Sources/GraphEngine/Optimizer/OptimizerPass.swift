/// One rewrite of a recipe graph. Passes are small, pure and ordered; each reports what it changed
/// so the optimized-graph dump can say why the graph looks the way it does.
protocol OptimizerPass: Sendable {
    var name: String { get }
    func run(_ root: Node, log: inout [String]) -> Node
}

/// Rebuilds a graph bottom-up, visiting each distinct node once (shared nodes stay shared).
struct GraphRewriter {
    private var memo: [ObjectIdentifier: Node] = [:]

    /// `transform` gets a node whose inputs were already rewritten and returns its replacement.
    mutating func rewrite(_ node: Node, _ transform: (Node) -> Node) -> Node {
        if let done = memo[ObjectIdentifier(node)] { return done }
        let inputs = node.inputs.map { rewrite($0, transform) }
        let rebuilt = zip(inputs, node.inputs).allSatisfy { $0 === $1 }
            ? node : Node(node.kind, inputs: inputs, extent: node.extent)
        let result = transform(rebuilt)
        memo[ObjectIdentifier(node)] = result
        return result
    }
}

/// The passes in the order they run.
enum Optimizer {
    static let passes: [any OptimizerPass] = [
        DeduplicateSubgraphs(),
        CancelColorConversions(),
        FoldConstantColorConversions(),
        RemoveIdentities(),
        FoldColorMatrices(),
        FoldAffineTransforms(),
        MergeCrops(),
        DeduplicateSubgraphs(),
    ]

    /// Runs every pass; returns the optimized root and, per pass, what it changed.
    static func optimize(_ root: Node) -> (root: Node, log: [(pass: String, changes: [String])]) {
        var current = root
        var log: [(String, [String])] = []
        for pass in passes {
            var changes: [String] = []
            current = pass.run(current, log: &changes)
            log.append((pass.name, changes))
        }
        return (current, log)
    }
}
