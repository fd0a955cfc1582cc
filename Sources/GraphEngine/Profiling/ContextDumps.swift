/// The `timing` dump of a render's figures.
extension RenderProfile {
    /// The timing of stage `index` (in the order of ``GraphDump/programs``).
    func timing(_ index: Int) -> GraphDump.TimingEntry {
        // Stage times add up over workers, so MP/s here is per core-second.
        let ns = timings.nanoseconds[index]
        let ms = Double(ns) / 1e6
        let mps = ns > 0 ? Double(timings.pixels[index]) / (Double(ns) / 1e9) / 1e6 : 0
        return GraphDump.TimingEntry(workUnits: timings.units[index], milliseconds: ms, megapixelsPerSecond: mps,
                                     intermediateBytes: timings.peakBytes[index])
    }
}

extension Context {
    /// The dumps of rendering `rect` (default: the extent) of `image`, without rendering.
    public func dump(_ image: Image, rect: Rect? = nil, colorSpace: OutputColorSpace? = nil) throws -> GraphDump {
        try makeDump(image, rect: rect, profile: nil, colorSpace: colorSpace)
    }

    /// Renders `image` and returns the dumps with timings.
    public func dumpWithProfile(_ image: Image, rect: Rect? = nil, format: PixelFormat = .rgba8,
                                colorSpace: OutputColorSpace? = nil) throws -> GraphDump {
        let (_, profile) = try renderWithProfile(image, rect: rect, format: format, colorSpace: colorSpace)
        return try makeDump(image, rect: rect, profile: profile, outputFormat: format, colorSpace: colorSpace)
    }

    private func makeDump(_ image: Image, rect: Rect?, profile: RenderProfile?, outputFormat: PixelFormat? = nil,
                          colorSpace: OutputColorSpace? = nil) throws
        -> GraphDump
    {
        let wanted = rect ?? image.extent
        if wanted.isInfinite {
            throw GraphError.invalidExtent("cannot plan an image with an infinite extent: crop it first")
        }
        let area = PixelRect(wanted)
        let (plannedRoot, plan, log) = try self.plan(image, rect: area, destination: outputFormat ?? .rgba8,
                                                     colorSpace: colorSpace)
        // With a profile, show the plan that ran (its nodes are the ones the timings belong to).
        let plannedPlan = profile?.plan ?? plan
        let root = profile?.plan.root ?? plannedRoot
        let initialRoot = ColorManagement.insertConversions(image.node, working: options.workingColorSpace,
                                                            output: outputTarget(colorSpace).convertTo)
        let initialRegions = RegionOfInterest.propagate(root: initialRoot, rect: area)
        let optimizedRegions = RegionOfInterest.propagate(root: root, rect: area)

        func entries(_ root: Node, _ regions: [ObjectIdentifier: PixelRect]) -> [GraphDump.NodeEntry] {
            RegionOfInterest.topologicalOrder(root).map { node in
                GraphDump.NodeEntry(id: node.serial, label: node.label, extent: node.extent.description,
                                    roi: regions[ObjectIdentifier(node)]?.description,
                                    inputs: node.inputs.map(\.serial))
            }
        }

        let programs = try programEntries(plannedPlan, area: area, profile: profile, outputFormat: outputFormat)
        let stats = programCacheStatistics
        return GraphDump(
            roi: area.description, workingFormat: options.workingFormat.rawValue,
            initial: entries(initialRoot, initialRegions), optimized: entries(root, optimizedRegions),
            passes: log.map { GraphDump.PassEntry(pass: $0.pass, changes: $0.changes) },
            planPasses: plannedPlan.log.map { GraphDump.PassEntry(pass: $0.pass, changes: $0.decisions) },
            programs: programs, totalMilliseconds: profile.map { Double($0.totalNanoseconds) / 1e6 },
            programCache: ["hits": stats.hits, "misses": stats.misses, "entries": stats.entries])
    }

