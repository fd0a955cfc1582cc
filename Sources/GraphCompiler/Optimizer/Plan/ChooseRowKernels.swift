/// Chooses the super-operations of program stages: the channel lookup (``ChannelLookup``) for
/// any program stage whose channels each depend on one channel of its 8-bit input, and for the
/// output stage a ``RowKernel``: an unfiltered camera frame written to RGBA8 or BGRA8 by the
/// fixed-point YUV row kernel, an unfiltered source written to a destination of its own format by
/// a byte copy, an opaque area stage that writes 8-bit codes (``AreaOperation/writesCodes``) left
/// to write an RGB8, RGBA8 or BGRA8 destination itself, an area stage that the output stage only
/// stores into planes (an intermediate) left to write them itself. Only the output stage writes the
/// destination, and only a destination without a fused encode is written as the kernels write it.
struct ChooseRowKernels: PlanPass {
    let name = "row-kernels"

    func run(_ plan: inout Plan, log: inout [String]) throws {
        for index in plan.stages.indices {
            guard case .program(let program, _, _, let slots, _) = plan.stages[index].work,
                  ChannelLookup.applies(to: program, slots: slots) else { continue }
            plan.stages[index].looksUpChannels = true
            log.append("p\(index): each channel looked up in the program's results for the 256 codes of its 8-bit input")
        }
        guard !plan.encodesSRGBInStore, !plan.stages.isEmpty,
              case .program(let program, let uniforms, _, let slots, _) = plan.stages[plan.rootStage].work,
              let input = slots.first
        else { return }
        guard let destination = plan.destination else {
            // Planes (or a planar Float32 buffer, where the program still runs).
            guard case .stage(let stage) = input.source, ChooseRowKernels.storesAreaStage(plan, stage: stage, slot: input, program: program)
            else { return }
            plan.stages[plan.rootStage].rowKernel = .areaPlanes(stage: stage)
            log.append("p\(plan.rootStage): p\(stage) writes its rows into the destination planes itself")
            return
        }
        let kernel: RowKernel
        switch input.source {
        case .yuv where destination == .rgba8 || destination == .bgra8:
            guard let base = ChooseRowKernels.loadMatrixStoreBase(program), base + 15 <= uniforms.count else { return }
            kernel = .yuvToRGBA8(matrixBase: base)
            log.append("p\(plan.rootStage): the frame converted to \(destination.rawValue) by the YUV row kernel (fixed point)")
        case .stage(let stage) where [.rgb8, .rgba8, .bgra8].contains(destination):
            guard ChooseRowKernels.writesAreaCodes(plan, stage: stage, slot: input), ChooseRowKernels.isLoadStoreOpaque(program)
            else { return }
            kernel = .areaCodes(stage: stage)
            log.append("p\(plan.rootStage): p\(stage) writes its codes into the \(destination.rawValue) rows itself")
        case .buffer(let buffer) where input.decode == nil && RowKernel.copiesBytes(of: buffer, into: destination):
            guard ChooseRowKernels.isLoadStore(program) else { return }
            kernel = .byteCopy
            log.append("p\(plan.rootStage): the \(buffer.format.rawValue) source's rows copied byte for byte")
        default:
            return
        }
        plan.stages[plan.rootStage].rowKernel = kernel
    }

    /// The matrix's uniform base when `program` is exactly `load in0 → matrix.rgb → store` of the
    /// loaded registers (alpha passed through), else nil.
    static func loadMatrixStoreBase(_ program: Program) -> Int? {
        let instructions = program.instructions
        guard instructions.count == 3, case .load(0, let loaded) = instructions[0],
              case .colorMatrixRGB(let converted, let source, let base) = instructions[1], source == OperandQuad(loaded),
              case .store(let stored) = instructions[2],
              stored == OperandQuad(.register(converted.r), .register(converted.g), .register(converted.b), .register(loaded.a))
        else { return nil }
        return base
    }

    /// Whether `stage` is an opaque, three-channel area stage whose pass writes codes, read only by
    /// the output stage, through `slot` as it is (no window, transfer or primaries).
    static func writesAreaCodes(_ plan: Plan, stage: Int, slot: Plan.Slot) -> Bool {
        guard stage < plan.stages.count, case .area(let operation, _, let layout) = plan.stages[stage].work,
              operation.writesCodes, layout.channels == 3, plan.stages[stage].storedChannels == 3,
              slot.window == nil, slot.decode == nil, slot.primaries == nil else { return false }
        return plan.stages.indices.allSatisfy { $0 == plan.rootStage || !plan.stages[$0].work.stageInputs.contains(stage) }
    }

    /// Whether `program`, the output stage's, is `load in0 → store` of area stage `stage` keeping the
    /// same channels (the loaded red alone when grey, red to blue when opaque, all four otherwise),
    /// and the area stage is read by the output stage alone, through `slot` as it is.
    static func storesAreaStage(_ plan: Plan, stage: Int, slot: Plan.Slot, program: Program) -> Bool {
        guard stage < plan.stages.count, case .area = plan.stages[stage].work,
              plan.stages[stage].storedChannels == plan.stages[plan.rootStage].storedChannels,
              slot.window == nil, slot.decode == nil, slot.primaries == nil,
              program.instructions.count == 2, case .load(0, let loaded) = program.instructions[0],
              case .store(let stored) = program.instructions[1] else { return false }
        let kept = [(stored.r, loaded.r), (stored.g, loaded.g), (stored.b, loaded.b), (stored.a, loaded.a)]
            .prefix(plan.stages[stage].storedChannels)
        guard kept.allSatisfy({ $0.0 == .register($0.1) }) else { return false }
        return plan.stages.indices.allSatisfy { $0 == plan.rootStage || !plan.stages[$0].work.stageInputs.contains(stage) }
    }

    /// Whether `program` is exactly `load in0 → store` of the loaded colour, alpha the loaded one or 1.
    static func isLoadStoreOpaque(_ program: Program) -> Bool {
        guard program.instructions.count == 2, case .load(0, let loaded) = program.instructions[0],
              case .store(let stored) = program.instructions[1] else { return false }
        return stored.r == .register(loaded.r) && stored.g == .register(loaded.g) && stored.b == .register(loaded.b)
            && (stored.a == .register(loaded.a) || stored.a == .constant(1))
    }

    /// Whether `program` is exactly `load in0 → store` of the loaded registers.
    static func isLoadStore(_ program: Program) -> Bool {
        guard program.instructions.count == 2, case .load(0, let loaded) = program.instructions[0],
              case .store(let stored) = program.instructions[1] else { return false }
        return stored == OperandQuad(loaded)
    }
}
