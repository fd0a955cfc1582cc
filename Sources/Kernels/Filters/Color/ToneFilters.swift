import Foundation
import GraphEngine

/// Tone and white-balance adjustments (CICategoryColorAdjustment). Where the maths is a matrix it
/// is a ``GraphEngine/ColorMatrix`` (folded with its neighbours); the rest are colour kernels.
enum ToneFilters {
    static let categories = ColorAdjustmentFilters.adjustment
    static let imageInput = ColorAdjustmentFilters.imageInput
    static let all: [FilterDescriptor] = [
        vibrance, toneCurve, highlightShadowAdjust, temperatureAndTint, whitePointAdjust, colorPolynomial,
        colorCrossPolynomial, linearToSRGB, sRGBToLinear,
    ]

    // MARK: Vibrance

    /// Ours (Apple's kernel is not public): a saturation change weighted towards the less saturated
    /// colours, `rgb' = L + (rgb − L)·(1 + amount·(1 − S))` on unpremultiplied colour, with
    /// `L = 0.2125r + 0.7154g + 0.0721b` and `S = clamp((max − min)/max, 0, 1)` (HSV saturation).
    /// After the vibrance of photo editors (Lightroom, GPUImage): nearly grey colours move most,
    /// saturated ones hardly (no clipping of skin and sky). Identity when |amount| ≤ 0.001, as Apple.
    static let vibrance = FilterDescriptor(
        name: "CIVibrance", categories: categories,
        summary: "Adjusts saturation, more for the less saturated colours.",
        inputs: [imageInput, FilterInput("inputAmount", .number, default: .number(0), minimum: -1, maximum: 1, slider: -1...1,
                                         "Above 0 adds saturation to the dull colours, below 0 removes it.")]
    ) { args in
        let amount = try args.number("inputAmount")
        let image = try args.image("inputImage")
        if abs(amount) <= 0.001 { return image }
        return try vibranceKernel.apply([.image(image), .number(amount)])
    }

    static let vibranceKernel = CatalogueKernel("""
        kernel vec4 CIVibrance(__sample s, float amount) {
            vec4 c = unpremultiply(s);
            float high = max(c.r, max(c.g, c.b));
            float low = min(c.r, min(c.g, c.b));
            float saturation = high > 0.0 ? clamp((high - low) / high, 0.0, 1.0) : 0.0;
            float luma = dot(c.rgb, vec3(0.2125, 0.7154, 0.0721));
            c.rgb = luma + (c.rgb - luma) * (1.0 + amount * (1.0 - saturation));
            return premultiply(c);
        }
        """)

    // MARK: Tone curve

    /// Apple: a spline through the five points, applied in "a perceptual (gamma 2) version of the
    /// working space". The spline is ours (Apple's is not public): the natural cubic spline
    /// (second derivative 0 at the ends) through the points, extended linearly with its end slopes
    /// outside them. Per colour channel on unpremultiplied colour: `x = sign(c)·√|c|`,
    /// `y = S(x)`, `c' = sign(y)·y²`. The points' x must increase.
    static let toneCurve = FilterDescriptor(
        name: "CIToneCurve", categories: categories,
        summary: "Maps each colour channel through a spline through five points (in gamma 2).",
        inputs: [imageInput] + (0..<5).map { index in
            FilterInput("inputPoint\(index)", .vector, default: .vector([Double(index) * 0.25, Double(index) * 0.25]), count: 2,
                        "Point \(index) (x, y) of the curve.")
        }
    ) { args in
        let points = try (0..<5).map { try args.vector("inputPoint\($0)") }
        let image = try args.image("inputImage")
        if points.enumerated().allSatisfy({ $1[0] == Double($0) * 0.25 && $1[1] == $1[0] }) { return image }
        for index in 1..<5 where !(points[index][0] > points[index - 1][0]) {
            throw GraphError.invalidParameter(filter: "CIToneCurve", key: "inputPoint\(index)",
                                              reason: "the points' x must increase: \(points[index][0]) is not above \(points[index - 1][0])")
        }
        return image.applying(ToneCurveOperation(spline: NaturalCubicSpline(points: points.map { ($0[0], $0[1]) })))
    }

