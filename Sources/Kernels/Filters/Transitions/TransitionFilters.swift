import Foundation
import GraphEngine

/// Transitions (CICategoryTransition): from `inputImage` (time 0) to `inputTargetImage` (time 1).
/// Each is a colour kernel of the two pictures, so its extent is the union of theirs (outside an
/// image's extent it is transparent, as in Core Image). Apple documents the dissolve's mix; the
/// other wipes' shapes are not public, and ours follow the names and Apple's pictures.
enum TransitionFilters {
    static let all: [FilterDescriptor] = [dissolve, swipe, barsSwipe, mod]

    static let imageInput = FilterInput("inputImage", .image, "The image the transition starts from.")
    static let targetInput = FilterInput("inputTargetImage", .image, "The image the transition ends at.")
    static let timeInput = FilterInput("inputTime", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...1,
                                       "The parametric time: 0 the input, 1 the target.")
    static let extentInput = FilterInput("inputExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 300, height: 300)),
                                         "The rectangle the transition sweeps across.")

    /// The two pictures.
    static func pictures(_ args: FilterArguments) throws -> [KernelArgument] {
        [.image(try args.image("inputImage")), .image(try args.image("inputTargetImage"))]
    }

    /// The centre of `rect` and the half-length of its projection on `(cos a, sin a)`: a front
    /// crossing it along that direction sweeps `−R…R` about the centre.
    static func span(_ rect: Rect, angle: Double) -> (center: [Double], radius: Double) {
        ([rect.x + rect.width / 2, rect.y + rect.height / 2], (abs(rect.width * cos(angle)) + abs(rect.height * sin(angle))) / 2)
    }

    /// `out = mix(in, target, t)` (Apple's definition), premultiplied.
    static let dissolve = FilterDescriptor(
        name: "CIDissolveTransition",
        categories: ["CICategoryTransition", "CICategoryVideo", "CICategoryStillImage", "CICategoryInterlaced",
                     "CICategoryNonSquarePixels", "CICategoryHighDynamicRange"],
        summary: "A cross-fade: out = in·(1 − t) + target·t (premultiplied); extent the union of both.",
        inputs: [imageInput, targetInput, timeInput]
    ) { args in
        try dissolveKernel.apply(try pictures(args) + [.number(try args.number("inputTime"))])
    }

    static let dissolveKernel = CatalogueKernel("""
        kernel vec4 CIDissolveTransition(__sample s, __sample target, float time) {
            return mix(s, target, time);
        }
        """)

