import CHalf
import CRowKernels

/// Runs a program over a rectangle, one span of pixels at a time.
///
/// Each instruction is one tight loop over a span of ``spanWidth`` Float32 values, so the switch
/// that dispatches it is amortised over the span and the loop vectorises (see
/// `reference/engine-anchors.md` §7). A run of arithmetic instructions is one C step list
/// (`graph_span_steps`: one branch per instruction, where a Swift op, its operator and the C entry
/// each branched: about 20 ns per instruction and span). Constants and uniforms are expanded into
/// registers once per run, so every arithmetic loop is register-to-register. Nothing allocates per
/// span.
struct SpanInterpreter {
    static let spanWidth = 256

    /// The program in executable form: every operand resolved to a register index.
    struct Executable: Sendable {
        enum Op: Sendable {
            case unary(UnaryOperator, Int, Int)
            case binary(BinaryOperator, Int, Int, Int)
            case ternary(TernaryOperator, Int, Int, Int, Int)
            case move(Int, Int)
            case destinationX(Int)
            case destinationY(Int)
            case load(input: Int, Int, Int, Int, Int)
            case sample(input: Int, x: Int, y: Int, Int, Int, Int, Int)
            case stencil(input: Int, dx: Int, dy: Int, Int, Int, Int, Int)
            case matrix(destination: (Int, Int, Int, Int), source: (Int, Int, Int, Int), uniformBase: Int)
            case matrixRGB(destination: (Int, Int, Int), source: (Int, Int, Int, Int), uniformBase: Int)
            case lookup3D(destination: (Int, Int, Int, Int), source: (Int, Int, Int, Int), dimension: Int, extrapolate: Bool,
                          uniformBase: Int)
            case store(Int, Int, Int, Int)
            /// `count` consecutive arithmetic instructions from `steps[start]`, run by CRowKernels
            /// in one call per span (`graph_span_steps`: one branch per instruction).
            case steps(start: Int, count: Int)
        }
        let ops: [Op]
        /// The arithmetic of the `steps` ops, register offsets in floats.
        let steps: [GraphSpanStep]
        /// Registers 0..<program.registerCount are computed; the rest hold constants and uniforms.
        let registerCount: Int
        /// For each extra register: the value source (a constant or a uniform slot).
        let preloads: [Operand]
        /// Per input, the rows and columns its stencil taps read (nil: none).
        let stencilFootprints: [StencilRows.Footprint?]

        init(_ program: Program) {
            var preloads: [Operand] = []
            var preloadIndex: [Operand: Int] = [:]
            let base = program.registerCount
            func reg(_ operand: Operand) -> Int {
                if case .register(let r) = operand { return r }
                if let existing = preloadIndex[operand] { return existing }
                let index = base + preloads.count
                preloads.append(operand)
                preloadIndex[operand] = index
                return index
            }
            var ops: [Op] = []
            for instruction in program.instructions {
                switch instruction {
                case .unary(let f, let d, let a): ops.append(.unary(f, d, reg(a)))
                case .binary(let f, let d, let a, let b): ops.append(.binary(f, d, reg(a), reg(b)))
                case .ternary(let f, let d, let a, let b, let c): ops.append(.ternary(f, d, reg(a), reg(b), reg(c)))
                case .move(let d, let a): ops.append(.move(d, reg(a)))
                case .destinationX(let d): ops.append(.destinationX(d))
                case .destinationY(let d): ops.append(.destinationY(d))
                case .load(let input, let q): ops.append(.load(input: input, q.r, q.g, q.b, q.a))
                case .sample(let input, let x, let y, let q):
                    ops.append(.sample(input: input, x: reg(x), y: reg(y), q.r, q.g, q.b, q.a))
                case .stencil(let input, let dx, let dy, let q):
                    ops.append(.stencil(input: input, dx: dx, dy: dy, q.r, q.g, q.b, q.a))
                case .colorMatrix(let d, let s, let b):
                    ops.append(.matrix(destination: (d.r, d.g, d.b, d.a), source: (reg(s.r), reg(s.g), reg(s.b), reg(s.a)),
                                       uniformBase: b))
                case .colorMatrixRGB(let d, let s, let b):
                    ops.append(.matrixRGB(destination: (d.r, d.g, d.b), source: (reg(s.r), reg(s.g), reg(s.b), reg(s.a)),
                                          uniformBase: b))
                case .lookup3D(let d, let s, let dimension, let extrapolate, let b):
                    ops.append(.lookup3D(destination: (d.r, d.g, d.b, d.a), source: (reg(s.r), reg(s.g), reg(s.b), reg(s.a)),
                                         dimension: dimension, extrapolate: extrapolate, uniformBase: b))
                case .store(let q): ops.append(.store(reg(q.r), reg(q.g), reg(q.b), reg(q.a)))
                }
            }
            (self.ops, self.steps) = Executable.groupingArithmetic(ops)
            self.preloads = preloads
            stencilFootprints = StencilRows.footprints(of: self.ops, inputCount: program.inputCount)
            self.registerCount = base + preloads.count
        }