    // MARK: Highlights and shadows

    /// Ours (Apple's kernel is not public): a gain in stops from a guide luma
    /// `G = clamp(L(guide), 0, 1)`, `gain = 2^(shadow·(1 − G)² − (1 − highlight)·G²)`,
    /// `rgb' = rgb·gain` (hue kept). Shadows move by up to ±1 stop at black, highlights down by up to
    /// 1 stop at white; the defaults are the identity. The guide is the image itself when inputRadius
    /// is 0, else its Gaussian blur of σ = inputRadius (edges clamped), for a local adjustment.
    static let highlightShadowAdjust = FilterDescriptor(
        name: "CIHighlightShadowAdjust", categories: categories,
        summary: "Lightens the shadows and darkens the highlights.",
        inputs: [imageInput,
                 FilterInput("inputRadius", .number, default: .number(0), minimum: 0, maximum: 100, slider: 0...10,
                             "Gaussian σ of the local luma the adjustment follows; 0 adjusts each pixel by its own luma."),
                 FilterInput("inputShadowAmount", .number, default: .number(0), minimum: -1, maximum: 1, slider: -1...1,
                             "Above 0 lightens the shadows (up to 1 stop), below 0 darkens them."),
                 FilterInput("inputHighlightAmount", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0.3...1,
                             "Below 1 darkens the highlights (0: 1 stop at white).")]
    ) { args in
        let image = try args.image("inputImage")
        let radius = try args.number("inputRadius")
        let shadow = try args.number("inputShadowAmount"), highlightLoss = 1 - (try args.number("inputHighlightAmount"))
        if shadow == 0 && highlightLoss == 0 { return image }
        guard radius > 0 else { return try shadowHighlightKernel.apply([.image(image), .number(shadow), .number(highlightLoss)]) }
        guard !image.extent.isInfinite else {
            throw GraphError.invalidParameter(filter: "CIHighlightShadowAdjust", key: "inputImage",
                                              reason: "a radius needs an image of finite extent (crop it first)")
        }
        let guide = try image.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(radius)])
            .cropped(to: image.extent)
        return try shadowHighlightGuidedKernel.apply([.image(image), .image(guide), .number(shadow), .number(highlightLoss)])
    }

    static let shadowHighlightGain = """
        vec4 adjusted(vec4 s, vec4 guide, float shadow, float highlightLoss) {
            vec4 g = unpremultiply(guide);
            float G = clamp(dot(g.rgb, vec3(0.2125, 0.7154, 0.0721)), 0.0, 1.0);
            float gain = exp2(shadow * (1.0 - G) * (1.0 - G) - highlightLoss * G * G);
            return vec4(s.rgb * gain, s.a);
        }
        """
    static let shadowHighlightKernel = CatalogueKernel(shadowHighlightGain + """
        kernel vec4 CIHighlightShadowAdjust(__sample s, float shadow, float highlightLoss) {
            return adjusted(s, s, shadow, highlightLoss);
        }
        """)
    static let shadowHighlightGuidedKernel = CatalogueKernel(shadowHighlightGain + """
        kernel vec4 CIHighlightShadowAdjust(__sample s, __sample guide, float shadow, float highlightLoss) {
            return adjusted(s, guide, shadow, highlightLoss);
        }
        """)

    // MARK: White balance

    /// A colour matrix in linear sRGB adapting the white of `inputNeutral` to the white of
    /// `inputTargetNeutral` (each a temperature in kelvin and a tint). Ours (Apple's is not
    /// public): the white's chromaticity from the Planckian locus (Kim et al. 2002 cubic fit, T
    /// clamped to 1667…25000 K), moved off the locus along its normal in CIE 1960 uv by
    /// `Duv = −tint/3000` (the DNG SDK's tint scale: positive is magenta); the adaptation is
    /// Bradford's, `M = RGB←XYZ · B⁻¹ · diag(B·W_target / B·W_neutral) · B · XYZ←RGB`. So raising
    /// the neutral temperature warms the image. Identity when both vectors are equal.
    static let temperatureAndTint = FilterDescriptor(
        name: "CITemperatureAndTint", categories: categories,
        summary: "Adapts the white balance from one temperature and tint to another.",
        inputs: [imageInput,
                 FilterInput("inputNeutral", .vector, default: .vector([6500, 0]), count: 2,
                             "The temperature (K) and tint that are neutral in the image."),
                 FilterInput("inputTargetNeutral", .vector, default: .vector([6500, 0]), count: 2,
                             "The temperature (K) and tint that neutral should become.")]
    ) { args in
        let neutral = try args.vector("inputNeutral"), target = try args.vector("inputTargetNeutral")
        let image = try args.image("inputImage")
        if neutral == target { return image }
        let m = WhiteBalance.adaptation(from: WhiteBalance.white(kelvin: neutral[0], tint: neutral[1]),
                                        to: WhiteBalance.white(kelvin: target[0], tint: target[1]))
        return image.applyingColorMatrix(ColorMatrix(rgb: m, sourceName: "CITemperatureAndTint"))
    }

    /// `rgb' = rgb · W` with `W` the white colour in the working space (a von Kries scaling in RGB:
    /// white becomes W). Ours: Apple documents only "maps all colours using the new reference white".
    static let whitePointAdjust = FilterDescriptor(
        name: "CIWhitePointAdjust", categories: categories,
        summary: "Scales colours so that white becomes the given colour.",
        inputs: [imageInput, FilterInput("inputColor", .color, default: .color([1, 1, 1, 1]), "The new white (sRGB unless given linear).")]
    ) { args in
        let image = try args.image("inputImage")
        return try whitePointKernel.apply([.image(image), .image(try args.colorImage("inputColor"))], extent: image.extent)
    }

    static let whitePointKernel = CatalogueKernel("""
        kernel vec4 CIWhitePointAdjust(__sample s, __sample white) {
            return vec4(s.rgb * unpremultiply(white).rgb, s.a);
        }
        """)

    // MARK: Polynomials

    /// `c' = k0 + k1·c + k2·c² + k3·c³` per channel (alpha included) on unpremultiplied colour, with
    /// `(k0, k1, k2, k3)` the channel's coefficients (Apple's documented form). A degree-1 set is a
    /// colour matrix (it folds).
    static let colorPolynomial = FilterDescriptor(
        name: "CIColorPolynomial", categories: categories,
        summary: "Maps each channel through a cubic polynomial.",
        inputs: [imageInput] + ["Red", "Green", "Blue", "Alpha"].map {
            FilterInput("input\($0)Coefficients", .vector, default: .vector([0, 1, 0, 0]), count: 4,
                        "\($0): k0 + k1·x + k2·x² + k3·x³.")
        }
    ) { args in
        let k = try ["Red", "Green", "Blue", "Alpha"].map { try args.vector("input\($0)Coefficients") }
        let image = try args.image("inputImage")
        if k.allSatisfy({ $0[2] == 0 && $0[3] == 0 }) {
            let rows = (0..<4).map { row in (0..<4).map { $0 == row ? k[row][1] : 0 } }
            let matrix = ColorMatrix(r: rows[0], g: rows[1], b: rows[2], a: rows[3], bias: k.map { $0[0] }, sourceName: "CIColorPolynomial")
            return matrix.isIdentity ? image : image.applyingColorMatrix(matrix)
        }
        return image.applying(ColorPolynomialOperation(coefficients: k.flatMap { $0 }))
    }

    /// `c' = Σ k_i·t_i` for c = r, g, b over the terms `t = (r, g, b, r², g², b², r·g, g·b, b·r, 1)`
    /// (Apple's documented order), on unpremultiplied colour; alpha kept. Without second-order terms
    /// it is a colour matrix (it folds).
    static let colorCrossPolynomial = FilterDescriptor(
        name: "CIColorCrossPolynomial", categories: categories,
        summary: "Maps colour through second-order polynomials of r, g and b.",
        inputs: [imageInput] + ["Red", "Green", "Blue"].enumerated().map { index, name in
            FilterInput("input\(name)Coefficients", .vector, default: .vector((0..<10).map { $0 == index ? 1 : 0 }), count: 10,
                        "\(name) = k·(r, g, b, r², g², b², rg, gb, br, 1).")
        }
    ) { args in
        let k = try ["Red", "Green", "Blue"].map { try args.vector("input\($0)Coefficients") }
        let image = try args.image("inputImage")
        if k.allSatisfy({ $0[3..<9].allSatisfy { $0 == 0 } }) {
            let matrix = ColorMatrix(rgb: k.flatMap { $0[0..<3] }, bias: k.map { $0[9] }, sourceName: "CIColorCrossPolynomial")
            return matrix.isIdentity ? image : image.applyingColorMatrix(matrix)
        }
        return image.applying(ColorCrossPolynomialOperation(coefficients: k.flatMap { $0 }))
    }

    // MARK: sRGB curves

    /// The sign-preserving sRGB encode per colour channel on unpremultiplied colour:
    /// `sign(x)·(|x| ≤ 0.0031308 ? 12.92|x| : 1.055|x|^(1/2.4) − 0.055)`.
    static let linearToSRGB = FilterDescriptor(
        name: "CILinearToSRGBToneCurve", categories: categories, summary: "Encodes linear colour with the sRGB curve.",
        inputs: [imageInput]
    ) { args in
        try args.image("inputImage").applying(TransferCurveOperation(encode: true))
    }

    /// The sign-preserving sRGB decode per colour channel on unpremultiplied colour:
    /// `sign(y)·(|y| ≤ 0.04045 ? |y|/12.92 : ((|y| + 0.055)/1.055)^2.4)`.
    static let sRGBToLinear = FilterDescriptor(
        name: "CISRGBToneCurveToLinear", categories: categories, summary: "Decodes sRGB-encoded colour to linear.",
        inputs: [imageInput]
    ) { args in
        try args.image("inputImage").applying(TransferCurveOperation(encode: false))
    }
}

