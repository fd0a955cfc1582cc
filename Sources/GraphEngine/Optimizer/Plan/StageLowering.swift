/// Concatenation and materialisation: cuts the optimized graph into *stages*, each producing one
/// materialised image, and lowers each program stage's nodes into one IR program.
///
/// Colour, matrix, blend, crop and generator nodes concatenate into their consumer's program; a
/// warp, affine or general node concatenates too, reading its input through a `sample` instruction.
/// Intermediates are materialised only where they must be: inputs that are sampled at other
/// positions (warps, general kernels, area passes, clamps), image-processor boundaries, and nodes
/// with several consumers (computed once per tile instead of once per consumer).
struct StagePlanner {
    /// One input slot of a program: which stage or buffer it reads and how.
    struct Slot: Hashable {
        enum Source: Hashable {
            case stage(Int)
            case buffer(ImageBuffer)
            /// The raw (Y, Cb, Cr, 1) samples of a frame, chroma upsampled.
            case yuv(YUVFrame)
            static func == (l: Source, r: Source) -> Bool {
                switch (l, r) {
                case (.stage(let a), .stage(let b)): return a == b
                case (.buffer(let a), .buffer(let b)): return a === b
                case (.yuv(let a), .yuv(let b)): return a === b
                default: return false
                }
            }
            func hash(into hasher: inout Hasher) {
                switch self {
                case .stage(let i): hasher.combine(0); hasher.combine(i)
                case .buffer(let b): hasher.combine(1); hasher.combine(ObjectIdentifier(b))
                case .yuv(let f): hasher.combine(2); hasher.combine(ObjectIdentifier(f))
                }
            }
        }
        let source: Source
        let edge: EdgeMode
        let filter: SamplingFilter
        /// The node the slot reads (for region-of-interest propagation and dumps).
        let node: Node
        /// A transfer function decoded while loading (8-bit buffers: a 256-entry table), or nil.
        var decode: ColorSpace.Transfer?
        /// Only these pixels of the source are read (a crop an area pass sees through), or nil.
        var window: PixelRect?
        /// A 3×3 matrix (row-major) applied to the decoded colour while loading (an area pass reading
        /// a photo whose conversion changes primaries), or nil.
        var primaries: [Float]?
        static func == (l: Slot, r: Slot) -> Bool {
            l.source == r.source && l.edge == r.edge && l.filter == r.filter && l.decode == r.decode && l.window == r.window
                && l.primaries == r.primaries
        }
        func hash(into hasher: inout Hasher) {
            hasher.combine(source); hasher.combine(edge); hasher.combine(filter); hasher.combine(decode); hasher.combine(window)
            hasher.combine(primaries)
        }
    }

    enum Work {
        case program(Program, uniforms: [Float], origins: [String], slots: [Slot], name: String)
        /// `layout`: the channels computed (alpha 1, see ``Opacity``; grey, see ``Greyness``) and the
        /// inputs read as one channel.
        case area(any AreaOperation, inputs: [Slot], layout: AreaLayout)
        case processor(any ImageProcessor, inputs: [Node])

        /// The stages it reads.
        var stageInputs: [Int] {
            let slots: [Slot]
            switch self {
            case .program(_, _, _, let programSlots, _): slots = programSlots
            case .area(_, let inputs, _): slots = inputs
            case .processor: return []
            }
            return slots.compactMap { if case .stage(let index) = $0.source { return index } else { return nil } }
        }

        var isProcessor: Bool {
            if case .processor = self { return true }
            return false
        }
    }

    struct Stage {
        let node: Node
        var work: Work
        /// Nodes whose work this stage does (for dumps).
        var nodes: [Node]
        /// The planes its intermediate keeps (``PlaneSet``): 1 when what it stores is grey and
        /// opaque (one value in red, green and blue, alpha 1), 3 when only opaque, else 4.
        var storedChannels = 4
    }

    private(set) var stages: [Stage] = []
    private var programStageIndex: [ObjectIdentifier: Int] = [:]
    private var materialStageIndex: [ObjectIdentifier: Int] = [:]
    private let consumers: [ObjectIdentifier: Int]
    /// How many area passes load each node (through clamps and crops).
    private let areaReaders: [ObjectIdentifier: Int]
    /// Area passes and program stages known grey or not (``Greyness``).
    private var greyness: [ObjectIdentifier: Bool] = [:]
    /// Program stages whose stored alpha is the constant 1.
    private var storedOpaque: Set<ObjectIdentifier> = []
    /// The region each node is computed over by the render's work units (decides extent masks).
    /// Image processors' inputs are not among them: a render of their own computes those.
    private let regions: [ObjectIdentifier: PixelRect]
    /// What the root stage computes: the whole render rectangle, even beyond the root's extent.
    let renderRect: PixelRect

