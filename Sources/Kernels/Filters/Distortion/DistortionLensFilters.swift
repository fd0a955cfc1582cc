import Foundation
import GraphEngine

/// Distortions by glass and maps (CICategoryDistortionEffect): lenses that refract, a wrap about a
/// circle, and displacement by a second image. Apple's kernels are not public; each formula is ours
/// and says so. Extents follow Core Image: the input's, except CICircularWrap's ring.
enum DistortionLensFilters {
    static let all: [FilterDescriptor] = [circularWrap, displacement, glass, glassLozenge, torusLens]
    static let categories = DistortionFilters.categories

    /// The refraction both lenses share: a glass surface of height `h = √(r² − |v|²)` over the point
    /// (`v` from the lens's spine, `r` its half-width), normal `n = (v, h)/r`; the vertical ray is
    /// refracted with `η = 1/refraction` (GLSL `refract`, total internal reflection taken as `k = 0`)
    /// to `T` and travels down to the image, which lies `r` below the lens's flat base: the shift is
    /// `T.xy·(h + r)/|T.z|`, at most `2r` long, and 0 outside the lens (so the rim shows, as in
    /// Apple's pictures). A refraction of 1 is the identity.
    static let refractionSource = """
        vec2 lensShift(vec2 v, float r, float eta) {
            float h = sqrt(max(r * r - dot(v, v), 0.0));
            vec3 n = vec3(v, h) / r;
            float k = 1.0 - eta * eta * (1.0 - n.z * n.z);
            vec3 t = eta * vec3(0.0, 0.0, -1.0) + (eta * n.z - sqrt(max(k, 0.0))) * n;
            vec2 shift = t.xy * ((h + r) / max(-t.z, 0.001));
            shift = shift * min(1.0, 2.0 * r / max(length(shift), 1e-6));
            return dot(v, v) < r * r ? shift : vec2(0.0);
        }

        """

    static let refractionInput = FilterInput("inputRefraction", .number, default: .number(1.7), minimum: 0, slider: 0...5,
                                             "The glass's refractive index: 1 does nothing.")

    /// The output rectangle grown by `2r` (the longest shift) where it meets `box`.
    static func lensRegion(_ box: Rect, _ r: Double) -> KernelRegionOfInterest {
        .callback { _, rect in rect.intersection(box).isEmpty ? rect : rect.outset(dx: 2 * r + 1, dy: 2 * r + 1) }
    }

