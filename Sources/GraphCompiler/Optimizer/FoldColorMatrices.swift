/// Colour-matrix folding: a matrix applied to the output of a matrix becomes one matrix.
///
/// Both act on unpremultiplied colour, so `premultiply ∘ unpremultiply` between them cancels and
/// `M2(M1(x)) = (M2·M1)(x)` (computed in Double). Colour matrix, exposure, colour controls, hue
/// and sepia all arrive here as matrices, so a sepia → hue → contrast chain is one instruction.
struct FoldColorMatrices: OptimizerPass {
    var name: String { "fold-color-matrices" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard case .matrix(let outer) = node.kind, let input = node.inputs.first,
                  case .matrix(let inner) = input.kind, let source = input.inputs.first else { return node }
            let folded = outer.concatenating(after: inner)
            log.append("folded \(inner.sourceNames.joined(separator: "+")) and \(outer.sourceNames.joined(separator: "+")) into one matrix")
            if folded.isIdentity {
                log.append("the folded matrix is the identity: removed")
                return source
            }
            return Node(.matrix(folded), inputs: [source], extent: node.extent)
        }
    }
}
