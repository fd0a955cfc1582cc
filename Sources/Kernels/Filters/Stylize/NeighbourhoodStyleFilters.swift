import Foundation
import GraphEngine

/// Stylize filters that read a pixel's neighbours (CICategoryStylize): outlines (CIComicEffect,
/// CILineOverlay, CIEdgeWork) and relief (CIShadedMaterial, CIHeightFieldFromMask). Core Image builds them from
/// its noise reduction, edge and blur filters, which it does not document; ours are composed of
/// this catalogue's Gaussian blur and a 3×3 Sobel on luma. Notation: `Y(q)` is the luma of the
/// premultiplied colour at `q` (Rec. 709 weights 0.2125, 0.7154, 0.0721), read from the input
/// clamped to its extent (so its border draws no outline); `E = √(Gx² + Gy²)` with
/// `Gx = Y(x+1, y−1) + 2Y(x+1, y) + Y(x+1, y+1) − (the same at x − 1)` and `Gy` alike in y.
enum NeighbourhoodStyleFilters {
    static let categories = ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [comic, lineOverlay, edgeWork, shadedMaterial, heightFieldFromMask]

    /// The Sobel magnitude of `luma(p)`, a helper each kernel defines over its own samplers.
    static let sobelSource = """
        float sobelMagnitude(float a, float b, float c, float d, float f, float g, float h, float i) {
            float gx = (c + 2.0 * f + i) - (a + 2.0 * d + g);
            float gy = (g + 2.0 * h + i) - (a + 2.0 * b + c);
            return sqrt(gx * gx + gy * gy);
        }

        """

    /// Every sampler read one pixel around the output (the 3×3 neighbourhood).
    static let neighbourhood = KernelRegionOfInterest.callback { _, rect in rect.outset(dx: 1, dy: 1) }

    /// Ours: a comic's flat colours and ink outlines: the unpremultiplied colour posterised to five
    /// levels, `q = floor(4c + ½)/4`, darkened by the ink `k = clamp(6·(E − 0.15), 0, 1)`:
    /// `out = (q·(1 − k)·a, a)`.
    static let comic = FilterDescriptor(
        name: "CIComicEffect", categories: categories,
        summary: "Flat colours and ink outlines: q = floor(4c + 1/2)/4 (unpremultiplied), ink k = clamp(6(E − 0.15), 0, 1) with E "
            + "the Sobel magnitude of luma, out = (q(1 − k)a, a); extent the input's.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in
        let image = try args.image("inputImage")
        return try comicKernel.apply([.image(image.clampedToExtent())], extent: image.extent, regionOfInterest: neighbourhood)
    }

    static let comicKernel = CatalogueKernel(sobelSource + """
        float lumaAt(sampler image, vec2 p) {
            return dot(sample(image, p).rgb, vec3(0.2125, 0.7154, 0.0721));
        }
        kernel vec4 CIComicEffect(sampler image) {
            vec2 p = destCoord();
            float e = sobelMagnitude(lumaAt(image, p + vec2(-1.0, -1.0)), lumaAt(image, p + vec2(0.0, -1.0)), lumaAt(image, p + vec2(1.0, -1.0)),
                                     lumaAt(image, p + vec2(-1.0, 0.0)), lumaAt(image, p + vec2(1.0, 0.0)),
                                     lumaAt(image, p + vec2(-1.0, 1.0)), lumaAt(image, p + vec2(0.0, 1.0)), lumaAt(image, p + vec2(1.0, 1.0)));
            vec4 s = sample(image, p);
            vec3 q = floor(unpremultiply(s).rgb * 4.0 + 0.5) / 4.0;
            float ink = clamp(6.0 * (e - 0.15), 0.0, 1.0);
            return vec4(q * (1.0 - ink) * s.a, s.a);
        }
        """)

