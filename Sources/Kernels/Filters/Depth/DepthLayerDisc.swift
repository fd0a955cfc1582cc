import GraphEngine

/// One layer of a layered lens blur (CIDepthBlurEffect) made and blurred at its source's size in
/// one pass: the layer `(w(c)·rgb, w(c))` of a layer source (colour, blur value `c` in alpha: the
/// ``DepthLayerBlocks``), `w` its ``DepthLayerTent``, then the disc mean of ``DiscSpans``. The
/// same values as ``DepthLayerDecimate`` (factor 1) followed by the disc, without writing the
/// layer and reading it back: the half-size layers are most of the layered blur's cost.
package struct DepthLayerDisc: AreaOperation {
    package let tent: DepthLayerTent
    package let disc: DiscSpans

    /// `disc` a mean.
    package init(tent: DepthLayerTent, disc: DiscSpans) {
        self.tent = tent
        self.disc = DiscSpans(radius: disc.radius, reduction: .mean, filterName: disc.filterName)
    }

    package var name: String { disc.name }
    package var summary: String { "\(tent.summary), then \(disc.summary)" }

    package func outputExtent(inputExtents: [Rect]) -> Rect { disc.outputExtent(inputExtents: inputExtents) }
    package func regionOfInterest(input index: Int, for rect: Rect) -> Rect { disc.regionOfInterest(input: index, for: rect) }
    package func inputChannels(_ index: Int) -> Int { 4 }
    package func isOpaque(inputs: [AreaInputDescription]) -> Bool { false }
    package func isGrey(inputs: [AreaInputDescription]) -> Bool { false }

    package func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        try disc.referenceValue(x: x, y: y) { index, px, py in
            let s = try input(index, px, py), w = tent.weight(s[3])
            return SIMD4(w * s[0], w * s[1], w * s[2], w)
        }
    }
}

extension DepthLayerDisc: CPUAreaPass {
    /// The tile's input weighted into scratch slot 2 (four planes), then the disc of each plane.
    package func run(_ tile: AreaTile) {
        let input = tile.inputs[0], count = input.width * input.height
        let weighted = tile.scratch.floats(2, count: 4 * count)
        let r = input.row(0, 0), g = input.row(1, 0), b = input.row(2, 0), c = input.row(3, 0)
        let wr = weighted, wg = wr + count, wb = wg + count, ww = wb + count
        var i = 0
        while i + 8 <= count {
            func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> { UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self) }
            func store(_ p: UnsafeMutablePointer<Float>, _ v: SIMD8<Float>) { UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD8<Float>.self) }
            let w = tent.weights(load(c))
            store(wr, w * load(r))
            store(wg, w * load(g))
            store(wb, w * load(b))
            store(ww, w)
            i += 8
        }
        while i < count {
            let w = tent.weight(c[i])
            (wr[i], wg[i], wb[i], ww[i]) = (w * r[i], w * g[i], w * b[i], w)
            i += 1
        }
        disc.runMean(tile) { UnsafePointer(weighted + $0 * count) }
    }
}
