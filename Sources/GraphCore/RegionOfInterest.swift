/// Region-of-interest propagation: for an output rectangle, the pixels of every node that must be
/// computed. Runs from the root toward the sources, so a crop or a small render region shrinks all
/// the work below it (Core Image's ROI callbacks).
package enum RegionOfInterest {
    /// Nodes in an order where every node comes after its inputs (depth-first, inputs in order;
    /// an explicit stack, so deep graphs need no deep recursion).
    package static func topologicalOrder(_ root: Node) -> [Node] {
        var order: [Node] = []
        var visited = Set<ObjectIdentifier>()
        var pending: [(node: Node, inputsDone: Bool)] = [(root, false)]
        while let (node, inputsDone) = pending.popLast() {
            if inputsDone {
                order.append(node)
                continue
            }
            guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
            pending.append((node, true))
            for input in node.inputs.reversed() { pending.append((input, false)) }
        }
        return order
    }

    /// The pixels of each node needed to compute `rect` of `root`.
    ///
    /// `precomputed` names nodes whose pixels are at hand before the render's work units start
    /// (``computedBeforeWorkUnits``: image processors, whose inputs a render of their own computes):
    /// such a node gets its region, but nothing is asked of its inputs on its behalf. Without it
    /// (the default), the regions reach through every node: what the whole render reads, nested
    /// renders included. A cached intermediate read at all gets its whole extent.
    package static func propagate(root: Node, rect: PixelRect, order: [Node]? = nil,
                          precomputed: (Node) -> Bool = { _ in false }) -> [ObjectIdentifier: PixelRect] {
        var need: [ObjectIdentifier: PixelRect] = [ObjectIdentifier(root): clip(rect, to: root.extent)]
        for node in (order ?? topologicalOrder(root)).reversed() {
            guard var region = need[ObjectIdentifier(node)], !region.isEmpty else { continue }
            if coversExtent(node) {
                region = PixelRect(node.extent)
                need[ObjectIdentifier(node)] = region
            }
            if precomputed(node) { continue }
            for (index, input) in node.inputs.enumerated() {
                let wanted = clip(inputRegion(node, index, region.rect), to: input.extent)
                need[ObjectIdentifier(input)] = (need[ObjectIdentifier(input)] ?? .empty).union(wanted)
            }
        }
        return need
    }

    /// A cached intermediate (``Intermediate/coversExtent``): computed over its whole (finite)
    /// extent whenever a render reads any of it.
    package static func coversExtent(_ node: Node) -> Bool {
        guard case .processor(let processor as Intermediate) = node.kind else { return false }
        return processor.coversExtent && !node.extent.isInfinite
    }

    /// Image processors: each runs once over its whole region before a render's work units, its
    /// inputs rendered by a render of their own, so the work units never compute those inputs for it.
    package static func computedBeforeWorkUnits(_ node: Node) -> Bool {
        if case .processor = node.kind { return true }
        return false
    }

    /// What the image processors of a render of `rect` read, their nested renders included: for
    /// each processor, at the region the render needs of it, every node below it.
    package static func processorReads(root: Node, rect: PixelRect, order: [Node]) -> [ObjectIdentifier: PixelRect] {
        let regions = propagate(root: root, rect: rect, order: order, precomputed: computedBeforeWorkUnits)
        var reads: [ObjectIdentifier: PixelRect] = [:]
        for node in order where computedBeforeWorkUnits(node) {
            guard let region = regions[ObjectIdentifier(node)], !region.isEmpty else { continue }
            reads.merge(propagate(root: node, rect: region)) { $0.union($1) }
        }
        return reads
    }

    /// The pixels of `rect` inside `extent`.
    package static func clip(_ rect: PixelRect, to extent: Rect) -> PixelRect {
        if extent.isInfinite { return rect }
        return rect.intersection(PixelRect(extent))
    }

    private static func clip(_ rect: Rect, to extent: Rect) -> PixelRect {
        if rect.isEmpty { return .empty }
        if rect.isInfinite {
            // An infinite request can only be met where the input is finite.
            return extent.isInfinite ? .empty : PixelRect(extent)
        }
        return clip(PixelRect(rect), to: extent)
    }

    /// The rectangle of input `index` that `node` reads to produce `rect`.
    package static func inputRegion(_ node: Node, _ index: Int, _ rect: Rect) -> Rect {
        switch node.kind {
        case .buffer, .yuv, .file: return .empty
        case .color, .matrix, .colorConversion: return rect
        case .crop(let crop): return rect.intersection(crop)
        case .clamp:
            // The edge pixels nearest to the rectangle.
            let e = node.inputs[0].extent.integral
            if e.isEmpty { return .empty }
            let x0 = min(max(rect.minX, e.minX), e.maxX - 1), x1 = max(min(rect.maxX, e.maxX), e.minX + 1)
            let y0 = min(max(rect.minY, e.minY), e.maxY - 1), y1 = max(min(rect.maxY, e.maxY), e.minY + 1)
            return Rect(x: x0, y: y0, width: max(x1 - x0, 1), height: max(y1 - y0, 1))
        case .affine(let transform, _):
            guard let inverse = transform.inverted else { return .empty }
            return inverse.apply(to: rect).outset(dx: 1, dy: 1)
        case .warp(let op): return op.regionOfInterest(for: rect).outset(dx: 1, dy: 1)
        case .general(let op): return op.regionOfInterest(input: index, for: rect).outset(dx: 1, dy: 1)
        case .area(let op): return op.regionOfInterest(input: index, for: rect)
        case .processor(let processor):
            return processor.regionOfInterest(input: index, inputExtent: node.inputs[index].extent, outputRect: rect)
        }
    }
}
