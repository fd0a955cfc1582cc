import Dispatch
import Foundation

/// Runs a planned render: image processors first (whole regions, once), then the output in work
/// units (full-width strips for point-only graphs, square tiles when anything samples a
/// neighbourhood) on Dispatch across the context's workers.
///
/// Pull model: for each work unit, region-of-interest propagation says which pixels of every stage
/// are needed; each worker computes them into its own reusable scratch planes, producers first, and
/// the root stage writes straight into the destination. Pixels depend only on position, so the
/// bytes are the same for every tile size and thread count.
package struct Executor: Backend {
    let context: Context
    package let plan: Plan
    let root: Node
    /// The plan's nodes, inputs first (region-of-interest propagation per work unit walks them).
    let order: [Node]
    /// Counts finished output pixels, when someone watches.
    package var progress: RenderProgress?
    /// Workers this render uses: the context's, or fewer to fit a memory limit.
    package var threads: Int
    /// The image processors' results (and the inputs they share with the work units), computed at
    /// the first ``run(rect:makeSink:timings:)``.
    private let precomputed = ComputedOnce<PrecomputedStages>()
    /// Per stage, the ``ChannelTable`` of a program that takes the lookup path (nil for the others),
    /// built at the first ``run(rect:makeSink:timings:)`` with this render's uniforms.
    private let channelTables = ComputedOnce<[ChannelTable?]>()

    /// Made by ``Context/backend(for:)``, the one place a render gets its backend.
    init(context: Context, plan: Plan) {
        self.context = context
        self.plan = plan
        root = plan.root
        order = plan.order
        threads = context.options.threads
    }

    package func render(_ rect: PixelRect, into destination: RenderDestination, timings: StageTimings) throws {
        switch destination {
        case .buffer(let base, let rowBytes, let format):
            // The output encode the plan fused into the 8-bit store (``FuseOutputEncode``).
            let encode = plan.encodesSRGBInStore
            try run(rect: rect, makeSink: { _, half in
                var sink = BufferSink(base: base.pointer, rowBytes: rowBytes, format: format, rect: rect, halfScratch: half)
                sink.encodeSRGB = encode
                return sink
            }, timings: timings)
        case .planar(let buffer):
            try run(rect: rect, makeSink: { _, _ in PlanarSink(buffer: buffer) }, timings: timings)
        case .planes(let planes):
            try run(rect: rect, makeSink: { _, _ in PlaneSink(planes: planes) }, timings: timings)
        }
    }

    /// Renders `rect` of the root into `sink` (called per work unit with the unit's sink). A render
    /// in bands calls this once per band; the image processors run at the first call only.
    private func run(rect: PixelRect, makeSink: @escaping @Sendable (PixelRect, UnsafeMutablePointer<UInt16>) -> any OutputSink,
             timings: StageTimings) throws {
        let precomputed = try precomputedStages(timings: timings)
        let processed = precomputed.planes
        if !context.options.fusion {
            let regions = RegionOfInterest.propagate(root: root, rect: rect, order: order, precomputed: precomputed.contains)
            try runWholeImagePasses(rect: rect, regions: regions, processed: processed, makeSink: makeSink,
                                    timings: timings)
            return
        }
        let units = workUnits(rect)
        let executables = self.executables()
        let tables = try lookupTables(executables)
        let progress = self.progress
        try progress?.checkCancelled()
        let layout = scratchLayout(unit: units.max { $0.pixelCount < $1.pixelCount } ?? rect)
        parallel(units.count, pixels: rect.pixelCount, scratch: layout) { scratch, unit in
            if progress?.isCancelled == true { return }  // the rest is skipped; thrown below
            runUnit(units[unit], scratch: scratch, executables: executables, tables: tables, precomputed: precomputed,
                    makeSink: makeSink, timings: timings)
            progress?.finished(pixels: units[unit].pixelCount)
        }
        try progress?.checkCancelled()
    }

    /// Runs the image processors, each once over its region for the whole render (not per band:
    /// a processor whose output is read point by point would otherwise run again for every band),
    /// at the first call; later calls (the next bands) get the same results.
    ///
    /// A processor's inputs are rendered whole for it. When the work units read such an input too
    /// (a reduction's input that is also thresholded per pixel), they read that rendering instead of
    /// computing the input and everything below it again, per tile, over the processor's region.
    private func precomputedStages(timings: StageTimings) throws -> PrecomputedStages {
        try precomputed.once {
            let stages = PrecomputedStages()
            let regions = RegionOfInterest.propagate(root: root, rect: plan.renderRect, order: order,
                                                     precomputed: RegionOfInterest.computedBeforeWorkUnits)
            // The stages the work units compute (a processor's input that is one of them is shared).
            var computedStage: [ObjectIdentifier: Int] = [:]
            for (index, stage) in plan.stages.enumerated() where !RegionOfInterest.computedBeforeWorkUnits(stage.node) {
                computedStage[ObjectIdentifier(stage.node)] = index
            }
            for (index, stage) in plan.stages.enumerated() {
                guard case .processor(let processor, let inputs) = stage.work else { continue }
                let start = DispatchTime.now().uptimeNanoseconds
                let region = regions[ObjectIdentifier(stage.node)] ?? .empty
                if processor is Intermediate {
                    let (planes, profile) = try context.intermediateResult(node: stage.node, input: inputs[0], region: region)
                    stages.add(stage.node, index: index, planes: planes, profile: profile)
                    // From the cache (no profile): no pixels computed.
                    timings.add(stage: index, nanoseconds: DispatchTime.now().uptimeNanoseconds - start,
                                pixels: profile == nil ? 0 : region.pixelCount, bytes: planes.byteCount)
                    continue
                }
                let (output, rendered) = try context.processorResult(processor, node: stage.node, inputs: inputs, region: region,
                                                                     threads: threads,
                                                                     keeping: { computedStage[ObjectIdentifier($0)] != nil })
                stages.add(stage.node, index: index, planes: output)
                timings.add(stage: index, nanoseconds: DispatchTime.now().uptimeNanoseconds - start,
                            pixels: region.pixelCount, bytes: output.byteCount)
                for (input, buffer) in rendered {
                    guard let inputStage = computedStage[ObjectIdentifier(input)], !stages.contains(input),
                          buffer.rect.contains(regions[ObjectIdentifier(input)] ?? .empty) else { continue }
                    let planes: PlaneSet
                    if PlaneSet.format(of: buffer.samples) == context.options.workingFormat {
                        planes = PlaneSet(adopting: buffer)
                    } else {
                        planes = PlaneSet(format: context.options.workingFormat)
                        planes.reset(to: buffer.rect, channels: buffer.channels)
                        planes.write(buffer)
                    }
                    stages.add(input, index: inputStage, planes: planes)
                }
            }
            return stages
        }
    }

    /// The renders of the intermediates computed for this render so far, by stage (for dumps).
    package var intermediateProfiles: [Int: RenderProfile] { precomputed.computed?.profiles ?? [:] }

    /// The executable form of every program stage, from the context's cache.
    func executables() -> [SpanInterpreter.Executable?] {
        plan.stages.map { stage -> SpanInterpreter.Executable? in
            if case .program(let program, _, _, _, _) = stage.work { return context.executable(for: program) }
            return nil
        }
    }

    /// The stages' lookup tables (see ``channelTables``), built once per render.
    private func lookupTables(_ executables: [SpanInterpreter.Executable?]) throws -> [ChannelTable?] {
        try channelTables.once {
            try plan.stages.enumerated().map { index, stage in
                guard case .program(_, let uniforms, _, let slots, _) = stage.work, let executable = executables[index],
                      stage.looksUpChannels else { return nil }
                return try ChannelTable(executable, uniforms: uniforms,
                                        decodeTable: slots[0].decode.flatMap(TransferTables.byteDecode(for:)), filter: slots[0].filter)
            }
        }
    }

    /// Below this many pixels a render runs on the calling thread: waking a worker costs more
    /// (tens of microseconds) than it saves.
    static let serialPixelLimit = 32 * 1024

    /// Runs `body` for work units `0..<count` on the context's workers, each with its own scratch
    /// (trimmed to `scratch` where given, see ``WorkerScratch/prepare(slotCount:trimmingTo:)``); on
    /// the calling thread alone when the units cover fewer than ``serialPixelLimit`` pixels.
    private func parallel(_ count: Int, pixels: Int, scratch layout: ScratchLayout?,
                          _ body: @escaping @Sendable (WorkerScratch, Int) -> Void) {
        let workers = pixels < Executor.serialPixelLimit ? 1 : max(1, min(threads, count))
        let next = WorkCounter()
        let slotCount = plan.scratchSlotCount, format = context.options.workingFormat
        let pool = context.scratchPool
        let job = { @Sendable (_: Int) in
            let scratch = pool.take(format: format)
            scratch.prepare(slotCount: slotCount, trimmingTo: layout)
            while let unit = next.take(limit: count) { body(scratch, unit) }
            pool.give(scratch)
        }
        if workers == 1 { job(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: job) }
    }

    /// The unfused baseline: every stage is computed over its whole region into a full-size
    /// intermediate before the next one starts (one full-image pass per node).
    private func runWholeImagePasses(rect: PixelRect, regions: [ObjectIdentifier: PixelRect], processed: [Int: PlaneSet],
                                     makeSink: @escaping @Sendable (PixelRect, UnsafeMutablePointer<UInt16>) -> any OutputSink,
                                     timings: StageTimings) throws {
        let executables = self.executables()
        let tables = try lookupTables(executables)
        let whole = WholeImages(processed)
        for (index, stage) in plan.stages.enumerated() where whole[index] == nil {
            let isRoot = index == plan.rootStage
            let region = isRoot ? rect : (regions[ObjectIdentifier(stage.node)] ?? .empty)
            let planes = PlaneSet(format: context.options.workingFormat)
            planes.reset(to: isRoot ? .empty : region, channels: stage.storedChannels)
            let strips = stripUnits(region)
            let start = DispatchTime.now().uptimeNanoseconds
            parallel(strips.count, pixels: region.pixelCount, scratch: nil) { scratch, unit in
                let strip = strips[unit]
                switch stage.work {
                case .program(_, let uniforms, _, let slots, _):
                    guard let executable = executables[index] else { return }
                    let inputs = slots.map { self.inputView($0, scratch: scratch) { whole[$0] ?? scratch.unused } }
                    let sink: any OutputSink = isRoot ? makeSink(strip, scratch.halfScratch) : PlaneSink(planes: planes)
                    Executor.runProgram(stage, executable, uniforms: uniforms, inputs: inputs, rect: strip,
                                        registers: scratch.registers, sink: sink, table: tables[index])
                case .area(let op, let inputs, let layout):
                    scratch.areaRunner.run(op, inputs: inputs.map { self.inputView($0, scratch: scratch) { whole[$0] ?? scratch.unused } },
                                           output: planes, area: strip, layout: layout)
                case .processor:
                    break
                }
            }
            timings.add(stage: index, nanoseconds: DispatchTime.now().uptimeNanoseconds - start,
                        pixels: region.pixelCount, bytes: planes.byteCount)
            whole[index] = planes
        }
    }

    private func runUnit(_ unit: PixelRect, scratch: WorkerScratch, executables: [SpanInterpreter.Executable?],
                         tables: [ChannelTable?], precomputed: PrecomputedStages,
                         makeSink: (PixelRect, UnsafeMutablePointer<UInt16>) -> any OutputSink, timings: StageTimings) {
        let regions = RegionOfInterest.propagate(root: root, rect: unit, order: order, precomputed: precomputed.contains)
        let processed = precomputed.planes, slots = plan.scratchSlots
        // The area stage that writes the destination itself, its codes into the rows or its values
        // into the planes (the output stage then has nothing to do).
        var directStage: Int?, codeRows: CodeRows?, directPlanes: PlaneSet?
        switch plan.stages[plan.rootStage].rowKernel {
        case .areaCodes(let stage)? where processed[stage] == nil && regions[ObjectIdentifier(plan.stages[stage].node)] == unit:
            if let sink = makeSink(unit, scratch.halfScratch) as? BufferSink, let rows = CodeRows(sink) {
                (directStage, codeRows) = (stage, rows)
            }
        case .areaPlanes(let stage)? where processed[stage] == nil && regions[ObjectIdentifier(plan.stages[stage].node)] == unit:
            if let sink = makeSink(unit, scratch.halfScratch) as? PlaneSink { (directStage, directPlanes) = (stage, sink.planes) }
        default:
            break
        }
        for (index, stage) in plan.stages.enumerated() {
            if processed[index] != nil { continue }
            let isRoot = index == plan.rootStage
            if isRoot && directStage != nil { continue }
            if index == directStage, case .area(let op, let inputs, let layout) = stage.work {
                let start = DispatchTime.now().uptimeNanoseconds
                scratch.areaRunner.run(op, inputs: inputs.map { inputView($0, scratch: scratch) { processed[$0] ?? scratch.planes(slot: slots[$0]) } },
                                       output: directPlanes ?? scratch.unused, area: unit, layout: layout, codes: codeRows)
                timings.add(stage: index, nanoseconds: DispatchTime.now().uptimeNanoseconds - start, pixels: unit.pixelCount, bytes: 0)
                continue
            }
            let region = isRoot ? unit : (regions[ObjectIdentifier(stage.node)] ?? .empty)
            let start = DispatchTime.now().uptimeNanoseconds
            let planes = scratch.planes(slot: slots[index])
            if !isRoot { planes.reset(to: region, channels: stage.storedChannels) }
            if region.isEmpty { continue }
            switch stage.work {
            case .program(_, let uniforms, _, let inputSlots, _):
                guard let executable = executables[index] else { continue }
                let inputs = inputSlots.map { inputView($0, scratch: scratch) { processed[$0] ?? scratch.planes(slot: slots[$0]) } }
                let sink: any OutputSink = isRoot ? makeSink(unit, scratch.halfScratch) : PlaneSink(planes: planes)
                Executor.runProgram(stage, executable, uniforms: uniforms, inputs: inputs, rect: region,
                                    registers: scratch.registers, sink: sink, table: tables[index])
            case .area(let op, let inputs, let layout):
                scratch.areaRunner.run(op, inputs: inputs.map { inputView($0, scratch: scratch) { processed[$0] ?? scratch.planes(slot: slots[$0]) } },
                                       output: planes, layout: layout)
            case .processor:
                break
            }
            timings.add(stage: index, nanoseconds: DispatchTime.now().uptimeNanoseconds - start,
                        pixels: region.pixelCount, bytes: isRoot ? 0 : planes.byteCount)
        }
    }

    /// Runs program stage `stage` over `rect` into `sink`: by the row kernel the plan chose for it
    /// when that can do the rectangle, else by the interpreter.
    private static func runProgram(_ stage: Plan.Stage, _ executable: SpanInterpreter.Executable, uniforms: [Float],
                                   inputs: [InputView], rect: PixelRect, registers: SpanInterpreter.RegisterFile,
                                   sink: any OutputSink, table: ChannelTable?) {
        if let kernel = stage.rowKernel, let destination = sink as? BufferSink,
           RowKernels.run(kernel, uniforms: uniforms, inputs: inputs, rect: rect, registers: registers, sink: destination) {
            return
        }
        SpanInterpreter.run(executable, uniforms: uniforms, inputs: inputs, rect: rect, registers: registers, sink: sink, table: table)
    }

    private func inputView(_ slot: Plan.Slot, scratch: WorkerScratch, planes: (Int) -> PlaneSet) -> InputView {
        if let window = slot.window {
            var whole = slot
            whole.window = nil
            return InputView(inputView(whole, scratch: scratch, planes: planes), window: window)
        }
        switch slot.source {
        case .buffer(let buffer):
            var view = InputView(buffer: buffer, edge: slot.edge, filter: slot.filter,
                                 decodeTable: slot.decode.flatMap(TransferTables.byteDecode(for:)))
            view.primaries = slot.primaries
            return view
        case .yuv(let frame):
            return InputView(yuv: frame, scratch: scratch.yuvScratch)
        case .stage(let index):
            return InputView(planes: planes(index), edge: slot.edge, filter: slot.filter)
        }
    }

    /// Full-width strips of about `tileSize²` pixels, and at least one per worker (so a band of a
    /// streamed render keeps every core busy).
    private func stripUnits(_ rect: PixelRect) -> [PixelRect] {
        let tile = max(8, context.options.tileSize)
        let perWorker = (rect.height + threads - 1) / max(threads, 1)
        let height = max(1, min(rect.height, tile * tile / max(rect.width, 1), perWorker))
        // Top first (working-space y is up): the order files decode in, so streaming sources overlap.
        return stride(from: rect.maxY, to: rect.y, by: -height).map {
            let bottom = max(rect.y, $0 - height)
            return PixelRect(x: rect.x, y: bottom, width: rect.width, height: $0 - bottom)
        }
    }

    /// Whether any stage reads a neighbourhood (then work units are square tiles).
    var needsTiles: Bool {
        plan.stages.contains { stage in
            switch stage.work {
            case .area, .processor: return true
            case .program(let program, _, _, _, _):
                return program.instructions.contains {
                    switch $0 {
                    case .sample, .stencil: return true
                    default: return false
                    }
                }
            }
        }
    }

    /// Strips for point-only plans, square tiles when a stage samples a neighbourhood: smaller tiles
    /// (halved down to 32 px) while a unit would keep more than ``readFactor`` tiles' worth of one
    /// image and a smaller unit reads less (what it reads is not mostly margins); then narrower
    /// (the longer side halved, down to 64 px) while a unit's scratch is over ``scratchBudget`` and a
    /// smaller unit keeps at least a fifth less.
    func workUnits(_ rect: PixelRect) -> [PixelRect] {
        guard needsTiles else { return stripUnits(rect) }
        var (tileWidth, tileHeight) = tileShape(rect)
        let budget = Executor.readFactor * tileWidth * tileHeight
        func area(_ width: Int, _ height: Int) -> Int { min(width, rect.width) * min(height, rect.height) }
        var read = largestRead(centredIn: rect, width: tileWidth, height: tileHeight)
        while read > budget && min(tileWidth, tileHeight) >= 64 && area(tileWidth / 2, tileHeight / 2) < area(tileWidth, tileHeight) {
            let halved = largestRead(centredIn: rect, width: tileWidth / 2, height: tileHeight / 2)
            // Not when margins dominate the read (a smaller unit reads as much as before, so far more
            // per pixel). In Double: a read can be up to the coordinate bound squared.
            guard Double(halved) * Double(area(tileWidth, tileHeight)) <= 2 * Double(read) * Double(area(tileWidth / 2, tileHeight / 2))
            else { break }
            (tileWidth, tileHeight, read) = (tileWidth / 2, tileHeight / 2, halved)
        }
        var scratch = workerScratchBytes(unit: centred(tileWidth, tileHeight, in: rect))
        while scratch > Executor.scratchBudget && max(tileWidth, tileHeight) >= 128 {
            // The longer side (the width of a square): a streamed band's units keep its height.
            let (width, height) = tileWidth >= tileHeight ? (tileWidth / 2, tileHeight) : (tileWidth, tileHeight / 2)
            guard area(width, height) < area(tileWidth, tileHeight) else { break }
            let smaller = workerScratchBytes(unit: centred(width, height, in: rect))
            guard Double(smaller) <= 0.8 * Double(scratch) else { break }
            (tileWidth, tileHeight, scratch) = (width, height, smaller)
        }
        var units: [PixelRect] = []
        for top in stride(from: rect.maxY, to: rect.y, by: -tileHeight) {
            let bottom = max(rect.y, top - tileHeight)
            for x in stride(from: rect.x, to: rect.maxX, by: tileWidth) {
                units.append(PixelRect(x: x, y: bottom, width: min(tileWidth, rect.maxX - x), height: top - bottom))
            }
        }
        return units
    }

    /// How many tiles' worth of one image a work unit may keep. More happens when a pass shrinks by
    /// more than 2 on each axis, or reads a few pixels of a small image that each span many of its
    /// input's (a small depth map's guide): every unit's inputs load into its worker's Float32
    /// scratch, so a 0.05 Lanczos shrink of a 24 MP PNG loaded the whole photo into one unit's
    /// (480 MB peak), and CIDepthBlurEffect's halving of the photo 1 MP of RGBA (17 MB per worker).
    static let readFactor = 4

    /// The most scratch a work unit should keep in its worker (8 MiB, ``workerScratchBytes(unit:)``):
    /// a graph of many full-size stages keeps a plane set per stage, so CIDepthBlurEffect's composite
    /// (seven inputs) kept 18 MB per worker in 512 px units, held across the render and multiplied by
    /// the threads. Its 256 px units cost no more time (measured: 12 MP, 2 threads).
    static let scratchBudget = 8 << 20

    /// The `width`×`height` unit at the centre of `rect` (clipped to it).
    private func centred(_ width: Int, _ height: Int, in rect: PixelRect) -> PixelRect {
        let (w, h) = (min(width, rect.width), min(height, rect.height))
        return PixelRect(x: rect.x + (rect.width - w) / 2, y: rect.y + (rect.height - h) / 2, width: w, height: h)
    }

    /// The most pixels a `width`×`height` work unit at the centre of `rect` keeps of one image: a
    /// stage's region in its scratch planes, or an area pass's input loaded into Float32 scratch.
    private func largestRead(centredIn rect: PixelRect, width: Int, height: Int) -> Int {
        let regions = RegionOfInterest.propagate(root: root, rect: centred(width, height, in: rect), order: order,
                                                 precomputed: RegionOfInterest.computedBeforeWorkUnits)
        var largest = 0
        for stage in plan.stages where !RegionOfInterest.computedBeforeWorkUnits(stage.node) {
            guard let region = regions[ObjectIdentifier(stage.node)], !region.isEmpty else { continue }
            largest = max(largest, region.pixelCount)
            if case .area(let operation, let inputs, _) = stage.work {
                for input in inputs.indices {
                    largest = max(largest, PixelRect(operation.regionOfInterest(input: input, for: region.rect)).pixelCount)
                }
            }
        }
        return largest
    }

    /// `tileSize` square tiles; in a band lower than that (a streamed render's), tiles as high as
    /// the band and as much wider as keeps about `tileSize²` pixels (less halo per pixel), while
    /// the band still has a tile per worker.
    private func tileShape(_ rect: PixelRect) -> (width: Int, height: Int) {
        let tile = max(8, context.options.tileSize)
        guard rect.height < tile else { return (tile, tile) }
        let perWorker = (rect.width + threads - 1) / max(threads, 1)
        return (max(tile, min(tile * tile / max(rect.height, 1), perWorker)), tile)
    }
}

