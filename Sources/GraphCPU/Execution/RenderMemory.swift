/// What a render allocates, estimated before it starts from the plan's regions of interest, so a
/// context's ``ContextOptions/memoryLimit`` is met (smaller bands, fewer threads) or the render
/// fails before allocating anything.
extension Executor {
    /// Bytes one worker's scratch grows to over work units like `unit` (``scratchLayout(unit:)``'s total).
    func workerScratchBytes(unit: PixelRect) -> Int { scratchLayout(unit: unit).total }

    /// One worker's scratch over work units like `unit`: its scratch planes (each the largest of
    /// the stages sharing it, see ``Plan/scratchSlots``), and the Float32 loads of the area
    /// passes' inputs (one buffer per input position, shared by the passes, see AreaRunner: the
    /// largest at each position).
    func scratchLayout(unit: PixelRect) -> ScratchLayout {
        let regions = RegionOfInterest.propagate(root: root, rect: unit, order: order,
                                                 precomputed: RegionOfInterest.computedBeforeWorkUnits)
        let sample = context.options.workingFormat.bytesPerSample
        var layout = ScratchLayout(slotBytes: Array(repeating: 0, count: plan.scratchSlotCount), loadBytes: [])
        for (index, stage) in plan.stages.enumerated() {
            let region = index == plan.rootStage ? unit : (regions[ObjectIdentifier(stage.node)] ?? .empty)
            guard !region.isEmpty else { continue }
            if let slot = plan.scratchSlots[index] {
                layout.slotBytes[slot] = max(layout.slotBytes[slot], region.pixelCount * stage.storedChannels * sample)
            }
            guard case .area(let operation, let inputs, _) = stage.work else { continue }
            for input in inputs.indices {
                let wanted = PixelRect(operation.regionOfInterest(input: input, for: region.rect))
                if layout.loadBytes.count <= input {
                    layout.loadBytes.append(contentsOf: repeatElement(0, count: input + 1 - layout.loadBytes.count))
                }
                layout.loadBytes[input] = max(layout.loadBytes[input],
                                              wanted.pixelCount * min(max(operation.inputChannels(input), 1), 4) * 4)
            }
        }
        return layout
    }

    /// Bytes of the image processors' whole-region results over `rect` (planes of the samples each
    /// asks for, as many as ``ProcessorPlanes`` decides, which the result keeps, with their inputs'
    /// planar buffers while they compute, and a working-format copy of each input the work units read too, unless already in it; an
    /// intermediate's working-format planes).
    func processorBytes(rect: PixelRect) -> Int {
        let regions = RegionOfInterest.propagate(root: root, rect: rect, order: order)
        let stageNodes = Set(plan.stages.map { ObjectIdentifier($0.node) })
        let shared = 4 * context.options.workingFormat.bytesPerSample
        var bytes = 0
        for stage in plan.stages {
            guard case .processor(let processor, let inputs) = stage.work else { continue }
            let region = regions[ObjectIdentifier(stage.node)] ?? .empty
            if processor is Intermediate {
                // Its planes in the working format (at most four); its render uses the workers' scratch.
                bytes += region.pixelCount * shared
                continue
            }
            let planes = ProcessorPlanes(processor, inputs: inputs)
            bytes += region.pixelCount * planes.output * context.planarSamples(processor.outputSamples, of: stage.node).bytes
            for (index, input) in inputs.enumerated() {
                let pixels = (regions[ObjectIdentifier(input)] ?? .empty).pixelCount
                let samples = context.planarSamples(processor.samples(input: index), of: stage.node)
                let copy = stageNodes.contains(ObjectIdentifier(input)) && PlaneSet.format(of: samples) != context.options.workingFormat
                    ? shared : 0
                bytes += pixels * (planes.inputs[index].channels * samples.bytes + copy)
            }
        }
        return bytes
    }

