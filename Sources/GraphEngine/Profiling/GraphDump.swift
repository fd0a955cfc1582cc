import Foundation

/// What a render does, stage by stage, in the spirit of Core Image's `CI_PRINT_TREE`: the initial
/// graph, the optimized graph with what each pass changed, what each plan pass decided, the programs (each with its instruction
/// listing and the recipe nodes every instruction came from) and, after a render, per-program timing.
///
/// Text reads like CI_PRINT_TREE (output at the top, inputs indented below); JSON is stable and
/// documented in `docs/recipes.md`; DOT draws the program graph.
public struct GraphDump: Codable, Sendable {
    /// One node of a graph.
    public struct NodeEntry: Codable, Sendable {
        /// The node's number (`#id` in text).
        public var id: Int
        /// The node's kind and arguments (`colormatrix CISepiaTone+CIHueAdjust [r: ...]`).
        public var label: String
        /// The node's extent, `[x y width height]`.
        public var extent: String
        /// The pixels computed for this render; nil when none.
        public var roi: String?
        /// The ids of the node's inputs.
        public var inputs: [Int]
    }

    /// One optimizer pass and what it changed.
    public struct PassEntry: Codable, Sendable {
        /// The pass's name (`fold-color-matrices`).
        public var pass: String
        /// What it changed, one sentence each.
        public var changes: [String]
    }

    /// One input of a program.
    public struct InputEntry: Codable, Sendable {
        /// The input's slot (`in0`...).
        public var slot: Int
        /// `program N` or `buffer RGBA8 640x480`.
        public var source: String
        /// What a read outside the input's data gives (`zero`, `clamp`).
        public var edge: String
        /// How it is sampled between pixel centres (`linear`, `nearest`).
        public var filter: String
    }

    /// One program (or area pass, or processor) of the render.
    public struct ProgramEntry: Codable, Sendable {
        /// The program's number (`p0`...).
        public var id: Int
        /// The fused expression, innermost first applied (`matrix<CISepiaTone,CIHueAdjust>(in0)`).
        public var name: String
        /// `program`, `area` (a neighbourhood pass), `processor` or `intermediate` (computed whole
        /// before the work units; its input is the output program of the render that computes it).
        public var kind: String
        /// The rectangle it computes, `[x y width height]`.
        public var roi: String
        /// `RGBAh` for intermediates (`RGBAh (grey: 1 plane)`, `RGBAh (opaque: 3 planes)` when fewer
        /// planes are kept); the destination format for the output program.
        public var format: String
        /// The program's inputs, by slot.
        public var inputs: [InputEntry]
        /// The recipe nodes this program computes.
        public var nodes: [Int]
        /// The instruction listing, one per line, each with the node it came from.
        public var instructions: [String]
        /// The number of uniforms (parameters kept out of the program's structure).
        public var uniformCount: Int
        /// Timing, after a profiled render.
        public var timing: TimingEntry?
    }

    /// What one program cost in a profiled render.
    public struct TimingEntry: Codable, Sendable {
        /// Tiles or strips run.
        public var workUnits: Int
        /// Wall-clock time.
        public var milliseconds: Double
        /// Output pixels per second, in millions.
        public var megapixelsPerSecond: Double
        /// Bytes of intermediate storage it wrote.
        public var intermediateBytes: Int
    }

    /// The rendered rectangle, `[x y width height]`.
    public var roi: String
    /// The working format: `RGBA8`, `RGBAh` or `RGBAf`.
    public var workingFormat: String
    /// The graph as built, before optimisation (inputs before the nodes that use them).
    public var initial: [NodeEntry]
    /// The graph after optimisation.
    public var optimized: [NodeEntry]
    /// The optimizer passes that changed something, in order.
    public var passes: [PassEntry]
    /// The plan passes in the order they ran, each with what it decided (`changes`): where stages
    /// were cut, what was materialised, which decodes and encodes were fused, each stage, the
    /// scratch slots. Those of the renders of intermediates are not included.
    public var planPasses: [PassEntry]
    /// The programs, in the order they run.
    public var programs: [ProgramEntry]
    /// The whole render's time, after a profiled render.
    public var totalMilliseconds: Double?
    /// The context's program cache: `hits`, `misses`, `entries`.
    public var programCache: [String: Int]

    // MARK: Text

    /// Text for the chosen stages (`initial`, `optimized`, `plan`, `programs`, `timing`).
    public func text(stages: Set<DumpStage> = Set(DumpStage.allCases)) -> String {
        var lines: [String] = []
        let header = "(cpu context) format=\(workingFormat) roi=\(roi) ="
        if stages.contains(.initial) {
            lines.append("initial graph render \(header)")
            lines += treeLines(initial)
        }
        if stages.contains(.optimized) {
            lines.append("optimized graph render \(header)")
            lines += treeLines(optimized)
            for pass in passes where !pass.changes.isEmpty {
                for change in pass.changes { lines.append("  // \(pass.pass): \(change)") }
            }
        }
        if stages.contains(.plan) {
            lines.append("plan render \(header)")
            for pass in planPasses {
                if pass.changes.isEmpty { lines.append("  // \(pass.pass): nothing decided") }
                for change in pass.changes { lines.append("  // \(pass.pass): \(change)") }
            }
        }
        if stages.contains(.programs) || stages.contains(.timing) {
            lines.append("programs graph render \(header)")
            lines += programTreeLines(withListings: stages.contains(.programs), withTiming: stages.contains(.timing))
        }
        if stages.contains(.timing), let total = totalMilliseconds {
            let intermediates = programs.dropLast().reduce(0) { $0 + ($1.timing?.intermediateBytes ?? 0) }
            lines.append(String(format: "timing: total=%.2fms programs=%d intermediates=%d (%.1f MB per worker) cache hits=%d misses=%d",
                                total, programs.count, max(programs.count - 1, 0), Double(intermediates) / 1e6,
                                programCache["hits"] ?? 0, programCache["misses"] ?? 0))
        }
        return lines.joined(separator: "\n")
    }

