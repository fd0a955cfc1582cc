import GraphEngine

/// Depth effects (CICategoryBlur on depth photos): the portrait-mode synthetic aperture.
enum DepthEffectFilters {
    static let all: [FilterDescriptor] = [depthBlurEffect]

    /// Portrait-mode blur, as a graph of filters (`graph dump` shows each step). Apple's kernels and
    /// tuning are not public; the steps follow the structure Apple's decompiled filter shows
    /// (refine disparity, blur map, render) and everything numeric here is ours:
    ///
    /// 1. The photo is scaled by inputScaleFactor (Lanczos; a JPEG file at 1/2, 1/4 or 1/8 decodes at
    ///    that scale instead, by libjpeg's DCT scaling); the disparity is refined to its size by
    ///    CIEdgePreserveUpsampleFilter with the photo as guide (D; spatial σ 1 map pixel,
    ///    luma σ 0.05, so depth edges snap to the photo's edges).
    /// 2. Focus disparity `f`: the dominant disparity over inputFocusRect (``FocusDisparity``: the
    ///    nearest cluster holding a quarter of it; normalised, lower-left origin, an error outside
    ///    0…1; default the centre (0.45, 0.45, 0.1, 0.1)).
    /// 3. Signed blur radius in output pixels (positive in front of the focus plane), a thin lens
    ///    of 85 mm equivalent focal length (circle of confusion f²·|Δd|/(2N) on a 36 mm frame) at
    ///    1 m, with the disparity taken relative to the focus (so maps in any unit work):
    ///    `c = k·(D − f)/f`, `k = 0.1·L/N` (L the output's long side, N = inputAperture, 0 → f/2.8),
    ///    less a 1 px dead zone, clamped to `[−0.025·L, 0.0125·L]`, times `1 − matte`; then the blur
    ///    value is the maximum of c over a disc of radius max(1, L/1500) (under 1500 px, the pixel and
    ///    its four neighbours): the nearer side wins at every depth edge. The pixels of a foreground's
    ///    edge, whose refined disparity runs between the depths or misses the photo's edge by a pixel
    ///    or two, blur with the foreground instead of staying a sharp outline under its spread; the
    ///    focused subject's rim joins no background layer (where a Gaussian would blur it into the
    ///    background). A wider disc spreads the foreground further over a sharp background behind it
    ///    (Benchmarks/quality at 768 px: the 3×3 square of radius 1.5 costs 1.3 dB in focus for 0.14
    ///    levels less error inside blurred silhouettes). Where the map steps from behind the focus plane
    ///    straight to in front of it, its low resolution makes a ramp that passes through the focus
    ///    depth, and that band of the edge would stay sharp between two blurred sides (a crisp seam
    ///    along a car's ledge on the iPhone 7 Plus photo): a pixel whose value changes sign between
    ///    the pixels `p` px to either side (horizontally or vertically; `p = max(2, round(0.75·s))` up to 16, s
    ///    the photo's size over the map's) takes the largest value around it when more than 2 px of
    ///    blur lie on each side (`max c > 2` and `min c < −2` over the map's 3×3 neighbourhood,
    ///    evaluated on the map at its own size). An in-focus layer between a blurred back and front is
    ///    a plateau, not a sign change, and keeps its sharpness.
    /// 4. Levels: radii R·2^(−i/3) while at least 6 px, then a factor √2 apart down to 1.5 px (R the
    ///    clamp on each side). The mix of two neighbouring discs is a core with a faint tail, about
    ///    50 dB from the disc between them on textures at a √2 spacing and 60 dB at ∛2; below 6 px
    ///    the √2 mix is already 55–60 dB, and those layers (at half size) are the costly ones. The largest up to 3 px (r₁, 2.1 to 3 px)
    ///    and the one below it (r₀ = r₁/√2) are Gaussians of the photo (σ = r/2, a disc's spread): radii under r₁ mix
    ///    the photo, the r₀ Gaussian and the r₁ one, linearly in c² between neighbours, so a 1 px line at c = 1.5 keeps 0.59
    ///    of its contrast (a 1.5 px disc: 0.42; a photo-to-r₁ mix kept 0.74 and left thin foreground wires and
    ///    leaves sharp at f/5.6 in Benchmarks/quality). Every larger radius t is a premultiplied layer, made at half
    ///    size or less from the 2×2 blocks of the layer source (the colour with small highlights
    ///    clipped white boosted, `rgb·(1 + 1.5·clamp((L − 0.97)/0.03, 0, 1)·isolation)` (L the
    ///    luminance, isolation 1 where the pixels max(3, L/1000) px away on four sides are below the
    ///    clip; ``DepthLayerBlocks``), so points of light spread into bright discs while large white
    ///    areas and unclipped bright ones keep their brightness, and c): a block takes its most blurred
    ///    c and the mean colour of its pixels on that side, so a depth edge's blocks never carry the
    ///    focused subject's colour into a layer; each block splits between the two lattice radii
    ///    around its c (tent weights w_j linear in c², Σ w_j = 1, so the mix has the spread of the disc
    ///    of radius |c|); layer j, `(w_j·rgb, w_j)`, is box-decimated to 1/d (d a power of two ≤ t/3,
    ///    at least 2) as it is made, disc-blurred at that size by the radius whose spread, with the
    ///    box's, is the disc of radius t's (``disc(radius:factor:smoothing:filterName:)``),
    ///    and the layers are summed from the coarsest down (each level adds the one above, enlarged
    ///    by Catmull-Rom, which adds no spread and keeps the discs' rims: 5–6 dB nearer the full-size
    ///    disc in blurred interiors than bilinear enlargement).
    /// 5. Composite without halos: `B` = Σ layers behind the focus, `F` = Σ layers in front (both
    ///    premultiplied, so the subject's colour never enters `B`; `F` scaled to a coverage within
    ///    [0, 1], since where a nearer front depth's spread overlaps a farther one's own share the
    ///    sum passes 1, and the enlargements' lobes dip below 0 outside a layer). `B/B.a` and `F/F.a`
    ///    give way to the pixel's own colour as their coverage falls from 0.01 to 0 (weight
    ///    `clamp(100·a, 0, 1)`, dividing by at least 0.01): where a pixel's 2×2 block went to the front
    ///    layers it has no share behind, and `B.a` there is only lobes of ±1e-3. Behind the focus plane the pixel's
    ///    own part `S` runs linearly in c² from the photo through the two Gaussians to `B/B.a` at the
    ///    innermost layer's radius `t`, and `out = F + (1 − F.a)·S`: the blurred foreground covers its
    ///    edge, the background behind the subject is its own colour extended. In focus or in front,
    ///    the pixel keeps only its share not already spread by the front layers, `1 − w`
    ///    (`w = clamp((c² − r₁²)/(t² − r₁²), 0, 1)`), as the photo-to-Gaussians mix `s`, and what the
    ///    blurred foreground no longer covers shows the hidden scene `H` behind it:
    ///    `out = F + min(1 − w, 1 − F.a)·s + max(w − F.a, 0)·mix(F/F.a, H/H.a, clamp(20·H.a, 0, 1))`. So a blurred foreground's silhouette
    ///    is semi-transparent on both sides of its edge (partial occlusion) instead of an opaque
    ///    cut-out. `H` is the photo's pixels that are not spread by the front layers (weight `1 − w`,
    ///    1 behind the focus plane) filled in by a pull-push pyramid (tent-decimated by 2 down to
    ///    a pixel of max(maxFront/2, 2), then each level over the next coarser one enlarged
    ///    bilinearly): the colour around the foreground, extended under it and normalised (`H/H.a`: the
    ///    scene just outside the outline shows through just inside it at full strength, as in a layered
    ///    render); only where no such pixel is within reach (`H.a` under 0.05, a seam between two
    ///    blurred foreground depths) does the front layers' own colour `F/F.a` take its place.
    /// 6. Grain: `+ g·(h(x, y) − ½)·clamp(|c|/2, 0, 1)` on R, G, B, h the interleaved gradient noise
    ///    `fract(52.9829189·fract(0.06711056·x + 0.00583715·y))` of the pixel position (Jimenez 2014),
    ///    g = inputLumaNoiseScale (0 → 0.004), so blurred areas keep a sensor-like texture.
    ///
    /// The blur value map (after step 3, one grey plane), the blocks, a scaled photo and each side's
    /// sum of its coarse layers (1/8 size and smaller) are intermediates (`insertingIntermediate`):
    /// the coarse layers read them with wide margins, or are read so, so each is computed once,
    /// whole, instead of again in every tile's margins.
    static let depthBlurEffect = FilterDescriptor(
        name: "CIDepthBlurEffect", categories: ["CICategoryBlur", "CICategoryStillImage"],
        summary: "Portrait blur: disc blur of radius k·|D − f|/f by depth-sorted layers (front over sharp over normalised back), D the guided disparity, f its robust mean over the focus rect.",
        inputs: [
            FilterInput("inputImage", .image, "The photo."),
            FilterInput("inputDisparityImage", .image, "Its disparity (1/m, red channel, any size: refined to the photo's).",
                        photoMap: .disparity),
            FilterInput("inputAperture", .number, default: .number(0), minimum: 0, maximum: 22, slider: 0...22,
                        "The simulated f-number: lower blurs more; 0 is f/2.8."),
            FilterInput("inputFocusRect", .rect, default: nil,
                        "The area to keep sharp, normalised (0…1, lower-left origin); default (0.45, 0.45, 0.1, 0.1)."),
            FilterInput("inputScaleFactor", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0...1,
                        "Render scale (previews); below 0.001 the image is returned unchanged."),
            FilterInput("inputLumaNoiseScale", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...0.1,
                        "Grain added where blurred (linear units); 0 is 0.004."),
            FilterInput("inputMatteImage", .image, default: .image(noMatte),
                        "A portrait matte (1 = subject, kept sharp); used when larger than 1×1.", photoMap: .portraitEffectsMatte),
        ]
    ) { args in
        let image = try args.image("inputImage"), disparity = try args.image("inputDisparityImage")
        for (key, value) in [("inputImage", image), ("inputDisparityImage", disparity)] where value.extent.isInfinite || value.extent.isEmpty {
            throw GraphError.invalidParameter(filter: "CIDepthBlurEffect", key: key, reason: "the image must have a finite, non-empty extent")
        }
        let scale = try args.number("inputScaleFactor")
        if scale < 0.001 { return image }
        let focusRect = try FocusRect.argument(args, filter: "CIDepthBlurEffect", size: (image.extent.width, image.extent.height), of: "the photo")
        let aperture = try args.number("inputAperture"), noise = try args.number("inputLumaNoiseScale")
        let matte = try args.image("inputMatteImage")
        return try PortraitBlur(
            photo: scale < 1 ? scaled(image, by: scale) : image,
            disparity: disparity, matte: matte.extent.width > 1 || matte.extent.height > 1 ? matte : nil,
            focusRect: focusRect, aperture: aperture > 0 ? aperture : 2.8, grain: noise > 0 ? noise : 0.004
        ).render()
    }