/// A natural cubic spline through points of increasing x, extended linearly outside them.
struct NaturalCubicSpline: Equatable {
    /// Knots' x.
    let x: [Double]
    /// Per segment `i`: `y = a + b·t + c·t² + d·t³` with `t = x − x[i]`.
    let a: [Double], b: [Double], c: [Double], d: [Double]
    /// Slopes at the first and last knot, and the last knot's y.
    let startSlope: Double, endSlope: Double, endValue: Double

    init(points: [(Double, Double)]) {
        let n = points.count
        let x = points.map(\.0), y = points.map(\.1)
        let h = (0..<(n - 1)).map { x[$0 + 1] - x[$0] }
        // Second derivatives: M[0] = M[n−1] = 0; the tridiagonal system by the Thomas algorithm.
        var m = [Double](repeating: 0, count: n)
        var diagonal = [Double](repeating: 0, count: n), rhs = [Double](repeating: 0, count: n)
        for i in 1..<(n - 1) {
            diagonal[i] = 2 * (h[i - 1] + h[i])
            rhs[i] = 6 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
            if i > 1 {
                let factor = h[i - 1] / diagonal[i - 1]
                diagonal[i] -= factor * h[i - 1]
                rhs[i] -= factor * rhs[i - 1]
            }
        }
        if n > 2 {
            for i in stride(from: n - 2, through: 1, by: -1) { m[i] = (rhs[i] - h[i] * m[i + 1]) / diagonal[i] }
        }
        self.x = x
        a = Array(y[0..<(n - 1)])
        b = (0..<(n - 1)).map { i -> Double in
            let secant: Double = (y[i + 1] - y[i]) / h[i]
            return secant - h[i] * (2 * m[i] + m[i + 1]) / 6
        }
        c = (0..<(n - 1)).map { m[$0] / 2 }
        d = (0..<(n - 1)).map { (m[$0 + 1] - m[$0]) / (6 * h[$0]) }
        let last = n - 2
        startSlope = b[0]
        endSlope = b[last] + 2 * c[last] * h[last] + 3 * d[last] * h[last] * h[last]
        endValue = y[n - 1]
    }
}