    /// The rows a band of `rows` reaches beyond itself, up and down, in any stage (a blur's taps).
    func verticalReach(_ area: PixelRect, rows: Int) -> Int {
        let band = PixelRect(x: area.x, y: max(area.y, area.maxY - rows), width: area.width, height: min(rows, area.height))
        let regions = RegionOfInterest.propagate(root: root, rect: band, order: order,
                                                 precomputed: RegionOfInterest.computedBeforeWorkUnits)
        var reach = 0
        for node in order {
            guard let region = regions[ObjectIdentifier(node)], !region.isEmpty else { continue }
            reach = max(reach, band.y - region.y, region.maxY - band.maxY)
        }
        return reach
    }
}

extension Context {
    /// The bands (top first) and worker count of a streamed encode of `area` whose bands go
    /// through a ring of `ringSlots` slots of `outputBytesPerPixel` pixels to an encoder that holds
    /// `encoderBytes(threads)` itself (PNG's parallel compression) when given `threads` workers.
    ///
    /// Bands are 64 rows for point-only plans. With area operations a band recomputes its reach
    /// (a blur's taps) above and below, so bands are higher, about ``streamingBandBytes`` of
    /// output and at least four times the reach, up to a tile. Under a memory limit, bands halve
    /// (down to 16 rows), then workers drop, until the estimate fits; a render that cannot fit
    /// fails before allocating.
    package func streamedBands(_ executor: inout Executor, area: PixelRect, outputBytesPerPixel: Int, ringSlots: Int,
                       encoderBytes: (_ threads: Int) -> Int = { _ in 0 }) throws
        -> (bands: [PixelRect], reads: SequentialSourceReads)
    {
        let rowBytes = area.width * outputBytesPerPixel
        var rows = 64
        if executor.needsTiles {
            let budgetRows = Context.streamingBandBytes / max(rowBytes, 1)
            let reach = executor.verticalReach(area, rows: max(64, options.tileSize))
            rows = min(max(64, options.tileSize), max(16, budgetRows, 4 * reach))
        }
        rows = min(rows, area.height)
        func plan(_ rows: Int) -> (bands: [PixelRect], reads: SequentialSourceReads) {
            let bands = SequentialSourceReads.bands(of: area, rows: rows)
            return (bands, SequentialSourceReads(root: executor.root, order: executor.order, bands: bands))
        }
        var planned = plan(rows)
        guard let limit = options.memoryLimit else { return planned }
        func estimate() -> Int {
            let band = planned.bands[0]
            let scratch = executor.workUnits(band).prefix(2).map { executor.workerScratchBytes(unit: $0) }.max() ?? 0
            return ringSlots * band.height * rowBytes + planned.reads.windowBytes + executor.threads * scratch
                + executor.processorBytes(rect: area) + encoderBytes(executor.threads)
        }
        while estimate() > limit {
            if rows > 16 {
                rows = max(16, rows / 2)
                planned = plan(rows)
            } else if executor.threads > 1 {
                executor.threads -= 1
            } else {
                throw GraphError.renderFailed(
                    "rendering \(area.width)x\(area.height) in bands needs about \(Context.mebibytes(estimate())) "
                    + "even in \(rows)-row bands on one thread, above the context's memory limit of \(Context.mebibytes(limit))")
            }
        }
        return planned
    }

    /// About 4 MiB of output per band of a streamed encode with area operations.
    static let streamingBandBytes = 4 << 20

    /// Fails before a render allocates `bytes` when they exceed the memory limit.
    func checkMemory(_ bytes: Int, for what: @autoclosure () -> String) throws {
        guard let limit = options.memoryLimit, bytes > limit else { return }
        throw GraphError.renderFailed(
            "\(what()) needs about \(Context.mebibytes(bytes)), above the context's memory limit of \(Context.mebibytes(limit))")
    }

    static func mebibytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\((bytes + (1 << 19)) >> 20) MiB" : "\(bytes) bytes"
    }
}

/// The scratch one worker needs for a render's work units, by scratch slot and by area-pass input
/// position (bytes; see ``Executor/scratchLayout(unit:)``).
struct ScratchLayout: Sendable {
    var slotBytes: [Int]
    var loadBytes: [Int]
    var total: Int { slotBytes.reduce(0, +) + loadBytes.reduce(0, +) }
}
