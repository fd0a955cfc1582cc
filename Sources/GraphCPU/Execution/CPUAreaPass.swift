/// The CPU backend's implementation of an ``AreaOperation``: its loops over Float32 tiles.
///
/// The operation (the recipe's description: name, extent, region of interest, opacity, greyness,
/// reference formula) says *what* a pass computes; this says how the CPU computes it. A filter
/// declares the conformance in an extension beside its description, in the same file
/// (`extension BoxMean: CPUAreaPass { func run(_:) }`), and the ``AreaRunner`` finds it for each
/// area stage by casting the stage's operation, so a backend added later conforms the same
/// descriptions to its own protocol without the description knowing of either.
package protocol CPUAreaPass: AreaOperation {
    /// Computes `tile.output`. When `tile.channels` is 3, alpha is known to be 1: write channels
    /// 0–2 only; the executor writes alpha. When it is 1, the output is grey and opaque
    /// (``AreaOperation/isGrey(inputs:)`` and ``AreaOperation/isOpaque(inputs:)``): write channel 0
    /// only, from one-channel loads of the grey inputs (`channelCount` 1); the stage stores that one
    /// plane, read as red, green and blue. Reads no input outside the rectangle
    /// ``AreaOperation/regionOfInterest(input:for:)`` asked for.
    func run(_ tile: AreaTile)
}
