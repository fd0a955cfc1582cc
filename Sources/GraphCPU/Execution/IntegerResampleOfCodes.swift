/// A Lanczos or cubic ``Resample`` over an opaque 8-bit buffer clamped to its extent (through crops
/// only: no colour conversion, so every value it reads is a code `c/255`) becomes an
/// ``IntegerResample``: 16-bit fixed point on the codes, as libvips resamples 8-bit images (T1,
/// the 24 MP crop, Lanczos 0.9 and sharpen, measured in Benchmarks/peers). Resamples in linear
/// light (colour management on) and those whose weights do not fit (``IntegerResample/init(_:)``)
/// keep their float passes.
///
/// It runs after the optimizer's passes, at planning: ``Resample`` is an engine pass the optimizer's
/// layer does not know.
enum IntegerResampleOfCodes {
    static let name = "integer-resample-of-codes"

    static func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard case .area(let operation) = node.kind, let resample = operation as? Resample,
                  let clamped = node.inputs.first, case .clamp = clamped.kind,
                  let source = codesBuffer(below: clamped.inputs.first), let integer = IntegerResample(resample)
            else { return node }
            log.append("#\(node.serial) (\(resample.filterName)) on the 8-bit codes of #\(source.serial): "
                       + "one integer pass, weights/2^\(integer.shiftX)x2^\(integer.shiftY)")
            return Node(.area(integer), inputs: [clamped], extent: node.extent)
        }
    }

    /// The opaque 8-bit buffer `node` is, directly or through crops; nil otherwise.
    private static func codesBuffer(below node: Node?) -> Node? {
        var current = node
        while let node = current {
            switch node.kind {
            case .crop: current = node.inputs.first
            case .buffer(let buffer):
                return buffer.format.component == .uint8 && buffer.alphaMode == .opaque ? node : nil
            default: return nil
            }
        }
        return nil
    }
}