    /// Every node gets its own program (no concatenation): only to measure what fusion buys.
    private let materializeEverything: Bool
    /// The root's output encode to sRGB is left to the 8-bit store (set when the root is such a
    /// conversion and the destination is 8-bit; read it back to configure the sink).
    private(set) var encodesSRGBInStore = false
    let root: Node

    /// Plans `root` rendered over `rect` into `destination` (nil: planar Float32, no fused encode).
    init(root: Node, rect: PixelRect, materializeEverything: Bool = false, destination: PixelFormat? = nil) throws {
        self.materializeEverything = materializeEverything
        self.root = root
        if let destination, destination.component == .uint8, case .colorConversion(let c) = root.kind,
           c.to.transfer == .sRGB {
            encodesSRGBInStore = true
        }
        let order = RegionOfInterest.topologicalOrder(root)
        var counts: [ObjectIdentifier: Int] = [:], passes: [ObjectIdentifier: Int] = [:]
        for node in order {
            for input in node.inputs { counts[ObjectIdentifier(input), default: 0] += 1 }
            guard case .area = node.kind else { continue }
            for input in node.inputs {
                // What the pass loads: through a clamp and a whole-pixel crop.
                var source = input
                if case .clamp = source.kind { source = source.inputs[0] }
                if AreaInputWindow.of(source) != nil { source = source.inputs[0] }
                passes[ObjectIdentifier(source), default: 0] += 1
            }
        }
        consumers = counts
        areaReaders = passes
        regions = RegionOfInterest.propagate(root: root, rect: rect, order: order,
                                             precomputed: RegionOfInterest.computedBeforeWorkUnits)
        renderRect = rect
        try planStages(root: root)
        (scratchSlots, scratchSlotCount) = StagePlanner.assignScratchSlots(stages)
    }

    var rootStage: Int { stages.count - 1 }

    /// Per stage, the worker-scratch planes a work unit computes it into (nil for the root, which
    /// writes the destination, and for image processors, computed before the work units): stages
    /// share planes when one's readers are all done before the other is computed, so a work unit
    /// touches the memory of the stages live at once, not of every stage.
    private(set) var scratchSlots: [Int?] = []
    /// How many scratch planes a worker needs.
    private(set) var scratchSlotCount = 0

    /// Slots by liveness, in execution order (stage order): a stage takes a free slot (the one
    /// freed last, still warm in cache) or a new one, and its slot is freed once the last stage
    /// reading it has run. A stage never shares a slot with one of its inputs.
    static func assignScratchSlots(_ stages: [Stage]) -> (slots: [Int?], count: Int) {
        var lastReader = Array(stages.indices)
        for (index, stage) in stages.enumerated() {
            for source in stage.work.stageInputs { lastReader[source] = max(lastReader[source], index) }
        }
        var freedAfter: [Int: [Int]] = [:]
        var slots: [Int?] = Array(repeating: nil, count: stages.count)
        var free: [Int] = [], count = 0
        for (index, stage) in stages.enumerated() {
            if index != stages.count - 1, !stage.work.isProcessor {
                let slot = free.popLast() ?? count
                if slot == count { count += 1 }
                slots[index] = slot
                freedAfter[lastReader[index], default: []].append(slot)
            }
            free += freedAfter.removeValue(forKey: index) ?? []
        }
        return (slots, count)
    }

