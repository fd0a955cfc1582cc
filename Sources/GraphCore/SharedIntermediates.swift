extension Image {
    /// `images` with the costly work two or more of them share made cached intermediates
    /// (``insertingIntermediate(named:cache:)``), so that rendering them one after another with one
    /// context computes it once: a recipe that writes a depth mask and also blends the photo
    /// through it computes the mask once, not once per output.
    ///
    /// Shared work is a node that two or more of the images read (directly or through other
    /// nodes) whose graph holds an area pass or a general kernel (a blur, a morphology, an
    /// upsample: what costs more to compute again than to keep); nodes of infinite extent are
    /// left alone (there is no whole to keep). Of nested shared nodes, only those read by two or
    /// more of the images or other kept intermediates without passing through a kept one are
    /// kept: the mask, not each step of its chain. Each is named `shared(<its filter>)` in dumps.
    ///
    /// The pixels are those of any intermediate (stored in the working format); the price is the
    /// memory each kept intermediate holds in the context's cache (`ContextOptions.cacheByteLimit`).
    public static func insertingSharedIntermediates(_ images: [Image]) -> [Image] {
        guard images.count > 1 else { return images }
        let roots = images.map(\.node)
        let order = topologicalOrder(roots)
        let candidates = sharedCostlyNodes(roots, order: order)
        guard !candidates.isEmpty else { return images }
        let kept = keptIntermediates(roots, order: order, candidates: candidates)
        guard !kept.isEmpty else { return images }
        var rewritten: [ObjectIdentifier: Node] = [:]
        for node in order {
            let inputs = node.inputs.map { rewritten[ObjectIdentifier($0)] ?? $0 }
            var new = zip(inputs, node.inputs).allSatisfy { $0 === $1 } ? node : Node(node.kind, inputs: inputs, extent: node.extent)
            if kept.contains(ObjectIdentifier(node)) {
                new = Image(node: new).insertingIntermediate(named: "shared(\(node.shortName))", cache: true).node
            }
            rewritten[ObjectIdentifier(node)] = new
        }
        return roots.map { Image(node: rewritten[ObjectIdentifier($0)] ?? $0) }
    }

    /// Every node of `roots`, inputs before the nodes that read them.
    private static func topologicalOrder(_ roots: [Node]) -> [Node] {
        var order: [Node] = []
        var seen = Set<ObjectIdentifier>()
        for root in roots {
            for node in RegionOfInterest.topologicalOrder(root) where seen.insert(ObjectIdentifier(node)).inserted {
                order.append(node)
            }
        }
        return order
    }

    /// Nodes of finite extent read by two or more roots whose graph holds an area pass or a general
    /// kernel, and that are not intermediates already.
    private static func sharedCostlyNodes(_ roots: [Node], order: [Node]) -> Set<ObjectIdentifier> {
        var readers: [ObjectIdentifier: Int] = [:]
        for root in roots {
            for node in RegionOfInterest.topologicalOrder(root) { readers[ObjectIdentifier(node), default: 0] += 1 }
        }
        var costly = Set<ObjectIdentifier>()
        var candidates = Set<ObjectIdentifier>()
        for node in order {
            let id = ObjectIdentifier(node)
            switch node.kind {
            case .area, .general: costly.insert(id)
            default: if node.inputs.contains(where: { costly.contains(ObjectIdentifier($0)) }) { costly.insert(id) }
            }
            if case .processor(let processor) = node.kind, processor is Intermediate { continue }
            if costly.contains(id), (readers[id] ?? 0) >= 2, !node.extent.isInfinite, !node.extent.isEmpty {
                candidates.insert(id)
            }
        }
        return candidates
    }

    /// The candidates read by two or more readers (roots, or other kept candidates) without
    /// passing through a kept candidate: dropping one that fails this can give others more readers,
    /// so it is repeated until nothing changes.
    private static func keptIntermediates(_ roots: [Node], order: [Node], candidates: Set<ObjectIdentifier>) -> Set<ObjectIdentifier> {
        var kept = candidates
        let nodes = Dictionary(uniqueKeysWithValues: order.map { (ObjectIdentifier($0), $0) })
        while true {
            var readers: [ObjectIdentifier: Int] = [:]
            // Each reader (a root, or a kept node through its inputs) counts once per kept node it reaches.
            let starts = roots.map { [$0] } + kept.compactMap { nodes[$0]?.inputs }
            for start in starts {
                var seen = Set<ObjectIdentifier>()
                var pending = start
                while let node = pending.popLast() {
                    let id = ObjectIdentifier(node)
                    guard seen.insert(id).inserted else { continue }
                    if kept.contains(id) {
                        readers[id, default: 0] += 1
                        continue
                    }
                    pending.append(contentsOf: node.inputs)
                }
            }
            let next = kept.filter { (readers[$0] ?? 0) >= 2 }
            if next == kept { return kept }
            kept = next
        }
    }
}