    static let categories = ["CICategoryTransition", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"]

    /// Ours: a band `w` wide crosses the extent along `d = (cos angle, sin angle)`, the target
    /// behind it. With `s = (p − m)·d` about the extent's centre `m` and `R` the half-length of
    /// the extent along `d`, the band's middle is at `f = −R − w/2 + t·(2R + w)` (all input at
    /// time 0, all target at 1). Across the band the pictures cross-fade linearly,
    /// `k = clamp((s − f)/w + ½, 0, 1)`, `img = mix(target, in, k)`, and inside it the colour is
    /// laid over at `opacity`: `out = mix(img, colour, opacity)` where `|s − f| < w/2`.
    static let swipe = FilterDescriptor(
        name: "CISwipeTransition", categories: categories,
        summary: "A band w wide crossing the extent along (cos angle, sin angle), the target behind it: s = (p − m)·d, "
            + "f = −R − w/2 + t(2R + w), out = mix(mix(target, in, clamp((s − f)/w + 1/2, 0, 1)), colour, opacity) "
            + "inside the band (|s − f| < w/2), else the cross-fade alone; m, R the extent's centre and half-length along d.",
        inputs: [imageInput, targetInput, extentInput,
                 FilterInput("inputColor", .color, default: .color([1, 1, 1, 1]), "The colour of the band (opaque)."),
                 timeInput,
                 FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi,
                             "The direction in radians the band moves in."),
                 FilterInput("inputWidth", .number, default: .number(300), minimum: 0.1, slider: 0.1...800,
                             "The width of the band in pixels."),
                 FilterInput("inputOpacity", .number, default: .number(0), minimum: 0, slider: 0...1,
                             "The opacity of the band's colour.")]
    ) { args in
        let angle = try args.number("inputAngle"), w = try args.number("inputWidth"), t = try args.number("inputTime")
        guard w > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputWidth", reason: "the band's width must be above 0, got \(w)")
        }
        let (m, radius) = span(try args.rect("inputExtent"), angle: angle)
        let color = try args.colorImage("inputColor")
        let front = -radius - w / 2 + t * (2 * radius + w)
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        return try swipeKernel.apply(try pictures(args) + [.image(color), .vector(m), .vector([cos(angle), sin(angle)]),
                                                           .vector([front, w, try args.number("inputOpacity")])], extent: extent)
    }

    static let swipeKernel = CatalogueKernel("""
        kernel vec4 CISwipeTransition(__sample s, __sample target, __sample color, vec2 center, vec2 direction, vec3 band) {
            float d = dot(destCoord() - center, direction) - band.x;
            vec4 picture = mix(target, s, clamp(d / band.y + 0.5, 0.0, 1.0));
            return abs(d) < 0.5 * band.y ? mix(picture, color, band.z) : picture;
        }
        """)

    /// The finite union of the two pictures' extents (the wipes that have no `inputExtent` cross it).
    static func pictureExtent(_ args: FilterArguments) throws -> Rect {
        let a = try args.image("inputImage").extent, b = try args.image("inputTargetImage").extent
        let union = a.union(b)
        guard !union.isInfinite else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "the wipe crosses the pictures' extent, which must be finite (crop an infinite picture)")
        }
        return union
    }

    /// Ours: bars `w` wide across `d = (cos angle, sin angle)`, each a front moving along `d`,
    /// every other bar `offset` pixels behind its neighbours. With `s = (p − m)·d`, `q = (p − m)×d`
    /// (across) about the centre `m` of the pictures' union, `R` its half-length along `d` and
    /// bar `k = floor(q/w)`, the front is `f = −R + t·(2R + offset) − offset·(k mod 2)` and
    /// `out = mix(in, target, clamp(f − s + ½, 0, 1))` (a pixel's ramp), the target behind.
    static let barsSwipe = FilterDescriptor(
        name: "CIBarsSwipeTransition", categories: categories,
        summary: "Bars w wide sweeping along d = (cos angle, sin angle), every other bar offset pixels behind: s = (p − m)·d, "
            + "k = floor((p − m)×d / w), f = −R + t(2R + offset) − offset·(k mod 2), out = mix(in, target, clamp(f − s + 1/2, 0, 1)); "
            + "m, R the centre and half-length along d of the pictures' union.",
        inputs: [imageInput, targetInput,
                 FilterInput("inputAngle", .number, default: .number(Double.pi), slider: 0...(2 * Double.pi),
                             "The direction in radians the bars move in."),
                 FilterInput("inputWidth", .number, default: .number(30), minimum: 2, slider: 2...300, "The width of a bar in pixels."),
                 FilterInput("inputBarOffset", .number, default: .number(10), minimum: 1, slider: 1...100,
                             "How far in pixels every other bar lags."),
                 timeInput]
    ) { args in
        let angle = try args.number("inputAngle"), w = try args.number("inputWidth")
        let offset = try args.number("inputBarOffset"), t = try args.number("inputTime")
        guard w > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputWidth", reason: "the bars' width must be above 0, got \(w)")
        }
        let (m, radius) = span(try pictureExtent(args), angle: angle)
        return try barsSwipeKernel.apply(try pictures(args) + [.vector(m), .vector([cos(angle), sin(angle)]),
                                                               .vector([w, offset, -radius + t * (2 * radius + offset)])])
    }

    static let barsSwipeKernel = CatalogueKernel("""
        kernel vec4 CIBarsSwipeTransition(__sample s, __sample target, vec2 center, vec2 direction, vec3 bars) {
            vec2 v = destCoord() - center;
            float along = dot(v, direction);
            float across = v.x * direction.y - v.y * direction.x;
            float front = bars.z - bars.y * mod(floor(across / bars.x), 2.0);
            return mix(s, target, clamp(front - along + 0.5, 0.0, 1.0));
        }
        """)

    /// Ours: spiral bands about the centre, the target showing where the band's phase is below
    /// the time. With `r = |p − c|` and `φ = atan2`, the phase
    /// `g = fract((r/radius)·(1 + r/compression) + angle·φ/2π)` (`angle` spiral arms, bands
    /// narrowing outwards over `compression` pixels); `out = target` where `g < t`, else `in`.
    static let mod = FilterDescriptor(
        name: "CIModTransition", categories: categories,
        summary: "Spiral bands: r = |p − c|, φ = atan2(p − c), g = fract((r/radius)(1 + r/compression) + angle·φ/2π), "
            + "out = g < t ? target : in.",
        inputs: [imageInput, targetInput,
                 FilterInput("inputCenter", .vector, default: .vector([150, 150]), count: 2, "The centre of the bands."),
                 timeInput,
                 FilterInput("inputAngle", .number, default: .number(2), slider: -2 * Double.pi...2 * Double.pi,
                             "How many times the bands wind around the centre."),
                 FilterInput("inputRadius", .number, default: .number(150), minimum: 1, slider: 1...200,
                             "The width of a band in pixels at the centre."),
                 FilterInput("inputCompression", .number, default: .number(300), minimum: 1, slider: 100...800,
                             "The distance in pixels over which the bands halve in width.")]
    ) { args in
        let radius = try args.number("inputRadius"), compression = try args.number("inputCompression")
        for (key, value) in [("inputRadius", radius), ("inputCompression", compression)] where !(value > 0) {
            throw GraphError.invalidParameter(filter: args.filter, key: key, reason: "must be above 0, got \(value)")
        }
        return try modKernel.apply(try pictures(args) + [.vector(try args.vector("inputCenter")),
                                                         .vector([try args.number("inputTime"), try args.number("inputAngle"), radius, compression])])
    }

    static let modKernel = CatalogueKernel("""
        kernel vec4 CIModTransition(__sample s, __sample target, vec2 center, vec4 m) {
            vec2 v = destCoord() - center;
            float r = length(v);
            float g = fract(r / m.z * (1.0 + r / m.w) + m.y * atan(v.y, v.x) / 6.283185307179586);
            return g < m.x ? target : s;
        }
        """)
}