    /// Fails when a source that was still being filled (a streaming decode) failed: the pixels read
    /// from it are not the image's.
    func checkStreamingSources() throws {
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

    // MARK: Stage creation

    /// Planning met a stage that reads another stage not planned yet (planning works from an
    /// explicit stack rather than recursion, so a graph thousands of stages deep plans in constant
    /// stack): plan `node` first, then try again.
    struct UnplannedStage: Error {
        let node: Node
    }

    /// Plans the program of `root` (planned last: the root stage writes the output) and, first,
    /// every stage it reads, each once, producers before consumers (the order a depth-first walk
    /// from the root discovers them in).
    private mutating func planStages(root: Node) throws {
        var pending = [root]
        var waiting: Set<ObjectIdentifier> = [ObjectIdentifier(root)]
        while let node = pending.last {
            do {
                if node !== root, StagePlanner.isMaterialStage(node) {
                    _ = try slot(for: node, edge: .zero, filter: .linear)
                } else {
                    try planProgramStage(for: node)
                }
                waiting.remove(ObjectIdentifier(pending.removeLast()))
            } catch let unplanned as UnplannedStage {
                // A stage waiting for itself would loop forever; a graph has no cycles, so this
                // would be a planner bug, reported rather than hung on.
                guard waiting.insert(ObjectIdentifier(unplanned.node)).inserted else {
                    throw GraphError.renderFailed("planning #\(unplanned.node.serial) \(unplanned.node.shortName) depends on itself")
                }
                pending.append(unplanned.node)
            }
        }
    }

    /// Lowers the program that computes `node`, unless planned already. The stages this needs and
    /// that exist complete (area passes, processors) stay planned even when it stops at one
    /// not planned yet.
    private mutating func planProgramStage(for node: Node) throws {
        if programStageIndex[ObjectIdentifier(node)] != nil { return }
        let outcome: Result<(builder: (Program, [Float], [String]), slots: [Slot], nodes: [Node], name: String, stored: OperandQuad), Error>
        do {
            var lowering = StageLowering(root: node, planner: self)
            // The lowering holds the only reference to the stages meanwhile, so adding to them
            // never copies them (planning stays linear in the number of stages).
            stages = []
            programStageIndex = [:]
            materialStageIndex = [:]
            outcome = Result { try lowering.lowerRoot() }
            self = lowering.planner
        }
        let result = try outcome.get()
        let (program, uniforms, origins) = result.builder
        // What the program stores, as its readers see it: alpha the constant 1 (a blend whose
        // alpha folded away) makes it opaque, one value in red, green and blue makes it grey.
        let stored = result.stored
        let opaque = stored.a == .constant(1), grey = stored.r == stored.g && stored.r == stored.b
        if opaque { storedOpaque.insert(ObjectIdentifier(node)) }
        if grey { greyness[ObjectIdentifier(node)] = true }
        stages.append(Stage(node: node, work: .program(program, uniforms: uniforms, origins: origins,
                                                     slots: result.slots, name: result.name),
                            nodes: result.nodes, storedChannels: opaque ? (grey ? 1 : 3) : 4))
        programStageIndex[ObjectIdentifier(node)] = stages.count - 1
    }

    /// Whether `node` has alpha 1 inside its extent: known from its kind (``Opacity``) or from the
    /// program that stores it.
    func isOpaque(_ node: Node) -> Bool { Opacity.isOpaque(node, storedOpaque: storedOpaque) }

    /// Whether what `slot` reads has R = G = B bit for bit (``Greyness``: a grey buffer, a program
    /// stage storing one value in red, green and blue, a grey area pass), so a program loads it as
    /// one register. A camera frame's (Y, Cb, Cr) and a slot converting primaries are not grey.
    mutating func isGrey(_ slot: Slot) -> Bool {
        if case .yuv = slot.source { return false }
        guard slot.primaries == nil else { return false }
        return Greyness.isGrey(slot.node, known: &greyness, storedOpaque: storedOpaque)
    }

    /// The slot for reading `node` from another program.
    mutating func slot(for node: Node, edge: EdgeMode, filter: SamplingFilter) throws -> Slot {
        switch node.kind {
        case .buffer(let buffer):
            return Slot(source: .buffer(buffer), edge: edge, filter: filter, node: node)
        case .area(let op):
            if let index = materialStageIndex[ObjectIdentifier(node)] {
                return Slot(source: .stage(index), edge: edge, filter: filter, node: node)
            }
            // The pass reads its inputs directly: a buffer, another pass, or (through the slot's edge
            // mode and window) a clamped or cropped one; anything else is computed by a program first.
            // Inputs that are stages of their own are planned first (from the planner's stack, not
            // by recursion here: chains of passes may be long).
            var sources: [(node: Node, edge: EdgeMode, window: PixelRect?, conversion: ColorConversion?)] = []
            for input in node.inputs {
                var source = input, inputEdge = EdgeMode.zero
                if case .clamp = source.kind {
                    source = source.inputs[0]
                    inputEdge = .clamp
                }
                let window = AreaInputWindow.of(source)
                if window != nil { source = source.inputs[0] }
                // An 8-bit photo under its conversion to the linear working space is read from its
                // bytes, decoded by a table (and its primaries converted) while loading.
                var conversion: ColorConversion?
                if !isMaterialized(source), case .colorConversion(let c) = source.kind, c.to.transfer == .linear,
                   StageLowering.decodesWhileLoading(c, source.inputs[0]) {
                    conversion = c
                    source = source.inputs[0]
                }
                if StagePlanner.isMaterialStage(source), materialStageIndex[ObjectIdentifier(source)] == nil {
                    throw UnplannedStage(node: source)
                }
                sources.append((source, inputEdge, window, conversion))
            }
            var inputs: [Slot] = []
            for (source, inputEdge, window, conversion) in sources {
                var slot = try slot(for: source, edge: inputEdge, filter: .linear)
                slot.window = window
                slot.decode = conversion?.from.transfer
                slot.primaries = conversion?.primariesMatrix?.map { Float($0) }
                inputs.append(slot)
            }
            let layout = areaLayout(node, op)
            stages.append(Stage(node: node, work: .area(op, inputs: inputs, layout: layout), nodes: [node],
                                storedChannels: layout.channels))
            materialStageIndex[ObjectIdentifier(node)] = stages.count - 1
            return Slot(source: .stage(stages.count - 1), edge: edge, filter: filter, node: node)
        case .processor(let processor):
            if let index = materialStageIndex[ObjectIdentifier(node)] {
                return Slot(source: .stage(index), edge: edge, filter: filter, node: node)
            }
            stages.append(Stage(node: node, work: .processor(processor, inputs: node.inputs), nodes: [node],
                                storedChannels: processor is Intermediate ? 4 : ProcessorPlanes(processor, inputs: node.inputs).output))
            materialStageIndex[ObjectIdentifier(node)] = stages.count - 1
            return Slot(source: .stage(stages.count - 1), edge: edge, filter: filter, node: node)
        default:
            guard let index = programStageIndex[ObjectIdentifier(node)] else { throw UnplannedStage(node: node) }
            return Slot(source: .stage(index), edge: edge, filter: filter, node: node)
        }
    }

    /// The channels an area stage computes: 1 when its output is grey and opaque (its grey inputs
    /// then load one channel), 3 when opaque, else 4.
    private mutating func areaLayout(_ node: Node, _ op: any AreaOperation) -> AreaLayout {
        guard isOpaque(node) else { return AreaLayout(channels: 4, greyInputs: node.inputs.map { _ in false }) }
        guard Greyness.isGrey(node, known: &greyness, storedOpaque: storedOpaque) else {
            return AreaLayout(channels: 3, greyInputs: node.inputs.map { _ in false })
        }
        return AreaLayout(channels: 1, greyInputs: node.inputs.map { Greyness.isGrey($0, known: &greyness, storedOpaque: storedOpaque) })
    }

    /// An area pass or an image processor: a stage of its own, not a program.
    static func isMaterialStage(_ node: Node) -> Bool {
        switch node.kind {
        case .area, .processor: return true
        default: return false
        }
    }

    /// Area passes reading one decoded photo from which it is stored once (decoded, converted and
    /// stored as half floats) rather than decoded by each (measured on the depth examples: two or
    /// three readers decode faster, the six of a masked variable blur load faster).
    static let passesSharingADecode = 4

    /// True when `node` is read from a materialised intermediate rather than recomputed inline.
    func isMaterialized(_ node: Node) -> Bool {
        if materializeEverything { return true }
        switch node.kind {
        case .buffer, .area, .processor: return true
        case .color where node.inputs.isEmpty: return false
        case .colorConversion(let conversion) where StageLowering.decodesWhileLoading(conversion, node.inputs[0]):
            // A photo decoded by a table while it loads: cheaper to decode again in each reader
            // than to store and load an intermediate, unless many area passes read it (blur levels),
            // each over its own halo: a half-float load costs a fraction of a decode.
            return (areaReaders[ObjectIdentifier(node)] ?? 0) >= StagePlanner.passesSharingADecode
        default: return (consumers[ObjectIdentifier(node)] ?? 0) > 1
        }
    }

    func region(of node: Node) -> PixelRect { regions[ObjectIdentifier(node)] ?? .empty }

    /// The pixels the program computing `node` runs over: the render rectangle for the root (the
    /// executor writes all of it), the node's region otherwise.
    func programRegion(of node: Node) -> PixelRect { node === root ? renderRect : region(of: node) }
}

/// Lowers the nodes of one program stage into IR.
struct StageLowering {
    let root: Node
    var planner: StagePlanner
    var builder = ProgramBuilder()
    var slots: [StagePlanner.Slot] = []
    var nodes: [Node] = []
    private var memo: [ObjectIdentifier: OperandQuad] = [:]
    private var names: [ObjectIdentifier: String] = [:]
    /// What each slot's `load` produced.
    private var loadedSlots: [Int: OperandQuad] = [:]
    /// The region the whole program is computed over (extent masks are emitted only if it exceeds
    /// a node's extent).
    private let region: PixelRect