    /// The photo at the render scale. A JPEG file at a DCT scale (1/2, 1/4 or 1/8, its size a
    /// multiple) is decoded at that size: libjpeg's scaled IDCT is a low-pass of its own (45.8 dB
    /// from the Lanczos scale on the iPhone X portrait at 1/4), so no resample runs and no larger
    /// decode is held. Any other photo or scale is Lanczos-scaled, once, whole (an intermediate:
    /// the value map's and the blocks' renders and the composite all read it).
    static func scaled(_ image: Image, by scale: Double) -> Image {
        let e = image.extent, k = 1 / scale
        if case .file = image.node.kind, [2.0, 4, 8].contains(k), e.minX == 0, e.minY == 0,
           e.width.truncatingRemainder(dividingBy: k) == 0, e.height.truncatingRemainder(dividingBy: k) == 0 {
            return image.transformed(by: AffineTransform(scaleX: scale, y: scale))
        }
        return ResamplingFilters.scaled(image, sx: scale, sy: scale, kernel: .lanczos3, name: "CIDepthBlurEffect_scale")
            .insertingIntermediate(named: "CIDepthBlurEffect_scaled")
    }

    /// A 1×1 transparent image: no matte (Core Image ignores mattes of 1×1 or less).
    static let noMatte = Image(color: [0, 0, 0, 0]).cropped(to: Rect(x: 0, y: 0, width: 1, height: 1))
}

