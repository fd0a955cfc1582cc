/// Which nodes are known to have alpha 1 everywhere inside their extent.
package enum Opacity {
    /// Follows the chain of alpha-preserving nodes down to a source (a loop: chains may be long);
    /// `storedOpaque`: nodes whose stored alpha is known to be 1 (program stages that compute it).
    package static func isOpaque(_ node: Node, storedOpaque: Set<ObjectIdentifier> = []) -> Bool {
        var node = node
        while true {
            if storedOpaque.contains(ObjectIdentifier(node)) { return true }
            switch node.kind {
            case .buffer(let buffer): return buffer.alphaMode == .opaque
            case .yuv: return true
            case .file(let source): return source.isOpaque
            case .matrix(let matrix):
                guard matrix.preservesAlpha else { return false }
                node = node.inputs[0]
            case .crop, .colorConversion, .clamp: node = node.inputs[0]
            case .processor(let processor) where processor is Intermediate: node = node.inputs[0]
            case .area(let op as any OutputProperties), .processor(let op as any OutputProperties):
                return op.isOpaque(inputs: node.inputs.map {
                    AreaInputDescription(isOpaque: isOpaque($0, storedOpaque: storedOpaque), extent: $0.extent)
                })
            default: return false
            }
        }
    }
}
