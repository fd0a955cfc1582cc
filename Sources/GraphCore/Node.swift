import Foundation

/// One node of a recipe DAG. Immutable; shared between images; compared structurally.
///
/// Structural equality is what lets the optimizer see that two branches built separately are the
/// same work (so it runs once) and lets a context recognise a recipe it has seen.
package final class Node: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// Pixels in memory.
        case buffer(ImageBuffer)
        /// A YCbCr 4:2:0 frame in memory.
        case yuv(YUVFrame)
        /// A JPEG or PNG file decoded when a render is planned (a JPEG at the scale the render needs).
        case file(any FileSource)
        /// A colour (or blend, or generator when it has no inputs) kernel.
        case color(any ColorOperation)
        /// A 4×5 colour matrix on unpremultiplied colour (the matrix-folding pass merges these).
        case matrix(ColorMatrix)
        /// An affine transform of the input, resampled with the given filter.
        case affine(AffineTransform, SamplingFilter)
        /// A warp kernel.
        case warp(any WarpOperation)
        /// A general kernel.
        case general(any GeneralOperation)
        /// A neighbourhood pass run by its own loops over Float32 tiles (a Gaussian blur's separable
        /// pass, a running-sum box, morphology, resampling, …).
        case area(any AreaOperation)
        /// Keeps the input inside a rectangle; transparent outside.
        case crop(Rect)
        /// Extends the input's edge pixels to infinity (`clampedToExtent()`).
        case clamp
        /// Swift code over whole buffers.
        case processor(any ImageProcessor)
        /// A colour-space conversion, inserted at sources and at the output when the context has a
        /// working colour space.
        case colorConversion(ColorConversion)
    }

    package let kind: Kind
    /// The nodes this one reads. Never changed while the node is alive (only ``deinit`` empties the
    /// inputs of the nodes it releases, which nothing else references by then).
    package nonisolated(unsafe) private(set) var inputs: [Node]
    /// Where the image may be non-transparent.
    package let extent: Rect
    private let structuralHash: Int
    /// A process-unique number, used to label nodes in dumps.
    package let serial: Int

    package init(_ kind: Kind, inputs: [Node], extent: Rect) {
        self.kind = kind
        self.inputs = inputs
        self.extent = extent
        var hasher = Hasher()
        Node.hashKind(kind, into: &hasher)
        hasher.combine(extent)
        for input in inputs { hasher.combine(input.structuralHash) }
        self.structuralHash = hasher.finalize()
        self.serial = Node.serialCounter.next()
    }

    /// Structural equality, compared pair by pair from an explicit stack (no recursion: graphs may
    /// be thousands of nodes deep), each pair of nodes once (shared inputs are not re-compared).
    /// Releases the chain below this node from a list instead of recursively (releasing a node
    /// would release its inputs, theirs, and so on, one nested call per node: a chain 100,000
    /// nodes deep would overflow the stack). Inputs others still use are left alone.
    deinit {
        guard !inputs.isEmpty else { return }
        var pending = inputs
        inputs = []
        while var node = pending.popLast() {
            if isKnownUniquelyReferenced(&node) {
                pending += node.inputs
                node.inputs = []
            }
        }
    }

    package static func == (lhs: Node, rhs: Node) -> Bool {
        var pending = [(lhs, rhs)]
        var compared = Set<[ObjectIdentifier]>()
        while let (a, b) = pending.popLast() {
            if a === b { continue }
            guard a.structuralHash == b.structuralHash, a.extent == b.extent, a.inputs.count == b.inputs.count,
                  Node.sameKind(a.kind, b.kind) else { return false }
            if !a.inputs.isEmpty, compared.insert([ObjectIdentifier(a), ObjectIdentifier(b)]).inserted {
                pending.append(contentsOf: zip(a.inputs, b.inputs).reversed())
            }
        }
        return true
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(structuralHash) }

    /// A short label for dumps: `CIHueAdjust angle=0.5`, `affine [1 0 0 1 10 0]`.
    package var label: String {
        switch kind {
        case .yuv(let frame): return frame.label
        case .file(let source): return source.label
        case .buffer(let buffer):
            return "buffer \(buffer.format.rawValue) \(buffer.width)x\(buffer.height) alpha=\(buffer.alphaMode.rawValue) "
                + (buffer.colorSpace.map { "\"\($0.name)\"" } ?? "data")
        case .color(let op): return "colorkernel \(op.name)" + (op.argumentSummary.isEmpty ? "" : " \(op.argumentSummary)")
        case .matrix(let matrix): return "colormatrix \(matrix.sourceNames.joined(separator: "+")) \(matrix.summary)"
        case .affine(let transform, let filter): return "affine \(transform)" + (filter == .nearest ? " nearest" : "")
        case .warp(let op): return "warpkernel \(op.name)" + (op.argumentSummary.isEmpty ? "" : " \(op.argumentSummary)")
        case .general(let op): return "kernel \(op.name)" + (op.argumentSummary.isEmpty ? "" : " \(op.argumentSummary)")
        case .area(let op): return op.summary
        case .crop(let rect): return "crop \(rect)"
        case .clamp: return "clamptoextent"
        case .processor(let op): return "processor \(op.name)" + (op.argumentSummary.isEmpty ? "" : " \(op.argumentSummary)")
        case .colorConversion(let conversion): return "colormatch \(conversion.label)"
        }
    }

    /// A short name for program names in dumps (`CIHueAdjust`, `affine`).
    package var shortName: String {
        switch kind {
        case .buffer: return "buffer"
        case .yuv(let frame): return "yuv420_\(frame.layout.rawValue)"
        case .file(let source): return source.format.rawValue
        case .color(let op): return op.name
        case .matrix(let matrix): return "matrix"
            + (matrix.sourceNames.count > 1 ? "<\(matrix.sourceNames.joined(separator: ","))>" : "<\(matrix.sourceNames.first ?? "")>")
        case .affine: return "affine"
        case .warp(let op): return op.name
        case .general(let op): return op.name
        case .area(let op): return op.name
        case .crop: return "crop"
        case .clamp: return "clamp"
        case .processor(let op): return op.name
        case .colorConversion(let conversion): return conversion.shortName
        }
    }

    package var description: String { "#\(serial) \(label) extent=\(extent)" }

    // MARK: Structure

    private static func hashOperation(_ op: any Operation, _ tag: Int, into hasher: inout Hasher) {
        hasher.combine(tag)
        hasher.combine(op.structureKey)
        for value in op.uniformValues { hasher.combine(value.bitPattern) }
    }

    private static func hashKind(_ kind: Kind, into hasher: inout Hasher) {
        switch kind {
        case .buffer(let buffer): hasher.combine(0); hasher.combine(ObjectIdentifier(buffer))
        case .yuv(let frame): hasher.combine(11); hasher.combine(ObjectIdentifier(frame))
        case .file(let source): hasher.combine(12); hasher.combine(ObjectIdentifier(source))
        case .color(let op): hashOperation(op, 1, into: &hasher)
        case .matrix(let m): hasher.combine(2); for v in m.coefficients { hasher.combine(v.bitPattern) }
        case .affine(let t, let f): hasher.combine(3); hasher.combine(t); hasher.combine(f)
        case .warp(let op): hashOperation(op, 4, into: &hasher)
        case .general(let op): hashOperation(op, 5, into: &hasher)
        case .area(let op): hasher.combine(6); hasher.combine(AnyHashable(op))
        case .crop(let r): hasher.combine(7); hasher.combine(r)
        case .clamp: hasher.combine(8)
        case .processor(let op): hashOperation(op, 9, into: &hasher)
        case .colorConversion(let c): hasher.combine(10); hasher.combine(c)
        }
    }

    private static func sameOperation(_ a: any Operation, _ b: any Operation) -> Bool {
        type(of: a) == type(of: b) && a.structureKey == b.structureKey
            && a.uniformValues.map(\.bitPattern) == b.uniformValues.map(\.bitPattern)
    }

    private static func sameKind(_ a: Kind, _ b: Kind) -> Bool {
        switch (a, b) {
        case (.buffer(let x), .buffer(let y)): return x === y
        case (.yuv(let x), .yuv(let y)): return x === y
        case (.file(let x), .file(let y)): return x === y
        case (.color(let x), .color(let y)): return sameOperation(x, y)
        case (.matrix(let x), .matrix(let y)): return x.coefficients.map(\.bitPattern) == y.coefficients.map(\.bitPattern)
        case (.affine(let x, let f), .affine(let y, let g)): return x == y && f == g
        case (.warp(let x), .warp(let y)): return sameOperation(x, y)
        case (.general(let x), .general(let y)): return sameOperation(x, y)
        case (.area(let x), .area(let y)): return AnyHashable(x) == AnyHashable(y)
        case (.crop(let x), .crop(let y)): return x == y
        case (.clamp, .clamp): return true
        case (.processor(let x), .processor(let y)): return sameOperation(x, y)
        case (.colorConversion(let x), .colorConversion(let y)): return x == y
        default: return false
        }
    }

    private static let serialCounter = SerialCounter()
}

/// A thread-safe counter.
package final class SerialCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    package init() {}
    package func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// How a resampling node reads between pixel centres.
public enum SamplingFilter: String, Hashable, Sendable {
    /// Bilinear between pixel centres, or the nearest pixel.
    case linear, nearest
}
