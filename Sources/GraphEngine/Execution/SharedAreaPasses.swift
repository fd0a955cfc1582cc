/// A recipe's outputs render one after another; the area passes several of them read (a depth map
/// refined to the photo's size, say) are computed once for all of them.
///
/// Each such pass (the topmost shared ones first, then again below them until none is shared) is
/// rendered whole into a buffer in the working format (one grey channel when the pass is grey and
/// opaque), and every image reads that buffer instead. The buffer holds the values a render stores
/// as the pass's intermediate, so the images render to the same pixels. The photo under the pass is
/// decoded whole once for it, and the streamed renders after reuse that decode.
extension Context {
    /// `images` with the area passes two or more of them read replaced by buffers of their pixels.
    /// Nothing is rendered when they share none, and nothing is shared under a memory limit
    /// (the buffers would be held through every render).
    public func sharingAreaPasses(of images: [Image]) throws -> [Image] {
        guard images.count > 1, options.memoryLimit == nil else { return images }
        var roots = images.map(\.node)
        while true {
            let shared = Self.topmostSharedAreaPasses(roots).filter(isShareable)
            if shared.isEmpty { break }
            var replacements: [ObjectIdentifier: Node] = [:]
            for node in shared { replacements[ObjectIdentifier(node)] = try renderedWhole(node) }
            var rewriter = GraphRewriter()
            roots = roots.map { root in
                rewriter.rewrite(root, descend: { replacements[ObjectIdentifier($0)] == nil }) {
                    replacements[ObjectIdentifier($0)] ?? $0
                }
            }
        }
        return roots.map(Image.init(node:))
    }

    /// Area passes (or crops of one: a blur of a clamped image has an infinite extent) reachable
    /// from two or more roots and from no other such pass.
    static func topmostSharedAreaPasses(_ roots: [Node]) -> [Node] {
        func isPass(_ node: Node) -> Bool {
            switch node.kind {
            case .area: return true
            case .crop: if case .area = node.inputs[0].kind { return true } else { return false }
            default: return false
            }
        }
        var reached: [ObjectIdentifier: (node: Node, roots: Int)] = [:]
        for root in roots {
            for node in RegionOfInterest.topologicalOrder(root) {
                guard isPass(node) else { continue }
                reached[ObjectIdentifier(node), default: (node, 0)].roots += 1
            }
        }
        let shared = reached.values.filter { $0.roots > 1 }.map(\.node)
        var below = Set<ObjectIdentifier>()
        for node in shared {
            for input in RegionOfInterest.topologicalOrder(node) where input !== node { below.insert(ObjectIdentifier(input)) }
        }
        return shared.filter { !below.contains(ObjectIdentifier($0)) }.sorted { $0.serial < $1.serial }
    }

    /// A finite, whole-pixel extent no larger than a render may be.
    private func isShareable(_ node: Node) -> Bool {
        let e = node.extent
        guard !e.isInfinite, !e.isEmpty, e.integral == e else { return false }
        return PixelRect(e).pixelCount <= options.maximumRenderPixels
    }

    /// `node` rendered over its extent into a buffer in the working space, as a node of the same
    /// extent: tagged with the working colour space when it carries colour, untagged data otherwise.
    private func renderedWhole(_ node: Node) throws -> Node {
        let area = PixelRect(node.extent)
        var known: [ObjectIdentifier: Bool] = [:]
        let opaque = Opacity.isOpaque(node), grey = opaque && Greyness.isGrey(node, known: &known, storedOpaque: [])
        let format: PixelFormat
        switch options.workingFormat {
        case .rgba8: format = grey ? .gray8 : .rgba8
        case .rgbah: format = grey ? .grayh : .rgbah
        case .rgbaf: format = grey ? .grayf : .rgbaf
        }
        let space = ColorManagement.carriesColor(node) ? options.workingColorSpace : nil
        let buffer = try ImageBuffer(width: area.width, height: area.height, format: format, alphaMode: opaque ? .opaque : .premultiplied,
                                     colorSpace: space, rowProgress: nil)
        try render(Image(node: node), rect: node.extent, destination: buffer.storage, rowBytes: buffer.rowBytes, format: format,
                   colorSpace: .data, destinationBytes: buffer.rowBytes * buffer.height)
        let image = Image(buffer: buffer)
        guard area.x != 0 || area.y != 0 else { return image.node }
        return image.transformed(by: AffineTransform(translationX: Double(area.x), y: Double(area.y))).node
    }
}
