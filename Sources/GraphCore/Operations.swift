/// The kinds of work a recipe node can describe, as protocols that built-in filters (in `Kernels`)
/// and custom kernels implement. These are descriptions; how a colour, warp or general operation
/// becomes IR is its lowering (``ColorLowering``, ``WarpLowering``, ``GeneralLowering``, in `Optimizer/`),
/// declared beside it; the engine decides what fuses.
///
/// Every operation separates its *structure* (``structureKey``: which code it lowers to) from its
/// *values* (``uniformValues``), so programs are cached by structure and new parameter values
/// re-render without recompiling.
package protocol Operation: Sendable {
    /// The name shown in dumps (`CIHueAdjust`, a kernel's function name).
    var name: String { get }
    /// Identifies the code this operation lowers to, independent of parameter values.
    var structureKey: String { get }
    /// Parameter values, passed to the lowering as uniform operands in this order.
    var uniformValues: [Float] { get }
    /// Parameter values as text for dumps (`angle=0.5`).
    var argumentSummary: String { get }
}

/// A colour kernel: each output pixel depends only on the input pixels at the same position.
/// Any number of inputs (two for blends). Concatenates freely.
package protocol ColorOperation: Operation {}

/// A warp kernel: computes, for each output pixel, the point of its input to sample.
package protocol WarpOperation: Operation {
    /// The input rectangle the output `rect` reads (before the bilinear footprint is added).
    func regionOfInterest(for rect: Rect) -> Rect
}

/// A general kernel: samples its inputs anywhere (blurs, distortions). Needs its inputs
/// materialised over the region of interest it declares.
package protocol GeneralOperation: Operation {
    /// The rectangle of input `index` the output `rect` reads.
    func regionOfInterest(input index: Int, for rect: Rect) -> Rect
}

/// Swift code over whole buffers (reductions, histograms, 3D effects): a fusion barrier.
///
/// Inputs are rendered into premultiplied RGBA planes (``PlanarBuffer``) over their regions of
/// interest; the output is written the same way. Planes are Float32 unless the processor asks for
/// the working format (``samples(input:)``, ``outputSamples``); the reference evaluator always
/// passes Float32, so a processor that asks must read both. Implementations must combine values in
/// a fixed order so results do not depend on threads.
///
/// Buffers hold only the planes known to be needed (``PlanarBuffer/channels``, see
/// ``ProcessorPlanes``): an input with no alpha plane when it is opaque or its alpha is not read,
/// one plane when it is also grey; the output three planes when ``isOpaque(inputs:)``, one when
/// also ``isGrey(inputs:)``. The reference evaluator passes four planes in and out, so a processor
/// reads through the buffer's accessors (or checks ``PlanarBuffer/channels``) and writes the
/// planes its output stores (writes to others are ignored).
package protocol ImageProcessor: Operation, OutputProperties {
    /// The output extent given the inputs' extents.
    func outputExtent(inputExtents: [Rect]) -> Rect
    /// The rectangle of input `index` needed (reductions need their whole area).
    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect
    /// How input `index` is rendered (default Float32).
    func samples(input index: Int) -> ProcessorSamples
    /// How the output is stored (default Float32).
    var outputSamples: ProcessorSamples { get }
    /// Whether the processor reads input `index`'s alpha (default true). When it does not, that
    /// plane is left unrendered (it reads 0): a quarter less to convert and write for a photo.
    func readsAlpha(input index: Int) -> Bool
    /// Whether the output is opaque inside its extent (alpha 1) given each input's opacity and
    /// extent (default false): it is then stored without an alpha plane and programs reading it
    /// take alpha as the constant 1.
    func isOpaque(inputs: [AreaInputDescription]) -> Bool
    /// Whether the output is grey (R = G = B, bit for bit) given what is known of the inputs
    /// (default false): programs reading it load one register, and an opaque grey output is one plane.
    func isGrey(inputs: [AreaInputDescription]) -> Bool
    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws
    /// The same, on at most `threads` workers (the context's); by default on the calling thread.
    func process(inputs: [PlanarBuffer], output: PlanarBuffer, threads: Int) throws
    /// Where input `index`'s content lands in the output, as ``AreaOperation/geometry(input:)``
    /// says it for area passes: an affine map, or nil (the default) when none describes it, and
    /// auxiliary images carried with an edited photo cannot follow a photo that passes through.
    func geometry(input index: Int) -> AffineTransform?
}

/// How an image processor's planes store samples.
package enum ProcessorSamples: Sendable {
    /// Float32: exact, 16 bytes a pixel.
    case float32
    /// The render's working format when that is half float and the processor's result carries
    /// colour (Float32 otherwise: data such as depth maps and masks keeps its precision): 8 bytes a
    /// pixel, for whole-photo colour planes whose precision the working format bounds anyway.
    case workingFormat
}

extension ImageProcessor {
    package func samples(input index: Int) -> ProcessorSamples { .float32 }
    package var outputSamples: ProcessorSamples { .float32 }
    package func readsAlpha(input index: Int) -> Bool { true }
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { false }
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { false }
    package func geometry(input index: Int) -> AffineTransform? { nil }
    package func process(inputs: [PlanarBuffer], output: PlanarBuffer, threads: Int) throws {
        try process(inputs: inputs, output: output)
    }
}

/// An image processor that moves its first input's pixels in a way a map lined up with that input
/// (a depth map, a matte: any resolution) follows by the same processor run on the map with the
/// same other inputs, so a depth photo's maps are carried through it (the dolly zoom; see
/// `AuxiliaryGeometry`).
package protocol MapFollowingProcessor: ImageProcessor {}
