import Dispatch
import Foundation

/// Renders images. Long-lived and thread-safe: make one and share it (Core Image's `CIContext`).
///
/// A context holds the options, the cache of compiled programs (keyed by program structure, so
/// re-rendering with new parameter values reuses them) and a byte-limited cache of materialised
/// whole images (image-processor results).
public final class Context: @unchecked Sendable {
    /// The options the context was made with (threads, working colour space and format, limits).
    public let options: ContextOptions
    private let lock = NSLock()
    /// Compiled programs, least recently used dropped past ``ContextOptions/programCacheLimit``.
    private let programs: ByteLimitedCache<Program, SpanInterpreter.Executable>
    private var hits = 0
    private var misses = 0
    private let imageCache: ByteLimitedCache<ProcessorKey, PlaneSet>
    /// Per-worker scratch reused from render to render.
    let scratchPool: ScratchPool

    /// `options` with the thread count clamped to 1...1024, the tile size to 8...65536 and the
    /// render limit to 2^40 pixels (past those, sizes computed from them would overflow).
    public init(options: ContextOptions = ContextOptions()) {
        var options = options
        options.threads = min(max(options.threads, 1), 1024)
        options.tileSize = min(max(options.tileSize, 8), 1 << 16)
        options.maximumRenderPixels = min(options.maximumRenderPixels, 1 << 40)
        self.options = options
        self.imageCache = ByteLimitedCache(byteLimit: options.cacheByteLimit)
        self.programs = ByteLimitedCache(byteLimit: max(options.programCacheLimit, 1))
        self.scratchPool = ScratchPool(limit: options.threads * 2)
    }

    /// Drops the whole images the context keeps (image-processor results and cached
    /// intermediates, up to ``ContextOptions/cacheByteLimit``), keeping the compiled programs.
    /// Call it when the images rendered so far will not be rendered again: `graph batch` after each
    /// file, whose results no later file can use (each reads another photo), and which would
    /// otherwise stay until the limit pushed them out (a 12 MP portrait blur left about 72 MiB per
    /// file, up to 256 MiB). Renders in flight keep what they already hold; one that needs a
    /// dropped image again computes it again (the same pixels).
    public func removeCachedImages() {
        imageCache.removeAll()
    }

    /// Bytes of whole images the context keeps now.
    public var cachedImageBytes: Int { imageCache.byteCount }

    /// Program-cache counters.
    public var programCacheStatistics: (hits: Int, misses: Int, entries: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (hits, misses, programs.count)
    }

    func executable(for program: Program) -> SpanInterpreter.Executable {
        if let cached = programs.value(for: program) {
            lock.lock()
            hits += 1
            lock.unlock()
            return cached
        }
        lock.lock()
        misses += 1
        lock.unlock()
        let made = SpanInterpreter.Executable(program)
        programs.insert(made, for: program, bytes: 1)
        return made
    }

    // MARK: Rendering

    /// Renders `rect` of `image` into caller memory: `rowBytes` apart, top row first, in `format`, converted
    /// to `colorSpace` (default: the context's output colour space); `progress`, when given, counts
    /// the pixels written and can cancel the render (``RenderProgress/cancel()``).
    public func render(_ image: Image, to destination: UnsafeMutableRawPointer, rowBytes: Int, rect: Rect,
                       format: PixelFormat, colorSpace: OutputColorSpace? = nil, progress: RenderProgress? = nil) throws {
        _ = try render(image, rect: rect, destination: destination, rowBytes: rowBytes, format: format,
                       colorSpace: colorSpace, progress: progress)
    }

    /// Renders `rect` (default: the image's extent) into a new buffer, converted to `colorSpace` (default:
    /// the context's output colour space; `.data` writes the working values untagged); `progress`, when
    /// given, counts the pixels written (for a progress line on another thread).
    public func render(_ image: Image, rect: Rect? = nil, format: PixelFormat = .rgba8, colorSpace: OutputColorSpace? = nil,
                       progress: RenderProgress? = nil) throws -> ImageBuffer {
        let area = try renderRect(image, rect)
        try checkMemory(area.pixelCount * format.bytesPerPixel, for: "a \(area.width)x\(area.height) \(format.rawValue) buffer")
        let buffer = try ImageBuffer(width: area.width, height: area.height, format: format,
                                     colorSpace: outputTarget(colorSpace).tag)
        _ = try render(image, rect: area.rect, destination: buffer.storage, rowBytes: buffer.rowBytes, format: format,
                       colorSpace: colorSpace, progress: progress, destinationBytes: buffer.rowBytes * buffer.height)
        return buffer
    }

