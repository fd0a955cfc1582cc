/// Affine-transform folding: a transform of a transform becomes one transform, so the image is
/// resampled once instead of twice (sharper and faster, as in Core Image); a transform of a
/// constant colour is that colour (every sample of an infinite constant is the constant), so it is
/// evaluated per pixel instead of being stored over the transform's region first.
struct FoldAffineTransforms: OptimizerPass {
    var name: String { "fold-affine-transforms" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard case .affine(let outer, let filter) = node.kind, let input = node.inputs.first else { return node }
            if case .color(let color as ConstantColor) = input.kind, input.inputs.isEmpty {
                log.append("dropped affine \(outer) of the constant colour \(color.argumentSummary)")
                return input
            }
            guard case .affine(let inner, let innerFilter) = input.kind, innerFilter == filter,
                  let source = input.inputs.first else { return node }
            let combined = inner.concatenating(outer)
            log.append("folded affine \(inner) then \(outer) into \(combined)")
            if combined.isIdentity { return source }
            return Node(.affine(combined, filter), inputs: [source], extent: node.extent)
        }
    }
}