/// CIToneCurve: the spline per colour channel in gamma 2, by segment selection and Horner.
struct ToneCurveOperation: ColorOperation {
    let spline: NaturalCubicSpline
    var name: String { "CIToneCurve" }
    var structureKey: String { "CIToneCurve \(spline.x.count)" }
    /// Knots x, then a, b, c, d per segment, then the two linear extensions.
    var uniformValues: [Float] {
        (spline.x + spline.a + spline.b + spline.c + spline.d + [spline.startSlope, spline.endSlope, spline.endValue]).map { Float($0) }
    }
    var argumentSummary: String { "knots=\(spline.x)" }
}

extension ToneCurveOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms u: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let n = spline.x.count, segments = n - 1
        let knots = Array(u[0..<n])
        let coefficients = (0..<4).map { Array(u[(n + $0 * segments)..<(n + ($0 + 1) * segments)]) }
        let startSlope = u[n + 4 * segments], endSlope = u[n + 4 * segments + 1], endValue = u[n + 4 * segments + 2]
        let straight = b.unpremultiply(inputs[0])
        let curved = b.eachColor(straight) { value, b in
            let x = b.multiply(b.unary(.sign, value), b.unary(.sqrt, b.unary(.abs, value)))
            let above = (1..<segments).map { b.binary(.greaterThanOrEqual, x, knots[$0]) }
            func pick(_ values: [Operand], _ b: inout ProgramBuilder) -> Operand {
                (1..<segments).reduce(values[0]) { chosen, i in b.select(above[i - 1], values[i], chosen) }
            }
            let t = b.subtract(x, pick(Array(knots[0..<segments]), &b))
            var y = pick(coefficients[3], &b)
            for k in [2, 1, 0] { y = b.multiplyAdd(y, t, pick(coefficients[k], &b)) }
            let before = b.multiplyAdd(startSlope, b.subtract(x, knots[0]), coefficients[0][0])
            let after = b.multiplyAdd(endSlope, b.subtract(x, knots[n - 1]), endValue)
            y = b.select(b.binary(.lessThan, x, knots[0]), before, y)
            y = b.select(b.binary(.greaterThan, x, knots[n - 1]), after, y)
            return b.multiply(y, b.unary(.abs, y))
        }
        return b.premultiply(curved)
    }
}