    /// Renders and returns the profile of the render (the `timing` dump).
    public func renderWithProfile(_ image: Image, rect: Rect? = nil, format: PixelFormat = .rgba8,
                                  colorSpace: OutputColorSpace? = nil) throws
        -> (buffer: ImageBuffer, profile: RenderProfile)
    {
        let area = try renderRect(image, rect)
        try checkMemory(area.pixelCount * format.bytesPerPixel, for: "a \(area.width)x\(area.height) \(format.rawValue) buffer")
        let buffer = try ImageBuffer(width: area.width, height: area.height, format: format,
                                     colorSpace: outputTarget(colorSpace).tag)
        let profile = try render(image, rect: area.rect, destination: buffer.storage, rowBytes: buffer.rowBytes,
                                 format: format, colorSpace: colorSpace, destinationBytes: buffer.rowBytes * buffer.height)
        return (buffer, profile)
    }

    package func renderRect(_ image: Image, _ rect: Rect?) throws -> PixelRect {
        let wanted = rect ?? image.extent
        if wanted.isInfinite {
            throw GraphError.invalidExtent(
                "cannot render an image with an infinite extent: crop it first (cropped(to:)) or pass a rect")
        }
        let limit = Context.coordinateLimit
        guard wanted.minX >= -limit, wanted.minY >= -limit, wanted.maxX <= limit, wanted.maxY <= limit else {
            throw GraphError.invalidExtent("cannot render the rect \(wanted): it reaches beyond ±\(formatFloat(limit)), "
                                           + "the largest coordinate a render supports; crop the image or pass a smaller rect")
        }
        let area = PixelRect(wanted)
        if area.isEmpty { throw GraphError.invalidExtent("nothing to render: the rect \(wanted) is empty") }
        if area.width > options.maximumRenderPixels / max(area.height, 1) {
            throw GraphError.invalidSize(
                "render of \(area.width)x\(area.height) exceeds the limit of \(options.maximumRenderPixels) pixels")
        }
        return area
    }

    /// 2^23: the largest coordinate a render reaches. Programs compute pixel positions in Float32,
    /// where a pixel centre (x + 0.5) is exact only below 2^23: beyond, an extent is an error
    /// rather than wrong pixels.
    public static let coordinateLimit: Double = 8_388_608

    /// Plans a render: the optimized graph and its stages. `managed`: the graph already has its
    /// colour conversions (an image processor's input inside a managed graph), so none are added.
    /// `sequential`: the render runs in bands, top first (a streamed encode), so JPEG and PNG files
    /// decode windowed for it alone (see ``SequentialSourceReads``).
    package func plan(_ image: Image, rect: PixelRect, destination: PixelFormat? = nil, colorSpace: OutputColorSpace? = nil,
              managed alreadyManaged: Bool = false, sequential: Bool = false) throws
        -> (root: Node, plan: Plan, log: [(pass: String, changes: [String])])
    {
        var resolveLog: [String] = []
        let resolved = try ResolveFileSources.run(image.node, log: &resolveLog, sequential: sequential)
        let managed = alreadyManaged ? resolved
            : ColorManagement.insertConversions(resolved, working: options.workingColorSpace,
                                                output: outputTarget(colorSpace).convertTo)
        var optimized = options.fusion ? Optimizer.optimize(managed) : (managed, [])
        if options.fusion {
            var changes: [String] = []
            optimized.0 = IntegerResampleOfCodes.run(optimized.0, log: &changes)
            optimized.1.append((IntegerResampleOfCodes.name, changes))
        }
        optimized.1.insert(("resolve-file-sources", resolveLog), at: 0)
        do {
            try checkProcessorNesting(optimized.0)
            let planner = try Planner.plan(root: optimized.0, rect: rect, materializeEverything: !options.fusion,
                                           destination: destination)
            try checkRegions(planner, rect: rect)
            return (optimized.0, planner, optimized.1)
        } catch {
            SequentialSourceReads.stopDecodes(of: resolved)  // no render will read them
            throw error
        }
    }

    /// The backend that runs `plan` in this context: the CPU one (``Executor``), the only backend
    /// today. Every render gets its backend here.
    package func backend(for plan: Plan) -> Executor {
        Executor(context: self, plan: plan)
    }

