extension Plan {
    /// One input slot of a program or area pass: which stage or buffer it reads and how.
    package struct Slot: Hashable {
        package enum Source: Hashable {
            case stage(Int)
            case buffer(ImageBuffer)
            /// The raw (Y, Cb, Cr, 1) samples of a frame, chroma upsampled.
            case yuv(YUVFrame)
            package static func == (l: Source, r: Source) -> Bool {
                switch (l, r) {
                case (.stage(let a), .stage(let b)): return a == b
                case (.buffer(let a), .buffer(let b)): return a === b
                case (.yuv(let a), .yuv(let b)): return a === b
                default: return false
                }
            }
            package func hash(into hasher: inout Hasher) {
                switch self {
                case .stage(let i): hasher.combine(0); hasher.combine(i)
                case .buffer(let b): hasher.combine(1); hasher.combine(ObjectIdentifier(b))
                case .yuv(let f): hasher.combine(2); hasher.combine(ObjectIdentifier(f))
                }
            }
        }
        package let source: Source
        package let edge: EdgeMode
        package let filter: SamplingFilter
        /// The node the slot reads (for region-of-interest propagation and dumps).
        let node: Node
        /// A transfer function decoded while loading (8-bit buffers: a 256-entry table), or nil.
        package var decode: ColorSpace.Transfer?
        /// Only these pixels of the source are read (a crop an area pass sees through), or nil.
        package var window: PixelRect?
        /// A 3×3 matrix (row-major) applied to the decoded colour while loading (an area pass reading
        /// a photo whose conversion changes primaries), or nil.
        package var primaries: [Float]?
        package static func == (l: Slot, r: Slot) -> Bool {
            l.source == r.source && l.edge == r.edge && l.filter == r.filter && l.decode == r.decode && l.window == r.window
                && l.primaries == r.primaries
        }
        package func hash(into hasher: inout Hasher) {
            hasher.combine(source); hasher.combine(edge); hasher.combine(filter); hasher.combine(decode); hasher.combine(window)
            hasher.combine(primaries)
        }
    }

    /// What a stage computes.
    package enum Work {
        case program(Program, uniforms: [Float], origins: [String], slots: [Slot], name: String)
        /// `layout`: the channels computed (alpha 1, see ``Opacity``; grey, see ``Greyness``) and the
        /// inputs read as one channel.
        case area(any AreaOperation, inputs: [Slot], layout: AreaLayout)
        case processor(any ImageProcessor, inputs: [Node])

        /// The stages it reads.
        var stageInputs: [Int] {
            let slots: [Slot]
            switch self {
            case .program(_, _, _, let programSlots, _): slots = programSlots
            case .area(_, let inputs, _): slots = inputs
            case .processor: return []
            }
            return slots.compactMap { if case .stage(let index) = $0.source { return index } else { return nil } }
        }

        var isProcessor: Bool {
            if case .processor = self { return true }
            return false
        }
    }

    /// One materialised image of the render and the work that computes it.
    package struct Stage {
        package let node: Node
        package var work: Work
        /// Nodes whose work this stage does (for dumps).
        package var nodes: [Node]
        /// The planes its intermediate keeps (``PlaneSet``): 1 when what it stores is grey and
        /// opaque (one value in red, green and blue, alpha 1), 3 when only opaque, else 4.
        package var storedChannels = 4
        /// The row kernel that does the whole program's work, if any (``ChooseRowKernels``).
        package var rowKernel: RowKernel?
        /// The program's results are computed once per render for the 256 codes of its one 8-bit
        /// input and its pixels looked up (``ChannelLookup``, decided by ``ChooseRowKernels``).
        package var looksUpChannels = false
    }
}
