import Foundation
import GraphEngine

/// Distortions about a centre (CICategoryDistortionEffect): warp kernels, `out(p) = bilinear(in, q(p))`
/// with `v = p − c`, `d = |v|`, `t = d/R`. Apple's kernels are not public: the falloffs below are
/// ours, chosen to match Apple's documentation pictures (smooth at the radius, identity outside it)
/// and each is named as ours. The output keeps the input's extent, as Core Image's does, except
/// where a filter says otherwise; a region of interest bounds what an infinite input costs.
enum DistortionFilters {
    static let categories = ["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [bump, bumpLinear, circleSplash, hole, lightTunnel, pinch, twirl, vortex]
        + DistortionLensFilters.all + [DrosteFilter.droste]

    static let centerInput = FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2,
                                         "The centre of the effect in pixels.")

    static func radiusInput(_ value: Double, minimum: Double? = 0, slider: ClosedRange<Double>,
                            _ summary: String = "The radius of the effect in pixels.") -> FilterInput {
        FilterInput("inputRadius", .number, default: .number(value), minimum: minimum, slider: slider, summary)
    }

    /// The square around the disc of radius `r` about `c`.
    static func discBox(_ c: [Double], _ r: Double) -> Rect {
        Rect(x: c[0] - r, y: c[1] - r, width: 2 * r, height: 2 * r)
    }

    /// For a warp whose sources stay inside the disc box when the output point is inside it, and which
    /// is the identity outside: the output rectangle, with the disc box (grown a pixel for the
    /// bilinear footprint) where they meet.
    static func discRegion(_ c: [Double], _ r: Double) -> KernelRegionOfInterest {
        let box = discBox(c, r).outset(dx: 1, dy: 1)
        return .callback { _, rect in rect.intersection(box).isEmpty ? rect : rect.union(box) }
    }