    init(root: Node, planner: StagePlanner) {
        self.root = root
        self.planner = planner
        self.region = planner.programRegion(of: root)
    }

    mutating func lowerRoot() throws
        -> (builder: (Program, [Float], [String]), slots: [StagePlanner.Slot], nodes: [Node], name: String, stored: OperandQuad)
    {
        let value: OperandQuad
        if planner.isMaterialized(root), case .buffer = root.kind {
            value = try load(root, edge: .zero)
        } else if case .area = root.kind {
            value = try load(root, edge: .zero)
        } else if case .processor = root.kind {
            value = try load(root, edge: .zero)
        } else {
            try lowerInputsFirst()
            value = try lower(root)
        }
        builder.inputCount = slots.count
        builder.currentOrigin = root === planner.root && planner.encodesSRGBInStore ? "store, encoding sRGB into 8 bits" : "store"
        let finished = builder.finish(storing: value)
        let name = names[ObjectIdentifier(root)] ?? root.shortName
        return ((finished.program, finished.uniforms, finished.origins), slots, nodes, name, value)
    }

    private mutating func slotIndex(_ slot: StagePlanner.Slot) -> Int {
        if let index = slots.firstIndex(of: slot) { return index }
        slots.append(slot)
        if planner.isGrey(slot) { builder.greyInputs.insert(slots.count - 1) }
        return slots.count - 1
    }

