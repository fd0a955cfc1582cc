import Foundation

/// Turns file sources (``FileSource``) into buffers before a render is planned. A JPEG is read at
/// the smallest DCT scale that still gives each use every pixel it needs: an affine transform that
/// shrinks the image by `s ≤ 1/2` reads a 1/k decode (k = 2, 4 or 8 with `s·k ≤ 1`) through the
/// transform rescaled by k. Everything else (and every PNG) reads the full-size decode.
///
/// `sequential`: the render reads the image once, top to bottom (a streamed encode), so each file
/// gets a windowed decode of its own (``FileSource/sequentialBuffer(scale:)``), shared by every
/// use of it in this graph. A file a cached intermediate reads (one computed over its extent and
/// shared by renders) reads the kept whole decode instead, in this render too: the intermediate's
/// graph must be the same in every render to be found in the cache.
enum ResolveFileSources {
    static func run(_ root: Node, log: inout [String], sequential: Bool = false) throws -> Node {
        var failure: Error?
        var own: [DecodeKey: ImageBuffer] = [:]
        let shared = sequential ? filesUnderCachedIntermediates(root) : []
        func decode(_ source: any FileSource, scale: Int) throws -> ImageBuffer {
            guard sequential, !shared.contains(ObjectIdentifier(source)) else { return try source.buffer(scale: scale) }
            let key = DecodeKey(source: ObjectIdentifier(source), scale: scale)
            if let buffer = own[key] { return buffer }
            let buffer = try source.sequentialBuffer(scale: scale)
            own[key] = buffer
            return buffer
        }
        /// The file an affine transform reads, the reduced scale it can read it at and that decode's
        /// size, if any (a JPEG's).
        func reducedRead(_ node: Node)
            -> (source: any FileSource, scale: Int, size: (width: Int, height: Int), transform: GraphCore.AffineTransform, filter: SamplingFilter)?
        {
            guard case .affine(let transform, let filter) = node.kind, let input = node.inputs.first,
                  case .file(let source) = input.kind, let scale = reduction(for: transform),
                  let size = source.reducedSize(scale: scale) else { return nil }
            return (source, scale, size, transform, filter)
        }
        var rewriter = GraphRewriter()
        // A reduced read replaces the transform and its file together: the file is not visited
        // through it (only where something else reads it at full size).
        let resolved = rewriter.rewrite(root, descend: { reducedRead($0) == nil && !readsFileThroughResample($0) }) { node in
            if case .file(let source) = node.kind {
                do {
                    return Node(.buffer(try decode(source, scale: 1)), inputs: [], extent: node.extent)
                } catch {
                    failure = failure ?? error
                    return node
                }
            }
            if readsFileThroughResample(node) {
                return resampleFromReducedDecode(node, log: &log, failure: &failure, decode: decode) ?? node
            }
            guard let (source, scale, size, transform, filter) = reducedRead(node) else { return node }
            do {
                let reduced = try decode(source, scale: scale)
                let toFull = AffineTransform(scaleX: Double(source.width) / Double(size.width),
                                             y: Double(source.height) / Double(size.height))
                let buffer = Node(.buffer(reduced), inputs: [], extent: Rect(x: 0, y: 0, width: Double(size.width),
                                                                             height: Double(size.height)))
                log.append("\(source.label): decoded at 1/\(scale) (\(size.width)x\(size.height)) for affine \(transform)")
                return Node(.affine(toFull.concatenating(transform), filter), inputs: [buffer], extent: node.extent)
            } catch {
                failure = failure ?? error
                return node
            }
        }
        if let failure { throw failure }
        return resolved
    }

    /// The file sources read below a cached intermediate (``Intermediate/coversExtent``).
    private static func filesUnderCachedIntermediates(_ root: Node) -> Set<ObjectIdentifier> {
        var files = Set<ObjectIdentifier>()
        var visited = Set<ObjectIdentifier>()
        var pending = RegionOfInterest.topologicalOrder(root).filter(RegionOfInterest.coversExtent)
        while let node = pending.popLast() {
            guard visited.insert(ObjectIdentifier(node)).inserted else { continue }
            if case .file(let source) = node.kind { files.insert(ObjectIdentifier(source)) }
            pending.append(contentsOf: node.inputs)
        }
        return files
    }

    private struct DecodeKey: Hashable {
        let source: ObjectIdentifier
        let scale: Int
    }

    /// The largest k in {8, 4, 2} with `scale·k ≤ 1` for the transform's larger axis scale, or nil.
    static func reduction(for transform: GraphCore.AffineTransform) -> Int? {
        let scale = max((transform.a * transform.a + transform.b * transform.b).squareRoot(),
                        (transform.c * transform.c + transform.d * transform.d).squareRoot())
        return [8, 4, 2].first { scale * Double($0) <= 1 + 1e-9 }
    }
}