/// CIColorPolynomial: Horner per channel on unpremultiplied colour (alpha included).
struct ColorPolynomialOperation: ColorOperation {
    /// 4 coefficients (k0…k3) for each of r, g, b, a.
    let coefficients: [Double]
    var name: String { "CIColorPolynomial" }
    var structureKey: String { "CIColorPolynomial" }
    var uniformValues: [Float] { coefficients.map { Float($0) } }
    var argumentSummary: String { "" }
}

extension ColorPolynomialOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms u: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = b.unpremultiply(inputs[0])
        let channels = s.operands.enumerated().map { channel, x in
            [2, 1, 0].reduce(u[channel * 4 + 3]) { y, k in b.multiplyAdd(y, x, u[channel * 4 + k]) }
        }
        return b.premultiply(OperandQuad(channels))
    }
}

/// CIColorCrossPolynomial: each colour channel a dot product with the ten terms.
struct ColorCrossPolynomialOperation: ColorOperation {
    /// 10 coefficients for each of r, g, b.
    let coefficients: [Double]
    var name: String { "CIColorCrossPolynomial" }
    var structureKey: String { "CIColorCrossPolynomial" }
    var uniformValues: [Float] { coefficients.map { Float($0) } }
    var argumentSummary: String { "" }
}

extension ColorCrossPolynomialOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms u: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = b.unpremultiply(inputs[0])
        let terms = [s.r, s.g, s.b, b.multiply(s.r, s.r), b.multiply(s.g, s.g), b.multiply(s.b, s.b),
                     b.multiply(s.r, s.g), b.multiply(s.g, s.b), b.multiply(s.b, s.r)]
        let channels = (0..<3).map { channel in
            b.add(b.dot(Array(u[(channel * 10)..<(channel * 10 + 9)]), terms), u[channel * 10 + 9])
        }
        return b.premultiply(OperandQuad(channels[0], channels[1], channels[2], s.a))
    }
}