    /// Image processors nested in image processors, at most: each renders its inputs in a render of
    /// its own, which plans again everything below it, so nesting costs time quadratic in its
    /// depth and a stack frame chain per level (1,000 nested reductions took 150 s).
    public static let maximumProcessorNesting = 64

    /// Fails when more than ``maximumProcessorNesting`` image processors are nested.
    private func checkProcessorNesting(_ root: Node) throws {
        var nesting: [ObjectIdentifier: Int] = [:]
        for node in RegionOfInterest.topologicalOrder(root) {
            var deepest = node.inputs.map { nesting[ObjectIdentifier($0)] ?? 0 }.max() ?? 0
            if case .processor = node.kind { deepest += 1 }
            if deepest > Context.maximumProcessorNesting {
                throw GraphError.invalidSize(
                    "image processors are nested \(deepest) deep at #\(node.serial) \(node.shortName); "
                    + "at most \(Context.maximumProcessorNesting) can be")
            }
            nesting[ObjectIdentifier(node)] = deepest
        }
    }

    /// Fails before anything is allocated when an intermediate would cover more pixels than a
    /// render may (a transform shrinking its input a millionfold reads a million times more of it).
    private func checkRegions(_ planner: Plan, rect: PixelRect) throws {
        let limit = options.maximumRenderPixels
        for stage in planner.stages {
            let region = planner.region(of: stage.node)
            if region.width > limit / max(region.height, 1) {
                throw GraphError.invalidSize(
                    "rendering \(rect) needs \(region.width)x\(region.height) pixels of #\(stage.node.serial) "
                    + "\(stage.node.shortName), above the limit of \(limit) pixels")
            }
        }
    }