    private mutating func load(_ node: Node, edge: EdgeMode, decode: ColorSpace.Transfer? = nil) throws -> OperandQuad {
        var slot = try planner.slot(for: node, edge: edge, filter: .linear)
        slot.decode = decode
        builder.currentOrigin = "#\(node.serial) \(node.shortName)"
        let index = slotIndex(slot)
        names[ObjectIdentifier(node)] = "in\(index)"
        // One load per slot: a photo under two conversions (to linear and to sRGB) is read once.
        let value = loadedSlots[index] ?? builder.load(input: index)
        loadedSlots[index] = value
        // An opaque input read only where it has pixels has alpha 1: a constant, so the
        // unpremultiply and premultiply steps after it fold away.
        let extent = node.extent.integral
        if planner.isOpaque(node), !extent.isEmpty, edge == .clamp || extent.contains(region.rect) {
            return OperandQuad(value.r, value.g, value.b, .constant(1))
        }
        return value
    }

    /// Lowers every node of this program after the inputs it lowers inline, from an explicit stack,
    /// in the order `lower(root)` would reach them (depth-first, inputs in order), so that `lower`
    /// then finds each node's inputs done: a chain of 10,000 filters in one program needs no deep
    /// recursion.
    private mutating func lowerInputsFirst() throws {
        var pending: [(node: Node, inputsDone: Bool)] = [(root, false)]
        var reached = Set<ObjectIdentifier>()
        while let (node, inputsDone) = pending.popLast() {
            if inputsDone {
                _ = try lower(node)
                continue
            }
            guard reached.insert(ObjectIdentifier(node)).inserted else { continue }
            if node === root || !planner.isMaterialized(node) { nodes.append(node) }
            pending.append((node, true))
            for input in inlineInputs(of: node).reversed() { pending.append((input, false)) }
        }
    }

    /// The inputs `lower(node)` lowers into this program, not those it reads through a slot (keep
    /// the two in step: an input missing here is still lowered right, but recursively).
    private func inlineInputs(of node: Node) -> [Node] {
        if node !== root, planner.isMaterialized(node) { return [] }
        switch node.kind {
        case .color: return node.inputs
        case .matrix, .crop: return [node.inputs[0]]
        case .colorConversion(let conversion):
            return StageLowering.decodesWhileLoading(conversion, node.inputs[0]) ? [] : [node.inputs[0]]
        case .buffer, .yuv, .file, .area, .processor, .clamp, .affine, .warp, .general: return []
        }
    }

