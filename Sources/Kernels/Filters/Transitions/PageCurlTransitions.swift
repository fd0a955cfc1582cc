import Foundation
import GraphEngine

/// Page curls (CICategoryTransition): the input is a page rolled up over a cylinder that crosses it,
/// uncovering the target. Apple's kernels are not public; ours is the classic cylinder model. The
/// page is `inputExtent`, `d = (cos angle, sin angle)`, `s = (p − m)·d` about its centre `m`, `R`
/// its half-length along `d`; the cylinder (radius `ρ`) lies on the page with its axis across `d`
/// at `f = R − t·(2R + πρ)` (the page flat at time 0, gone at 1). For `x = s − f`, the page point
/// at unrolled distance `u` past the axis shows at `x = ρ·sin(u/ρ)` while `u ≤ πρ` (its back from
/// `u = πρ/2` on) and at `x = πρ − u` beyond, on top. The page point of `u` is `q(u) = p + (u − x)·d`,
/// and it exists while `q(u)` is inside the page rectangle. So at `p`:
/// - `x < 0`: the back of the page at `u₃ = πρ − x` if `q(u₃)` is on the page, else the flat input at `p`;
/// - `0 ≤ x ≤ ρ`: the back at `u₂ = ρ(π − asin(x/ρ))` if `q(u₂)` is on the page, else the front at
///   `u₁ = ρ·asin(x/ρ)` if `q(u₁)` is, else the target;
/// - `x > ρ`: the target.
/// The front is read from the input at `q(u)`, the back from `inputBacksideImage` at `q(u)`.
/// Extent: the union of the input's and the target's.
enum PageCurlTransitions {
    static let all: [FilterDescriptor] = [pageCurl, pageCurlWithShadow]