        /// `ops` with each run of arithmetic that CRowKernels has loops for (``SpanLoops/code(_:)-(BinaryOperator)``)
        /// made one `steps` op, and those steps.
        static func groupingArithmetic(_ ops: [Op]) -> (ops: [Op], steps: [GraphSpanStep]) {
            var grouped: [Op] = [], steps: [GraphSpanStep] = []
            var runStart = 0
            func closeRun() {
                if steps.count > runStart { grouped.append(.steps(start: runStart, count: steps.count - runStart)) }
                runStart = steps.count
            }
            func step(_ code: Int32, _ d: Int, _ a: Int, _ b: Int = 0, _ c: Int = 0) -> GraphSpanStep {
                let width = SpanInterpreter.spanWidth
                return GraphSpanStep(code: code, d: Int32(d * width), a: Int32(a * width), b: Int32(b * width), c: Int32(c * width))
            }
            for op in ops {
                let arithmetic: GraphSpanStep?
                switch op {
                case .unary(let f, let d, let a):
                    arithmetic = SpanLoops.code(f).map { step(Int32(GRAPH_SPAN_STEP_UNARY) + Int32($0.rawValue), d, a) }
                case .binary(let f, let d, let a, let b):
                    arithmetic = SpanLoops.code(f).map { step(Int32(GRAPH_SPAN_STEP_BINARY) + Int32($0.rawValue), d, a, b) }
                case .ternary(let f, let d, let a, let b, let c):
                    arithmetic = SpanLoops.code(f).map { step(Int32(GRAPH_SPAN_STEP_TERNARY) + Int32($0.rawValue), d, a, b, c) }
                default:
                    arithmetic = nil
                }
                if let arithmetic {
                    steps.append(arithmetic)
                } else {
                    closeRun()
                    grouped.append(op)
                }
            }
            closeRun()
            return (grouped, steps)
        }
    }

    /// Per-worker register file, allocated once and grown when a program needs more registers.
    final class RegisterFile {
        private(set) var base: UnsafeMutablePointer<Float>
        private(set) var capacity: Int
        /// The input rows the worker's stencil taps read.
        let stencilRows = StencilRows()
        init() {
            capacity = 64
            base = .allocate(capacity: capacity * SpanInterpreter.spanWidth)
        }
        deinit { base.deallocate() }
        func reserve(_ registers: Int) {
            guard registers > capacity else { return }
            base.deallocate()
            capacity = registers
            base = .allocate(capacity: capacity * SpanInterpreter.spanWidth)
        }
        @inline(__always) func register(_ index: Int) -> UnsafeMutablePointer<Float> {
            base + index * SpanInterpreter.spanWidth
        }
    }

