import GraphEngine

/// Depth effects (CICategoryBlur on depth photos): the portrait-mode synthetic aperture.
enum DepthEffectFilters {
    static let all: [FilterDescriptor] = [depthBlurEffect]

    /// Portrait-mode blur, as a graph of filters (`graph dump` shows each step). Apple's kernels and
    /// tuning are not public; the steps follow the structure Apple's decompiled filter shows
    /// (refine disparity, blur map, render) and everything numeric here is ours:
    ///
    /// 1. The photo is scaled by inputScaleFactor (Lanczos); the disparity is refined to its size by
    ///    CIEdgePreserveUpsampleFilter with the photo as guide (D; spatial σ 1 map pixel,
    ///    luma σ 0.05, so depth edges snap to the photo's edges).
    /// 2. Focus disparity `f`: the interquartile mean of the disparity over inputFocusRect
    ///    (normalised, lower-left origin; default the centre (0.45, 0.45, 0.1, 0.1)).
    /// 3. Signed blur radius in output pixels (positive in front of the focus plane), a thin lens
    ///    of 85 mm equivalent focal length (circle of confusion f²·|Δd|/(2N) on a 36 mm frame) at
    ///    1 m, with the disparity taken relative to the focus (so maps in any unit work):
    ///    `c = k·(D − f)/f`, `k = 0.1·L/N` (L the output's long side, N = inputAperture, 0 → f/2.8),
    ///    less a 1 px dead zone, clamped to `[−0.025·L, 0.0125·L]`, times `1 − matte`; then, behind the
    ///    focus plane, the maximum of `min(c, 0)` over a disc of radius max(1.5, L/1500): the focused
    ///    subject wins at its edges, so none of its pixels lands in a background layer (a Gaussian
    ///    there would blur its rim into the background), and no background joins a foreground layer.
    /// 4. Layers: signed radii `t` at 0 and ±R·2^−i (R the clamp, down to 1.5 px). Each pixel splits
    ///    between the two layers around its c (tent weights w_j, Σ w_j = 1); highlights are boosted in
    ///    blurred layers (`rgb·(1 + 1.5·max(L − 0.85, 0)/0.15)`); layer j is `(w_j·rgb, w_j)`,
    ///    disc-blurred by |t_j| (at 1/d resolution, d a power of two ≤ |t_j|/6, read back bilinearly).
    /// 5. Composite without halos: `B` = Σ layers behind the focus, `F` = Σ layers in front (both
    ///    premultiplied, so the subject's colour never enters `B`); `S = w_0·rgb + w_b·B/B.a + w_f·F/F.a`
    ///    (w_0, w_b, w_f the pixel's own weights), `out = F + (1 − F.a)·S`: the blurred
    ///    foreground covers its edge, the background behind the subject is its own colour extended.
    /// 6. Grain: `+ g·(h(x, y) − ½)·clamp(|c|/2, 0, 1)` on R, G, B, h a hash of the pixel position,
    ///    g = inputLumaNoiseScale (0 → 0.004), so blurred areas keep a sensor-like texture.
    static let depthBlurEffect = FilterDescriptor(
        name: "CIDepthBlurEffect", categories: ["CICategoryBlur", "CICategoryStillImage"],
        summary: "Portrait blur: disc blur of radius k·|D − f|/f by depth-sorted layers (front over sharp over normalised back), D the guided disparity, f its robust mean over the focus rect.",
        inputs: [
            FilterInput("inputImage", .image, "The photo."),
            FilterInput("inputDisparityImage", .image, "Its disparity (1/m, red channel, any size: refined to the photo's)."),
            FilterInput("inputAperture", .number, default: .number(0), minimum: 0, maximum: 22, slider: 0...22,
                        "The simulated f-number: lower blurs more; 0 is f/2.8."),
            FilterInput("inputFocusRect", .rect, default: nil,
                        "The area to keep sharp, normalised (0…1, lower-left origin); default (0.45, 0.45, 0.1, 0.1)."),
            FilterInput("inputScaleFactor", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0...1,
                        "Render scale (previews); below 0.001 the image is returned unchanged."),
            FilterInput("inputLumaNoiseScale", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...0.1,
                        "Grain added where blurred (linear units); 0 is 0.004."),
            FilterInput("inputMatteImage", .image, default: .image(noMatte),
                        "A portrait matte (1 = subject, kept sharp); used when larger than 1×1."),
        ]
    ) { args in
        let image = try args.image("inputImage"), disparity = try args.image("inputDisparityImage")
        for (key, value) in [("inputImage", image), ("inputDisparityImage", disparity)] where value.extent.isInfinite || value.extent.isEmpty {
            throw GraphError.invalidParameter(filter: "CIDepthBlurEffect", key: key, reason: "the image must have a finite, non-empty extent")
        }
        let scale = try args.number("inputScaleFactor")
        if scale < 0.001 { return image }
        let focusRect = (try? args.rect("inputFocusRect")) ?? Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1)
        let aperture = try args.number("inputAperture"), noise = try args.number("inputLumaNoiseScale")
        let matte = try args.image("inputMatteImage")
        return try PortraitBlur(
            photo: scale < 1 ? ResamplingFilters.scaled(image, sx: scale, sy: scale, kernel: .lanczos3, name: "CIDepthBlurEffect_scale") : image,
            disparity: disparity, matte: matte.extent.width > 1 || matte.extent.height > 1 ? matte : nil,
            focusRect: focusRect, aperture: aperture > 0 ? aperture : 2.8, grain: noise > 0 ? noise : 0.004
        ).render()
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

