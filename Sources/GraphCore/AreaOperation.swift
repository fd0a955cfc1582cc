/// A neighbourhood pass (blur, morphology, small convolution, resampling, …) run by its own loops
/// over Float32 tiles: the extension point for work that reads more than one pixel per output pixel
/// and is better written as a dedicated loop than as one `sample` instruction per tap.
///
/// Every area node is its own stage. Per work unit, the executor loads each input over the
/// rectangle ``regionOfInterest(input:for:)`` asks for into Float32 planes (an input that is
/// `clampedToExtent()` reads its nearest edge pixel there, any other input reads 0 outside its
/// data), then the pass's implementation fills the output tile. The result is stored in the
/// working format and shows in `graph dump` as a stage named ``name``.
///
/// This protocol is the pass's *description*, which every backend reads; how the CPU computes it
/// is the pass's `CPUAreaPass` conformance (Execution), declared beside the description.
///
/// Pixels must depend only on their position, never on where a tile starts (a running sum restarts
/// at fixed, position-aligned anchors, for example), so any tile size and thread count give the
/// same bytes. ``referenceValue(x:y:input:)`` states the same result plainly, one pixel at a time,
/// for the reference evaluator the differential tests compare against.
package protocol AreaOperation: Hashable, Sendable, OutputProperties {
    /// The stage name in dumps (`CIBoxBlur_h`).
    var name: String { get }
    /// What the pass computes, with its parameters (`running-sum box, horizontal, radius 10`).
    var summary: String { get }
    /// The output extent given the inputs' extents.
    func outputExtent(inputExtents: [Rect]) -> Rect
    /// The integral rectangle of input `index` that the output pixels `rect` (integral) read. The
    /// executor loads exactly this rectangle; the pass must not read outside it.
    func regionOfInterest(input index: Int, for rect: Rect) -> Rect
    /// How many channels of input `index` the pass reads (1: red only, 3: RGB, 4: RGBA).
    func inputChannels(_ index: Int) -> Int
    /// Whether the pass reads input `index` as its 8-bit codes (``AreaPlanes/codes``) where it can
    /// be: an 8-bit opaque RGB buffer read as it is stored (no transfer decode, no primaries change),
    /// loaded as three colour planes. The Float32 planes are not loaded then.
    func readsCodes(input index: Int) -> Bool
    /// Whether the pass can write its opaque RGB result straight into 8-bit rows as codes, each the
    /// nearest code of its exact value (nearer than a float stored and quantised), so an output
    /// stage that only stores it into an 8-bit destination leaves it to the pass (``RowKernel/areaCodes(stage:)``).
    var writesCodes: Bool { get }
    /// For an input the pass reads as one value per pixel computed from its RGBA (a guide's luma):
    /// the computation, applied span by span as the input loads, so only its result is stored
    /// (one channel); nil for inputs read as they are.
    func reduction(input index: Int) -> AreaInputReduction?
    /// Whether the output is opaque inside its extent, given each input's opacity and extent.
    func isOpaque(inputs: [AreaInputDescription]) -> Bool
    /// Whether the output is grey (R = G = B, bit for bit) given what is known of the inputs: a pass
    /// that returns true computes its red channel from the red channel of its grey inputs alone.
    func isGrey(inputs: [AreaInputDescription]) -> Bool
    /// The output pixel (`x`, `y`) computed plainly (for ``ReferenceEvaluator``): `input(i, x, y)`
    /// is input `i`'s premultiplied RGBA at pixel (x, y), 0 outside its extent.
    func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float>
    /// Where input `index`'s content lands in the output: the affine map from the input's
    /// coordinates to the output's (identity for blurs, morphology and convolutions; a scale for
    /// resampling), or nil when no affine map describes it. Auxiliary images carried with an
    /// edited photo (depth maps, mattes) follow this map.
    func geometry(input index: Int) -> AffineTransform?
}

extension AreaOperation {
    package func inputChannels(_ index: Int) -> Int { 4 }
    package func reduction(input index: Int) -> AreaInputReduction? { nil }
    package func readsCodes(input index: Int) -> Bool { false }
    package var writesCodes: Bool { false }
    package func geometry(input index: Int) -> AffineTransform? { .identity }
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { false }
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { false }
}

/// One value per pixel from `count` premultiplied RGBA pixels (planes r, g, b, a), written to the
/// last pointer (see ``AreaOperation/reduction(input:)``).
package typealias AreaInputReduction = (_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                        _ a: UnsafePointer<Float>, _ count: Int, _ out: UnsafeMutablePointer<Float>) -> Void

/// What an area pass or an image processor tells of its output from what is known of its inputs
/// (``Opacity``, ``Greyness``): an opaque output is stored without an alpha plane, a grey and opaque
/// one in one plane.
package protocol OutputProperties {
    /// Whether the output is opaque inside its extent, given each input's opacity and extent.
    func isOpaque(inputs: [AreaInputDescription]) -> Bool
    /// Whether the output is grey (R = G = B, bit for bit), given what is known of the inputs.
    func isGrey(inputs: [AreaInputDescription]) -> Bool
}

/// What an area pass or an image processor may know about an input when deciding whether its
/// output is opaque or grey.
package struct AreaInputDescription: Sendable {
    /// Alpha is 1 everywhere inside the input's extent.
    package let isOpaque: Bool
    package let extent: Rect
    /// R = G = B everywhere, bit for bit (a depth map, a mask; see ``Greyness``).
    package var isGrey = false
    /// Alpha is 1 wherever the input can be read (opaque with an infinite extent, as a clamped image).
    package var isOpaqueEverywhere: Bool { isOpaque && extent.isInfinite }

    package init(isOpaque: Bool, extent: Rect, isGrey: Bool = false) {
        self.isOpaque = isOpaque
        self.extent = extent
        self.isGrey = isGrey
    }
}