    /// Runs `executable` over `rect`, reading `inputs` and writing each finished span to `sink`. With
    /// a `table` (``ChannelTable``, built for these uniforms), spans inside the one 8-bit input's
    /// data are looked up instead of computed.
    static func run(_ executable: Executable, uniforms: [Float], inputs: [InputView], rect: PixelRect,
                    registers: RegisterFile, sink: OutputSink, table: ChannelTable?) {
        guard !rect.isEmpty else { return }
        let width = spanWidth
        // The program's registers, then the coordinates of a gathered stencil tap and the scratch of
        // `sample` (see SpanGather.runHalfPlanes).
        registers.reserve(executable.registerCount + 2 + SpanGather.scratchRegisters)
        if executable.stencilFootprints.contains(where: { $0 != nil }) { registers.stencilRows.reset(for: executable.stencilFootprints) }
        // Constants and uniforms, expanded into whole registers once.
        for (offset, operand) in executable.preloads.enumerated() {
            let value: Float
            switch operand {
            case .constant(let v): value = v
            case .uniform(let u): value = u < uniforms.count ? uniforms[u] : 0
            case .register: value = 0
            }
            registers.register(executable.registerCount - executable.preloads.count + offset)
                .update(repeating: value, count: width)
        }
        // The lookup path's source and result registers (after the program's own).
        var lookup: (table: ChannelTable, view: InputView, buffer: ImageBuffer)?
        if let table, let view = inputs.first, case .buffer(let buffer) = view.storage { lookup = (table, view, buffer) }
        // An RGB8 buffer sink: source bytes to output bytes, through the codes the sink would write.
        let bytes = (sink as? BufferSink).flatMap { sink in lookup?.table.codes(for: sink).map { (sink, $0) } }
        let looked = (registers.register(executable.registerCount), registers.register(executable.registerCount + 1),
                      registers.register(executable.registerCount + 2), registers.register(executable.registerCount + 3))
        uniforms.withUnsafeBufferPointer { uniformBuffer in
            executable.steps.withUnsafeBufferPointer { steps in
                for y in rect.y..<rect.maxY {
                    var rowReady = false
                    if let (_, view, buffer) = lookup, y >= view.valid.y, y < view.valid.maxY {
                        rowReady = buffer.rowProgress?.wait(forRow: buffer.height - 1 - y) ?? true
                    }
                    var x0 = rect.x
                    while x0 < rect.maxX {
                        let n = min(width, rect.maxX - x0)
                        if rowReady, let (byteSink, codes) = bytes, let (_, view, buffer) = lookup, x0 >= view.valid.x,
                           x0 < view.valid.maxX {
                            // Bytes to bytes: the row's whole run inside the buffer in one call (no span limit).
                            let run = min(rect.maxX, view.valid.maxX) - x0
                            let out = byteSink.base + (byteSink.rect.maxY - 1 - y) * byteSink.rowBytes + (x0 - byteSink.rect.x) * 3
                            codes.withUnsafeBufferPointer { c in
                                guard let c = c.baseAddress else { return }
                                ChannelTable.lookUp(codes: c, buffer, row: buffer.height - 1 - y, column: x0, count: run,
                                                    into: out.assumingMemoryBound(to: UInt8.self))
                            }
                            x0 += run
                            continue
                        }
                        if rowReady, let (table, view, buffer) = lookup, x0 >= view.valid.x, x0 + n <= view.valid.maxX {
                            table.lookUp(buffer, row: buffer.height - 1 - y, column: x0, count: n, into: looked)
                            sink.store(x0: x0, y: y, count: n, from: looked)
                            x0 += n
                            continue
                        }
                        for op in executable.ops {
                            execute(op, x0: x0, y: y, n: n, registers: registers, uniforms: uniformBuffer,
                                    steps: steps.baseAddress, inputs: inputs, sink: sink)
                        }
                        x0 += n
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func execute(_ op: Executable.Op, x0: Int, y: Int, n: Int, registers: RegisterFile,
                                uniforms: UnsafeBufferPointer<Float>, steps: UnsafePointer<GraphSpanStep>?, inputs: [InputView],
                                sink: OutputSink) {
        switch op {
        case .unary(let f, let d, let a):
            SpanLoops.unary(f, registers.register(d), registers.register(a), n)
        case .binary(let f, let d, let a, let b):
            SpanLoops.binary(f, registers.register(d), registers.register(a), registers.register(b), n)
        case .ternary(let f, let d, let a, let b, let c):
            SpanLoops.ternary(f, registers.register(d), registers.register(a), registers.register(b),
                              registers.register(c), n)
        case .move(let d, let a):
            registers.register(d).update(from: registers.register(a), count: n)
        case .destinationX(let d):
            let out = registers.register(d)
            let start = Float(x0) + 0.5
            for i in 0..<n { out[i] = start + Float(i) }
        case .destinationY(let d):
            registers.register(d).update(repeating: Float(y) + 0.5, count: n)
        case .load(let input, let r, let g, let b, let a):
            inputs[input].load(x0: x0, y: y, count: n,
                               into: (registers.register(r), registers.register(g), registers.register(b), registers.register(a)))
        case .sample(let input, let xr, let yr, let r, let g, let b, let a):
            inputs[input].sample(xs: registers.register(xr), ys: registers.register(yr), count: n,
                                 into: (registers.register(r), registers.register(g), registers.register(b), registers.register(a)),
                                 scratch: UnsafeMutableRawPointer(registers.register(registers.capacity - SpanGather.scratchRegisters)))
        case .stencil(let input, let dx, let dy, let r, let g, let b, let a):
            let scratch = registers.capacity - SpanGather.scratchRegisters
            registers.stencilRows.tap(inputs[input], input: input, dx: dx, dy: dy, x0: x0, y: y, count: n,
                                      into: (registers.register(r), registers.register(g), registers.register(b), registers.register(a)),
                                      coordinates: (registers.register(scratch - 2), registers.register(scratch - 1)),
                                      scratch: UnsafeMutableRawPointer(registers.register(scratch)))
        case .matrix(let d, let s, let base):
            SpanLoops.colorMatrix(
                destination: (registers.register(d.0), registers.register(d.1), registers.register(d.2), registers.register(d.3)),
                source: (registers.register(s.0), registers.register(s.1), registers.register(s.2), registers.register(s.3)),
                coefficients: uniforms.baseAddress.map { $0 + base }, count: n)
        case .matrixRGB(let d, let s, let base):
            SpanLoops.colorMatrixRGB(
                destination: (registers.register(d.0), registers.register(d.1), registers.register(d.2)),
                source: (registers.register(s.0), registers.register(s.1), registers.register(s.2), registers.register(s.3)),
                coefficients: uniforms.baseAddress.map { $0 + base }, count: n)
        case .lookup3D(let d, let s, let dimension, let extrapolate, let base):
            guard base + 4 * dimension * dimension * dimension <= uniforms.count else { return }
            SpanLoops.lookup3D(
                destination: (registers.register(d.0), registers.register(d.1), registers.register(d.2), registers.register(d.3)),
                source: (registers.register(s.0), registers.register(s.1), registers.register(s.2), registers.register(s.3)),
                table: uniforms.baseAddress.map { $0 + base }, dimension: dimension, extrapolate: extrapolate, count: n)
        case .steps(let start, let count):
            guard let steps else { return }
            graph_span_steps(steps + start, Int32(count), registers.register(0), Int32(n))
        case .store(let r, let g, let b, let a):
            sink.store(x0: x0, y: y, count: n,
                       from: (registers.register(r), registers.register(g), registers.register(b), registers.register(a)))
        }
    }
}

/// Where a program's finished spans go: a planar intermediate or the caller's buffer.
protocol OutputSink {
    func store(x0: Int, y: Int, count: Int,
               from channels: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                               UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>))
}
