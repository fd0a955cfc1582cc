import Foundation
import GraphEngine

/// Core Image's 3×3 analysis filters (issue 25): the median (CIMedianFilter), edges (CIEdges) and
/// signed Sobel gradients (CISobelGradients). Each reads the input clamped to its extent (so the
/// border has no edge) one pixel around the output; the extent is the input's. Notation: for a
/// channel `v` of the premultiplied colour, `Gx(v) = v(x+1, y−1) + 2v(x+1, y) + v(x+1, y+1) − (the
/// same at x − 1)` and `Gy(v)` alike in y (y up). Apple does not publish its scaling, so each
/// formula here is ours.
enum EdgeAnalysisFilters {
    static let all: [FilterDescriptor] = [median, edges, sobelGradients, gaborGradients]

    /// The nine neighbours `p0…p8` (row by row from `(x−1, y−1)`), declared in kernel source.
    static let neighbours = (0..<9).map { i in
        "    vec4 p\(i) = sample(image, p + vec2(\(Double(i % 3 - 1)), \(Double(i / 3 - 1))));\n"
    }.joined()

    /// Ours: per channel, the median of the 3×3 neighbourhood (premultiplied values; Devillard's
    /// 19-exchange network, exact).
    static let median = FilterDescriptor(
        name: "CIMedianFilter", categories: ["CICategoryBlur", "CICategoryStillImage", "CICategoryVideo", "CICategoryHighDynamicRange"],
        summary: "Per channel, the median of the 3×3 neighbourhood (input clamped to its extent); extent the input's.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in
        let image = try args.image("inputImage")
        return try medianKernel.apply([.image(image.clampedToExtent())], extent: image.extent, regionOfInterest: NeighbourhoodStyleFilters.neighbourhood)
    }

    static let medianKernel: CatalogueKernel = {
        // Devillard's opt_med9: after these compare-exchanges p4 is the median.
        let pairs = [(1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3), (5, 8), (4, 7), (3, 6), (1, 4),
                     (2, 5), (4, 7), (4, 2), (6, 4), (4, 2)]
        let exchanges = pairs.map { a, b in "    t = min(p\(a), p\(b)); p\(b) = max(p\(a), p\(b)); p\(a) = t;\n" }.joined()
        return CatalogueKernel("kernel vec4 CIMedianFilter(sampler image) {\n    vec2 p = destCoord();\n" + neighbours
                               + "    vec4 t;\n" + exchanges + "    return p4;\n}\n")
    }()

    /// Ours: `out = (I·√(Gx(c)² + Gy(c)²) for c in r, g, b; 1)`, I = inputIntensity: coloured
    /// edges on opaque black.
    static let edges = FilterDescriptor(
        name: "CIEdges", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Coloured edges: per channel I·√(Gx² + Gy²) (3×3 Sobel, input clamped to its extent), alpha 1; extent the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputIntensity", .number, default: .number(1), minimum: 0, slider: 0...10, "The gain on the edges.")]
    ) { args in
        let image = try args.image("inputImage")
        return try edgesKernel.apply([.image(image.clampedToExtent()), .number(try args.number("inputIntensity"))], extent: image.extent,
                                     regionOfInterest: NeighbourhoodStyleFilters.neighbourhood)
    }

    static let sobelSource = """
            vec4 gx = (p2 + 2.0 * p5 + p8) - (p0 + 2.0 * p3 + p6);
            vec4 gy = (p6 + 2.0 * p7 + p8) - (p0 + 2.0 * p1 + p2);

        """

    static let edgesKernel = CatalogueKernel("kernel vec4 CIEdges(sampler image, float intensity) {\n    vec2 p = destCoord();\n" + neighbours
        + sobelSource + "    return vec4(intensity * sqrt(gx.rgb * gx.rgb + gy.rgb * gy.rgb), 1.0);\n}\n")

