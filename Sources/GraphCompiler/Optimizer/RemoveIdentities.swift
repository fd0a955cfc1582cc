/// Drops nodes that do nothing: identity matrices, identity transforms, crops that contain their
/// input's extent, a clamp of an infinite image.
struct RemoveIdentities: OptimizerPass {
    var name: String { "remove-identities" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard let input = node.inputs.first else { return node }
            let identity: Bool
            switch node.kind {
            case .matrix(let matrix): identity = matrix.isIdentity
            case .affine(let transform, _): identity = transform.isIdentity
            case .crop(let rect): identity = rect.contains(input.extent)
            case .clamp: identity = input.extent.isInfinite
            default: identity = false
            }
            if identity {
                log.append("removed #\(node.serial) \(node.shortName) (identity)")
                return input
            }
            return node
        }
    }
}
