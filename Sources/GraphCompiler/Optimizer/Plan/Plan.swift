/// What a render does, decided before it runs: the optimized graph cut into *stages*, each producing
/// one materialised image (a program, an area pass or an image processor), with every fusion and
/// memory decision the backend follows.
///
/// The ``Planner``'s passes fill it in order, each recording what it decided in ``log`` (shown by
/// `graph dump --stage plan`). Colour, matrix, blend, crop and generator nodes concatenate into
/// their consumer's program; a warp, affine or general node concatenates too, reading its input
/// through a `sample` instruction. Intermediates are materialised only where they must be: inputs
/// that are sampled at other positions (warps, general kernels, area passes, clamps), image-processor
/// boundaries, and nodes with several consumers (computed once per tile instead of once per consumer).
package struct Plan {
    /// The output node: its stage, planned last, writes the destination.
    package let root: Node
    /// What the root stage computes: the whole render rectangle, even beyond the root's extent.
    package let renderRect: PixelRect
    /// The destination's format (nil: planar Float32, nothing fused into the store).
    let destination: PixelFormat?
    /// Every node gets its own program (no concatenation): only to measure what fusion buys.
    let materializeEverything: Bool

    /// The graph's nodes, inputs before the nodes that read them (``CutStages``).
    package var order: [Node] = []
    /// How many nodes read each node (``CutStages``).
    var consumers: [ObjectIdentifier: Int] = [:]
    /// How many area passes load each node, through clamps and crops (``CutStages``).
    var areaReaders: [ObjectIdentifier: Int] = [:]
    /// The region each node is computed over by the render's work units (decides extent masks).
    /// Image processors' inputs are not among them: a render of their own computes those.
    var regions: [ObjectIdentifier: PixelRect] = [:]
    /// Nodes other than sources, area passes and processors read from an intermediate rather than
    /// recomputed inline by each reader (``MaterializeSharedNodes``, ``FuseSourceDecode``).
    var materialized: Set<ObjectIdentifier> = []
    /// Colour conversions whose transfer decode is fused into the load of their 8-bit input, by a
    /// 256-entry table (``FuseSourceDecode``).
    var decodedWhileLoading: Set<ObjectIdentifier> = []
    /// The root's encode to sRGB is left to the 8-bit store (``FuseOutputEncode``): the sink
    /// quantising to the destination encodes (and unpremultiplies what it must) as it writes.
    package var encodesSRGBInStore = false

    /// The stages, producers before consumers, the root's last (``LowerStages``).
    package var stages: [Stage] = []
    /// Per stage, the worker-scratch planes a work unit computes it into (nil for the root, which
    /// writes the destination, and for image processors, computed before the work units): stages
    /// share planes when one's readers are all done before the other is computed, so a work unit
    /// touches the memory of the stages live at once, not of every stage (``AssignScratchSlots``).
    package var scratchSlots: [Int?] = []
    /// How many scratch planes a worker needs.
    package var scratchSlotCount = 0

    /// Per pass, in the order they ran, what it decided (one sentence each).
    package var log: [(pass: String, decisions: [String])] = []

    init(root: Node, renderRect: PixelRect, destination: PixelFormat?, materializeEverything: Bool) {
        self.root = root
        self.renderRect = renderRect
        self.destination = destination
        self.materializeEverything = materializeEverything
    }

    package var rootStage: Int { stages.count - 1 }

    /// True when `node` is read from a materialised intermediate rather than recomputed inline.
    func isMaterialized(_ node: Node) -> Bool {
        switch node.kind {
        case .buffer, .area, .processor: return true
        default: return materialized.contains(ObjectIdentifier(node))
        }
    }

    /// Whether `node` is a colour conversion decoding its 8-bit input's transfer while loading it.
    func decodesWhileLoading(_ node: Node) -> Bool { decodedWhileLoading.contains(ObjectIdentifier(node)) }

    package func region(of node: Node) -> PixelRect { regions[ObjectIdentifier(node)] ?? .empty }

    /// The pixels the program computing `node` runs over: the render rectangle for the root (the
    /// executor writes all of it), the node's region otherwise.
    func programRegion(of node: Node) -> PixelRect { node === root ? renderRect : region(of: node) }

    /// Fails when a source that was still being filled (a streaming decode) failed: the pixels read
    /// from it are not the image's.
    package func checkStreamingSources() throws {
        for stage in stages {
            let slots: [Slot]
            switch stage.work {
            case .program(_, _, _, let programSlots, _): slots = programSlots
            case .area(_, let areaSlots, _): slots = areaSlots
            case .processor: continue
            }
            for slot in slots {
                if case .buffer(let buffer) = slot.source, let message = buffer.rowProgress?.failureMessage {
                    throw GraphError.renderFailed("the source image could not be decoded: \(message)")
                }
            }
        }
    }
}