    /// Whether a conversion decodes its input's transfer while loading it (an 8-bit buffer with
    /// opaque or straight alpha, decoded by a table) instead of lowering the input and decoding after.
    static func decodesWhileLoading(_ conversion: ColorConversion, _ input: Node) -> Bool {
        guard conversion.from.transfer != .linear, case .buffer(let buffer) = input.kind else { return false }
        return buffer.format.component == .uint8 && buffer.alphaMode != .premultiplied
    }

    /// The value of `node` at the destination pixels.
    private mutating func lower(_ node: Node) throws -> OperandQuad {
        if let done = memo[ObjectIdentifier(node)] { return done }
        if node !== root, planner.isMaterialized(node) {
            let loaded = try load(node, edge: .zero)
            memo[ObjectIdentifier(node)] = loaded
            return loaded
        }
        var inputNames: [String] = []
        let value: OperandQuad
        switch node.kind {
        case .buffer, .area, .processor:
            return try load(node, edge: .zero)
        case .file(let source):
            throw GraphError.renderFailed("\(source.path) was not resolved to pixels before planning")
        case .yuv(let frame):
            // Y, Cb, Cr read with chroma upsampled, then one matrix to R'G'B'.
            builder.currentOrigin = "#\(node.serial) \(node.shortName)"
            let index = slotIndex(StagePlanner.Slot(source: .yuv(frame), edge: .zero, filter: .linear, node: node))
            value = builder.colorMatrix(frame.rgbMatrix.uniformValues, builder.load(input: index))
        case .color(let op):
            let inputs = try node.inputs.map { try lower($0) }
            inputNames = node.inputs.map { names[ObjectIdentifier($0)] ?? $0.shortName }
            builder.currentOrigin = "#\(node.serial) \(op.name)"
            let uniforms = op.uniformValues.map { builder.uniform($0) }
            value = try op.lower(inputs: inputs, uniforms: uniforms, destination: builder.destinationCoordinate(),
                                 builder: &builder)
        case .matrix(let matrix):
            let input = try lower(node.inputs[0])
            inputNames = [names[ObjectIdentifier(node.inputs[0])] ?? ""]
            builder.currentOrigin = "#\(node.serial) matrix(\(matrix.sourceNames.joined(separator: ",")))"
            if planner.isOpaque(node.inputs[0]) && matrix.preservesAlpha {
                // Alpha is 1: unpremultiply and premultiply are identities.
                value = builder.colorMatrix(matrix.uniformValues, input)
            } else {
                let straight = builder.unpremultiply(input)
                value = builder.premultiply(builder.colorMatrix(matrix.uniformValues, straight))
            }
        case .colorConversion(let conversion):
            value = try lowerConversion(conversion, node: node)
            inputNames = [names[ObjectIdentifier(node.inputs[0])] ?? ""]
        case .crop(let rect):
            value = try lower(node.inputs[0])
            inputNames = [names[ObjectIdentifier(node.inputs[0])] ?? ""]
            _ = rect  // the extent mask below does the cropping
        case .clamp:
            let input = node.inputs[0]
            if case .colorConversion(let conversion) = input.kind, StageLowering.decodesWhileLoading(conversion, input.inputs[0]),
               !planner.isMaterialized(input) {
                // A photo decoded while it loads is read clamped and converted here (no intermediate).
                value = try lowerConversion(conversion, node: input, edge: .clamp)
            } else {
                value = try load(input, edge: .clamp)
            }
            inputNames = [names[ObjectIdentifier(input)] ?? ""]
        case .affine(let transform, let filter):
            guard let inverse = transform.inverted else {
                throw GraphError.invalidKernel("affine transform \(transform) is not invertible")
            }
            builder.currentOrigin = "#\(node.serial) affine"
            let (dx, dy) = builder.destinationCoordinate()
            let u = inverse.coefficients.map { builder.uniform(Float($0)) }
            let sx = builder.ternary(.multiplyAdd, u[0], dx, builder.ternary(.multiplyAdd, u[2], dy, u[4]))
            let sy = builder.ternary(.multiplyAdd, u[1], dx, builder.ternary(.multiplyAdd, u[3], dy, u[5]))
            let name: String
            (value, name) = try sample(node.inputs[0], filter: filter, x: sx, y: sy)
            inputNames = [name]
        case .warp(let op):
            builder.currentOrigin = "#\(node.serial) \(op.name)"
            let uniforms = op.uniformValues.map { builder.uniform($0) }
            let point = try op.lower(uniforms: uniforms, destination: builder.destinationCoordinate(), builder: &builder)
            let name: String
            (value, name) = try sample(node.inputs[0], filter: .linear, x: point.x, y: point.y)
            inputNames = [name]
        case .general(let op):
            var samplers: [SamplerBinding] = []
            for input in node.inputs {
                let (slot, name) = try sampledSlot(input, filter: .linear)
                inputNames.append(name)
                let e = input.extent.isInfinite ? Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9) : input.extent
                let extent = [e.x, e.y, e.width, e.height].map { builder.uniform(Float($0)) }
                samplers.append(SamplerBinding(slot: slot, extent: extent))
            }
            builder.currentOrigin = "#\(node.serial) \(op.name)"
            let uniforms = op.uniformValues.map { builder.uniform($0) }
            value = try op.lower(samplers: samplers, uniforms: uniforms, destination: builder.destinationCoordinate(),
                                 builder: &builder)
        }
        let masked = maskOutsideExtent(node, value)
        memo[ObjectIdentifier(node)] = masked
        names[ObjectIdentifier(node)] = StageLowering.programName(node.shortName, inputNames: inputNames)
        return masked
    }

