import Foundation
import GraphEngine

/// Blurs beyond the Gaussian (CICategoryBlur), each built on area passes that scale with the radius.
/// As in Core Image, pixels outside the input's extent are transparent and blur in; clamp the input
/// to its extent first (`clampedToExtent()`) for hard edges.
enum NeighbourhoodBlurFilters {
    static let categories = ["CICategoryBlur", "CICategoryStillImage", "CICategoryVideo"]
    static let all: [FilterDescriptor] = [box, disc, bokeh, motion, zoom, maskedVariable, bloom, gloom]

    /// The Gaussian's taps as two separable passes (the helper the other filters share).
    static func gaussian(_ image: Image, sigma: Double, name: String) -> Image {
        let weights = BlurFilters.gaussianWeights(sigma: sigma)
        if weights.count == 1 { return image }
        return image.applying(Convolution(axis: .horizontal, weights: weights, filterName: name))
            .applying(Convolution(axis: .vertical, weights: weights, filterName: name))
    }

    /// The mean over a (2r+1)² box, separably by running sums (O(1) per pixel):
    /// `out(x) = (Σ_{|k|≤n} in(x+k) + f·(in(x−n−1) + in(x+n+1)))/(2r+1)` along each axis, n = ⌊r⌋,
    /// f = r − n (partial end taps, so the blur grows continuously). Extent grows by ⌈r⌉.
    static let box = FilterDescriptor(
        name: "CIBoxBlur", categories: categories,
        summary: "Blurs with a box of width 2r + 1: per axis out(x) = (Σ_{|k|≤n} in(x+k) + f·(in(x−n−1) + in(x+n+1)))/(2r+1), n = ⌊r⌋, f = r − n (running sums).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(10), minimum: 0, maximum: 2000, slider: 1...100,
                             "Half the box width, in pixels.")]
    ) { args in
        let radius = try args.number("inputRadius"), image = try args.image("inputImage")
        if radius <= 0 { return image }
        return image.applying(BoxMean(axis: .horizontal, radius: radius, filterName: "CIBoxBlur"))
            .applying(BoxMean(axis: .vertical, radius: radius, filterName: "CIBoxBlur"))
    }

    /// The mean over the disc `dx² + dy² ≤ r²` (exact disc, by row spans: O(r) per pixel). Extent
    /// grows by ⌊r⌋. Apple's implementation is not public; this is the plain definition.
    static let disc = FilterDescriptor(
        name: "CIDiscBlur", categories: categories,
        summary: "Blurs with a disc: the mean of in(x+dx, y+dy) over dx² + dy² ≤ r² (row spans).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(8), minimum: 0, maximum: 1000, slider: 0...100,
                             "The disc's radius in pixels.")]
    ) { args in
        let radius = try args.number("inputRadius"), image = try args.image("inputImage")
        if radius < 1 { return image }
        return image.applying(DiscSpans(radius: radius, reduction: .mean, filterName: "CIDiscBlur"))
    }

    /// Ours (Apple's kernel is not public): a lens's bokeh, a disc with a bright rim, then softened.
    /// With `D_r` the disc `dx² + dy² ≤ r²` (CIDiscBlur's, r = inputRadius) and the ring `D_r \ D_q`,
    /// `q = r·(1 − inputRingSize)`, the kernel weighs the disc 1 and the ring `1 + 4·inputRingAmount`:
    /// `k = (S_r + g·(S_r − S_q))/(N_r + g·(N_r − N_q))`, `g = 4·inputRingAmount`, `S` the sums and
    /// `N` the pixel counts of the discs; then CIGaussianBlur of σ = inputSoftness pixels. Transparent
    /// outside the input (clamp it first for hard edges); extent grown by ⌊r⌋ and the Gaussian's ⌈3σ⌉.
    static let bokeh = FilterDescriptor(
        name: "CIBokehBlur", categories: ["CICategoryBlur", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "A disc of radius r whose rim (the outer inputRingSize·r) weighs 1 + 4·inputRingAmount, normalised (two disc means "
            + "by row spans), then a Gaussian of σ = inputSoftness; extent grows by ⌊r⌋ + ⌈3σ⌉.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(20), minimum: 0, maximum: 500, slider: 0...100,
                             "The disc's radius in pixels."),
                 FilterInput("inputRingAmount", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...1,
                             "How much brighter the rim is: it weighs 1 + 4 times this."),
                 FilterInput("inputRingSize", .number, default: .number(0.1), minimum: 0, maximum: 0.2, slider: 0...0.2,
                             "The rim's width as a fraction of the radius."),
                 FilterInput("inputSoftness", .number, default: .number(1), minimum: 0, maximum: 10, slider: 0.25...0.4,
                             "The σ in pixels of the Gaussian that softens the disc's edge.")]
    ) { args in
        let image = try args.image("inputImage"), radius = try args.number("inputRadius")
        let g = 4 * (try args.number("inputRingAmount")), inner = radius * (1 - (try args.number("inputRingSize")))
        var result = image
        if radius >= 1 {
            let outer = DiscSpans(radius: radius, reduction: .mean, filterName: "CIBokehBlur")
            let whole = image.applying(outer)
            if g > 0 && DiscSpans(radius: inner, reduction: .mean, filterName: "CIBokehBlur_ring").count < outer.count {
                let disc = DiscSpans(radius: inner, reduction: .mean, filterName: "CIBokehBlur_ring")
                let nr = Double(outer.count), nq = Double(disc.count), total = nr + g * (nr - nq)
                // out = (N_r(1 + g)·M_r − g·N_q·M_q)/total, M the disc means.
                result = try bokehRingKernel.apply([.image(whole), .image(image.applying(disc)), .number(nr * (1 + g) / total),
                                                    .number(g * nq / total)], extent: whole.extent)
            } else {
                result = whole
            }
        }
        return gaussian(result, sigma: try args.number("inputSoftness"), name: "CIBokehBlur_soft")
    }

    static let bokehRingKernel = CatalogueKernel("""
        kernel vec4 CIBokehBlur(__sample whole, __sample inner, float a, float b) {
            return a * whole - b * inner;
        }
        """)

    /// A 1-D Gaussian of σ = inputRadius along the direction (cos θ, sin θ), as Core Image does it:
    /// the image is rotated by −θ (bilinear) so the streak runs along rows, blurred by the separable
    /// Gaussian's horizontal pass, and rotated back (axis-aligned angles skip the rotations). The
    /// extent grows by 3σ along the direction.
    static let motion = FilterDescriptor(
        name: "CIMotionBlur", categories: categories,
        summary: "Blurs along (cos θ, sin θ): a 1-D Gaussian of σ = inputRadius (rotate by −θ, blur rows, rotate back).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(20), minimum: 0, maximum: 1000, slider: 0...100,
                             "The streak's standard deviation in pixels."),
                 FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                             "The direction in radians.")]
    ) { args in
        let sigma = try args.number("inputRadius"), angle = try args.number("inputAngle")
        let image = try args.image("inputImage")
        let weights = BlurFilters.gaussianWeights(sigma: sigma)
        if weights.count == 1 { return image }
        let (c, s) = (cos(angle), sin(angle))
        if abs(s) < 1e-9 { return image.applying(Convolution(axis: .horizontal, weights: weights, filterName: "CIMotionBlur")) }
        if abs(c) < 1e-9 { return image.applying(Convolution(axis: .vertical, weights: weights, filterName: "CIMotionBlur")) }
        let reach = Double((weights.count - 1) / 2)
        let streaked = image.transformed(by: AffineTransform(rotationAngle: -angle))
            .applying(Convolution(axis: .horizontal, weights: weights, filterName: "CIMotionBlur"))
            .transformed(by: AffineTransform(rotationAngle: angle))
        return streaked.cropped(to: image.extent.outset(dx: reach * abs(c), dy: reach * abs(s)).integral)
    }

    /// Each pixel averages the image zoomed about inputCenter by factors from 1 to
    /// `z = 1/(1 + inputAmount/100)` (the point p reads `c + (p − c)·z^(j/(N−1))`, N = 2^K samples
    /// spaced geometrically), computed as K halvings: `I_{k+1}(p) = ½(I_k(p) + I_k(c + (p − c)·r^(2^k)))`
    /// with `r = z^(1/(N−1))`, each step one bilinear read of the previous one. N is the smallest power
    /// of two (≤ 256) with samples at most a pixel apart at the farthest corner of the extent. Apple's
    /// kernel is not public; this is ours.
    static let zoom = FilterDescriptor(
        name: "CIZoomBlur", categories: categories,
        summary: "Blurs toward inputCenter: the mean of in(c + (p − c)·z^(j/(N−1))) over N geometric zooms to z = 1/(1 + amount/100), as log2 N halvings.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2, "The zoom's centre."),
                 FilterInput("inputAmount", .number, default: .number(20), minimum: 0, maximum: 1000, slider: 0...200,
                             "The zoom in percent.")]
    ) { args in
        let amount = try args.number("inputAmount"), centre = try args.vector("inputCenter")
        let image = try args.image("inputImage")
        if amount <= 0 { return image }
        let smallest = 1 / (1 + amount / 100)
        let e = image.extent.isInfinite ? Rect(x: centre[0] - 1000, y: centre[1] - 1000, width: 2000, height: 2000) : image.extent
        let far = [(e.minX, e.minY), (e.maxX, e.minY), (e.minX, e.maxY), (e.maxX, e.maxY)]
            .map { hypot($0.0 - centre[0], $0.1 - centre[1]) }.max() ?? 0
        var samples = 2
        while samples < 256 && Double(samples - 1) < far * (1 - smallest) { samples *= 2 }
        let ratio = pow(smallest, 1 / Double(samples - 1))
        var result = image, step = ratio
        while true {
            let zoomed = result.transformed(by: AffineTransform(translationX: -centre[0], y: -centre[1])
                .concatenating(AffineTransform(scaleX: 1 / step, y: 1 / step))
                .concatenating(AffineTransform(translationX: centre[0], y: centre[1])))
            result = result.applying(AreaCombineOperation(.average), with: [zoomed])
            samples /= 2
            if samples == 1 { break }
            step *= step
        }
        return result
    }

    /// Blurs each pixel by a Gaussian of σ = inputRadius · clamp(L(mask), 0, 1) (L = 0.2125 r +
    /// 0.7154 g + 0.0721 b): Gaussian levels σ_j = inputRadius/2^j down to about 1 pixel, each
    /// computed only every d_j pixels (d_j the largest power of two ≤ σ_j/2: the blur is smooth
    /// there) and blended per pixel between the two levels around σ (linearly in σ; σ = 0 is the
    /// sharp image), the levels read bilinearly. A level whose finer neighbour is itself decimated
    /// is computed from it (a Gaussian pyramid: σ_j² = σ_{j+1}² + σ'², so σ' = √(σ_j² − σ_{j+1}²) in
    /// that level's pixels, far fewer taps over a fraction of the pixels). The work is a fraction of
    /// one full-size Gaussian of the largest σ plus two bilinear reads per pixel. Apple's method is
    /// not public (its documentation says the mask's brightness sets the radius); this is ours.
    /// Extent grows by 3σ.
    static let maskedVariable = FilterDescriptor(
        name: "CIMaskedVariableBlur", categories: categories,
        summary: "Blurs each pixel by σ = r·clamp(L(mask), 0, 1): linear blend of the two Gaussian levels (σ_j = r/2^j, sampled every d_j pixels, read bilinearly) around σ.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputMask", .image, "Its luma (0…1) scales the blur radius."),
                 FilterInput("inputRadius", .number, default: .number(5), minimum: 0, maximum: 1000, slider: 0...100,
                             "The blur's standard deviation where the mask is 1.")]
    ) { args in
        let radius = try args.number("inputRadius"), image = try args.image("inputImage"), mask = try args.image("inputMask")
        if radius < 0.01 { return image }
        var sigmas = [radius]
        while let last = sigmas.last, last / 2 >= 0.75 { sigmas.append(last / 2) }
        let levels = sigmas.reversed().map { sigma -> VariableBlurBlend.Level in
            var d = 1
            while Double(2 * d) <= sigma / 2 { d *= 2 }
            return VariableBlurBlend.Level(sigma: sigma, decimation: d)
        }
        var grids: [Image] = []
        for (index, level) in levels.enumerated() {
            // Level pixel X is at input pixel d·X; from a finer level of decimation e, at its pixel (d/e)·X.
            let finer = index > 0 && levels[index - 1].decimation >= 2 ? levels[index - 1] : nil
            let step = Double(level.decimation / (finer?.decimation ?? 1))
            let sigma = finer.map { (level.sigma * level.sigma - $0.sigma * $0.sigma).squareRoot() / Double($0.decimation) } ?? level.sigma
            let axis = Resample.AxisMapping(step: step, offset: 0.5 - step / 2)
            grids.append((finer == nil ? image : grids[index - 1]).applying(
                Resample(kernel: .gaussian(sigma: sigma), x: axis, y: axis, filterName: "CIMaskedVariableBlur_level\(index + 1)")))
        }
        let blend = VariableBlurBlend(radius: radius, levels: levels, growth: (3 * radius).rounded(.up),
                                      filterName: "CIMaskedVariableBlur")
        return image.applying(blend, with: [mask] + grids)
    }

    /// `mix(s, screen(s, b), intensity)` with `b` the Gaussian blur (σ = inputRadius) of the image
    /// clamped to its extent and `screen(x, y) = x + y − x·y` per premultiplied channel: bright areas
    /// glow. Extent: the input's. Apple's formula is not public; this is ours.
    static let bloom = FilterDescriptor(
        name: "CIBloom", categories: ["CICategoryStylize", "CICategoryStillImage", "CICategoryVideo"],
        summary: "Adds a glow: mix(s, s + b − s·b, intensity), b the Gaussian (σ = inputRadius) of the image with edges repeated.",
        inputs: glowInputs
    ) { args in try glow(args, .bloom, "CIBloom") }

    /// `mix(s, s·b, intensity)` on R, G, B (alpha kept) with `b` as in CIBloom: the dark
    /// counterpart (multiply). Extent: the input's. Apple's formula is not public; this is ours.
    static let gloom = FilterDescriptor(
        name: "CIGloom", categories: ["CICategoryStylize", "CICategoryStillImage", "CICategoryVideo"],
        summary: "Dulls the highlights: rgb = mix(s, s·b, intensity), alpha kept, b the Gaussian (σ = inputRadius) with edges repeated.",
        inputs: glowInputs
    ) { args in try glow(args, .gloom, "CIGloom") }

    static let glowInputs = [
        ColorAdjustmentFilters.imageInput,
        FilterInput("inputRadius", .number, default: .number(10), minimum: 0, maximum: 1000, slider: 0...100,
                    "The blur's standard deviation."),
        FilterInput("inputIntensity", .number, default: .number(0.5), minimum: 0, maximum: 1, slider: 0...1,
                    "How much of the effect is mixed in."),
    ]

    static func glow(_ args: FilterArguments, _ kind: AreaCombineOperation.Kind, _ name: String) throws -> Image {
        let image = try args.image("inputImage"), intensity = try args.number("inputIntensity")
        if intensity == 0 { return image }
        let blurred = clampedBlur(image, sigma: try args.number("inputRadius"), name: name)
        return image.applying(AreaCombineOperation(kind, [Float(intensity)]), with: [blurred], extent: image.extent)
    }

    /// The Gaussian blur of the image clamped to its extent, cropped back to it (no dark borders).
    static func clampedBlur(_ image: Image, sigma: Double, name: String) -> Image {
        if image.extent.isInfinite { return gaussian(image, sigma: sigma, name: name) }
        return gaussian(image.clampedToExtent(), sigma: sigma, name: name).cropped(to: image.extent)
    }
}