/// The sRGB transfer (encode or decode) on unpremultiplied colour.
struct TransferCurveOperation: ColorOperation {
    let encode: Bool
    var name: String { encode ? "CILinearToSRGBToneCurve" : "CISRGBToneCurveToLinear" }
    var structureKey: String { name }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "" }
}

extension TransferCurveOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let op: UnaryOperator = encode ? .linearToSRGB : .srgbToLinear
        return b.premultiply(b.eachColor(b.unpremultiply(inputs[0])) { $1.unary(op, $0) })
    }
}

/// White points and Bradford adaptation for CITemperatureAndTint.
enum WhiteBalance {
    /// Linear sRGB (D65) to XYZ and back, and Bradford's cone response matrix and its inverse.
    static let rgbToXYZ: [Double] = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.0721750,
                                     0.0193339, 0.1191920, 0.9503041]
    static let xyzToRGB: [Double] = [3.2404542, -1.5371385, -0.4985314, -0.9692660, 1.8760108, 0.0415560,
                                     0.0556434, -0.2040259, 1.0572252]
    static let bradford: [Double] = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]
    static let bradfordInverse: [Double] = [0.9869929, -0.1470543, 0.1599627, 0.4323053, 0.5183603, 0.0492912,
                                            -0.0085287, 0.0400428, 0.9684867]

    /// The Planckian chromaticity (Kim et al. 2002), T clamped to 1667…25000 K.
    static func planckian(_ kelvin: Double) -> (x: Double, y: Double) {
        let t = min(max(kelvin, 1667), 25000)
        let x = t <= 4000
            ? -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        }
        return (x, y)
    }

    /// The XYZ (Y = 1) of the white at `kelvin`, moved by `tint` across the locus.
    static func white(kelvin: Double, tint: Double) -> [Double] {
        func uv(_ p: (x: Double, y: Double)) -> (Double, Double) {
            let denominator = -2 * p.x + 12 * p.y + 3
            return (4 * p.x / denominator, 6 * p.y / denominator)
        }
        let t = min(max(kelvin, 1667), 25000)
        let (u, v) = uv(planckian(t))
        let below = uv(planckian(t * 0.99)), above = uv(planckian(t * 1.01))
        var normal = (-(above.1 - below.1), above.0 - below.0)
        let length = (normal.0 * normal.0 + normal.1 * normal.1).squareRoot()
        normal = (normal.0 / length, normal.1 / length)
        if normal.1 < 0 { normal = (-normal.0, -normal.1) }  // towards green (above the locus)
        let duv = -tint / 3000
        let (u2, v2) = (u + duv * normal.0, v + duv * normal.1)
        let denominator = 2 * u2 - 8 * v2 + 4
        let x = 3 * u2 / denominator, y = 2 * v2 / denominator
        return [x / y, 1, (1 - x - y) / y]
    }

    /// The linear-sRGB matrix (row-major 3×3) adapting white `source` (XYZ) to `destination`.
    static func adaptation(from source: [Double], to destination: [Double]) -> [Double] {
        let s = apply(bradford, source), d = apply(bradford, destination)
        let scale: [Double] = [d[0] / s[0], 0, 0, 0, d[1] / s[1], 0, 0, 0, d[2] / s[2]]
        return multiply(xyzToRGB, multiply(bradfordInverse, multiply(scale, multiply(bradford, rgbToXYZ))))
    }

    static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { m[$0 * 3] * v[0] + m[$0 * 3 + 1] * v[1] + m[$0 * 3 + 2] * v[2] }
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index -> Double in
            let row = index / 3, column = index % 3
            var sum = 0.0
            for k in 0..<3 { sum += a[row * 3 + k] * b[k * 3 + column] }
            return sum
        }
    }
}