    static let commonInputs: [FilterInput] = [
        TransitionFilters.imageInput, TransitionFilters.targetInput,
        FilterInput("inputBacksideImage", .image, "The back of the page (read at the same page point as the front)."),
    ]
    static func timeAngleRadius() -> [FilterInput] {
        [TransitionFilters.timeInput,
         FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                     "The direction in radians the curl moves towards (0: the page lifts from its right edge)."),
         FilterInput("inputRadius", .number, default: .number(100), minimum: 0.01, slider: 0.01...400, "The radius of the curl in pixels.")]
    }

    /// The curl's arguments (centre, direction, (f, ρ, R − f), the page rectangle) and the page.
    static func curl(_ args: FilterArguments, page: Rect) throws -> (arguments: [KernelArgument], page: Rect) {
        let angle = try args.number("inputAngle"), radius = try args.number("inputRadius"), t = try args.number("inputTime")
        guard radius > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputRadius", reason: "the curl's radius must be above 0, got \(radius)")
        }
        guard !page.isInfinite, !page.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputExtent",
                                              reason: "the page must be a finite, non-empty rectangle, got \(page)")
        }
        let (m, half) = TransitionFilters.span(page, angle: angle)
        let front = half - t * (2 * half + Double.pi * radius)
        return ([.vector(m), .vector([cos(angle), sin(angle)]), .vector([front, radius, half - front]),
                 .vector([page.x, page.y, page.width, page.height])], page)
    }

    /// Per pixel: (case 0 flat input, 1 front, 2 back, 3 target; u − x; the angle on the
    /// cylinder, π on the flat back; x).
    static let curlSource = """
        bool onPage(vec2 q, vec4 r) {
            return q.x >= r.x && q.x <= r.x + r.z && q.y >= r.y && q.y <= r.y + r.w;
        }
        vec4 curlPoint(vec2 p, vec2 center, vec2 direction, vec3 c, vec4 pageRect) {
            float x = dot(p - center, direction) - c.x;
            float a1 = asin(clamp(x / c.y, 0.0, 1.0));
            float u1 = c.y * a1;
            float u2 = c.y * (3.141592653589793 - a1);
            float u3 = c.y * 3.141592653589793 - x;
            float which = 3.0;
            float shift = 0.0;
            float theta = 0.0;
            if (x < 0.0) {
                bool back = onPage(p + (u3 - x) * direction, pageRect);
                which = back ? 2.0 : 0.0;
                shift = back ? u3 - x : 0.0;
                theta = 3.141592653589793;
            } else if (x <= c.y) {
                if (onPage(p + (u2 - x) * direction, pageRect)) {
                    which = 2.0;
                    shift = u2 - x;
                    theta = 3.141592653589793 - a1;
                } else if (onPage(p + (u1 - x) * direction, pageRect)) {
                    which = 1.0;
                    shift = u1 - x;
                    theta = a1;
                }
            }
            return vec4(which, shift, theta, x);
        }

        """

    /// The cylinder model above; the curl (front and back, `θ = u/ρ` up to π) is shaded by the
    /// shading image's middle row read left to right as `θ` goes 0 → π (its unpremultiplied
    /// colour multiplies the page's; ours).
    static let pageCurl = FilterDescriptor(
        name: "CIPageCurlTransition", categories: TransitionFilters.categories,
        summary: "The input rolled up over a cylinder (radius ρ) crossing the page along (cos angle, sin angle), axis at "
            + "f = R − t(2R + πρ): back at u = πρ − x or ρ(π − asin(x/ρ)), front at ρ·asin(x/ρ), read at q = p + (u − x)d while q is on "
            + "the page, "
            + "target where the page has gone; the curl multiplied by the shading image's middle row at θ/π.",
        inputs: commonInputs + [FilterInput("inputShadingImage", .image, "The curl's shading: its middle row, left (flat) to right (rolled over)."),
                                TransitionFilters.extentInput] + timeAngleRadius()
    ) { args in
        let shading = try args.image("inputShadingImage")
        guard !shading.extent.isInfinite, !shading.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputShadingImage",
                                              reason: "the shading needs a finite extent (crop it), got \(shading.extent)")
        }
        let c = try curl(args, page: try args.rect("inputExtent"))
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        let page = c.page.outset(dx: 1, dy: 1), shadingRegion = shading.extent
        return try pageCurlKernel.apply(try TransitionFilters.pictures(args) + [.image(try args.image("inputBacksideImage")), .image(shading)]
                                            + c.arguments,
                                        extent: extent,
                                        regionOfInterest: .callback { index, rect in [page, rect, page, shadingRegion][index] })
    }

    static let pageCurlKernel = CatalogueKernel(curlSource + """
        kernel vec4 CIPageCurlTransition(sampler image, sampler target, sampler backside, sampler shading,
                                         vec2 center, vec2 direction, vec3 c, vec4 pageRect) {
            vec2 p = destCoord();
            vec4 k = curlPoint(p, center, direction, c, pageRect);
            vec2 q = p + k.y * direction;
            vec4 e = samplerExtent(shading);
            vec4 shade = unpremultiply(sample(shading, vec2(e.x + 0.5 + (e.z - 1.0) * k.z / 3.141592653589793, e.y + 0.5 * e.w)));
            vec4 front = sample(image, q);
            vec4 page = k.x > 1.5 ? sample(backside, q) : front;
            vec4 curled = vec4(page.rgb * shade.rgb, page.a);
            return k.x > 2.5 ? sample(target, p) : (k.x > 0.5 ? curled : front);
        }
        """)

    /// The cylinder model above, unshaded, with the curl's shadow on the target: where the target
    /// shows, inside the shadow extent (empty: everywhere), it is darkened by
    /// `amount·clamp(1 − (x − ρ)/(2ρ·size), 0, 1)`. Ours: the empty default page is the input's extent.
    static let pageCurlWithShadow = FilterDescriptor(
        name: "CIPageCurlWithShadowTransition", categories: TransitionFilters.categories,
        summary: "CIPageCurlTransition's cylinder, unshaded, casting a shadow on the target: rgb·(1 − amount·clamp(1 − (x − ρ)/(2ρ·size), "
            + "0, 1)) inside the shadow extent (empty: everywhere); the empty default page is the input's extent.",
        inputs: commonInputs + [
            FilterInput("inputExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 0, height: 0)), "The page; empty: the input's extent."),
        ] + timeAngleRadius() + [
            FilterInput("inputShadowSize", .number, default: .number(0.5), minimum: 0, maximum: 1, slider: 0...1,
                        "How far the shadow reaches past the curl, in curl diameters."),
            FilterInput("inputShadowAmount", .number, default: .number(0.7), minimum: 0, maximum: 1, slider: 0...1, "How dark the shadow is."),
            FilterInput("inputShadowExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 0, height: 0)),
                        "Where the shadow may fall; empty: everywhere."),
        ]
    ) { args in
        let given = try args.rect("inputExtent")
        let c = try curl(args, page: given.isEmpty ? try args.image("inputImage").extent : given)
        let shadowRect = try args.rect("inputShadowExtent")
        let bounds: [Double] = shadowRect.isEmpty || shadowRect.isInfinite ? [-1e30, -1e30, 2e30, 2e30]
            : [shadowRect.x, shadowRect.y, shadowRect.width, shadowRect.height]
        let width = max(2 * (try args.number("inputRadius")) * (try args.number("inputShadowSize")), 1e-6)
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        let page = c.page.outset(dx: 1, dy: 1)
        return try pageCurlWithShadowKernel.apply(
            try TransitionFilters.pictures(args) + [.image(try args.image("inputBacksideImage"))] + c.arguments
                + [.vector(bounds), .vector([width, try args.number("inputShadowAmount")])],
            extent: extent, regionOfInterest: .callback { index, rect in index == 1 ? rect : page })
    }

    static let pageCurlWithShadowKernel = CatalogueKernel(curlSource + """
        kernel vec4 CIPageCurlWithShadowTransition(sampler image, sampler target, sampler backside,
                                                   vec2 center, vec2 direction, vec3 c, vec4 pageRect, vec4 bounds, vec2 shadow) {
            vec2 p = destCoord();
            vec4 k = curlPoint(p, center, direction, c, pageRect);
            vec2 q = p + k.y * direction;
            vec4 front = sample(image, q);
            vec4 page = k.x > 1.5 ? sample(backside, q) : front;
            vec4 t = sample(target, p);
            bool inside = p.x >= bounds.x && p.x <= bounds.x + bounds.z && p.y >= bounds.y && p.y <= bounds.y + bounds.w;
            float dark = inside ? shadow.y * clamp(1.0 - (k.w - c.y) / shadow.x, 0.0, 1.0) : 0.0;
            vec4 shaded = vec4(t.rgb * (1.0 - dark), t.a);
            return k.x > 2.5 ? shaded : page;
        }
        """)
}
