/// A horizontal then a vertical ``Convolution`` with the same symmetric, non-negative weights (the
/// Gaussian) over an opaque 8-bit buffer clamped to its extent, with nothing between (no colour
/// conversion: every value the passes read is a code `c/255`), becomes one
/// ``IntegerSeparableBlur``: 16-bit fixed point on the codes, as libvips blurs 8-bit images, with
/// no half-float intermediate between the passes (T3, the 24 MP σ 10 blur, measured in
/// Benchmarks/peers). Blurs in linear light (colour management on) keep their float passes.
struct IntegerBlurOfCodes: OptimizerPass {
    var name: String { "integer-blur-of-codes" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard case .area(let outer) = node.kind, let vertical = outer as? Convolution, vertical.axis == .vertical,
                  let first = node.inputs.first, case .area(let inner) = first.kind,
                  let horizontal = inner as? Convolution, horizontal.axis == .horizontal,
                  horizontal.weights == vertical.weights,
                  let clamped = first.inputs.first, case .clamp = clamped.kind,
                  let source = clamped.inputs.first, case .buffer(let buffer) = source.kind,
                  buffer.format.component == .uint8, buffer.alphaMode == .opaque,
                  let blur = IntegerSeparableBlur(weights: vertical.weights, filterName: vertical.filterName)
            else { return node }
            log.append("#\(first.serial) and #\(node.serial) (\(vertical.filterName), \(vertical.weights.count) taps) "
                       + "on the 8-bit codes of #\(source.serial): one integer pass")
            return Node(.area(blur), inputs: [clamped], extent: node.extent)
        }
    }
}