/// The graph of CIDepthBlurEffect for one photo (see ``DepthEffectFilters/depthBlurEffect``).
struct PortraitBlur {
    let photo: Image
    let disparity: Image
    let matte: Image?
    /// Normalised, lower-left origin.
    let focusRect: Rect
    let aperture: Double
    let grain: Double

    static let name = "CIDepthBlurEffect"

    var extent: Rect { photo.extent }
    var longSide: Double { max(extent.width, extent.height) }
    /// Largest radius behind the focus plane (px).
    var maximumBackRadius: Double { 0.025 * longSide }
    /// Largest radius in front of it.
    var maximumFrontRadius: Double { 0.5 * maximumBackRadius }

    /// Lattice radii from the smallest (≥ 1.5 px) up to `maximum`: a factor ∛2 apart down to 6 px,
    /// √2 below.
    static func radii(upTo maximum: Double) -> [Double] {
        var radii: [Double] = []
        var r = maximum
        while r >= 1.5 { radii.append(r); r /= r >= 6 ? 1.2599210498948732 : 2.0.squareRoot() }  // ∛2, then √2
        return radii.reversed()
    }

    func render() throws -> Image {
        let back = Self.radii(upTo: maximumBackRadius), front = Self.radii(upTo: maximumFrontRadius)
        // The largest radius up to 3 px is a Gaussian of the photo (a half-size layer's disc of 1.1 px
        // would be no better, at the cost of a layer); the larger ones are layers. From 480 px on the
        // long side the front lattice is the back one without its top three, so both sides share the
        // Gaussian (smaller images share r₁ but not every radius).
        guard let r1 = back.last(where: { $0 <= 3 }) ?? back.first else { return photo }
        let backLayers = back.filter { $0 > r1 * 1.0001 }, frontLayers = front.filter { $0 > r1 * 1.0001 }  // the front's r₁ may differ in the last bit
        // Too small an image for a foreground blur: nothing is blurred in front of the focus.
        let frontCap = front.isEmpty ? 0 : maximumFrontRadius
        let refined = try photo.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: [
            "inputSmallImage": .image(disparity), "inputSpatialSigma": .number(1), "inputLumaSigma": .number(0.05)])
        let focus = disparity.applying(FocusDisparity(area: focusArea)).clampedToExtent()
        let mask = matte.map { $0.clampedToExtent().transformed(by: Self.fit($0.extent, to: extent)) }
            ?? Image(color: [0, 0, 0, 0])
        let blurArguments: [KernelArgument] = [.number(0.1 * longSide / aperture), .number(1), .number(maximumBackRadius), .number(frontCap)]
        let raw = try Self.blurMapKernel.apply([.image(refined), .image(focus), .image(mask)] + blurArguments, extent: extent)
        // The value map and the blocks are read with the wide margins of the coarsest layers: each
        // is computed once, whole, rather than again in every tile's margins.
        let nearer = raw.clampedToExtent()
            .applying(DiscSpans(radius: max(1, longSide / 1500), reduction: .maximum, grey: true, filterName: "\(Self.name)_value"))
            .cropped(to: extent)
        let value = try acrossFocus(nearer: nearer, focus: focus, mask: mask, arguments: blurArguments)
            .insertingIntermediate(named: "\(Self.name)_value")