    /// The indentation of a tree line `depth` levels down: two spaces a level, at most
    /// ``maximumIndentLevels`` (a chain thousands of nodes deep would otherwise print megabytes of
    /// spaces; deeper lines keep the deepest indentation).
    private func indentation(_ depth: Int) -> String {
        String(repeating: "  ", count: min(depth, GraphDump.maximumIndentLevels) + 1)
    }

    static let maximumIndentLevels = 40

    private func treeLines(_ nodes: [NodeEntry]) -> [String] {
        guard let root = nodes.last else { return [] }
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var printed = Set<Int>()
        var lines: [String] = []
        // Depth-first from the root, inputs in order, from an explicit stack (no deep recursion).
        var pending = [(id: root.id, depth: 0)]
        while let (id, depth) = pending.popLast() {
            guard let node = byID[id] else { continue }
            let indent = indentation(depth)
            if printed.contains(id) {
                lines.append("\(indent)#\(id) (shared, shown above)")
                continue
            }
            printed.insert(id)
            let roiText = node.roi.map { " roi=\($0)" } ?? ""
            lines.append("\(indent)#\(id) \(node.label)\(roiText) extent=\(node.extent)")
            for input in node.inputs.reversed() { pending.append((input, depth + 1)) }
        }
        return lines
    }

    private func programTreeLines(withListings: Bool, withTiming: Bool) -> [String] {
        guard let root = programs.last else { return [] }
        let byID = Dictionary(programs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var lines: [String] = []
        var printed = Set<Int>()
        /// A program to print, or (for a source) its line.
        enum Item { case program(ProgramEntry, depth: Int), line(String) }
        var pending = [Item.program(root, depth: 0)]
        while let item = pending.popLast() {
            guard case .program(let program, let depth) = item else {
                if case .line(let line) = item { lines.append(line) }
                continue
            }
            let indent = indentation(depth)
            if printed.contains(program.id) {
                lines.append("\(indent)\(program.kind) p\(program.id) (shared, shown above)")
                continue
            }
            printed.insert(program.id)
            var line = "\(indent)\(program.kind) p\(program.id) = \(program.name) rois=\(program.roi) fmt=\(program.format)"
            if withTiming, let t = program.timing {
                line += String(format: " units=%d time=%.2fms %.0fMP/s bytes=%d", t.workUnits, t.milliseconds,
                               t.megapixelsPerSecond, t.intermediateBytes)
            }
            lines.append(line)
            if withListings {
                lines.append("\(indent)  nodes: " + program.nodes.map { "#\($0)" }.joined(separator: " ")
                    + "  uniforms: \(program.uniformCount)")
                for instruction in program.instructions { lines.append("\(indent)  | \(instruction)") }
            }
            var inputs: [Item] = []
            for input in program.inputs {
                if input.source.hasPrefix("program "), let id = Int(input.source.dropFirst(8)), let child = byID[id] {
                    inputs.append(.program(child, depth: depth + 1))
                } else {
                    inputs.append(.line("\(indent)  \(input.source) in\(input.slot) \(input.edge == "clamp" ? "edge_clamp" : "") \(input.filter)"))
                }
            }
            pending += inputs.reversed()
        }
        return lines
    }

    // MARK: JSON and DOT

    /// The dump as JSON (the fields `docs/recipes.md` documents).
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }

    /// Graphviz DOT of the program graph: programs are boxes, sources ellipses, edges intermediates.
    public func dot() -> String {
        var lines = ["digraph programs {", "  rankdir=BT;", "  node [fontname=\"Helvetica\", fontsize=10];"]
        for program in programs {
            let label = "p\(program.id) \(program.kind)\\n\(program.name.replacingOccurrences(of: "\"", with: "'"))\\n\(program.roi)"
            lines.append("  p\(program.id) [shape=box, label=\"\(label)\"];")
            for input in program.inputs {
                if input.source.hasPrefix("program ") {
                    lines.append("  p\(input.source.dropFirst(8)) -> p\(program.id) [label=\"in\(input.slot)\"];")
                } else {
                    let leaf = "leaf\(program.id)_\(input.slot)"
                    lines.append("  \(leaf) [shape=ellipse, label=\"\(input.source)\"];")
                    lines.append("  \(leaf) -> p\(program.id) [label=\"in\(input.slot)\"];")
                }
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}

/// The stages a dump can show.
public enum DumpStage: String, CaseIterable, Sendable, Hashable {
    /// The graph as built, the optimized graph, the plan passes' decisions, the programs,
    /// per-program timings.
    case initial, optimized, plan, programs, timing
}