/// The whole-region results a render computes before its work units (see
/// ``Executor/precomputedStages(timings:)``): planes by stage index, and the nodes they hold.
final class PrecomputedStages: @unchecked Sendable {
    /// Filled before the work units start, only read while they run.
    private(set) var planes: [Int: PlaneSet] = [:]
    /// The renders of the intermediates computed for this render, by stage (for dumps).
    private(set) var profiles: [Int: RenderProfile] = [:]
    private var nodes: Set<ObjectIdentifier> = []

    func add(_ node: Node, index: Int, planes result: PlaneSet, profile: RenderProfile? = nil) {
        planes[index] = result
        profiles[index] = profile
        nodes.insert(ObjectIdentifier(node))
    }

    /// Whether `node`'s pixels are here (region-of-interest propagation stops at it).
    func contains(_ node: Node) -> Bool { nodes.contains(ObjectIdentifier(node)) }
}

/// A value computed at the first call of ``once(_:)`` and returned by every later call (an
/// executor's precomputed stages, shared by the bands of one render).
final class ComputedOnce<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    /// The value, if computed yet.
    var computed: Value? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func once(_ compute: () throws -> Value) throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let computed = try compute()
        value = computed
        return computed
    }
}

/// What one worker owns for the whole render.
///
/// Kept in the context's pool between renders (see ``ScratchPool``): a stream of renders (video
/// frames) reuses the same memory instead of allocating it per render.
final class WorkerScratch: @unchecked Sendable {
    private(set) var planes: [PlaneSet] = []
    let format: WorkingFormat
    let registers = SpanInterpreter.RegisterFile()
    let areaRunner = AreaRunner()
    let halfScratch = UnsafeMutablePointer<UInt16>.allocate(capacity: SpanInterpreter.spanWidth)
    let yuvScratch = UnsafeMutablePointer<Float>.allocate(capacity: YUVReader.chromaScratchCount)

