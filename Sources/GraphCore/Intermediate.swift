/// An image computed once, whole, before a render's work units and kept for them in the working
/// format (``Image/insertingIntermediate(named:)``, Core Image's `insertingIntermediate()`).
///
/// A render's work units are tiles, and each computes what it reads of every stage below it over
/// its own region of interest: an image read with a wide reach (by the coarse levels of a blur
/// pyramid, say) is computed again in every tile's margin, twice over or more. Below an intermediate
/// that stops: the executor renders its input once, over the region the whole render reads, in a
/// render of its own (tiles with only that render's margins), into planes in the working format
/// (one plane when the input is grey and opaque, three when opaque), and the work units read those
/// planes. The pixels are those of the input stored as any intermediate is; only the work and the
/// memory (the stored planes, held through the render) change.
///
/// It is an image processor whose processing is the identity (what the reference evaluator runs),
/// so region-of-interest propagation and streamed sources treat it as any processor; opacity,
/// greyness and the depth maps carried with a photo see through it.
///
/// A *cached* intermediate (``Image/insertingIntermediate(named:cache:)``) is computed over its
/// whole extent, whatever part a render reads, so that every render of the context that reads it
/// (the other outputs of a recipe) finds the same pixels in the context's cache instead of
/// computing them again.
package struct Intermediate: ImageProcessor {
    /// The stage name in dumps.
    package let name: String
    /// Computed over its whole extent, for every render that reads it.
    package let coversExtent: Bool

    package init(name: String, coversExtent: Bool = false) {
        self.name = name
        self.coversExtent = coversExtent
    }

    package var structureKey: String { coversExtent ? "intermediate whole extent" : "intermediate" }
    package var uniformValues: [Float] { [] }
    package var argumentSummary: String {
        coversExtent ? "computed whole, over its extent, before the work units (shared by renders)" : "computed whole before the work units"
    }

    package func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }

    /// The pixels asked of it (all of them when it covers its extent: see
    /// ``RegionOfInterest/propagate(root:rect:order:precomputed:)``).
    package func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect {
        coversExtent ? inputExtent : outputRect
    }

    /// The input, copied (the executor stores it rather than running this).
    package func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let input = inputs[0]
        for channel in 0..<4 {
            for y in output.y..<(output.y + output.height) {
                for x in output.x..<(output.x + output.width) {
                    output.setValue(input.value(channel: channel, x: x, y: y), channel: channel, x: x, y: y)
                }
            }
        }
    }
}