    /// Ours (after the reference sheet's form): `f = 1 − scale·(1 − t²)²` for `t < 1` (1 outside),
    /// `out(p) = bilinear(in, c + v·f)`: scale > 0 magnifies the centre (a bump), < 0 shrinks it.
    /// Sources lie within `R·|scale|` of the point; extent: the input's.
    static let bump = FilterDescriptor(
        name: "CIBumpDistortion", categories: categories,
        summary: "A bump (scale > 0) or dimple (< 0) of radius R: out(p) = bilinear(in, c + v·(1 − scale·(1 − t²)²)), "
            + "v = p − c, t = |v|/R < 1 (identity outside); extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput,
                 radiusInput(300, slider: 0...600),
                 FilterInput("inputScale", .number, default: .number(0.5), slider: -1...1,
                             "Curvature: 0 does nothing, > 0 bulges outwards, < 0 pinches inwards.")]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius"), scale = try args.number("inputScale")
        guard r > 0, scale != 0 else { return image }
        return try bumpKernel.apply([.image(image), .vector(c), .number(1 / (r * r)), .number(scale)],
                                    extent: image.extent, regionOfInterest: .radius(r * abs(scale) + 1))
    }

    static let bumpKernel = CatalogueKernel("""
        kernel vec2 CIBumpDistortion(vec2 center, float inverseRadius2, float scale) {
            vec2 v = destCoord() - center;
            float k = max(1.0 - dot(v, v) * inverseRadius2, 0.0);
            return center + v * (1.0 - scale * k * k);
        }
        """)

    /// Ours: CIBumpDistortion across the line through `c` at `inputAngle`: with the unit normal
    /// `n = (−sin a, cos a)` and the signed distance `s = v·n`, `out(p) = bilinear(in, p − n·s·scale·
    /// (1 − s²/R²)²)` for `|s| < R`. Extent: the input's.
    static let bumpLinear = FilterDescriptor(
        name: "CIBumpDistortionLinear", categories: categories,
        summary: "A bump along the line through c at angle a: out(p) = bilinear(in, p − n·s·scale·(1 − s²/R²)²), "
            + "n = (−sin a, cos a), s = (p − c)·n, |s| < R (identity outside); extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput,
                 radiusInput(300, slider: 0...600),
                 FilterInput("inputAngle", .number, default: .number(0), slider: 0...(2 * Double.pi),
                             "The angle in radians of the line the bump runs along."),
                 FilterInput("inputScale", .number, default: .number(0.5), minimum: -1, slider: 0...1,
                             "Curvature: 0 does nothing, > 0 bulges outwards, < 0 pinches inwards.")]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius")
        let angle = try args.number("inputAngle"), scale = try args.number("inputScale")
        guard r > 0, scale != 0 else { return image }
        return try bumpLinearKernel.apply([.image(image), .vector(c), .vector([-sin(angle), cos(angle)]),
                                           .number(1 / (r * r)), .number(scale)],
                                          extent: image.extent, regionOfInterest: .radius(r * abs(scale) + 1))
    }

    static let bumpLinearKernel = CatalogueKernel("""
        kernel vec2 CIBumpDistortionLinear(vec2 center, vec2 normal, float inverseRadius2, float scale) {
            float s = dot(destCoord() - center, normal);
            float k = max(1.0 - s * s * inverseRadius2, 0.0);
            return destCoord() - normal * (s * scale * k * k);
        }
        """)

    /// Ours: inside the circle the image is unchanged; outside, each point takes the colour of the
    /// circle's point on its ray, `out(p) = bilinear(in, c + v·R/max(d, R))`, so the rim splashes out
    /// to infinity. Extent: infinite (the splash covers the plane); it reads only the disc.
    static let circleSplash = FilterDescriptor(
        name: "CICircleSplashDistortion", categories: categories,
        summary: "The circle's rim streaked outwards: out(p) = bilinear(in, c + v·R/max(|v|, R)), v = p − c; "
            + "infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, radiusInput(150, slider: 0...1000)]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius")
        let box = discBox(c, r).outset(dx: 1, dy: 1)
        return try circleSplashKernel.apply([.image(image), .vector(c), .number(max(r, 1e-6))],
                                            extent: .infinite, regionOfInterest: .callback { _, rect in box.contains(rect) ? rect : box })
    }

    static let circleSplashKernel = CatalogueKernel("""
        kernel vec2 CICircleSplashDistortion(vec2 center, float radius) {
            vec2 v = destCoord() - center;
            return center + v * (radius / max(length(v), radius));
        }
        """)

    /// Ours: a hole of radius `R`, transparent, with the image pushed outwards around it: outside,
    /// `out(p) = bilinear(in, c + v·√(d² − R²)/d)` (the distance shrinks by `R²/2d` far out), inside
    /// 0. Sources lie within `R` of the point; extent: the input's.
    static let hole = FilterDescriptor(
        name: "CIHoleDistortion", categories: categories,
        summary: "A transparent hole of radius R pushing the image outwards: out(p) = bilinear(in, c + v·√(d² − R²)/d) "
            + "for d = |p − c| ≥ R, 0 inside; extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, radiusInput(150, minimum: 0.01, slider: 0.01...1000)]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius")
        return try holeKernel.apply([.image(image), .vector(c), .number(r * r)],
                                    extent: image.extent, regionOfInterest: .radius(r + 1))
    }

    static let holeKernel = CatalogueKernel("""
        kernel vec4 CIHoleDistortion(sampler image, vec2 center, float radius2) {
            vec2 v = destCoord() - center;
            float d2 = dot(v, v);
            vec2 q = center + v * sqrt(max(d2 - radius2, 0.0) / max(d2, 1e-12));
            return d2 < radius2 ? vec4(0.0) : sample(image, q);
        }
        """)

    /// Ours: inside the circle the image is unchanged; outside, the rim spirals away:
    /// `out(p) = bilinear(in, c + R·rot(rotation·ln(d/R))·v/d)` (a tunnel whose walls are the rim's
    /// colours). Extent: infinite; it reads only the disc.
    static let lightTunnel = FilterDescriptor(
        name: "CILightTunnel", categories: categories,
        summary: "A tunnel of the circle's rim spiralling outwards: out(p) = bilinear(in, c + R·rot(rotation·ln(d/R))·v/d) "
            + "for d = |v| > R, v = p − c (identity inside); infinite extent.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput,
                 FilterInput("inputRotation", .number, default: .number(0), slider: 0...(Double.pi / 2),
                             "How far the tunnel turns, in radians per e-fold of distance."),
                 radiusInput(100, minimum: nil, slider: 1...500, "The radius of the unchanged centre.")]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius")
        guard r > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputRadius", reason: "the radius must be above 0")
        }
        let box = discBox(c, r).outset(dx: 1, dy: 1)
        return try lightTunnelKernel.apply([.image(image), .vector(c), .number(r), .number(try args.number("inputRotation"))],
                                           extent: .infinite, regionOfInterest: .callback { _, rect in box.contains(rect) ? rect : box })
    }

    static let lightTunnelKernel = CatalogueKernel("""
        kernel vec2 CILightTunnel(vec2 center, float radius, float rotation) {
            vec2 v = destCoord() - center;
            float d = max(length(v), radius);
            float w = rotation * log(d / radius);
            float c = cos(w), s = sin(w);
            vec2 u = v * (radius / d);
            return center + vec2(c * u.x - s * u.y, s * u.x + c * u.y);
        }
        """)

    /// Ours: the disc squeezed towards its centre: `out(p) = bilinear(in, c + v·t^(−s/(1+s)))` for
    /// `t < 1` (so the source distance is `R·t^(1/(1+s))`; identity outside). Sources stay in the disc;
    /// extent: the input's.
    static let pinch = FilterDescriptor(
        name: "CIPinchDistortion", categories: categories,
        summary: "Pinches the disc of radius R inwards: out(p) = bilinear(in, c + v·t^(−s/(1+s))), v = p − c, "
            + "t = |v|/R < 1, s = scale (identity outside); extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, radiusInput(300, slider: 0...1000),
                 FilterInput("inputScale", .number, default: .number(0.5), minimum: 0, slider: 0...2,
                             "The amount of pinching: 0 does nothing.")]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius"), scale = try args.number("inputScale")
        guard r > 0, scale > 0 else { return image }
        return try pinchKernel.apply([.image(image), .vector(c), .number(1 / r), .number(-scale / (1 + scale))],
                                     extent: image.extent, regionOfInterest: discRegion(c, r))
    }

    static let pinchKernel = CatalogueKernel("""
        kernel vec2 CIPinchDistortion(vec2 center, float inverseRadius, float exponent) {
            vec2 v = destCoord() - center;
            float t = clamp(length(v) * inverseRadius, 1e-6, 1.0);
            return center + v * pow(t, exponent);
        }
        """)

    /// Ours: the disc turned about its centre, most at the centre: `u = 1 − t`, `θ = angle·u²(3 − 2u)`
    /// (smoothstep: no kink at the rim or the centre), `out(p) = bilinear(in, c + rot(−θ)·v)`, so the
    /// content turns counter-clockwise for a positive angle. Extent: the input's.
    static let twirl = FilterDescriptor(
        name: "CITwirlDistortion", categories: categories,
        summary: "Twirls the disc of radius R: out(p) = bilinear(in, c + rot(−θ)·v), θ = angle·u²(3 − 2u), "
            + "u = 1 − |v|/R, v = p − c (identity outside); extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, radiusInput(300, slider: 0...500),
                 FilterInput("inputAngle", .number, default: .number(Double.pi), slider: (-4 * Double.pi)...(4 * Double.pi),
                             "The turn at the centre in radians (positive: counter-clockwise).")]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius")
        guard r > 0 else { return image }
        return try twirlKernel.apply([.image(image), .vector(c), .number(1 / r), .number(try args.number("inputAngle"))],
                                     extent: image.extent, regionOfInterest: discRegion(c, r))
    }

    static let twirlKernel = CatalogueKernel("""
        kernel vec2 CITwirlDistortion(vec2 center, float inverseRadius, float angle) {
            vec2 v = destCoord() - center;
            float u = max(1.0 - length(v) * inverseRadius, 0.0);
            float theta = angle * u * u * (3.0 - 2.0 * u);
            float c = cos(theta), s = sin(theta);
            return center + vec2(c * v.x + s * v.y, c * v.y - s * v.x);
        }
        """)

    /// The reference sheet's (ours): `θ = angle·(1 − t)²`, `out(p) = bilinear(in, c + rot(θ)·v)` for
    /// `t < 1` (identity outside). Extent: the input's.
    static let vortex = FilterDescriptor(
        name: "CIVortexDistortion", categories: categories,
        summary: "A vortex of radius R: out(p) = bilinear(in, c + rot(θ)·v), θ = angle·(1 − |v|/R)², v = p − c "
            + "(identity outside); extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput, centerInput, radiusInput(300, slider: 0...800),
                 FilterInput("inputAngle", .number, default: .number(56.548667764616276), slider: (-30 * Double.pi)...(30 * Double.pi),
                             "The turn at the centre in radians.")]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius")
        guard r > 0 else { return image }
        return try vortexKernel.apply([.image(image), .vector(c), .number(1 / r), .number(try args.number("inputAngle"))],
                                      extent: image.extent, regionOfInterest: discRegion(c, r))
    }

    static let vortexKernel = CatalogueKernel("""
        kernel vec2 CIVortexDistortion(vec2 center, float inverseRadius, float angle) {
            vec2 v = destCoord() - center;
            float u = max(1.0 - length(v) * inverseRadius, 0.0);
            float theta = angle * u * u;
            float c = cos(theta), s = sin(theta);
            return center + vec2(c * v.x - s * v.y, s * v.x + c * v.y);
        }
        """)
}
