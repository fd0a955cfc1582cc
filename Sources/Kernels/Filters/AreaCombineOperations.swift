import GraphEngine

/// The per-pixel steps that finish the area filters: an image combined with filtered versions of
/// itself (sharpening, bloom, morphological gradient, guided-filter coefficients). Each is a colour
/// operation, so it fuses into the program that reads the filtered images.
struct AreaCombineOperation: ColorOperation {
    enum Kind: String, Hashable, Sendable {
        /// inputs (s, b): `rgb + k·(rgb − b.rgb)`, alpha of s.
        case unsharp
        /// inputs (s, b): `rgb + k·(L(s) − L(b))`, alpha of s (the same delta on R, G, B keeps chroma).
        case sharpenLuminance
        /// inputs (s, b) with k = (noise level, sharpness): `d = s − b`,
        /// `t = smoothstep(n, 2n, |L(d)|)`, `rgb = b.rgb + (1 + sharpness)·t·d.rgb`, alpha of s.
        case noiseReduction
        /// inputs (s, b): `mix(s, s + b − s·b, k)` per premultiplied channel (screen).
        case bloom
        /// inputs (s, b): `mix(s, s·b, k)` on R, G, B; alpha of s (multiply).
        case gloom
        /// inputs (max, min): `max.rgb − min.rgb`, alpha of max.
        case gradient
        /// inputs (s, t): `(s + t)/2` per channel.
        case average
        /// input (guide): `I = L(guide)` as (I, I², 0, 0).
        case guideMoments
        /// inputs (p, guide): `p·L(guide)` per channel.
        case guideProduct
        /// inputs (mean p, mean Ip, mean (I, I²)) with k = ε: `A = (mean Ip − mean I·mean p)/(var I + ε)`.
        case guidedSlope
        /// same inputs: `B = mean p − A·mean I`.
        case guidedOffset
        /// inputs (mean A, mean B, guide): `mean A·L(guide) + mean B`.
        case guidedResult
        /// inputs (mean (a, b), guide): `v = mean a·G + mean b` as (v, v, v, 1), `G = encode_sRGB(L(guide rgb / alpha))`.
        case guidedMaskResult
    }

    let kind: Kind
    let parameters: [Float]

    init(_ kind: Kind, _ parameters: [Float] = []) {
        self.kind = kind
        self.parameters = parameters
    }

    var name: String { kind.rawValue }
    var structureKey: String { "area-combine \(kind.rawValue)" }
    var uniformValues: [Float] { parameters }
    var argumentSummary: String { parameters.isEmpty ? "" : "k=" + parameters.map { "\($0)" }.joined(separator: ",") }

    static func luma(_ c: OperandQuad, _ b: inout ProgramBuilder) -> Operand {
        let w = ColorAdjustmentFilters.luma.map { Operand.constant(Float($0)) }
        return b.ternary(.multiplyAdd, w[2], c.b, b.ternary(.multiplyAdd, w[1], c.g, b.binary(.multiply, w[0], c.r)))
    }
}

extension AreaCombineOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms u: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = inputs[0]
        func rgb(_ f: (Operand, Operand, inout ProgramBuilder) -> Operand, _ t: OperandQuad, alpha: Operand) -> OperandQuad {
            OperandQuad(f(s.r, t.r, &b), f(s.g, t.g, &b), f(s.b, t.b, &b), alpha)
        }
        switch kind {
        case .unsharp:
            return rgb({ x, y, b in b.ternary(.multiplyAdd, u[0], b.binary(.subtract, x, y), x) }, inputs[1], alpha: s.a)
        case .sharpenLuminance:
            let delta = b.binary(.multiply, u[0], b.binary(.subtract, Self.luma(s, &b), Self.luma(inputs[1], &b)))
            return rgb({ x, _, b in b.binary(.add, x, delta) }, inputs[1], alpha: s.a)
        case .noiseReduction:
            let blurred = inputs[1]
            let detail = OperandQuad(b.binary(.subtract, s.r, blurred.r), b.binary(.subtract, s.g, blurred.g),
                                     b.binary(.subtract, s.b, blurred.b), s.a)
            let magnitude = b.unary(.abs, Self.luma(detail, &b))
            let t = b.ternary(.smoothstep, u[0], b.binary(.multiply, u[0], .constant(2)), magnitude)
            let gain = b.binary(.multiply, t, b.binary(.add, u[1], .constant(1)))
            return OperandQuad(b.ternary(.multiplyAdd, gain, detail.r, blurred.r), b.ternary(.multiplyAdd, gain, detail.g, blurred.g),
                               b.ternary(.multiplyAdd, gain, detail.b, blurred.b), s.a)
        case .bloom:
            func screen(_ x: Operand, _ y: Operand, _ b: inout ProgramBuilder) -> Operand {
                b.ternary(.mix, x, b.binary(.subtract, b.binary(.add, x, y), b.binary(.multiply, x, y)), u[0])
            }
            let t = inputs[1]
            return OperandQuad(screen(s.r, t.r, &b), screen(s.g, t.g, &b), screen(s.b, t.b, &b), screen(s.a, t.a, &b))
        case .gloom:
            return rgb({ x, y, b in b.ternary(.mix, x, b.binary(.multiply, x, y), u[0]) }, inputs[1], alpha: s.a)
        case .gradient:
            return rgb({ x, y, b in b.binary(.subtract, x, y) }, inputs[1], alpha: s.a)
        case .average:
            let t = inputs[1]
            func mean(_ x: Operand, _ y: Operand) -> Operand { b.binary(.multiply, b.binary(.add, x, y), .constant(0.5)) }
            return OperandQuad(mean(s.r, t.r), mean(s.g, t.g), mean(s.b, t.b), mean(s.a, t.a))
        case .guideMoments:
            let i = Self.luma(s, &b)
            return OperandQuad(i, b.binary(.multiply, i, i), .constant(0), .constant(0))
        case .guideProduct:
            let i = Self.luma(inputs[1], &b)
            return OperandQuad(s.operands.map { b.binary(.multiply, $0, i) })
        case .guidedSlope, .guidedOffset:
            let meanP = s, meanIP = inputs[1], moments = inputs[2]
            let variance = b.binary(.subtract, moments.g, b.binary(.multiply, moments.r, moments.r))
            let denominator = b.binary(.add, variance, u[0])
            let slopes = zip(meanP.operands, meanIP.operands).map { p, ip in
                b.binary(.divide, b.binary(.subtract, ip, b.binary(.multiply, moments.r, p)), denominator)
            }
            if kind == .guidedSlope { return OperandQuad(slopes) }
            return OperandQuad(zip(meanP.operands, slopes).map { p, a in b.binary(.subtract, p, b.binary(.multiply, a, moments.r)) })
        case .guidedResult:
            let i = Self.luma(inputs[2], &b)
            return OperandQuad(zip(s.operands, inputs[1].operands).map { a, o in b.ternary(.multiplyAdd, a, i, o) })
        case .guidedMaskResult:
            let g = b.unary(.linearToSRGB, Self.luma(b.unpremultiply(inputs[1]), &b))
            let v = b.ternary(.multiplyAdd, s.r, g, s.g)
            return OperandQuad(v, v, v, .constant(1))
        }
    }
}

/// The filter families built on area passes (one entry in the registry).
enum AreaFilterFamilies {
    static let all = NeighbourhoodBlurFilters.all + SharpenFilters.all + MorphologyFilters.all + ConvolutionFilters.all
        + ResamplingFilters.all + GuidedUpsampleFilters.all
}