    /// The longest program name kept (in characters): longer nestings read `name(…)`.
    static let programNameLimit = 160

    /// The dump name of a node lowered inline, `name(input names)`: `CIHueAdjust(matrix<CISepiaTone>(in0))`.
    /// Capped at ``programNameLimit`` characters (the inputs then read `…`): every node of a program
    /// keeps its name while the program is lowered, so uncapped names of a chain of N fused filters
    /// would hold N²/2 characters.
    static func programName(_ shortName: String, inputNames: [String]) -> String {
        let full = "\(shortName)(\(inputNames.joined(separator: ", ")))"
        return full.utf8.count <= programNameLimit ? full : "\(shortName)(…)"
    }

    /// Decode `from`'s transfer, change primaries, encode `to`'s transfer, on unpremultiplied colour.
    /// An 8-bit buffer with opaque or straight alpha is decoded by a table while it loads.
    private mutating func lowerConversion(_ conversion: ColorConversion, node: Node, edge: EdgeMode = .zero) throws -> OperandQuad {
        let input = node.inputs[0]
        var decoded = false
        var value: OperandQuad
        if StageLowering.decodesWhileLoading(conversion, input) {
            value = try load(input, edge: edge, decode: conversion.from.transfer)
            decoded = true
        } else {
            value = try lower(input)
        }
        builder.currentOrigin = "#\(node.serial) \(conversion.shortName)"
        let opaque = planner.isOpaque(input)
        var c = opaque ? value : builder.unpremultiply(value)
        if !decoded {
            switch conversion.from.transfer {
            case .sRGB: c = eachColorChannel(c) { $1.unary(.srgbToLinear, $0) }
            case .curve(let curve): c = eachColorChannel(c) { curve.lowerDecode($0, builder: &$1) }
            case .linear:
                break
            }
        }
        if let m = conversion.primariesMatrix {
            let matrix = ColorMatrix(rgb: m, sourceName: conversion.shortName)
            c = builder.colorMatrix(matrix.uniformValues, c)
        }
        switch conversion.to.transfer {
        case .sRGB where node === planner.root && planner.encodesSRGBInStore:
            // The 8-bit store encodes (and unpremultiplies what it must) while quantising.
            builder.currentOrigin = "#\(node.serial) \(conversion.shortName): sRGB encode fused into the 8-bit store"
            return opaque ? c : builder.premultiply(c)
        case .sRGB: c = eachColorChannel(c) { $1.unary(.linearToSRGB, $0) }
        case .curve(let curve): c = eachColorChannel(c) { curve.lowerEncode($0, builder: &$1) }
        case .linear:
            break
        }
        return opaque ? c : builder.premultiply(c)
    }

    /// `transform` applied to R, G and B; alpha unchanged.
    private mutating func eachColorChannel(_ c: OperandQuad,
                                           _ transform: (Operand, inout ProgramBuilder) -> Operand) -> OperandQuad {
        OperandQuad(transform(c.r, &builder), transform(c.g, &builder), transform(c.b, &builder), c.a)
    }