    /// Ours: `r` = the `Gx(c)` of greatest magnitude over c in r, g, b (signed; the first of equal
    /// magnitudes), `g` the same of `Gy`, `b = 0`, `a = 1`.
    static let sobelGradients = FilterDescriptor(
        name: "CISobelGradients", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Signed 3×3 Sobel gradients: r = the channel's Gx of greatest |Gx|, g = likewise Gy (over r, g, b), b = 0, a = 1.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in
        let image = try args.image("inputImage")
        return try sobelGradientsKernel.apply([.image(image.clampedToExtent())], extent: image.extent,
                                              regionOfInterest: NeighbourhoodStyleFilters.neighbourhood)
    }

    static let sobelGradientsKernel = CatalogueKernel("""
        float strongest(vec3 v) {
            float best = v.r;
            if (abs(v.g) > abs(best)) { best = v.g; }
            if (abs(v.b) > abs(best)) { best = v.b; }
            return best;
        }
        kernel vec4 CISobelGradients(sampler image) {
            vec2 p = destCoord();

        """ + neighbours + sobelSource + "    return vec4(strongest(gx.rgb), strongest(gy.rgb), 0.0, 1.0);\n}\n")

    /// Ours: `r` = the `Σ Kx(dx, dy)·c(x + dx, y + dy)` of greatest magnitude over c in r, g, b
    /// (signed), `g` the same with `Ky`, `b = 0`, `a = 1`; `Kx`, `Ky` are `GaborTaps`' 5×5 odd
    /// Gabor filters; the input is clamped to its extent and read two pixels around the output.
    static let gaborGradients = FilterDescriptor(
        name: "CIGaborGradients", categories: ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Signed 5×5 Gabor gradients: r = the channel's Σ Kx·c of greatest magnitude, g = likewise Ky (over r, g, b), b = 0, a = 1; "
            + "Kx ∝ exp(−(dx² + dy²)/2)·sin(π·dx/2), unit response to a ramp.",
        inputs: [ColorAdjustmentFilters.imageInput]
    ) { args in
        let image = try args.image("inputImage")
        return try gaborKernel.apply([.image(image.clampedToExtent())], extent: image.extent,
                                     regionOfInterest: KernelRegionOfInterest.callback { _, rect in rect.outset(dx: 2, dy: 2) })
    }

    static let gaborKernel: CatalogueKernel = {
        var body = ""
        for dy in -2...2 {
            for dx in -2...2 {
                let wx = GaborTaps.weights[dy + 2][dx + 2], wy = GaborTaps.weights[dx + 2][dy + 2]
                guard wx != 0 || wy != 0 else { continue }
                body += "    s = sample(image, p + vec2(\(Double(dx)), \(Double(dy))));\n"
                if wx != 0 { body += "    gx += \(wx) * s;\n" }
                if wy != 0 { body += "    gy += \(wy) * s;\n" }
            }
        }
        return CatalogueKernel("""
            float strongest(vec3 v) {
                float best = v.r;
                if (abs(v.g) > abs(best)) { best = v.g; }
                if (abs(v.b) > abs(best)) { best = v.b; }
                return best;
            }
            kernel vec4 CIGaborGradients(sampler image) {
                vec2 p = destCoord();
                vec4 s;
                vec4 gx = vec4(0.0);
                vec4 gy = vec4(0.0);

            """ + body + "    return vec4(strongest(gx.rgb), strongest(gy.rgb), 0.0, 1.0);\n}\n")
    }()
}

/// Ours (Apple does not publish its taps): CIGaborGradients' 5×5 odd Gabor filters, `Kx(dx, dy) =
/// w(dx, dy)/S` with `w = exp(−(dx² + dy²)/2)·sin(π·dx/2)` for dx, dy in −2…2 and `S = Σ w·dx` (so a
/// ramp `v = x` gives 1), and `Ky(dx, dy) = Kx(dy, dx)`.
enum GaborTaps {
    static let weights: [[Double]] = {
        var raw = [[Double]](repeating: [Double](repeating: 0, count: 5), count: 5)
        var s = 0.0
        for dy in -2...2 {
            for dx in -2...2 {
                let d = Double(dx), e = Double(dy)
                let w: Double = exp(-(d * d + e * e) / 2) * sin(Double.pi * d / 2)
                raw[dy + 2][dx + 2] = w
                s += w * d
            }
        }
        return raw.map { row in row.map { $0 / s } }
    }()
}
