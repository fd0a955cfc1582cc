import GraphEngine

/// CIE L*a*b* (CICategoryColorEffect): the working space's RGB to Lab and back, and the CIE 1994
/// colour difference. The CIE formulas are standard; the working space's RGB is taken as linear
/// sRGB (Rec. 709 primaries, D65 white `Xn = 0.95047, Yn = 1, Zn = 1.08883`), the engine's default
/// working space. `XYZ = M·rgb` with sRGB's matrix `M`, `f(t) = ∛t` above `(6/29)³` else
/// `t/(3(6/29)²) + 4/29`; `L = 116 f(Y/Yn) − 16`, `a = 500 (f(X/Xn) − f(Y/Yn))`,
/// `b = 200 (f(Y/Yn) − f(Z/Zn))`. Lab images hold `(L, a, b, alpha)` unpremultiplied. Ours:
/// normalised Lab is `(L/100, (a + 128)/256, (b + 128)/256)`, as Apple says only "in the range 0 to 1".
enum LabFilters {
    static let categories = ["CICategoryColorEffect", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels",
                             "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [rgbToLab, labToRGB, deltaE]

    static let normalizeInput = FilterInput("inputNormalize", .bool, default: .bool(false),
                                            "Lab in 0…1: L/100 and (a + 128)/256, (b + 128)/256; false: L 0…100, a and b −128…128.")

    static let labSource = """
        float labF(float t) {
            return t > 0.008856451679035631 ? pow(t, 0.3333333333333333) : t / 0.12841854934601665 + 0.13793103448275862;
        }
        vec3 toLab(vec3 c) {
            float x = dot(c, vec3(0.4124564, 0.3575761, 0.1804375)) / 0.95047;
            float y = dot(c, vec3(0.2126729, 0.7151522, 0.0721750));
            float z = dot(c, vec3(0.0193339, 0.1191920, 0.9503041)) / 1.08883;
            float fy = labF(y);
            return vec3(116.0 * fy - 16.0, 500.0 * (labF(x) - fy), 200.0 * (fy - labF(z)));
        }

        """

    /// `(L, a, b, alpha)` of the unpremultiplied colour (normalised on request).
    static let rgbToLab = FilterDescriptor(
        name: "CIConvertRGBtoLab", categories: categories,
        summary: "Working-space RGB (as linear sRGB, D65) to CIE L*a*b*: (L, a, b, alpha) unpremultiplied; normalised: "
            + "(L/100, (a + 128)/256, (b + 128)/256).",
        inputs: [ColorAdjustmentFilters.imageInput, normalizeInput]
    ) { args in
        try rgbToLabKernel.apply([.image(try args.image("inputImage")), .number(try args.bool("inputNormalize") ? 1 : 0)])
    }

    static let rgbToLabKernel = CatalogueKernel(labSource + """
        kernel vec4 CIConvertRGBtoLab(__sample s, float normalized) {
            vec3 lab = toLab(unpremultiply(s).rgb);
            vec3 scaled = vec3(lab.x / 100.0, (lab.y + 128.0) / 256.0, (lab.z + 128.0) / 256.0);
            return vec4(normalized > 0.5 ? scaled : lab, s.a);
        }
        """)

    /// The inverse: `f_y = (L + 16)/116`, `f_x = f_y + a/500`, `f_z = f_y − b/200`,
    /// `f⁻¹(f) = f³` above `6/29` else `3(6/29)²(f − 4/29)`, `rgb = M⁻¹·(Xn f⁻¹(f_x), f⁻¹(f_y), Zn f⁻¹(f_z))`,
    /// premultiplied by the alpha.
    static let labToRGB = FilterDescriptor(
        name: "CIConvertLabToRGB", categories: categories,
        summary: "CIE L*a*b* (L, a, b, alpha; normalised on request) to working-space RGB (as linear sRGB, D65), premultiplied.",
        inputs: [ColorAdjustmentFilters.imageInput, normalizeInput]
    ) { args in
        try labToRGBKernel.apply([.image(try args.image("inputImage")), .number(try args.bool("inputNormalize") ? 1 : 0)])
    }

    static let labToRGBKernel = CatalogueKernel("""
        float labInverse(float f) {
            return f > 0.20689655172413793 ? f * f * f : 0.12841854934601665 * (f - 0.13793103448275862);
        }
        kernel vec4 CIConvertLabToRGB(__sample s, float normalized) {
            vec3 lab = normalized > 0.5 ? vec3(100.0 * s.r, 256.0 * s.g - 128.0, 256.0 * s.b - 128.0) : s.rgb;
            float fy = (lab.x + 16.0) / 116.0;
            vec3 xyz = vec3(0.95047 * labInverse(fy + lab.y / 500.0), labInverse(fy), 1.08883 * labInverse(fy - lab.z / 200.0));
            vec3 c = vec3(dot(xyz, vec3(3.2404542, -1.5371385, -0.4985314)),
                          dot(xyz, vec3(-0.9692660, 1.8760108, 0.0415560)),
                          dot(xyz, vec3(0.0556434, -0.2040259, 1.0572252)));
            return vec4(c * s.a, s.a);
        }
        """)

    /// CIE ΔE 1994 (graphic arts: `kL = kC = kH = 1`, `K1 = 0.045`, `K2 = 0.015`) between the two
    /// images' Lab colours: `ΔE = √(ΔL² + (ΔC/(1 + K1·C₁))² + ΔH²/(1 + K2·C₁)²)`, `C = √(a² + b²)`,
    /// `ΔH² = max(Δa² + Δb² − ΔC², 0)`; `out = (ΔE, ΔE, ΔE, 1)` over the intersection of the extents.
    static let deltaE = FilterDescriptor(
        name: "CILabDeltaE", categories: Array(categories.filter { $0 != "CICategoryHighDynamicRange" }),
        summary: "CIE ΔE 1994 between the images' Lab colours: ΔE = √(ΔL² + (ΔC/(1 + 0.045·C1))² + ΔH²/(1 + 0.015·C1)²), "
            + "out = (ΔE, ΔE, ΔE, 1); extent the intersection.",
        inputs: [FilterInput("inputImage", .image, "The first image."), FilterInput("inputImage2", .image, "The second image.")]
    ) { args in
        let a = try args.image("inputImage"), b = try args.image("inputImage2")
        return try deltaEKernel.apply([.image(a), .image(b)], extent: a.extent.intersection(b.extent))
    }

    static let deltaEKernel = CatalogueKernel(labSource + """
        kernel vec4 CILabDeltaE(__sample s, __sample t) {
            vec3 p = toLab(unpremultiply(s).rgb), q = toLab(unpremultiply(t).rgb);
            vec3 d = p - q;
            float c1 = length(p.yz), c2 = length(q.yz);
            float dc = c1 - c2;
            float dh2 = max(d.y * d.y + d.z * d.z - dc * dc, 0.0);
            float sc = 1.0 + 0.045 * c1, sh = 1.0 + 0.015 * c1;
            float e = sqrt(d.x * d.x + (dc / sc) * (dc / sc) + dh2 / (sh * sh));
            return vec4(e, e, e, 1.0);
        }
        """)
}