        // The small radii's ladder: the photo (0), a Gaussian of the lattice radius below r₁ (r₀, σ = r₀/2)
        // and one of r₁ (σ = r₁/2).
        let r0 = back.last(where: { $0 < r1 * 0.9999 }) ?? r1 / 2.0.squareRoot()
        func blurred(_ r: Double, _ stage: String) -> Image {
            photo.clampedToExtent().applying(Resample(kernel: .gaussian(sigma: r / 2), x: .init(step: 1, offset: 0),
                                                      y: .init(step: 1, offset: 0), filterName: "\(Self.name)_\(stage)"))
        }
        let gaussian = blurred(r1, "gaussian"), smallGaussian = blurred(r0, "gaussian_small")
        let origin = (x: Int(extent.minX), y: Int(extent.minY))
        let blocking = DepthLayerBlocks(origin: origin, gain: 1.5, probe: max(3, Int((longSide / 1000).rounded())),
                                        filterName: "\(Self.name)_blocks")
        let blocks = photo.clampedToExtent().applying(blocking, with: [value.clampedToExtent()])
            .cropped(to: blocking.outputExtent(inputExtents: [extent]))
            .insertingIntermediate(named: "\(Self.name)_blocks_whole")
        let backSum = try layers(backLayers, sign: -1, inner: r1, blocks: blocks)
        let frontSum = try layers(frontLayers, sign: 1, inner: r1, blocks: blocks)
        let empty = Image(color: [0, 0, 0, 0])
        // Reciprocals of the own part's spans (uniforms: a multiply per pixel, not a divide).
        func span(_ t: Double?) -> Double { 1 / max((t ?? 1e9) * (t ?? 1e9) - r1 * r1, 0.0001) }
        let frontSpan = span(frontLayers.first)
        let hidden = frontSum == nil ? empty : try hiddenScene(value: value, r1: r1, frontSpan: frontSpan)
        return try Self.compositeKernel.apply(
            [.image(photo), .image(value), .image(smallGaussian), .image(gaussian), .image(backSum ?? empty), .image(frontSum ?? empty),
             .image(hidden), .number(r0 * r0), .number(1 / (r0 * r0)), .number(r1 * r1), .number(1 / (r1 * r1 - r0 * r0)),
             .number(span(backLayers.first)), .number(frontSpan), .number(grain)], extent: extent)
    }

    /// The blur value map with the bands where a depth edge's ramp crosses the focus plane given to
    /// the nearer side (step 3, ``DepthAcrossFocus``): `nearer` the signed radius per pixel's
    /// small-disc maximum, `focus` the focus disparity (clamped 1×1), `mask` the matte at the photo's size. The extremes around each pixel come from the disparity map at its own
    /// size (the same radius formula, `blurArguments`, on the unrefined map, then a 3×3 maximum of
    /// `(c, −c)`); the sign test reads `nearer`, `max(2, round(0.75·s))` px either side, at most 16 (s the
    /// photo's size over the map's: about the width of the map's ramp once refined).
    func acrossFocus(nearer: Image, focus: Image, mask: Image, arguments blurArguments: [KernelArgument]) throws -> Image {
        let map = disparity.extent
        let coarse = try Self.blurMapKernel.apply(
            [.image(disparity), .image(focus), .image(mask.transformed(by: Self.fit(extent, to: map)))] + blurArguments, extent: map)
        let extremes = try Self.signedPairKernel.apply([.image(coarse)], extent: map).clampedToExtent()
            .applyingFilter("CIMorphologyRectangleMaximum", parameters: ["inputWidth": .number(3), "inputHeight": .number(3)])
            .cropped(to: map)
        let ratio = longSide / max(map.width, map.height)
        let across = DepthAcrossFocus(probe: Int(min(max(2, (0.75 * ratio).rounded()), 16)), photo: extent, map: map,
                                      filterName: "\(Self.name)_across_focus")
        return nearer.applying(across, with: [extremes.clampedToExtent()])
    }

    /// `H`, the scene hidden behind the blurred foreground, premultiplied: the photo weighted by each
    /// pixel's share not spread by the front layers (1 behind the focus plane, `1 − w` in front),
    /// pull-push filled. Down: tent-decimated by 2 per level (`(1, 3, 3, 1)/8` on each axis) until a
    /// level pixel spans half the largest front radius (at least 1 level); up: each level over the
    /// next coarser one enlarged bilinearly, `L + (1 − L.a)·up`. The coarsest level is not
    /// normalised, so `H.a` falls from 1 to 0 with the distance to the nearest such pixel, over about
    /// the largest front radius: it says how much of a foreground's uncovered part is the scene
    /// behind it rather than a seam between two foreground layers. The first level (half size) is an
    /// intermediate: the coarser levels read it with wide margins.
    func hiddenScene(value: Image, r1: Double, frontSpan: Double) throws -> Image {
        let stage = "\(Self.name)_hidden"
        let weighted = try Self.hiddenSourceKernel.apply([.image(photo), .image(value), .number(r1 * r1), .number(frontSpan)], extent: extent)
        var levels: [Image] = []
        var level = weighted, origin = (x: extent.minX, y: extent.minY)
        repeat {
            let e = level.extent
            let half = Rect(x: 0, y: 0, width: (e.width / 2).rounded(.up), height: (e.height / 2).rounded(.up))
            level = level.clampedToExtent()
                .applying(Resample(kernel: .linear, x: .init(step: 2, offset: origin.x), y: .init(step: 2, offset: origin.y),
                                   filterName: "\(stage)_down\(levels.count + 1)"))
                .cropped(to: half)
            if levels.isEmpty { level = level.insertingIntermediate(named: "\(stage)_half") }
            origin = (0, 0)
            levels.append(level)
        } while Double(1 << levels.count) < max(maximumFrontRadius / 2, 2) && min(level.extent.width, level.extent.height) > 1
        var filled = levels[levels.count - 1]
        for finer in levels.dropLast().reversed() {
            let above = Self.enlarged(filled.clampedToExtent(), by: 2, origin: (0, 0), stage: "\(stage)_up").cropped(to: finer.extent)
            filled = try Self.overKernel.apply([.image(finer), .image(above)], extent: finer.extent)
        }
        return Self.enlarged(filled.clampedToExtent(), by: 2, origin: (extent.minX, extent.minY), stage: stage).cropped(to: extent)
    }

    /// The sum of one side's layers (`radii` ascending, signed by `sign`: −1 behind the focus plane),
    /// at full size: layer j takes the tent weight of the blur map around its radius between its
    /// lattice neighbours (`inner` below the first), box-decimated from the half-size blocks to 1/d
    /// (d a power of two ≤ radius/3, at least 2) in the same pass, and disc-blurred by radius/d; the sum
    /// is gathered from the coarsest level down, each level adding the one above enlarged bilinearly
    /// (a pyramid collapse).
    func layers(_ radii: [Double], sign: Double, inner: Double, blocks: Image) throws -> Image? {
        let side = "\(Self.name)_\(sign < 0 ? "back" : "front")"
        let factors = radii.map(Self.decimation)
        var sum: Image?, sumFactor = 2
        for j in radii.indices.reversed() {
            let t = radii[j], lower = j > 0 ? radii[j - 1] : inner, upper = j + 1 < radii.count ? radii[j + 1] : 1e9
            let d = factors[j]
            let stage = side + formatRadius(t)
            let (low, high) = sign < 0 ? (-upper, -lower) : (lower, upper)
            let tent = DepthLayerTent(low: low, mid: sign * t, high: high)
            // The enlargements to full size are Catmull-Rom: they add no spread.
            let disc = Self.disc(radius: t, factor: d, smoothing: Double(d * d) / 12, filterName: stage)
            var level: Image
            if d == 2 {
                // At the blocks' own size: the layer is made as the disc reads it (outside the blocks,
                // nothing: c = 0 weighs 0).
                level = blocks.applying(DepthLayerDisc(tent: tent, disc: disc)).cropped(to: blocks.extent.outset(dx: 1, dy: 1))
            } else {
                let decimate = DepthLayerDecimate(tent: tent, factor: d / 2, origin: (0, 0), filterName: stage + "_layer")
                let layer = blocks.clampedToExtent().applying(decimate).cropped(to: decimate.outputExtent(inputExtents: [blocks.extent]))
                level = layer.applying(disc).cropped(to: layer.extent.outset(dx: 1, dy: 1))
            }
            if let coarser = sum {
                let above = sumFactor == d ? coarser : Self.enlarged(coarser, by: sumFactor / d, origin: (0, 0), stage: stage, kernel: .cubic(b: 0, c: 0.5))
                level = try Self.sumKernel.apply([.image(level), .image(above)], extent: level.extent)
            }
            // The coarse levels (1/8 size and smaller) are small, and a tile would read each with
            // margins many times its own size: their collapsed sum is computed once, whole.
            if d >= Self.wholeFromFactor && (j == 0 || factors[j - 1] < Self.wholeFromFactor) {
                level = level.insertingIntermediate(named: "\(side)_coarse")
            }
            sum = level
            sumFactor = d
        }
        return sum.map { Self.enlarged($0, by: sumFactor, origin: (extent.minX, extent.minY), stage: side, kernel: .cubic(b: 0, c: 0.5)).cropped(to: extent) }
    }

    /// The decimation from which a side's layers are summed whole, before the tiles (1/8 size: at
    /// most 1.5 MB for a 12 MP photo, where a 512 px tile would read each coarse layer with margins
    /// of up to 14 times its own width).
    static let wholeFromFactor = 8

    /// A layer's decimation: the largest power of two d ≤ t/3 (at least 2).
    static func decimation(_ t: Double) -> Int {
        var d = 2
        while Double(2 * d) * 3 <= t { d *= 2 }
        return d
    }

    /// The disc mean at 1/`factor` size whose spread, with the decimation's and enlargements'
    /// (`smoothing`, variance in full-size pixels²), is a disc of radius `radius`'s (`r²/4` per axis):
    /// the coarse radius is chosen on a 0.01 px grid so that `factor²·var(disc) + smoothing` is
    /// nearest `radius²/4`. A plain `radius/factor` renders wider (about 5 % at radius 9 on 1/2 size).
    static func disc(radius: Double, factor: Int, smoothing: Double, filterName: String) -> DiscSpans {
        let d = Double(factor), target = radius * radius / 4
        var best = DiscSpans(radius: radius / d, reduction: .mean, filterName: filterName), bestError = Double.infinity
        for step in 50...Int(radius / d * 120) {
            let candidate = DiscSpans(radius: Double(step) / 100, reduction: .mean, filterName: filterName)
            let error = abs(d * d * candidate.variance + smoothing - target)
            if error < bestError { (best, bestError) = (candidate, error) }
        }
        return best
    }

    /// `image` enlarged `factor` times bilinearly (a separable pass), its origin moved to `origin`.
    static func enlarged(_ image: Image, by factor: Int, origin: (x: Double, y: Double), stage: String,
                         kernel: Resample.Kernel = .linear) -> Image {
        let step = 1 / Double(factor)
        return image.applying(Resample(kernel: kernel, x: .init(step: step, offset: -origin.x * step),
                                       y: .init(step: step, offset: -origin.y * step), filterName: stage + "_enlarge"))
    }

    /// The focus rectangle in the disparity map's pixels, rounded out.
    var focusArea: Rect {
        let e = disparity.extent
        return Rect(x: e.minX + focusRect.minX * e.width, y: e.minY + focusRect.minY * e.height,
                    width: focusRect.width * e.width, height: focusRect.height * e.height).integral
    }

    /// The transform that stretches `source` onto `target`.
    static func fit(_ source: Rect, to target: Rect) -> AffineTransform {
        AffineTransform(translationX: -source.minX, y: -source.minY)
            .concatenating(AffineTransform(scaleX: target.width / source.width, y: target.height / source.height))
            .concatenating(AffineTransform(translationX: target.minX, y: target.minY))
    }

    func formatRadius(_ r: Double) -> String { "\((r * 100).rounded() / 100)" }

    /// Signed radius `c = sign(r)·max(|r| − dead, 0)` with `r = k·(d − f)/f`, clamped to
    /// [−maxBack, maxFront], times `1 − matte`. NaN disparities (holes) count as in focus.
    static let blurMapKernel = CatalogueKernel("""
        kernel vec4 depthBlurMap(__sample d, __sample focus, __sample matte, float k, float dead, float maxBack, float maxFront) {
            float f = max(focus.r, 0.0001);
            float delta = (d.r - f) / f;
            delta = delta == delta ? delta : 0.0;
            float r = k * delta;
            float c = sign(r) * max(abs(r) - dead, 0.0);
            c = clamp(c, -maxBack, maxFront) * (1.0 - clamp(matte.r, 0.0, 1.0));
            return vec4(c, c, c, 1.0);
        }
        """)

    /// A signed radius as the pair `(c, −c)`: one maximum filter then gives the largest value in red
    /// and the negated smallest in green.
    static let signedPairKernel = CatalogueKernel("""
        kernel vec4 depthSignedPair(__sample c) { return vec4(c.r, -c.r, 0.0, 1.0); }
        """)

    /// The hidden scene's source: the photo's colour weighted by the share of the pixel that the
    /// front layers do not spread, `(m·rgb, m)`, `m = 1` for c ≤ 0, else `1 − clamp((c² − r1²)·frontSpan, 0, 1)`
    /// (frontSpan = `1/(t² − r1²)`, t the innermost front layer's radius).
    static let hiddenSourceKernel = CatalogueKernel("""
        kernel vec4 depthHiddenSource(__sample s, __sample c, float r1Squared, float frontSpan) {
            float m = c.r > 0.0 ? 1.0 - clamp((c.r * c.r - r1Squared) * frontSpan, 0.0, 1.0) : 1.0;
            return vec4(s.rgb * m, m);
        }
        """)

    /// A pull-push level over the enlarged coarser one: `a + (1 − a.a)·b`.
    static let overKernel = CatalogueKernel("""
        kernel vec4 depthHiddenOver(__sample a, __sample b) { return a + (1.0 - clamp(a.a, 0.0, 1.0)) * b; }
        """)

    /// The sum of two premultiplied layers.
    static let sumKernel = CatalogueKernel("""
        kernel vec4 depthLayerSum(__sample a, __sample b) { return a + b; }
        """)

    /// The composite (step 5), `F` the front sum scaled to a coverage within [0, 1]: behind the focus plane `out = F + (1 − F.a)·S`, `S` linear in c²
    /// (c the blur value) from the photo (0) through the Gaussians `g0` (r0) and `g` (r1) to `B/B.a` (reached at the
    /// innermost layer radius t; the spans come as reciprocals, `1/r0²`, `1/(r1² − r0²)` and `1/max(t² − r1², 0.0001)`);
    /// in focus or in front `out = F + min(1 − w, 1 − F.a)·s + max(w − F.a, 0)·mix(F/F.a, H/H.a, clamp(20·H.a, 0, 1))`
    /// (s the photo-to-Gaussians mix, w the share in the front layers, H the hidden scene, normalised,
    /// and the front layers' own colour only where no hidden scene is near; s where F is empty); plus grain
    /// where blurred; alpha of the photo. destCoord − ½ is the pixel's integer position.
    static let compositeKernel = CatalogueKernel("""
        kernel vec4 depthComposite(__sample s, __sample c, __sample g0, __sample g, __sample back, __sample frontSum, __sample hidden,
                                   float r0Squared, float inverseR0Squared, float r1Squared, float smallSpan,
                                   float backSpan, float frontSpan, float grain) {
            vec4 front = frontSum * (clamp(frontSum.a, 0.0, 1.0) / max(frontSum.a, 0.000001));
            float r = c.r;
            float a = abs(r);
            vec3 small = a * a < r0Squared ? mix(s.rgb, g0.rgb, a * a * inverseR0Squared)
                                           : mix(g0.rgb, g.rgb, clamp((a * a - r0Squared) * smallSpan, 0.0, 1.0));
            bool behind = r < 0.0;
            float wl = clamp((a * a - r1Squared) * (behind ? backSpan : frontSpan), 0.0, 1.0);
            float cover = clamp(front.a, 0.0, 1.0);
            vec3 layer = mix(small, back.rgb * (1.0 / max(back.a, 0.01)), clamp(back.a * 100.0, 0.0, 1.0));
            vec3 own = behind ? small + wl * (layer - small) : small;
            float ownPart = behind ? 1.0 - cover : min(1.0 - wl, 1.0 - cover);
            float hiddenPart = behind ? 0.0 : max(wl - cover, 0.0);
            vec3 others = mix(small, front.rgb * (1.0 / max(front.a, 0.01)), clamp(front.a * 100.0, 0.0, 1.0));
            vec3 scene = mix(others, hidden.rgb * (1.0 / max(hidden.a, 0.0001)), clamp(hidden.a * 20.0, 0.0, 1.0));
            vec2 p = destCoord() - 0.5;
            float h = fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715)))) - 0.5;
            float amount = grain * h * clamp(a * 0.5, 0.0, 1.0);
            vec3 rgb = front.rgb + ownPart * own + hiddenPart * scene + vec3(amount);
            return vec4(rgb * s.a, s.a);
        }
        """)
}
