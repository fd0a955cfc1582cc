/// Applying custom kernels (written in the kernel language) to images, as colour, warp or general
/// recipe nodes (Core Image's `CIColorKernel.apply`, `CIWarpKernel.apply`, `CIKernel.apply`).

/// An argument of a kernel application, in the kernel's parameter order.
public enum KernelArgument: Sendable {
    /// An image, for a `__sample` or `sampler` parameter.
    case image(Image)
    /// A number, for a `float` parameter.
    case number(Double)
    /// Numbers, for a `vec2`, `vec3`, `vec4` or `__color` parameter (the count must match).
    case vector([Double])
}

/// Which input rectangle a warp or general kernel reads for an output rectangle.
public enum KernelRegionOfInterest: Sendable {
    /// The same rectangle (a kernel that samples near `destCoord()`).
    case destination
    /// The output rectangle grown by a radius (a kernel that samples within `radius` pixels).
    case radius(Double)
    /// The whole input extent (always correct, and the default for warps).
    case wholeInput
    /// Swift code: the rectangle of input `index` needed for an output rectangle (Core Image's ROI
    /// callback). Two applications with callbacks are never considered the same node.
    case callback(@Sendable (_ input: Int, _ rect: Rect) -> Rect)
    /// One region per image input, in the kernel's parameter order (a general kernel that reads a
    /// photo within a radius and a low-resolution map anywhere: `[.radius(4), .wholeInput]`, so the
    /// map is not charged the photo's radius). Inputs past the end read their whole extent.
    case perInput([KernelRegionOfInterest])
}

extension Image {
    /// Applies `kernel` to `arguments` (images and values in the kernel's parameter order).
    ///
    /// - extent: the output extent; by default the union of the image arguments' extents (for a
    ///   general kernel with a radius, grown by it).
    /// - regionOfInterest: for warp and general kernels, what they read (colour kernels read the
    ///   same pixel).
    ///
    /// A warp kernel written without a `sampler` parameter (Core Image's form) takes the image it
    /// warps as an extra first argument.
    public static func applying(_ kernel: Kernel, arguments given: [KernelArgument], extent: Rect? = nil,
                                regionOfInterest: KernelRegionOfInterest? = nil) throws -> Image {
        var arguments = given
        var warpedImage: Image?
        if kernel.kind == .warp, !kernel.parameters.contains(where: { $0.type == .sampler }),
           case .image(let image)? = arguments.first {
            warpedImage = image
            arguments.removeFirst()
        }
        guard arguments.count == kernel.parameters.count else {
            throw GraphError.invalidKernel(
                "kernel '\(kernel.name)' takes \(kernel.parameters.count) arguments, \(arguments.count) given")
        }
        var images: [Image] = []
        var layout: [KernelOperationLayout.Slot] = []
        var uniforms: [Float] = []
        for (parameter, argument) in zip(kernel.parameters, arguments) {
            switch (parameter.type, argument) {
            case (.sample, .image(let image)), (.sampler, .image(let image)):
                layout.append(.image(images.count))
                images.append(image)
            case (.float, .number(let value)):
                layout.append(.uniforms(uniforms.count, 1))
                uniforms.append(Float(value))
            case (.vec2, .vector(let v)) where v.count == 2, (.vec3, .vector(let v)) where v.count == 3,
                 (.vec4, .vector(let v)) where v.count == 4, (.color, .vector(let v)) where v.count == 4:
                layout.append(.uniforms(uniforms.count, v.count))
                uniforms += v.map { Float($0) }
            default:
                throw GraphError.invalidKernel(
                    "kernel '\(kernel.name)' parameter '\(parameter.name)' is \(parameter.type.rawValue); got \(argument.summary)")
            }
        }
        let roi = regionOfInterest ?? (kernel.kind == .warp ? .wholeInput : .destination)
        var identity = ""
        if roi.hasCallback { identity = " roi#\(KernelOperationLayout.callbackCounter.next())" }
        let operation = KernelOperationLayout(kernel: kernel, slots: layout, uniformValues: uniforms,
                                              regionOfInterest: roi, identity: identity)
        if let warpedImage { images.insert(warpedImage, at: 0) }
        let inputExtent = images.dropFirst().reduce(images.first?.extent ?? .infinite) { $0.union($1.extent) }
        switch kernel.kind {
        case .color:
            if kernel.parameters.contains(where: { $0.type == .sampler }) {
                throw GraphError.invalidKernel("colour kernel '\(kernel.name)' cannot take a sampler")
            }
            let node = Node(.color(KernelColorOperation(layout: operation)), inputs: images.map(\.node),
                            extent: extent ?? inputExtent)
            return Image(node: node)
        case .warp:
            guard images.count == 1 else {
                throw GraphError.invalidKernel("warp kernel '\(kernel.name)' needs exactly one sampler argument")
            }
            return Image(node: Node(.warp(KernelWarpOperation(layout: operation, inputExtent: inputExtent)),
                                    inputs: [images[0].node], extent: extent ?? inputExtent))
        case .general:
            if kernel.parameters.contains(where: { $0.type == .sample }) {
                throw GraphError.invalidKernel("general kernel '\(kernel.name)' takes samplers, not __sample")
            }
            var resolved = extent ?? inputExtent
            if extent == nil {
                // Grown by what each input is read within, as Core Image's default extent of a blur.
                resolved = images.indices.reduce(Rect.empty) { union, index in
                    let grown = operation.regionOfInterest.radius(input: index).map { images[index].extent.outset(dx: $0, dy: $0) }
                    return union.union(grown ?? images[index].extent)
                }
            }
            return Image(node: Node(.general(KernelGeneralOperation(layout: operation, inputExtents: images.map(\.extent))),
                                    inputs: images.map(\.node), extent: resolved))
        }
    }
}

