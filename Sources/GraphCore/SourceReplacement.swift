extension Image {
    /// This image's recipe with `source` (an image it is made from, matched by identity of its
    /// node) replaced by `replacement` of the same extent: every operation above it applied to the
    /// other pixels. A Lens Blur photo's edit replayed on its sharp original (GDepth's `GImage`) is
    /// this. Nil when this image does not read `source` or the extents differ (a replacement of
    /// another size would change what the operations above it mean).
    public func replacingSource(_ source: Image, with replacement: Image) -> Image? {
        guard source.extent == replacement.extent else { return nil }
        let target = source.node
        var rebuilt: [ObjectIdentifier: Node] = [ObjectIdentifier(target): replacement.node]
        var reaches: Set<ObjectIdentifier> = [ObjectIdentifier(target)]
        // Post-order without recursion (recipes may be thousands of nodes deep).
        var pending: [(Node, expanded: Bool)] = [(node, false)]
        var visited: Set<ObjectIdentifier> = []
        while let (next, expanded) = pending.popLast() {
            let id = ObjectIdentifier(next)
            if next === target { continue }
            if expanded {
                guard next.inputs.contains(where: { reaches.contains(ObjectIdentifier($0)) }) else { continue }
                reaches.insert(id)
                let inputs = next.inputs.map { rebuilt[ObjectIdentifier($0)] ?? $0 }
                rebuilt[id] = Node(next.kind, inputs: inputs, extent: next.extent)
            } else if visited.insert(id).inserted {
                pending.append((next, true))
                for input in next.inputs { pending.append((input, false)) }
            }
        }
        return rebuilt[ObjectIdentifier(node)].map(Image.init(node:))
    }
}
