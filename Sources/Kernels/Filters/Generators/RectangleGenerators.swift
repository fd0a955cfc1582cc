import Foundation
import GraphEngine

/// Rectangle generators (CICategoryGenerator): a colour times an analytic coverage of a rounded
/// rectangle `E = inputExtent` (centre `c`, half size `h`, corner radius `r = min(radius, h.x, h.y)`).
/// The shape is the signed distance `d(p)` to the rounded rectangle, with the corner's arc a p-norm
/// circle of exponent `n = 2 + 2·smoothness` (ours: Apple does not publish its smoothed corner;
/// `n = 2` is the circle, larger `n` meets the straight edges more gradually):
/// `q = |p − c| − (h − r)`, `d = ‖max(q, 0)‖ₙ + min(max(q.x, q.y), 0) − r`.
/// Anti-aliasing is a one-pixel box across the edge, `clamp(½ − d, 0, 1)`; the blurred ones use
/// `erf`, computed in the kernel by Abramowitz and Stegun 7.1.26 (error below 1.5·10⁻⁷).
enum RectangleGenerators {
    static let categories = ["CICategoryGenerator", "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [rounded, roundedStroke, blurred, blurredRounded]

    static let extentInput = FilterInput("inputExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 100, height: 100)),
                                         "The rectangle (x y width height).")
    static let radiusInput = FilterInput("inputRadius", .number, default: .number(10), minimum: 0, slider: 0...100,
                                         "The corner radius in pixels (at most half the shorter side).")
    static let smoothnessInput = FilterInput("inputSmoothness", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...1,
                                             "0 is a circular corner; up to 1 the corner's p-norm exponent 2 + 2·smoothness grows.")
    static let sigmaInput = FilterInput("inputSigma", .number, default: .number(10), minimum: 0, slider: 0...100,
                                        "The Gaussian blur's standard deviation in pixels.")
    static let colorInput = FilterInput("inputColor", .color, default: .color([1, 1, 1, 1]), "The colour (sRGB unless given linear).")

    /// The rectangle, finite and not empty.
    static func extent(_ args: FilterArguments) throws -> Rect {
        let e = try args.rect("inputExtent")
        guard !e.isInfinite, e.width > 0, e.height > 0, e.x.isFinite, e.y.isFinite else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputExtent",
                                              reason: "the rectangle must be finite with a positive width and height, got \(e)")
        }
        return e
    }

    /// `shape = (c.x, c.y, h.x − r, h.y − r)` and `corner = (r, n, 1/n, ·)`.
    static func shape(_ args: FilterArguments, _ e: Rect, radius: Bool = true) throws -> [KernelArgument] {
        let hx = e.width / 2, hy = e.height / 2
        let r = radius ? min(try args.number("inputRadius"), hx, hy) : 0
        let n = radius ? 2 + 2 * (try args.number("inputSmoothness")) : 2
        return [.vector([e.x + hx, e.y + hy, hx - r, hy - r]), .vector([r, n, 1 / n, 0])]
    }

    /// The blur's σ with a pixel's box (variance 1/12) folded in, `σ' = √(σ² + 1/12)`, so σ = 0 is
    /// the anti-aliased rectangle; returned as `1/(σ'√2)`.
    static func erfScale(_ args: FilterArguments) throws -> Double {
        let sigma = try args.number("inputSigma")
        return 1 / (2 * (sigma * sigma + 1.0 / 12)).squareRoot()
    }

    static let distanceSource = """
        float roundedDistance(vec2 p, vec4 shape, vec4 corner) {
            vec2 q = abs(p - shape.xy) - shape.zw;
            vec2 o = max(q, 0.0);
            float outside = pow(pow(o.x, corner.y) + pow(o.y, corner.y), corner.z);
            return outside + min(max(q.x, q.y), 0.0) - corner.x;
        }

        """
    static let erfSource = """
        float erf_(float x) {
            float t = 1.0 / (1.0 + 0.3275911 * abs(x));
            float y = 1.0 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x);
            return x < 0.0 ? -y : y;
        }

        """

    /// `out = color·clamp(½ − d, 0, 1)`; extent `inputExtent`.
    static let rounded = FilterDescriptor(
        name: "CIRoundedRectangleGenerator", categories: categories,
        summary: "A rounded rectangle of one colour: color·clamp(½ − d, 0, 1), d the signed distance to the rectangle with corners of radius r "
            + "(p-norm exponent 2 + 2·smoothness); extent inputExtent.",
        inputs: [extentInput, radiusInput, smoothnessInput, colorInput]
    ) { args in
        let e = try extent(args)
        return try roundedKernel.apply([.image(try args.colorImage("inputColor"))] + (try shape(args, e)), extent: e)
    }

    /// Ours (Apple does not say where the stroke lies): a stroke of width `w` centred on the
    /// outline, `out = color·(clamp(½ − d + w/2, 0, 1) − clamp(½ − d − w/2, 0, 1))` (exact for
    /// straight edges, `w` for hairlines); extent `inputExtent` outset by `w/2`.
    static let roundedStroke = FilterDescriptor(
        name: "CIRoundedRectangleStrokeGenerator", categories: categories,
        summary: "A rounded rectangle's outline of width w centred on it: color·(clamp(½ − d + w/2, 0, 1) − clamp(½ − d − w/2, 0, 1)); "
            + "extent inputExtent outset by w/2.",
        inputs: [extentInput, radiusInput, smoothnessInput, colorInput,
                 FilterInput("inputWidth", .number, default: .number(10), minimum: 0, slider: 0...100, "The stroke's width in pixels.")]
    ) { args in
        let e = try extent(args), w = try args.number("inputWidth")
        return try strokeKernel.apply([.image(try args.colorImage("inputColor"))] + (try shape(args, e)) + [.number(w / 2)],
                                      extent: e.outset(dx: w / 2, dy: w / 2))
    }

    /// The box convolved with a Gaussian, separable: with `k = 1/(σ'√2)`,
    /// `out = color·¼(erf(k(x − x₀)) − erf(k(x − x₁)))(erf(k(y − y₀)) − erf(k(y − y₁)))`;
    /// extent `inputExtent` outset by 3σ (ours; the coverage beyond is under 0.0014).
    static let blurred = FilterDescriptor(
        name: "CIBlurredRectangleGenerator", categories: categories,
        summary: "A rectangle blurred by a Gaussian: color·¼(erf(k(x − x₀)) − erf(k(x − x₁)))(erf(k(y − y₀)) − erf(k(y − y₁))), "
            + "k = 1/(σ'√2), σ' = √(σ² + 1/12); extent inputExtent outset by 3σ.",
        inputs: [extentInput, sigmaInput, colorInput]
    ) { args in
        let e = try extent(args), sigma = try args.number("inputSigma")
        return try blurredKernel.apply([.image(try args.colorImage("inputColor")), .vector([e.x, e.y, e.maxX, e.maxY]),
                                        .number(try erfScale(args))], extent: e.outset(dx: 3 * sigma, dy: 3 * sigma))
    }

    /// Ours (the blurred rounded rectangle has no closed form): the Gaussian across the nearest
    /// edge, `out = color·½(1 − erf(k·d))` with `k = 1/(σ'√2)` and `d` the rounded distance (exact
    /// along straight edges of a rectangle much larger than σ, a little fuller at the corners and in
    /// rectangles narrower than about 4σ); extent `inputExtent` outset by 3σ.
    static let blurredRounded = FilterDescriptor(
        name: "CIBlurredRoundedRectangleGenerator", categories: categories,
        summary: "A rounded rectangle blurred across its edge: color·½(1 − erf(k·d)), d the rounded distance, k = 1/(σ'√2), "
            + "σ' = √(σ² + 1/12); extent inputExtent outset by 3σ.",
        inputs: [extentInput, radiusInput, smoothnessInput, sigmaInput, colorInput]
    ) { args in
        let e = try extent(args), sigma = try args.number("inputSigma")
        return try blurredRoundedKernel.apply([.image(try args.colorImage("inputColor"))] + (try shape(args, e)) + [.number(try erfScale(args))],
                                              extent: e.outset(dx: 3 * sigma, dy: 3 * sigma))
    }

    static let roundedKernel = CatalogueKernel(distanceSource + """
        kernel vec4 CIRoundedRectangleGenerator(__sample color, vec4 shape, vec4 corner) {
            float d = roundedDistance(destCoord(), shape, corner);
            return color * clamp(0.5 - d, 0.0, 1.0);
        }
        """)
    static let strokeKernel = CatalogueKernel(distanceSource + """
        kernel vec4 CIRoundedRectangleStrokeGenerator(__sample color, vec4 shape, vec4 corner, float halfWidth) {
            float d = roundedDistance(destCoord(), shape, corner);
            return color * (clamp(0.5 - d + halfWidth, 0.0, 1.0) - clamp(0.5 - d - halfWidth, 0.0, 1.0));
        }
        """)
    static let blurredKernel = CatalogueKernel(erfSource + """
        kernel vec4 CIBlurredRectangleGenerator(__sample color, vec4 box, float k) {
            vec2 p = destCoord();
            float cx = erf_(k * (p.x - box.x)) - erf_(k * (p.x - box.z));
            float cy = erf_(k * (p.y - box.y)) - erf_(k * (p.y - box.w));
            return color * (0.25 * cx * cy);
        }
        """)
    static let blurredRoundedKernel = CatalogueKernel(distanceSource + erfSource + """
        kernel vec4 CIBlurredRoundedRectangleGenerator(__sample color, vec4 shape, vec4 corner, float k) {
            float d = roundedDistance(destCoord(), shape, corner);
            return color * (0.5 - 0.5 * erf_(k * d));
        }
        """)
}