    /// `input` sampled at (`x`, `y`), and its name for dumps.
    ///
    /// A colour source decoded to a linear working space (an 8-bit buffer with straight or no alpha
    /// under its colour conversion) is gathered from its bytes with the transfer decoded per tap by
    /// the slot's 256-entry table, as a `load` does; the primaries change, linear, then applies to the
    /// blend (on premultiplied colour, since it has no offset). So sampling a photo needs no
    /// converted intermediate, and the blend happens in linear light as with one.
    private mutating func sample(_ input: Node, filter: SamplingFilter, x: Operand, y: Operand) throws
        -> (OperandQuad, String)
    {
        var source = input, edge = EdgeMode.zero
        if case .clamp = input.kind {
            source = input.inputs[0]
            edge = .clamp
        }
        guard case .colorConversion(let conversion) = source.kind, conversion.to.transfer == .linear,
              conversion.from.transfer != .linear, case .buffer(let buffer) = source.inputs[0].kind,
              buffer.format.component == .uint8, buffer.alphaMode != .premultiplied
        else {
            let (slot, name) = try sampledSlot(input, filter: filter)
            return (builder.sample(input: slot, x: x, y: y), name)
        }
        var slot = try planner.slot(for: source.inputs[0], edge: edge, filter: filter)
        slot.decode = conversion.from.transfer
        let index = slotIndex(slot)
        var value = builder.sample(input: index, x: x, y: y)
        nodes.append(source)
        if let m = conversion.primariesMatrix {
            builder.currentOrigin = "#\(source.serial) \(conversion.shortName) (decoded while sampling)"
            value = builder.colorMatrix(ColorMatrix(rgb: m, sourceName: conversion.shortName).uniformValues, value)
        }
        let name = "\(conversion.shortName)(in\(index) decoded)"
        return (value, edge == .clamp ? "clamp(\(name))" : name)
    }

    /// The slot through which a sampling node reads `input` (a clamp becomes the slot's edge mode).
    private mutating func sampledSlot(_ input: Node, filter: SamplingFilter) throws -> (Int, String) {
        var source = input, edge = EdgeMode.zero
        if case .clamp = input.kind {
            source = input.inputs[0]
            edge = .clamp
        }
        let slot = try planner.slot(for: source, edge: edge, filter: filter)
        let index = slotIndex(slot)
        return (index, edge == .clamp ? "clamp(in\(index))" : "in\(index)")
    }

    /// Zero outside the node's extent (Core Image's definition of an extent), emitted only when the
    /// program computes pixels outside it. A pixel is inside when its square meets the extent (the
    /// extent rounded out, the pixels the executor computes): the partly covered edge pixels of a
    /// fractionally placed image keep their sampled values, like its interior.
    private mutating func maskOutsideExtent(_ node: Node, _ value: OperandQuad) -> OperandQuad {
        let extent = node.extent.integral
        guard !extent.isInfinite, !extent.contains(region.rect), !region.isEmpty else { return value }
        builder.currentOrigin = "#\(node.serial) extent mask"
        let (x, y) = builder.destinationCoordinate()
        let bounds = [extent.minX, extent.minY, extent.maxX, extent.maxY].map { builder.uniform(Float($0)) }
        let inside = builder.binary(
            .logicalAnd,
            builder.binary(.logicalAnd, builder.binary(.greaterThanOrEqual, x, bounds[0]), builder.binary(.lessThan, x, bounds[2])),
            builder.binary(.logicalAnd, builder.binary(.greaterThanOrEqual, y, bounds[1]), builder.binary(.lessThan, y, bounds[3])))
        func mask(_ channel: Operand, _ b: inout ProgramBuilder) -> Operand {
            b.ternary(.select, inside, channel, .constant(0))
        }
        return OperandQuad(mask(value.r, &builder), mask(value.g, &builder), mask(value.b, &builder), mask(value.a, &builder))
    }
}

/// Which nodes are known to have alpha 1 everywhere inside their extent.
enum Opacity {
    /// Follows the chain of alpha-preserving nodes down to a source (a loop: chains may be long);
    /// `storedOpaque`: nodes whose stored alpha is known to be 1 (program stages that compute it).
    static func isOpaque(_ node: Node, storedOpaque: Set<ObjectIdentifier> = []) -> Bool {
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