    /// Ours: a glass lozenge (the points within `R` of the segment p0–p1) refracting as
    /// ``refractionSource`` says, `v = p − nearest point of the segment`: `out(p) = bilinear(in, p +
    /// shift(v))`. Extent: the input's.
    static let glassLozenge = FilterDescriptor(
        name: "CIGlassLozenge", categories: categories,
        summary: "A refracting glass lozenge of radius R about the segment p0–p1: out(p) = bilinear(in, p + T.xy·(h + R)/|T.z|), "
            + "T = refract(−z, (v, h)/R, 1/refraction), h = √(R² − |v|²), v = p − the segment's nearest point; extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputPoint0", .vector, default: .vector([150, 150]), count: 2, "The centre of one end's circle."),
                 FilterInput("inputPoint1", .vector, default: .vector([350, 150]), count: 2, "The centre of the other end's circle."),
                 DistortionFilters.radiusInput(100, slider: 0...1000, "The lozenge's radius."),
                 refractionInput]
    ) { args in
        let image = try args.image("inputImage")
        let p0 = try args.vector("inputPoint0"), p1 = try args.vector("inputPoint1")
        let r = try args.number("inputRadius"), refraction = try args.number("inputRefraction")
        guard r > 0, refraction > 0 else { return image }
        let axis = [p1[0] - p0[0], p1[1] - p0[1]]
        let length2 = axis[0] * axis[0] + axis[1] * axis[1]
        let box = DistortionFilters.discBox(p0, r).union(DistortionFilters.discBox(p1, r))
        return try lozengeKernel.apply([.image(image), .vector(p0), .vector(axis), .number(length2 > 0 ? 1 / length2 : 0),
                                        .number(r), .number(1 / refraction)],
                                       extent: image.extent, regionOfInterest: lensRegion(box, r))
    }

    static let lozengeKernel = CatalogueKernel(refractionSource + """
        kernel vec2 CIGlassLozenge(vec2 p0, vec2 axis, float inverseLength2, float radius, float eta) {
            vec2 w = destCoord() - p0;
            float s = clamp(dot(w, axis) * inverseLength2, 0.0, 1.0);
            return destCoord() + lensShift(w - axis * s, radius, eta);
        }
        """)

    /// Ours: a glass torus (the ring of width `w` inside radius `R`) refracting as
    /// ``refractionSource`` says, with the ring's middle circle (radius `R − w/2`) as its spine:
    /// `v = (p − c)·(1 − (R − w/2)/|p − c|)`, half-width `w/2`. Extent: the input's.
    static let torusLens = FilterDescriptor(
        name: "CITorusLensDistortion", categories: categories,
        summary: "A refracting glass ring of outer radius R and width w: out(p) = bilinear(in, p + T.xy·(h + w/2)/|T.z|), "
            + "T = refract(−z, (v, h)/(w/2), 1/refraction), h = √((w/2)² − |v|²), v = p − the nearest point of the "
            + "circle of radius R − w/2; extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput, DistortionFilters.centerInput,
                 DistortionFilters.radiusInput(160, slider: 0...500, "The torus's outer radius."),
                 FilterInput("inputWidth", .number, default: .number(80), minimum: 0, slider: 0...200, "The ring's width."),
                 refractionInput]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius")
        let width = try args.number("inputWidth"), refraction = try args.number("inputRefraction")
        guard width > 0, r > 0, refraction > 0 else { return image }
        return try torusKernel.apply([.image(image), .vector(c), .number(r - width / 2), .number(width / 2), .number(1 / refraction)],
                                     extent: image.extent, regionOfInterest: lensRegion(DistortionFilters.discBox(c, r), width / 2))
    }

    static let torusKernel = CatalogueKernel(refractionSource + """
        kernel vec2 CITorusLensDistortion(vec2 center, float spine, float halfWidth, float eta) {
            vec2 w = destCoord() - center;
            return destCoord() + lensShift(w * (1.0 - spine / max(length(w), 1e-6)), halfWidth, eta);
        }
        """)

    /// Ours: the image rolled round a transparent circle: with `v = rot(−angle)·(p − c)`, `d = |v|`
    /// and `φ = atan2(v.x, v.y)` (clockwise from the top, in (−π, π]), `out(p) = bilinear(in, (c.x +
    /// R·φ, c.y + d − R))` for `d ≥ R`, 0 inside: the row `y = c.y` lies on the circle, rows above
    /// it wrap outwards. Extent: the disc of radius `R + top + ½ − c.y` about `c` (the bilinear
    /// footprint of the top row reaches half a pixel further; infinite for an infinite input).
    static let circularWrap = FilterDescriptor(
        name: "CICircularWrap", categories: categories,
        summary: "Wraps the image round a transparent circle of radius R: out(p) = bilinear(in, (c.x + R·φ, c.y + d − R)), "
            + "d = |v|, φ = atan2(v.x, v.y), v = rot(−angle)·(p − c), 0 for d < R; extent: the disc the rows above c.y reach.",
        inputs: [ColorAdjustmentFilters.imageInput, DistortionFilters.centerInput,
                 DistortionFilters.radiusInput(150, slider: 0...600, "The radius of the transparent circle."),
                 FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                             "Where the image's centre column lies, in radians from the top.")]
    ) { args in
        let image = try args.image("inputImage")
        let c = try args.vector("inputCenter"), r = try args.number("inputRadius"), angle = try args.number("inputAngle")
        let e = image.extent
        var extent = Rect.infinite
        if !e.isInfinite {
            // Half a pixel above the top row still reads it (bilinear).
            let reach = r + e.maxY + 0.5 - c[1]
            extent = reach > r && !e.isEmpty ? DistortionFilters.discBox(c, reach) : .empty
        }
        let roi = KernelRegionOfInterest.callback { _, rect in
            guard !rect.isInfinite else { return .infinite }
            let nearX = min(max(c[0], rect.minX), rect.maxX), nearY = min(max(c[1], rect.minY), rect.maxY)
            let near = hypot(nearX - c[0], nearY - c[1])
            let far = hypot(max(abs(rect.minX - c[0]), abs(rect.maxX - c[0])), max(abs(rect.minY - c[1]), abs(rect.maxY - c[1])))
            guard far >= r else { return .empty }
            let y0 = c[1] + max(near, r) - r, y1 = c[1] + far - r
            return Rect(x: c[0] - Double.pi * r, y: y0, width: 2 * Double.pi * r, height: y1 - y0).outset(dx: 1, dy: 1)
        }
        return try circularWrapKernel.apply([.image(image), .vector(c), .number(r), .vector([cos(angle), sin(angle)])],
                                            extent: extent, regionOfInterest: roi)
    }

    static let circularWrapKernel = CatalogueKernel("""
        kernel vec4 CICircularWrap(sampler image, vec2 center, float radius, vec2 rotation) {
            vec2 w = destCoord() - center;
            vec2 v = vec2(rotation.x * w.x + rotation.y * w.y, rotation.x * w.y - rotation.y * w.x);
            float d = length(v);
            vec2 q = vec2(center.x + radius * atan(v.x, v.y), center.y + d - radius);
            return d < radius ? vec4(0.0) : sample(image, q);
        }
        """)

    /// Ours (the usual reading of Apple's description): the displacement image's red and green,
    /// clamped to 0…1, move the sampling point: `out(p) = bilinear(in, p + scale·(clamp(m(p).rg) −
    /// ½))`, `m` the displacement image at the same point (transparent outside its extent, so
    /// `−scale/2` there). Extent: the input's.
    static let displacement = FilterDescriptor(
        name: "CIDisplacementDistortion", categories: categories,
        summary: "Moves each sample by the displacement image: out(p) = bilinear(in, p + scale·(clamp(m(p).rg, 0, 1) − 1/2)); "
            + "extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputDisplacementImage", .image, "The image whose red and green move the samples."),
                 FilterInput("inputScale", .number, default: .number(50), minimum: 0, slider: 0...200,
                             "The displacement of a channel at 0 or 1, times 2, in pixels.")]
    ) { args in
        let image = try args.image("inputImage")
        let scale = try args.number("inputScale")
        return try displacementKernel.apply([.image(image), .image(try args.image("inputDisplacementImage")), .number(scale)],
                                            extent: image.extent,
                                            regionOfInterest: .perInput([.radius(scale / 2 + 1), .destination]))
    }

    static let displacementKernel = CatalogueKernel("""
        kernel vec4 CIDisplacementDistortion(sampler image, sampler displacement, float scale) {
            vec2 m = clamp(sample(displacement, destCoord()).rg, 0.0, 1.0);
            return sample(image, destCoord() + scale * (m - 0.5));
        }
        """)

    /// Ours: the texture as a height map (its luma `L`), centred on `inputCenter` (its extent's
    /// centre placed there; an infinite texture is shifted by `−c`), bends the samples along its
    /// gradient: `g = (L(t + x̂) − L(t − x̂), L(t + ŷ) − L(t − ŷ))/2` clamped to ±1, `out(p) =
    /// bilinear(in, p + scale·g)`. Extent: the input's.
    static let glass = FilterDescriptor(
        name: "CIGlassDistortion", categories: categories,
        summary: "Glass with the texture's luma L as its height: out(p) = bilinear(in, p + scale·clamp(∇L(p − c + "
            + "texture centre), −1, 1)), ∇ by central differences; extent: the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputTexture", .image, "The texture whose luma is the glass's height."),
                 DistortionFilters.centerInput,
                 FilterInput("inputScale", .number, default: .number(200), minimum: 0, slider: 0.01...500,
                             "The longest shift in pixels.")]
    ) { args in
        let image = try args.image("inputImage"), texture = try args.image("inputTexture")
        let c = try args.vector("inputCenter"), scale = try args.number("inputScale")
        let t = texture.extent
        let offset = t.isInfinite ? [-c[0], -c[1]] : [t.x + t.width / 2 - c[0], t.y + t.height / 2 - c[1]]
        let textureRegion = KernelRegionOfInterest.callback { _, rect in
            Rect(x: rect.x + offset[0], y: rect.y + offset[1], width: rect.width, height: rect.height).outset(dx: 2, dy: 2)
        }
        return try glassKernel.apply([.image(image), .image(texture), .vector(offset), .number(scale)], extent: image.extent,
                                     regionOfInterest: .perInput([.radius(scale * 1.5 + 1), textureRegion]))
    }

    static let glassKernel = CatalogueKernel("""
        kernel vec4 CIGlassDistortion(sampler image, sampler texture, vec2 offset, float scale) {
            vec2 t = destCoord() + offset;
            vec3 luma = vec3(0.2126, 0.7152, 0.0722);
            float gx = dot(sample(texture, t + vec2(1.0, 0.0)).rgb - sample(texture, t - vec2(1.0, 0.0)).rgb, luma);
            float gy = dot(sample(texture, t + vec2(0.0, 1.0)).rgb - sample(texture, t - vec2(0.0, 1.0)).rgb, luma);
            return sample(image, destCoord() + scale * clamp(0.5 * vec2(gx, gy), -1.0, 1.0));
        }
        """)
}