extension KernelArgument {
    var summary: String {
        switch self {
        case .image: return "an image"
        case .number: return "a number"
        case .vector(let v): return "a vector of \(v.count)"
        }
    }
}

/// How a kernel's parameters map to node inputs and uniforms.
struct KernelOperationLayout: Sendable {
    enum Slot: Sendable { case image(Int), uniforms(Int, Int) }
    let kernel: Kernel
    let slots: [Slot]
    let uniformValues: [Float]
    let regionOfInterest: KernelRegionOfInterest
    /// Distinguishes applications whose ROI is a callback (closures can't be compared).
    let identity: String

    static let callbackCounter = SerialCounter()

    var structureKey: String { "kernel:" + kernel.source + identity }
    var argumentSummary: String {
        zip(kernel.parameters, slots).compactMap { parameter, slot -> String? in
            guard case .uniforms(let start, let count) = slot else { return nil }
            let values = uniformValues[start..<(start + count)].map { formatFloat($0) }
            return "\(parameter.name)=" + (count == 1 ? values[0] : "[" + values.joined(separator: " ") + "]")
        }.joined(separator: " ")
    }

    /// The kernel's argument list, given how images are bound.
    func arguments(uniforms: [Operand], image: (Int) -> KernelArgumentValue) -> [KernelArgumentValue] {
        slots.map { slot in
            switch slot {
            case .image(let index): return image(index)
            case .uniforms(let start, 1): return .scalar(uniforms[start])
            case .uniforms(let start, let count): return .vector(Array(uniforms[start..<(start + count)]))
            }
        }
    }

    func lower(_ builder: inout ProgramBuilder, uniforms: [Operand], destination: (x: Operand, y: Operand),
               image: (Int) -> KernelArgumentValue) throws -> [Operand] {
        do {
            return try kernel.lower(into: &builder, arguments: arguments(uniforms: uniforms, image: image),
                                    destination: destination)
        } catch {
            throw GraphError.invalidKernel("kernel '\(kernel.name)': \(error)")
        }
    }

    func region(_ rect: Rect, input index: Int, inputExtent: Rect) -> Rect {
        regionOfInterest.region(rect, input: index, inputExtent: inputExtent)
    }
}

extension KernelRegionOfInterest {
    /// The rectangle of input `index` (extent `inputExtent`) read for output rectangle `rect`.
    func region(_ rect: Rect, input index: Int, inputExtent: Rect) -> Rect {
        switch self {
        case .destination: return rect
        case .radius(let r): return rect.outset(dx: r, dy: r)
        case .wholeInput: return inputExtent
        case .callback(let roi): return roi(index, rect)
        case .perInput(let regions):
            guard regions.indices.contains(index) else { return inputExtent }
            return regions[index].region(rect, input: index, inputExtent: inputExtent)
        }
    }

    /// Whether Swift code decides the region (so the application is never the same as another).
    var hasCallback: Bool {
        switch self {
        case .callback: return true
        case .perInput(let regions): return regions.contains { $0.hasCallback }
        default: return false
        }
    }

    /// The radius input `index` is read within, when this region is a radius for it.
    func radius(input index: Int) -> Double? {
        switch self {
        case .radius(let r): return r
        case .perInput(let regions) where regions.indices.contains(index): return regions[index].radius(input: index)
        default: return nil
        }
    }
}

struct KernelColorOperation: ColorOperation {
    let layout: KernelOperationLayout
    var name: String { layout.kernel.name }
    var structureKey: String { layout.structureKey }
    var uniformValues: [Float] { layout.uniformValues }
    var argumentSummary: String { layout.argumentSummary }
}

extension KernelColorOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) throws -> OperandQuad {
        OperandQuad(try layout.lower(&builder, uniforms: uniforms, destination: destination) { .pixel(inputs[$0]) })
    }
}

struct KernelWarpOperation: WarpOperation {
    let layout: KernelOperationLayout
    let inputExtent: Rect
    var name: String { layout.kernel.name }
    var structureKey: String { layout.structureKey }
    var uniformValues: [Float] { layout.uniformValues }
    var argumentSummary: String { layout.argumentSummary }
    func regionOfInterest(for rect: Rect) -> Rect { layout.region(rect, input: 0, inputExtent: inputExtent) }
}

extension KernelWarpOperation: WarpLowering {
    func emit(uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) throws -> (x: Operand, y: Operand) {
        // The sampler parameter is only a name for the input here: the engine samples it at the result.
        let point = try layout.lower(&builder, uniforms: uniforms, destination: destination) { _ in
            .sampler(slot: 0, extent: [.constant(0), .constant(0), .constant(0), .constant(0)])
        }
        return (point[0], point[1])
    }
}

struct KernelGeneralOperation: GeneralOperation {
    let layout: KernelOperationLayout
    let inputExtents: [Rect]
    var name: String { layout.kernel.name }
    var structureKey: String { layout.structureKey }
    var uniformValues: [Float] { layout.uniformValues }
    var argumentSummary: String { layout.argumentSummary }
    func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        layout.region(rect, input: index, inputExtent: index < inputExtents.count ? inputExtents[index] : .infinite)
    }
}

extension KernelGeneralOperation: GeneralLowering {
    func emit(samplers: [SamplerBinding], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder: inout ProgramBuilder) throws -> OperandQuad {
        OperandQuad(try layout.lower(&builder, uniforms: uniforms, destination: destination) {
            .sampler(slot: samplers[$0].slot, extent: samplers[$0].extent)
        })
    }
}