    init(format: WorkingFormat) {
        self.format = format
        unused = PlaneSet(format: format)
    }

    /// Planes that stay empty (read as transparent): what a stage without planes of its own gives.
    let unused: PlaneSet

    /// Makes sure there are planes for `slotCount` slots (``Plan/scratchSlots``), first freeing
    /// what an earlier render grew this scratch to beyond `layout`, this render's needs: each plane
    /// set and area-pass load over twice its own slot's or position's bytes and 1 MiB (every plane
    /// set past the slots), or over twice them alone when the whole scratch is. A scratch reused for
    /// the same plan keeps its memory; one reused after a different render does not carry that
    /// render's planes through this one. Without a layout (the unfused whole-image passes, which
    /// keep no scratch planes) nothing is freed.
    func prepare(slotCount: Int, trimmingTo layout: ScratchLayout?) {
        if let layout {
            let slack = heldBytes > 2 * layout.total + (1 << 20) ? 0 : 1 << 20
            func oversized(_ held: Int, _ needed: Int) -> Bool { held > 2 * needed + slack }
            for (slot, set) in planes.enumerated() where oversized(set.ownedBytes, slot < layout.slotBytes.count ? layout.slotBytes[slot] : 0) {
                set.releaseStorage()
            }
            areaRunner.releaseOversized(loadBytes: layout.loadBytes, where: oversized)
        }
        while planes.count < slotCount { planes.append(PlaneSet(format: format)) }
    }