    /// The entries of `plan`'s stages (ids their indices), then those of the render of each
    /// intermediate it computes before its work units (ids after all before them; the
    /// intermediate's entry reads that render's output stage), and so on down. The outer plan's
    /// entries come last, its output stage at the very end (the root of the text tree).
    private func programEntries(_ outer: Plan, area outerArea: PixelRect, profile outerProfile: RenderProfile?,
                                outputFormat: PixelFormat?) throws -> [GraphDump.ProgramEntry] {
        var groups: [[GraphDump.ProgramEntry]] = []
        var count = 0
        // Plans to list: the plan, the rectangle it renders, its profile, and the id of the
        // intermediate entry it computes (nil for the outer render).
        var pending: [(plan: Plan, area: PixelRect, profile: RenderProfile?, parent: Int?)] = [(outer, outerArea, outerProfile, nil)]
        var parents: [Int: Int] = [:]
        while let (plan, area, profile, parent) = pending.popLast() {
            let base = count
            if let parent { parents[parent] = base + plan.rootStage }
            // What the stages compute in the work units (image processors' inputs render on their own).
            let stageRegions = RegionOfInterest.propagate(root: plan.root, rect: area, precomputed: RegionOfInterest.computedBeforeWorkUnits)
            var group: [GraphDump.ProgramEntry] = []
            for (index, stage) in plan.stages.enumerated() {
                let isRoot = index == plan.rootStage
                let region = isRoot ? area : (stageRegions[ObjectIdentifier(stage.node)] ?? .empty)
                let planes = stage.storedChannels == 1 ? " (grey: 1 plane)" : stage.storedChannels == 3 ? " (opaque: 3 planes)" : ""
                let format = isRoot ? (parent == nil ? (outputFormat?.rawValue ?? "output") : options.workingFormat.rawValue + planes)
                    : options.workingFormat.rawValue + planes
                var entry = GraphDump.ProgramEntry(
                    id: base + index, name: stage.node.shortName, kind: "program", roi: region.description, format: format,
                    inputs: [], nodes: stage.nodes.map(\.serial), instructions: [], uniformCount: 0,
                    timing: profile.map { $0.timing(index) })
                func describe(_ source: Plan.Slot.Source) -> String {
                    if case .stage(let input) = source { return "program \(base + input)" }
                    return self.describe(source)
                }
                switch stage.work {
                case .program(let program, let uniforms, let origins, let slots, let name):
                    entry.name = name
                    entry.instructions = program.listing(origins: origins)
                    if stage.looksUpChannels {
                        entry.instructions.append("channel lookup table: each result channel depends on one channel of the 8-bit "
                                                  + "input; the listing runs once over its 256 codes per render, pixels are looked up")
                    }
                    entry.uniformCount = uniforms.count
                    entry.inputs = slots.enumerated().map { slotIndex, slot in
                        GraphDump.InputEntry(slot: slotIndex,
                                             source: describe(slot.source) + (slot.decode == nil ? "" : " transfer decoded by table"),
                                             edge: slot.edge.rawValue, filter: slot.filter.rawValue)
                    }
                case .area(let op, let inputs, let layout):
                    entry.kind = "area"
                    entry.name = "\(op.name)(" + inputs.indices.map { "in\($0)" }.joined(separator: ", ") + ")"
                    entry.instructions = [op.summary]
                    if layout.channels == 1 {
                        let grey = layout.greyInputs.indices.filter { layout.greyInputs[$0] }.map { "in\($0)" }
                        entry.instructions.append("grey: red only"
                                                  + (grey.isEmpty ? "" : "; red only read from " + grey.joined(separator: ", ")))
                    }
                    entry.inputs = inputs.enumerated().map { slotIndex, input in
                        GraphDump.InputEntry(slot: slotIndex,
                                             source: describe(input.source) + (input.decode == nil ? "" : " transfer decoded by table")
                                                 + (input.primaries == nil ? "" : " primaries converted"),
                                             edge: input.edge.rawValue, filter: input.filter.rawValue)
                    }
                case .processor(let processor, let inputs) where processor is Intermediate:
                    entry.kind = "intermediate"
                    entry.name = processor.name
                    entry.format = options.workingFormat.rawValue
                    entry.instructions = [processor.argumentSummary + ", kept in the working format"]
                    // The render that computes it: the one that ran, or as it would be planned.
                    if let ran = profile?.intermediates[index] {
                        pending.append((ran.plan, region, ran, base + index))
                    } else if !region.isEmpty {
                        let (_, nested, _) = try self.plan(Image(node: inputs[0]), rect: region, managed: true)
                        pending.append((nested, region, nil, base + index))
                    }
                case .processor(let processor, let inputs):
                    entry.kind = "processor"
                    entry.name = processor.name
                    // Its result keeps the planes it asked for (no copy into the working format).
                    if !isRoot { entry.format = PlaneSet.format(of: planarSamples(processor.outputSamples, of: stage.node)).rawValue + planes }
                    entry.instructions = ["swift code over whole buffers: \(processor.argumentSummary)"]
                    entry.inputs = inputs.enumerated().map { GraphDump.InputEntry(slot: $0, source: "image #\($1.serial)", edge: "zero", filter: "linear") }
                }
                group.append(entry)
            }
            groups.append(group)
            count += group.count
        }
        var entries = groups.dropFirst().reversed().flatMap { $0 } + (groups.first ?? [])
        for index in entries.indices {
            guard let nestedRoot = parents[entries[index].id] else { continue }
            entries[index].inputs = [GraphDump.InputEntry(slot: 0, source: "program \(nestedRoot)", edge: "zero", filter: "linear")]
            if let stored = entries.first(where: { $0.id == nestedRoot })?.format { entries[index].format = stored }
        }
        return entries
    }

    private func describe(_ source: Plan.Slot.Source) -> String {
        switch source {
        case .stage(let index): return "program \(index)"
        case .buffer(let buffer): return "buffer \(buffer.format.rawValue) \(buffer.width)x\(buffer.height) alpha=\(buffer.alphaMode.rawValue)"
        case .yuv(let frame): return frame.label
        }
    }
}