    /// `destinationBytes`: the destination was allocated for this render (it counts against the
    /// memory limit with the render's own scratch).
    @discardableResult
    func render(_ image: Image, rect: Rect, destination: UnsafeMutableRawPointer, rowBytes: Int,
                format: PixelFormat, colorSpace: OutputColorSpace? = nil, progress: RenderProgress? = nil,
                destinationBytes: Int = 0) throws -> RenderProfile {
        let area = try renderRect(image, rect)
        guard rowBytes >= area.width * format.bytesPerPixel else {
            throw GraphError.invalidSize("rowBytes \(rowBytes) is smaller than a row of \(area.width) \(format.rawValue) pixels")
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let (_, plan, _) = try self.plan(image, rect: area, destination: format, colorSpace: colorSpace)
        var executor = backend(for: plan)
        executor.progress = progress
        if options.memoryLimit != nil {
            let scratch = executor.workUnits(area).prefix(2).map { executor.workerScratchBytes(unit: $0) }.max() ?? 0
            try checkMemory(destinationBytes + executor.threads * scratch + executor.processorBytes(rect: area),
                            for: "rendering \(area.width)x\(area.height)")
        }
        progress?.expect(pixels: area.pixelCount)
        let timings = StageTimings(count: plan.stages.count)
        try executor.render(area, into: .buffer(SendablePointer(destination), rowBytes: rowBytes, format: format), timings: timings)
        try plan.checkStreamingSources()
        let total = DispatchTime.now().uptimeNanoseconds - start
        return RenderProfile(plan: plan, timings: timings, intermediates: executor.intermediateProfiles, totalNanoseconds: total)
    }

    /// Renders `node`, a node of an already colour-managed graph, over `region` into `channels`
    /// planes of `samples` (inputs of image processors; see ``ProcessorPlanes``).
    func renderPlanar(_ node: Node, region: PixelRect, samples: PlanarBuffer.Samples = .float32, channels: Int = 4) throws -> PlanarBuffer {
        let output = try PlanarBuffer(rect: region, samples: samples, channels: channels)
        guard !region.isEmpty else { return output }
        let (_, plan, _) = try self.plan(Image(node: node), rect: region, managed: true)
        try backend(for: plan).render(region, into: .planar(output), timings: StageTimings(count: plan.stages.count))
        try plan.checkStreamingSources()
        return output
    }

    /// How the `wanted` samples of processor `node` are stored in this context: half only when the
    /// working format is and the processor's result carries colour (data: depth maps and masks,
    /// keep Float32, as they always had).
    package func planarSamples(_ wanted: ProcessorSamples, of node: Node) -> PlanarBuffer.Samples {
        wanted == .workingFormat && options.workingFormat == .rgbah && ColorManagement.carriesColor(node) ? .half : .float32
    }

    /// The result of an image processor over `region` (run on at most `threads` workers), from the
    /// cache or computed now; when computed now, also the inputs it rendered for it that `keeping`
    /// asks for (planes over their regions of interest; those holding their whole pixels). The
    /// others are let go before the result is returned; the result's planes are the processor's
    /// output buffer itself. Inputs and output have the planes ``ProcessorPlanes`` decides.
    func processorResult(_ processor: any ImageProcessor, node: Node, inputs: [Node], region: PixelRect, threads: Int,
                         keeping: (Node) -> Bool = { _ in false }) throws
        -> (output: PlaneSet, renderedInputs: [(node: Node, buffer: PlanarBuffer)])
    {
        let key = ProcessorKey(node: node, region: region)
        if let cached = imageCache.value(for: key) { return (cached, []) }
        let planes = ProcessorPlanes(processor, inputs: inputs)
        var inputBuffers: [PlanarBuffer] = []
        for (index, input) in inputs.enumerated() {
            let wanted = RegionOfInterest.inputRegion(node, index, region.rect)
            let inputRegion = RegionOfInterest.clip(PixelRect(wanted.isInfinite ? input.extent : wanted), to: input.extent)
            if inputRegion.isEmpty && input.extent.isInfinite {
                throw GraphError.invalidExtent("\(processor.name) needs a finite input region; crop its input first")
            }
            inputBuffers.append(try renderPlanar(input, region: inputRegion, samples: planarSamples(processor.samples(input: index), of: node),
                                                 channels: planes.inputs[index].channels))
        }
        let output = try PlanarBuffer(rect: region, samples: planarSamples(processor.outputSamples, of: node), channels: planes.output)
        try processor.process(inputs: inputBuffers, output: output, threads: threads)
        // Inputs rendered without the alpha they have are not their whole pixels: never kept.
        let kept = inputs.indices.filter { keeping(inputs[$0]) && planes.inputs[$0].whole }
            .map { (node: inputs[$0], buffer: inputBuffers[$0]) }
        inputBuffers = []
        let result = PlaneSet(adopting: output)
        imageCache.insert(result, for: key, bytes: result.byteCount)
        return (result, kept)
    }
}

extension Context {
    /// The pixels of an ``Intermediate`` over `region`: its input rendered by a render of its own
    /// into planes in the working format, as many as that render's output stage stores (one when
    /// grey and opaque, three when opaque), from the cache or computed now (then with the profile
    /// of that render, for dumps).
    func intermediateResult(node: Node, input: Node, region: PixelRect) throws -> (planes: PlaneSet, profile: RenderProfile?) {
        let key = ProcessorKey(node: node, region: region)
        if let cached = imageCache.value(for: key) { return (cached, nil) }
        let planes = PlaneSet(format: options.workingFormat)
        guard !region.isEmpty else { return (planes, nil) }
        let start = DispatchTime.now().uptimeNanoseconds
        let (_, plan, _) = try self.plan(Image(node: input), rect: region, managed: true)
        let executor = backend(for: plan)
        planes.reset(to: region, channels: plan.stages[plan.rootStage].storedChannels)
        let timings = StageTimings(count: plan.stages.count)
        try executor.render(region, into: .planes(planes), timings: timings)
        try plan.checkStreamingSources()
        imageCache.insert(planes, for: key, bytes: planes.byteCount)
        return (planes, RenderProfile(plan: plan, timings: timings, intermediates: executor.intermediateProfiles,
                                      totalNanoseconds: DispatchTime.now().uptimeNanoseconds - start))
    }
}

/// Stores spans into a processor input's planes (Float32, or converted to half): only those the
/// buffer has (red alone for a grey input, no alpha for an opaque one or one whose alpha the
/// processor does not read).
struct PlanarSink: OutputSink, @unchecked Sendable {
    let buffer: PlanarBuffer
    func store(x0: Int, y: Int, count: Int, from c: InputView.Channels) {
        let row = y - buffer.y, column = x0 - buffer.x
        buffer.writeRow(channel: 0, row: row, column: column, count: count, from: c.0)
        guard buffer.channels > 1 else { return }
        buffer.writeRow(channel: 1, row: row, column: column, count: count, from: c.1)
        buffer.writeRow(channel: 2, row: row, column: column, count: count, from: c.2)
        if buffer.channels == 4 { buffer.writeRow(channel: 3, row: row, column: column, count: count, from: c.3) }
    }
}

/// A raw pointer the caller promises stays valid for the render.
package struct SendablePointer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    package init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

struct ProcessorKey: Hashable, Sendable {
    let node: Node
    let region: PixelRect
}