    /// Layer radii from the smallest (≥ 1.5 px) up to `maximum`, halving from it.
    static func radii(upTo maximum: Double) -> [Double] {
        var radii: [Double] = []
        var r = maximum
        while r >= 1.5 { radii.append(r); r /= 2 }
        return radii.reversed()
    }

    func render() throws -> Image {
        let back = Self.radii(upTo: maximumBackRadius), front = Self.radii(upTo: maximumFrontRadius)
        guard let innerBack = back.first else { return photo }
        // Too small an image for a foreground layer: nothing is blurred in front of the focus.
        let innerFront = front.first ?? 1, frontCap = front.isEmpty ? 0 : maximumFrontRadius
        let refined = try photo.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: [
            "inputSmallImage": .image(disparity), "inputSpatialSigma": .number(1), "inputLumaSigma": .number(0.05)])
        let focus = disparity.applying(FocusDisparity(area: focusArea)).clampedToExtent()
        let mask = matte.map { $0.transformed(by: Self.fit($0.extent, to: extent)).clampedToExtent() }
            ?? Image(color: [0, 0, 0, 0])
        let raw = try Self.blurMapKernel.apply(
            [.image(refined), .image(focus), .image(mask), .number(0.1 * longSide / aperture), .number(1),
             .number(maximumBackRadius), .number(frontCap)], extent: extent)
        let behind = try Self.behindKernel.apply([.image(raw)])
        let nearest = behind.clampedToExtent().applying(DiscSpans(radius: max(1.5, longSide / 1500), reduction: .maximum,
                                                                  filterName: "\(Self.name)_nearest"))
        let map = try Self.mapKernel.apply([.image(raw), .image(nearest)], extent: extent)

        // Signed lattice: −back (far to near), 0, +front (near to nearer).
        let lattice = back.reversed().map { -$0 } + [0] + front
        var backSum: Image?, frontSum: Image?
        for (j, t) in lattice.enumerated() where t != 0 {
            let low = j > 0 ? lattice[j - 1] : -1e9, high = j + 1 < lattice.count ? lattice[j + 1] : 1e9
            let layer = try Self.layerKernel.apply([.image(photo), .image(map), .number(low), .number(t), .number(high), .number(1.5)],
                                                   extent: extent)
            let blurred = blur(layer, radius: abs(t), label: t < 0 ? "back" : "front")
            if t < 0 {
                backSum = try backSum.map { try Self.sumKernel.apply([.image($0), .image(blurred)], extent: extent) } ?? blurred
            } else {
                frontSum = try frontSum.map { try Self.sumKernel.apply([.image($0), .image(blurred)], extent: extent) } ?? blurred
            }
        }
        let empty = Image(color: [0, 0, 0, 0])
        return try Self.compositeKernel.apply(
            [.image(photo), .image(map), .image(backSum ?? empty), .image(frontSum ?? empty),
             .number(innerBack), .number(innerFront), .number(grain)], extent: extent)
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

