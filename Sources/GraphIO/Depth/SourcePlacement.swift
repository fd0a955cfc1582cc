/// Where a source image's pixels land in an image computed from it (for `graph apply`'s edges: a
/// one-shot chain that keeps the input's geometry, or moves it by a known scale, is computed on
/// the input clamped to its extent and cropped back).
package enum SourcePlacement: Equatable, Sendable {
    /// Every step keeps pixels where they are or moves them by an affine map: this one, from the
    /// source's coordinates to the image's (colour filters, blurs, convolutions, morphology,
    /// resampling, crops, affine transforms).
    case affine(AffineTransform)
    /// The source passes through a warp or a general kernel, which may move pixels in ways no
    /// affine map describes (pixellates, distortions, kernels reading elsewhere).
    case moved
    /// The source passes through an image processor (the depth effects: whole-image passes that
    /// may need a finite input).
    case processed
    /// The image does not read the source.
    case notReached
}

extension Image {
    /// Where `source`'s pixels land in this image (see ``SourcePlacement``), found by walking the
    /// graph from this image down to `source` (the same trace that moves depth maps with an edit).
    package func placement(of source: Image) -> SourcePlacement {
        switch AuxiliaryGeometry.trace(self, to: source) {
        case .transform(let transform): return .affine(transform)
        case .notReached: return .notReached
        case .processed: return .processed
        case .unfollowable:
            // A processor anywhere on the way makes it a processed image; otherwise a warp or a
            // general kernel moved the pixels.
            for node in RegionOfInterest.topologicalOrder(node) {
                if case .processor(let processor) = node.kind, !(processor is Intermediate) { return .processed }
            }
            return .moved
        }
    }
}
