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
struct Executor {
    let context: Context
    let plan: StagePlanner
    let root: Node
    let order: [Node]

    /// Per-stage figures gathered during the render.
    final class Timings: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var nanoseconds: [UInt64]
        private(set) var units: [Int]
        private(set) var pixels: [Int]
        private(set) var peakBytes: [Int]
        init(count: Int) {
            nanoseconds = Array(repeating: 0, count: count)
            units = Array(repeating: 0, count: count)
            pixels = Array(repeating: 0, count: count)
            peakBytes = Array(repeating: 0, count: count)
        }
        func add(stage: Int, nanoseconds ns: UInt64, pixels px: Int, bytes: Int) {
            lock.lock()
            nanoseconds[stage] += ns
            units[stage] += 1
            pixels[stage] += px
            peakBytes[stage] = max(peakBytes[stage], bytes)
            lock.unlock()
        }
    }

    /// Renders `rect` of the root into `sink` (called per work unit with the unit's sink).
    func run(rect: PixelRect, makeSink: @escaping @Sendable (PixelRect, UnsafeMutablePointer<UInt16>) -> any OutputSink,
             timings: Timings) throws {
        // Image processors: whole regions, once, before the tiles.
        var processed: [Int: PlaneSet] = [:]
        let globalRegions = RegionOfInterest.propagate(root: root, rect: rect, order: order)
        for (index, stage) in plan.stages.enumerated() {
            guard case .processor(let processor, let inputs) = stage.work else { continue }
            let start = DispatchTime.now().uptimeNanoseconds
            let region = globalRegions[ObjectIdentifier(stage.node)] ?? .empty
            processed[index] = try context.processorResult(processor, node: stage.node, inputs: inputs, region: region)
            timings.add(stage: index, nanoseconds: DispatchTime.now().uptimeNanoseconds - start,
                        pixels: region.pixelCount, bytes: processed[index]?.byteCount ?? 0)
        }

        let units = workUnits(rect)
        let workers = max(1, min(context.options.threads, units.count))
        let next = WorkCounter()
        let executables = plan.stages.map { stage -> SpanInterpreter.Executable? in
            if case .program(let program, _, _, _, _) = stage.work { return context.executable(for: program) }
            return nil
        }
        let processedResults = processed
        let job = { @Sendable (_ worker: Int) in
            let scratch = WorkerScratch(stageCount: plan.stages.count, format: context.options.workingFormat)
            while let unit = next.take(limit: units.count) {
                runUnit(units[unit], scratch: scratch, executables: executables, processed: processedResults,
                        makeSink: makeSink, timings: timings)
            }
        }
        if workers == 1 {
            job(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: job)
        }
    }

    private func runUnit(_ unit: PixelRect, scratch: WorkerScratch, executables: [SpanInterpreter.Executable?],
                         processed: [Int: PlaneSet],
                         makeSink: (PixelRect, UnsafeMutablePointer<UInt16>) -> any OutputSink, timings: Timings) {
        let regions = RegionOfInterest.propagate(root: root, rect: unit, order: order)
        for (index, stage) in plan.stages.enumerated() {
            if processed[index] != nil { continue }
            let isRoot = index == plan.rootStage
            let region = isRoot ? unit : (regions[ObjectIdentifier(stage.node)] ?? .empty)
            let start = DispatchTime.now().uptimeNanoseconds
            let planes = scratch.planes[index]
            if !isRoot { planes.reset(to: region) }
            if region.isEmpty { continue }
            switch stage.work {
            case .program(_, let uniforms, _, let slots, _):
                guard let executable = executables[index] else { continue }
                let inputs = slots.map { slot in inputView(slot, scratch: scratch, processed: processed) }
                let sink: any OutputSink = isRoot ? makeSink(unit, scratch.halfScratch) : PlaneSink(planes: planes)
                SpanInterpreter.run(executable, uniforms: uniforms, inputs: inputs, rect: region,
                                    registers: scratch.registers, sink: sink)
            case .convolution(let convolution, let input):
                scratch.convolver.run(convolution, input: inputView(input, scratch: scratch, processed: processed),
                                      output: planes)
            case .processor:
                break
            }
            timings.add(stage: index, nanoseconds: DispatchTime.now().uptimeNanoseconds - start,
                        pixels: region.pixelCount, bytes: isRoot ? 0 : planes.byteCount)
        }
    }

    private func inputView(_ slot: StagePlanner.Slot, scratch: WorkerScratch, processed: [Int: PlaneSet]) -> InputView {
        switch slot.source {
        case .buffer(let buffer):
            return InputView(buffer: buffer, edge: slot.edge, filter: slot.filter)
        case .stage(let index):
            return InputView(planes: processed[index] ?? scratch.planes[index], edge: slot.edge, filter: slot.filter)
        }
    }

    /// Strips for point-only plans, square tiles when a stage samples a neighbourhood.
    private func workUnits(_ rect: PixelRect) -> [PixelRect] {
        let tile = max(8, context.options.tileSize)
        let needsTiles = plan.stages.contains { stage in
            switch stage.work {
            case .convolution, .processor: return true
            case .program(let program, _, _, _, _):
                return program.instructions.contains { if case .sample = $0 { return true } else { return false } }
            }
        }
        let unitWidth = needsTiles ? tile : rect.width
        let unitHeight = needsTiles ? tile : max(1, min(rect.height, tile * tile / max(rect.width, 1)))
        var units: [PixelRect] = []
        var y = rect.y
        while y < rect.maxY {
            let h = min(unitHeight, rect.maxY - y)
            var x = rect.x
            while x < rect.maxX {
                let w = min(unitWidth, rect.maxX - x)
                units.append(PixelRect(x: x, y: y, width: w, height: h))
                x += w
            }
            y += h
        }
        return units
    }
}

/// What one worker owns for the whole render.
final class WorkerScratch {
    let planes: [PlaneSet]
    let registers = SpanInterpreter.RegisterFile()
    let convolver = Convolver()
    let halfScratch = UnsafeMutablePointer<UInt16>.allocate(capacity: SpanInterpreter.spanWidth)

    init(stageCount: Int, format: WorkingFormat) {
        planes = (0..<stageCount).map { _ in PlaneSet(format: format) }
    }

    deinit { halfScratch.deallocate() }
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
