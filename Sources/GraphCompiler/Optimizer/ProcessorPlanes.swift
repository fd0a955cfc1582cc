/// How many planes an image processor's inputs are rendered into and its output is stored in (4,
/// 3: no alpha plane, or 1: grey; see ``PlanarBuffer``), from what the graph says of the inputs
/// (``Greyness``, ``Opacity``): an input needs no alpha plane when it is opaque or the processor
/// does not read its alpha, and one plane when it is also grey; the output has the planes its
/// processor's ``ImageProcessor/isOpaque(inputs:)`` and ``ImageProcessor/isGrey(inputs:)`` allow.
/// A 12 MP grey matte warped in one Float32 plane takes 48 MB instead of 192 MB (input and output).
///
/// Decided from the nodes alone, so the render, its memory estimate and its plan agree.
package struct ProcessorPlanes {
    /// Per input: its planes, and whether those hold its whole pixels (its alpha plane, or it is
    /// opaque), so the render's own stages may read them too.
    package let inputs: [(channels: Int, whole: Bool)]
    package let output: Int

    package init(_ processor: any ImageProcessor, inputs: [Node]) {
        var known: [ObjectIdentifier: Bool] = [:]
        let opacities = inputs.map { AreaInputDescription(isOpaque: Opacity.isOpaque($0), extent: $0.extent) }
        let described = zip(inputs, opacities).map { input, description in
            var description = description
            description.isGrey = Greyness.isGrey(input, known: &known, storedOpaque: [])
            return description
        }
        self.inputs = described.enumerated().map { index, input in
            let alpha = processor.readsAlpha(input: index) && !input.isOpaque
            return (alpha ? 4 : (input.isGrey ? 1 : 3), alpha || input.isOpaque)
        }
        // Opacity as ``Opacity`` asks it: from the inputs' opacity and extents.
        output = Self.channels(opaque: processor.isOpaque(inputs: opacities), grey: processor.isGrey(inputs: described))
    }

    /// The planes of an image known `opaque` (alpha 1) and `grey` (R = G = B).
    static func channels(opaque: Bool, grey: Bool) -> Int { opaque ? (grey ? 1 : 3) : 4 }
}