    /// The bytes of its planes and area-pass buffers.
    var heldBytes: Int { planes.reduce(0) { $0 + $1.ownedBytes } + areaRunner.heldBytes }

    /// The planes of scratch slot `slot` (``unused`` for none: the root writes the destination,
    /// processors are computed before the work units).
    func planes(slot: Int?) -> PlaneSet {
        guard let slot, slot < planes.count else { return unused }
        return planes[slot]
    }

    deinit {
        halfScratch.deallocate()
        yuvScratch.deallocate()
    }
}

/// The whole-image intermediates of the unfused baseline, filled stage by stage.
final class WholeImages: @unchecked Sendable {
    private var planes: [Int: PlaneSet]
    init(_ initial: [Int: PlaneSet]) { planes = initial }
    /// Written between parallel passes only, read during them.
    subscript(index: Int) -> PlaneSet? {
        get { planes[index] }
        set { planes[index] = newValue }
    }
}

/// Hands out work-unit indices to workers.
final class WorkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// Worker scratch kept between renders, bounded by the thread count.
final class ScratchPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [WorkerScratch] = []
    private let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    func take(format: WorkingFormat) -> WorkerScratch {
        lock.lock()
        defer { lock.unlock() }
        return idle.popLast() ?? WorkerScratch(format: format)
    }

    func give(_ scratch: WorkerScratch) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count < limit { idle.append(scratch) }
    }

    /// The bytes the idle scratches keep (their planes and area-pass buffers).
    var heldBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return idle.reduce(0) { $0 + $1.heldBytes }
    }
}
