/// Which nodes are known to be grey: R = G = B everywhere, bit for bit (depth maps, masks, a guide's
/// luma). An area pass whose output is grey and opaque computes one channel instead of three
/// (``AreaOperation/isGrey(inputs:)``); an image processor's says so itself
/// (``ImageProcessor/isGrey(inputs:)``).
enum Greyness {
    /// Follows the chain of nodes that keep grey grey down to what decides it (a loop: chains may be
    /// long); `known` holds what program stages store (grey when they store one value in red, green
    /// and blue) and remembers the area passes' and processors' answers, so a chain of them is walked once.
    /// `storedOpaque`: program stages whose stored alpha is 1 (see ``Opacity``).
    static func isGrey(_ node: Node, known: inout [ObjectIdentifier: Bool], storedOpaque: Set<ObjectIdentifier>) -> Bool {
        var node = node
        while true {
            if let answer = known[ObjectIdentifier(node)] { return answer }
            switch node.kind {
            case .buffer(let buffer): return buffer.format.channels <= 2
            case .crop, .clamp, .affine: node = node.inputs[0]
            case .processor(let processor) where processor is Intermediate: node = node.inputs[0]
            case .colorConversion(let conversion):
                // The same transfer on each channel keeps them equal; a primaries matrix mixes them.
                guard conversion.primariesMatrix == nil else { return false }
                node = node.inputs[0]
            case .matrix(let matrix):
                // Equal R, G and B rows give equal channels whatever the input.
                return (0..<5).allSatisfy { matrix.element(0, $0) == matrix.element(1, $0) && matrix.element(0, $0) == matrix.element(2, $0) }
            case .area(let op as any OutputProperties), .processor(let op as any OutputProperties):
                let inputs = node.inputs.map {
                    AreaInputDescription(isOpaque: Opacity.isOpaque($0, storedOpaque: storedOpaque), extent: $0.extent,
                                         isGrey: isGrey($0, known: &known, storedOpaque: storedOpaque))
                }
                let answer = op.isGrey(inputs: inputs)
                known[ObjectIdentifier(node)] = answer
                return answer
            default: return false
            }
        }
    }
}
