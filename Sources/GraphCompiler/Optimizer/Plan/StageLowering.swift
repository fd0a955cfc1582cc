/// Lowers the nodes of one program stage into IR.
struct StageLowering {
    let root: Node
    var stageBuilder: StageBuilder
    var builder = ProgramBuilder()
    var slots: [Plan.Slot] = []
    var nodes: [Node] = []
    private var memo: [ObjectIdentifier: OperandQuad] = [:]
    private var names: [ObjectIdentifier: String] = [:]
    /// What each slot's `load` produced.
    private var loadedSlots: [Int: OperandQuad] = [:]
    /// The region the whole program is computed over (extent masks are emitted only if it exceeds
    /// a node's extent).
    private let region: PixelRect

    init(root: Node, stageBuilder: StageBuilder) {
        self.root = root
        self.stageBuilder = stageBuilder
        self.region = stageBuilder.plan.programRegion(of: root)
    }

    mutating func lowerRoot() throws
        -> (builder: (Program, [Float], [String]), slots: [Plan.Slot], nodes: [Node], name: String, stored: OperandQuad)
    {
        let value: OperandQuad
        if stageBuilder.plan.isMaterialized(root), case .buffer = root.kind {
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
        builder.currentOrigin = root === stageBuilder.plan.root && stageBuilder.plan.encodesSRGBInStore ? "store, encoding sRGB into 8 bits" : "store"
        let finished = builder.finish(storing: value)
        let name = names[ObjectIdentifier(root)] ?? root.shortName
        return ((finished.program, finished.uniforms, finished.origins), slots, nodes, name, value)
    }

    private mutating func slotIndex(_ slot: Plan.Slot) -> Int {
        if let index = slots.firstIndex(of: slot) { return index }
        slots.append(slot)
        if stageBuilder.isGrey(slot) { builder.greyInputs.insert(slots.count - 1) }
        if slot.edge == .clamp, stageBuilder.isOpaque(slot.node), !slot.node.extent.integral.isEmpty {
            if case .yuv = slot.source {} else { builder.opaqueClampedInputs.insert(slots.count - 1) }
        }
        return slots.count - 1
    }

    private mutating func load(_ node: Node, edge: EdgeMode, decode: ColorSpace.Transfer? = nil) throws -> OperandQuad {
        var slot = try stageBuilder.slot(for: node, edge: edge, filter: .linear)
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
        if stageBuilder.isOpaque(node), !extent.isEmpty, edge == .clamp || extent.contains(region.rect) {
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
            if node === root || !stageBuilder.plan.isMaterialized(node) { nodes.append(node) }
            pending.append((node, true))
            for input in inlineInputs(of: node).reversed() { pending.append((input, false)) }
        }
    }

    /// The inputs `lower(node)` lowers into this program, not those it reads through a slot (keep
    /// the two in step: an input missing here is still lowered right, but recursively).
    private func inlineInputs(of node: Node) -> [Node] {
        if node !== root, stageBuilder.plan.isMaterialized(node) { return [] }
        switch node.kind {
        case .color: return node.inputs
        case .matrix, .crop: return [node.inputs[0]]
        case .colorConversion:
            return stageBuilder.plan.decodesWhileLoading(node) ? [] : [node.inputs[0]]
        case .buffer, .yuv, .file, .area, .processor, .clamp, .affine, .warp, .general: return []
        }
    }

    /// The value of `node` at the destination pixels.
    private mutating func lower(_ node: Node) throws -> OperandQuad {
        if let done = memo[ObjectIdentifier(node)] { return done }
        if node !== root, stageBuilder.plan.isMaterialized(node) {
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
            let index = slotIndex(Plan.Slot(source: .yuv(frame), edge: .zero, filter: .linear, node: node))
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
            if stageBuilder.isOpaque(node.inputs[0]) && matrix.preservesAlpha {
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
            if case .colorConversion(let conversion) = input.kind, stageBuilder.plan.decodesWhileLoading(input),
               !stageBuilder.plan.isMaterialized(input) {
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
        if stageBuilder.plan.decodesWhileLoading(node) {
            value = try load(input, edge: edge, decode: conversion.from.transfer)
            decoded = true
        } else {
            value = try lower(input)
        }
        builder.currentOrigin = "#\(node.serial) \(conversion.shortName)"
        let opaque = stageBuilder.isOpaque(input)
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
        case .sRGB where node === stageBuilder.plan.root && stageBuilder.plan.encodesSRGBInStore:
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
              stageBuilder.plan.decodesWhileLoading(source)
        else {
            let (slot, name) = try sampledSlot(input, filter: filter)
            return (builder.sample(input: slot, x: x, y: y), name)
        }
        var slot = try stageBuilder.slot(for: source.inputs[0], edge: edge, filter: filter)
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
        let slot = try stageBuilder.slot(for: source, edge: edge, filter: filter)
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
