/// One rewrite of a recipe graph. Passes are small, pure and ordered; each reports what it changed
/// so the optimized-graph dump can say why the graph looks the way it does.
protocol OptimizerPass: Sendable {
    var name: String { get }
    func run(_ root: Node, log: inout [String]) -> Node
}

/// Rebuilds a graph bottom-up, visiting each distinct node once (shared nodes stay shared).
///
/// The walk keeps its own stack instead of recursing, so a graph thousands of nodes deep (a recipe
/// chaining 10,000 filters) rewrites without overflowing the thread's stack.
package struct GraphRewriter {
    private var memo: [ObjectIdentifier: Node] = [:]

    package init() {}

    /// `transform` gets a node whose inputs were already rewritten and returns its replacement.
    /// Nodes are transformed inputs first, in input order (the order of a depth-first walk). A node
    /// for which `descend` is false is transformed with its inputs as they are (they are not
    /// visited through it).
    package mutating func rewrite(_ root: Node, descend: (Node) -> Bool = { _ in true },
                          _ transform: (Node) -> Node) -> Node {
        var pending: [(node: Node, inputsDone: Bool)] = [(root, false)]
        while let (node, inputsDone) = pending.popLast() {
            if memo[ObjectIdentifier(node)] != nil { continue }
            let expands = !node.inputs.isEmpty && descend(node)
            if expands && !inputsDone {
                pending.append((node, true))
                for input in node.inputs.reversed() where memo[ObjectIdentifier(input)] == nil {
                    pending.append((input, false))
                }
                continue
            }
            let inputs = expands ? node.inputs.map { memo[ObjectIdentifier($0)] ?? $0 } : node.inputs
            let rebuilt = zip(inputs, node.inputs).allSatisfy { $0 === $1 }
                ? node : Node(node.kind, inputs: inputs, extent: node.extent)
            memo[ObjectIdentifier(node)] = transform(rebuilt)
        }
        return memo[ObjectIdentifier(root)] ?? root
    }
}

/// The passes in the order they run.
package enum Optimizer {
    static let passes: [any OptimizerPass] = [
        DeduplicateSubgraphs(),
        CancelColorConversions(),
        FoldConstantColorConversions(),
        RemoveIdentities(),
        FoldColorMatrices(),
        FoldAffineTransforms(),
        MergeCrops(),
        IntegerBlurOfCodes(),
        DeduplicateSubgraphs(),
    ]

    /// Runs every pass; returns the optimized root and, per pass, what it changed.
    package static func optimize(_ root: Node) -> (root: Node, log: [(pass: String, changes: [String])]) {
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
