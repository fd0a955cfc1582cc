import GraphEngine

/// The joint bilateral upsample's guide at the small image's resolution: the ``Resample`` of the
/// guide luma `G` (``GuideLuma``) of its input, `g(X) = Σ w·G`, computed from the input's rows as
/// they load (``reduction(input:)``), so no full-size luma image is stored. The result is grey and
/// opaque: one channel.
package struct GuideLumaResample: AreaOperation {
    package let resample: Resample

    package init(_ resample: Resample) { self.resample = resample }

    package var name: String { resample.name }
    package var summary: String { "sRGB-encoded luma of the input's rows, then " + resample.summary }
    package func geometry(input index: Int) -> AffineTransform? { resample.geometry(input: index) }
    package func outputExtent(inputExtents: [Rect]) -> Rect { resample.outputExtent(inputExtents: inputExtents) }
    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect { resample.regionOfInterest(input: index, for: rect) }
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { true }

    /// The input loads as its luma G alone.
    package func reduction(input index: Int) -> AreaInputReduction? { GuideLuma.row }

    package func referenceValue(x px: Int, y py: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let (fx, wx) = resample.weights(resample.x, px), (fy, wy) = resample.weights(resample.y, py)
        var sum = 0.0
        for (j, v) in wy.enumerated() {
            var row = 0.0
            for (i, u) in wx.enumerated() { row += u * GuideLuma.value(try input(0, fx + i, fy + j)) }
            sum += v * row
        }
        let g = Float(sum)
        return SIMD4(g, g, g, 1)
    }
}

extension GuideLumaResample: CPUAreaPass {
    /// The resample of the one luma plane (the tile computes one channel: the pass is grey and opaque).
    package func run(_ tile: AreaTile) { resample.run(tile) }
}