    /// Ours: black lines where the denoised picture has edges, transparent elsewhere. Noise
    /// reduction: `b` = the Gaussian blur (σ = 10·NRNoiseLevel) of the clamped input, detail put
    /// back by NRSharpness/2, `n = b + (NRSharpness/2)·(in − b)`; `E` the Sobel magnitude of
    /// `Y(n)`; `alpha = clamp((EdgeIntensity·E − Threshold)·Contrast, 0, 1)`, `out = (0, 0, 0, alpha)`.
    static let lineOverlay = FilterDescriptor(
        name: "CILineOverlay", categories: ["CICategoryStillImage", "CICategoryVideo", "CICategoryStylize"],
        summary: "Black outlines on transparency: n = b + (NRSharpness/2)(in − b), b = Gaussian blur (σ = 10·NRNoiseLevel), "
            + "E = Sobel magnitude of luma(n), out = (0, 0, 0, clamp((EdgeIntensity·E − Threshold)·Contrast, 0, 1)).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputNRNoiseLevel", .number, default: .number(0.07), minimum: 0, slider: 0...0.1,
                             "The noise reduction's blur (σ = 10 times it, in pixels)."),
                 FilterInput("inputNRSharpness", .number, default: .number(0.71), minimum: 0, slider: 0...2,
                             "How much detail the noise reduction puts back (half of it)."),
                 FilterInput("inputEdgeIntensity", .number, default: .number(1), minimum: 0, slider: 0...200, "The gain on the edges."),
                 FilterInput("inputThreshold", .number, default: .number(0.1), minimum: 0, slider: 0...1,
                             "The edge strength below which nothing is drawn."),
                 FilterInput("inputContrast", .number, default: .number(50), minimum: 0.25, slider: 0.25...200,
                             "How fast the lines turn opaque above the threshold.")]
    ) { args in
        let image = try args.image("inputImage")
        let clamped = image.clampedToExtent()
        let blurred = try FilterRegistry.standard.apply("CIGaussianBlur", parameters: [
            "inputImage": .image(clamped), "inputRadius": .number(10 * (try args.number("inputNRNoiseLevel")))])
        let line: [Double] = [try args.number("inputNRSharpness") / 2, try args.number("inputEdgeIntensity"),
                              try args.number("inputThreshold"), try args.number("inputContrast")]
        return try lineOverlayKernel.apply([.image(clamped), .image(blurred), .vector(line)], extent: image.extent,
                                           regionOfInterest: neighbourhood)
    }

    static let lineOverlayKernel = CatalogueKernel(sobelSource + """
        float lumaAt(sampler image, sampler blurred, vec2 p, float detail) {
            vec4 b = sample(blurred, p);
            return dot((b + detail * (sample(image, p) - b)).rgb, vec3(0.2125, 0.7154, 0.0721));
        }
        kernel vec4 CILineOverlay(sampler image, sampler blurred, vec4 line) {
            vec2 p = destCoord();
            float k = line.x;
            float e = sobelMagnitude(lumaAt(image, blurred, p + vec2(-1.0, -1.0), k), lumaAt(image, blurred, p + vec2(0.0, -1.0), k),
                                     lumaAt(image, blurred, p + vec2(1.0, -1.0), k), lumaAt(image, blurred, p + vec2(-1.0, 0.0), k),
                                     lumaAt(image, blurred, p + vec2(1.0, 0.0), k), lumaAt(image, blurred, p + vec2(-1.0, 1.0), k),
                                     lumaAt(image, blurred, p + vec2(0.0, 1.0), k), lumaAt(image, blurred, p + vec2(1.0, 1.0), k));
            return vec4(0.0, 0.0, 0.0, clamp((line.y * e - line.z) * line.w, 0.0, 1.0));
        }
        """)

    /// Ours: a woodcut, black ink on white. With `G_σ` this catalogue's Gaussian blur (CIGaussianBlur)
    /// of the clamped input and `L = (116 f(Y) − 16)/100` the CIE lightness of a luma (`f` as in CIE
    /// Lab), `a = L(Y(G_1))` (the picture, its noise smoothed) and `b = L(Y(G_{1+R}))` (its
    /// surroundings, R = inputRadius): ink where the picture is darker than its surroundings (the
    /// dark side of every edge, dark lines, as thick as R) or dark in itself,
    /// `k = max(smoothstep(0.01, 0.03, b − a), 1 − smoothstep(0.2, 0.3, a))`, `out = (1 − k, 1 − k,
    /// 1 − k, 1)`; extent the input's. R = 0 leaves only the dark areas.
    static let edgeWork = FilterDescriptor(
        name: "CIEdgeWork", categories: categories,
        summary: "A woodcut (ours): ink k = max(smoothstep(0.01, 0.03, b − a), 1 − smoothstep(0.2, 0.3, a)), a and b the lightness "
            + "L*/100 of the luma blurred by σ = 1 and σ = 1 + inputRadius; out = (1 − k, 1 − k, 1 − k, 1).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(3), minimum: 0, slider: 0...20,
                             "How far the surroundings reach, so how thick the lines are, in pixels.")]
    ) { args in
        let image = try args.image("inputImage")
        let radius = try args.number("inputRadius")
        // The wide blur's σ = 1 + radius stays within CIGaussianBlur's 1000.
        guard radius <= 999 else {
            throw GraphError.invalidParameter(filter: "CIEdgeWork", key: "inputRadius", reason: "\(radius) is above 999 pixels")
        }
        let clamped = image.clampedToExtent()
        func blurred(_ sigma: Double) throws -> Image {
            try FilterRegistry.standard.apply("CIGaussianBlur", parameters: ["inputImage": .image(clamped), "inputRadius": .number(sigma)])
        }
        return try edgeWorkKernel.apply([.image(try blurred(1)), .image(try blurred(1 + radius))], extent: image.extent)
    }

    static let edgeWorkKernel = CatalogueKernel("""
        float lightness(vec4 c) {
            float y = dot(c.rgb, vec3(0.2125, 0.7154, 0.0721));
            float f = y > 0.008856451679035631 ? pow(y, 0.3333333333333333) : y / 0.12841854934601665 + 0.13793103448275862;
            return 1.16 * f - 0.16;
        }
        kernel vec4 CIEdgeWork(__sample fine, __sample wide) {
            float a = lightness(fine), b = lightness(wide);
            float k = max(smoothstep(0.01, 0.03, b - a), 1.0 - smoothstep(0.2, 0.3, a));
            return vec4(vec3(1.0 - k), 1.0);
        }
        """)

    /// Ours: the height field's normal `n = normalize(−scale·∂Y/∂x, −scale·∂Y/∂y, 1)` (central
    /// differences of `Y`, the input clamped) looks up the shading image as a sphere map: with its
    /// extent `[x y w h]`, `out = bilinear(shading, (x + w/2, y + h/2) + n.xy·(w/2, h/2))` times
    /// the height field's alpha; extent the height field's.
    static let shadedMaterial = FilterDescriptor(
        name: "CIShadedMaterial", categories: categories + ["CICategoryHighDynamicRange"],
        summary: "A height field (luma) shaded by a sphere map: n = normalize(−scale·∂Y/∂x, −scale·∂Y/∂y, 1) by central differences, "
            + "out = bilinear(shading, centre + n.xy·size/2)·a, centre and size the shading image's extent's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputShadingImage", .image, "The sphere map: a picture of a shaded ball filling its extent."),
                 FilterInput("inputScale", .number, default: .number(10), minimum: 0, slider: 0.5...200, "The height of white over black.")]
    ) { args in
        let image = try args.image("inputImage"), shading = try args.image("inputShadingImage")
        guard !shading.extent.isInfinite, !shading.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputShadingImage",
                                              reason: "the sphere map needs a finite extent (crop it), got \(shading.extent)")
        }
        let region = shading.extent
        return try shadedMaterialKernel.apply([.image(image.clampedToExtent()), .image(shading), .number(try args.number("inputScale"))],
                                              extent: image.extent,
                                              regionOfInterest: .callback { index, rect in index == 0 ? rect.outset(dx: 1, dy: 1) : region })
    }

    static let shadedMaterialKernel = CatalogueKernel("""
        float heightAt(sampler image, vec2 p) {
            return dot(sample(image, p).rgb, vec3(0.2125, 0.7154, 0.0721));
        }
        kernel vec4 CIShadedMaterial(sampler image, sampler shading, float scale) {
            vec2 p = destCoord();
            float dx = 0.5 * (heightAt(image, p + vec2(1.0, 0.0)) - heightAt(image, p - vec2(1.0, 0.0)));
            float dy = 0.5 * (heightAt(image, p + vec2(0.0, 1.0)) - heightAt(image, p - vec2(0.0, 1.0)));
            vec3 n = normalize(vec3(-scale * dx, -scale * dy, 1.0));
            vec4 e = samplerExtent(shading);
            vec2 halfSize = 0.5 * e.zw;
            return sample(shading, e.xy + halfSize + n.xy * halfSize) * sample(image, p).a;
        }
        """)

    /// Ours: the mask `m = clamp(Y, 0, 1)` (transparent outside it) blurred, `b` = Gaussian blur
    /// (σ = radius), then lofted into a rounded ridge: `h = √(1 − (1 − b)²)`, `out = (h, h, h, 1)`
    /// over the input's extent.
    static let heightFieldFromMask = FilterDescriptor(
        name: "CIHeightFieldFromMask", categories: categories,
        summary: "A rounded height field from a mask: m = clamp(luma, 0, 1), b = Gaussian blur of m (σ = radius), "
            + "h = √(1 − (1 − b)²), out = (h, h, h, 1); extent the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputRadius", .number, default: .number(10), minimum: 0, slider: 0...300,
                             "How far in pixels the slope reaches (the blur's σ).")]
    ) { args in
        let image = try args.image("inputImage")
        let mask = try maskKernel.apply([.image(image)], extent: image.extent)
        let blurred = try FilterRegistry.standard.apply("CIGaussianBlur", parameters: [
            "inputImage": .image(mask), "inputRadius": .number(try args.number("inputRadius"))])
        return try loftKernel.apply([.image(blurred)], extent: image.extent)
    }

    static let maskKernel = CatalogueKernel("""
        kernel vec4 CIHeightFieldMask(__sample s) {
            float m = clamp(dot(s.rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
            return vec4(m, m, m, 1.0);
        }
        """)

    static let loftKernel = CatalogueKernel("""
        kernel vec4 CIHeightFieldFromMask(__sample s) {
            float b = 1.0 - clamp(s.r, 0.0, 1.0);
            float h = sqrt(max(1.0 - b * b, 0.0));
            return vec4(h, h, h, 1.0);
        }
        """)
}
