/// Insertion of colour conversions (Core Image's "colormatch" nodes): every tagged source is
/// converted into the working space, and the result into the output space. Data images (no
/// colour space: depth, masks) are never converted, and a result computed only from data (and
/// from generators, whose colours are given in the working space) is data too: it gets no output
/// conversion. With no working space nothing is inserted. Working-space matches
/// (``Image/matchedToWorkingSpace(from:)``, colour parameters given in sRGB) become conversions; a
/// match *to* the working space makes the result a colour image, like a tagged source.
///
/// This runs before the optimizer, so the *initial* graph of a dump shows the conversions, as
/// CI_PRINT_TREE does; `CancelColorConversions` then removes the pairs that undo each other.
package enum ColorManagement {
    package static func insertConversions(_ root: Node, working: ColorSpace?, output: ColorSpace?) -> Node {
        guard let working else { return removingWorkingSpaceMatches(root) }
        var rewriter = GraphRewriter()
        var hasColorSource = false
        let converted = rewriter.rewrite(root) { node in
            let tagged: ColorSpace?
            switch node.kind {
            case .color(let match as WorkingSpaceMatch):
                if match.toWorkingSpace { hasColorSource = true }
                return Node(.colorConversion(match.conversion(working: working)), inputs: node.inputs, extent: node.extent)
            case .buffer(let buffer): tagged = buffer.colorSpace
            case .yuv(let frame): tagged = frame.colorSpace
            case .file(let source): tagged = source.colorSpace
            default: return node
            }
            guard let space = tagged else { return node }
            hasColorSource = true
            if space == working { return node }
            return Node(.colorConversion(ColorConversion(from: space, to: working)), inputs: [node], extent: node.extent)
        }
        guard hasColorSource, let output, output != working else { return converted }
        return Node(.colorConversion(ColorConversion(from: working, to: output)), inputs: [converted], extent: converted.extent)
    }

    /// Whether `node` carries colour (a tagged source or a match into the working space under it):
    /// what makes a render of it get an output conversion.
    package static func carriesColor(_ node: Node) -> Bool {
        RegionOfInterest.topologicalOrder(node).contains { node in
            switch node.kind {
            case .color(let match as WorkingSpaceMatch): return match.toWorkingSpace
            case .buffer(let buffer): return buffer.colorSpace != nil
            case .yuv(let frame): return frame.colorSpace != nil
            case .file(let source): return source.colorSpace != nil
            default: return false
            }
        }
    }

    /// Without colour management a working-space match is the identity: it is dropped.
    private static func removingWorkingSpaceMatches(_ root: Node) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            if case .color(let op) = node.kind, op is WorkingSpaceMatch, let input = node.inputs.first { return input }
            return node
        }
    }
}

/// Cancels and merges colour conversions: a conversion of a conversion becomes one conversion
/// (`A→B→C` is `A→C`), and one that ends where it started disappears (an unfiltered sRGB image
/// rendered to sRGB does no colour work at all).
struct CancelColorConversions: OptimizerPass {
    var name: String { "cancel-color-conversions" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard case .colorConversion(let outer) = node.kind, let input = node.inputs.first else { return node }
            if case .colorConversion(let inner) = input.kind, let source = input.inputs.first {
                let merged = ColorConversion(from: inner.from, to: outer.to)
                if merged.isIdentity {
                    log.append("cancelled \(inner.shortName) followed by \(outer.shortName)")
                    return source
                }
                log.append("merged \(inner.shortName) and \(outer.shortName) into \(merged.shortName)")
                return Node(.colorConversion(merged), inputs: [source], extent: node.extent)
            }
            if outer.isIdentity { return input }
            return node
        }
    }
}