    /// The disc blur of a premultiplied layer: at full size up to radius 12, else at 1/d (d a power
    /// of two ≤ radius/6: Gaussian σ = d/2 decimation), the disc of radius/d, read back bilinearly.
    func blur(_ layer: Image, radius: Double, label: String) -> Image {
        let stage = "\(Self.name)_\(label)\(formatRadius(radius))"
        var d = 1
        while Double(2 * d) * 6 <= radius { d *= 2 }
        if d == 1 { return layer.applying(DiscSpans(radius: radius, reduction: .mean, filterName: stage)) }
        let step = Double(d), axis = Resample.AxisMapping(step: step, offset: 0)
        return layer.applying(Resample(kernel: .gaussian(sigma: step / 2), x: axis, y: axis, filterName: stage + "_decimate"))
            .applying(DiscSpans(radius: radius / step, reduction: .mean, filterName: stage))
            .transformed(by: AffineTransform(scaleX: step, y: step))
            .cropped(to: extent)
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

    /// Layer `mid` of the lattice: tent weight of c between its neighbours `low` and `high`, the
    /// photo's colour times it (highlights boosted by `gain`), alpha the weight.
    static let layerKernel = CatalogueKernel("""
        kernel vec4 depthLayer(__sample s, __sample c, float low, float mid, float high, float gain) {
            float r = c.r;
            float w = r < mid ? clamp((r - low) / (mid - low), 0.0, 1.0) : clamp((high - r) / (high - mid), 0.0, 1.0);
            float l = dot(s.rgb, vec3(0.2125, 0.7154, 0.0721));
            float boost = 1.0 + gain * max(l - 0.85, 0.0) / 0.15;
            return vec4(s.rgb * (w * boost), w);
        }
        """)

    /// The sum of two premultiplied layers.
    static let sumKernel = CatalogueKernel("""
        kernel vec4 depthLayerSum(__sample a, __sample b) { return a + b; }
        """)

    /// `min(c, 0)`: the map behind the focus plane.
    static let behindKernel = CatalogueKernel("""
        kernel vec4 depthBehind(__sample c) { float b = min(c.r, 0.0); return vec4(b, b, b, 1.0); }
        """)

    /// `c` in front of the focus plane, else the nearest behind-or-focus value around (`m`).
    static let mapKernel = CatalogueKernel("""
        kernel vec4 depthNearestMap(__sample c, __sample m) { float v = c.r > 0.0 ? c.r : m.r; return vec4(v, v, v, 1.0); }
        """)

    /// `out = F + (1 − F.a)·(w0·s + wb·B/B.a + wf·F/F.a)` plus grain where blurred; alpha of s.
    static let compositeKernel = CatalogueKernel("""
        kernel vec4 depthComposite(__sample s, __sample c, __sample back, __sample front,
                                   float innerBack, float innerFront, float grain) {
            float r = c.r;
            float w0 = r < 0.0 ? clamp(1.0 + r / innerBack, 0.0, 1.0) : clamp(1.0 - r / innerFront, 0.0, 1.0);
            float wb = r < 0.0 ? 1.0 - w0 : 0.0;
            float wf = r < 0.0 ? 0.0 : 1.0 - w0;
            vec3 b = back.rgb / max(back.a, 0.0001);
            vec3 f = front.rgb / max(front.a, 0.0001);
            vec3 sharp = w0 * s.rgb + wb * b + wf * f;
            float cover = clamp(front.a, 0.0, 1.0);
            vec2 p = floor(destCoord());
            float h = fract(sin(dot(p, vec2(12.9898, 78.233))) * 43758.5453) - 0.5;
            float amount = grain * h * clamp(abs(r) * 0.5, 0.0, 1.0);
            vec3 rgb = front.rgb + (1.0 - cover) * sharp + vec3(amount);
            return vec4(rgb * s.a, s.a);
        }
        """)
}
