/// What runs a ``Plan``: computes the pixels of its root over a rectangle into a destination,
/// following every decision the plan records (stages, intermediates, fused decodes and encodes,
/// row kernels, scratch slots) and deciding nothing of its own about what is computed.
///
/// The CPU backend (``Executor``: work units on Dispatch, the span interpreter, the row kernels and
/// the area runner) is the one conformer today, made by ``Context/backend(for:)``.
package protocol Backend {
    /// The plan it runs.
    var plan: Plan { get }
    /// Renders `rect` of the plan's root into `destination`, adding each stage's figures to
    /// `timings`. A render in bands calls this once per band; image processors run at the first
    /// call only.
    func render(_ rect: PixelRect, into destination: RenderDestination, timings: StageTimings) throws
    /// The renders of the intermediates computed so far, by stage (for dumps).
    var intermediateProfiles: [Int: RenderProfile] { get }
}

/// Where a render's output pixels go.
package enum RenderDestination {
    /// Caller memory: interleaved rows of `format`, `rowBytes` apart, top row first, covering
    /// exactly the rendered rectangle.
    case buffer(SendablePointer, rowBytes: Int, format: PixelFormat)
    /// The input of an image processor: its planes (those it keeps) over its rectangle.
    case planar(PlanarBuffer)
    /// An intermediate in the working format: its planes over its rectangle.
    case planes(PlaneSet)
}
