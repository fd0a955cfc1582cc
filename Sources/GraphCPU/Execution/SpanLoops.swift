import CRowKernels
import Foundation

/// The loop bodies of the span interpreter: one tight loop per operator over `n` floats.
///
/// Each case passes a closure to an always-inlined loop so the optimiser specialises it into a
/// plain, vectorisable loop over unsafe pointers (no per-element dispatch).
enum SpanLoops {
    typealias Span = UnsafeMutablePointer<Float>

    @inline(__always)
    private static func map1(_ d: Span, _ a: Span, _ n: Int, _ f: (Float) -> Float) {
        for i in 0..<n { d[i] = f(a[i]) }
    }

    @inline(__always)
    private static func map2(_ d: Span, _ a: Span, _ b: Span, _ n: Int, _ f: (Float, Float) -> Float) {
        for i in 0..<n { d[i] = f(a[i], b[i]) }
    }

    @inline(__always)
    private static func map3(_ d: Span, _ a: Span, _ b: Span, _ c: Span, _ n: Int,
                             _ f: (Float, Float, Float) -> Float) {
        for i in 0..<n { d[i] = f(a[i], b[i], c[i]) }
    }

    /// `x.rounded(.down)`, bit for bit (−0 and NaN kept), without a libm call: below 2²³ in
    /// magnitude, adding and removing 2²³ (with x's sign) rounds to an integer, stepped down when
    /// that went up; larger values are integers already. Selects only, so the loops vectorise on
    /// any x86-64 (floorf is a call per value without SSE4.1's roundps).
    @inline(__always)
    static func roundedDown(_ x: Float) -> Float {
        let magic = Float(signOf: x, magnitudeOf: 8_388_608)
        var r = (x + magic) - magic
        r = r > x ? r - 1 : r
        return abs(x) < 8_388_608 && x != 0 ? r : x
    }

    static func unary(_ op: UnaryOperator, _ d: Span, _ a: Span, _ n: Int) {
        switch op {
        case .negate: map1(d, a, n) { -$0 }
        case .abs: map1(d, a, n) { Swift.abs($0) }
        case .sign: map1(d, a, n) { ScalarMath.unary(.sign, $0) }
        case .floor: map1(d, a, n) { roundedDown($0) }
        case .ceil: map1(d, a, n) { -roundedDown(-$0) }
        case .fract: map1(d, a, n) { $0 - roundedDown($0) }
        case .sqrt: map1(d, a, n) { $0.squareRoot() }
        case .inverseSqrt: map1(d, a, n) { 1 / $0.squareRoot() }
        case .logicalNot: map1(d, a, n) { $0 == 0 ? 1 : 0 }
        case .srgbToLinear, .linearToSRGB:
            // CRowKernels: interpolated in the tables for |x| ≤ 1, eight values at a time; exact beyond.
            let decode = op == .srgbToLinear
            (decode ? TransferTables.decode : TransferTables.encode).withUnsafeBufferPointer { table in
                if let base = table.baseAddress { graph_transfer_span(base, Int32(TransferTables.resolution), decode ? 1 : 0, a, d, Int32(n)) }
            }
        case .exp: graph_transcendental_span(GRAPH_TRANSCENDENTAL_EXP, a, d, Int32(n))  // CRowKernels: polynomials, eight lanes
        case .exp2: graph_transcendental_span(GRAPH_TRANSCENDENTAL_EXP2, a, d, Int32(n))
        case .log: graph_transcendental_span(GRAPH_TRANSCENDENTAL_LOG, a, d, Int32(n))
        case .log2: graph_transcendental_span(GRAPH_TRANSCENDENTAL_LOG2, a, d, Int32(n))
        case .sin: graph_transcendental_span(GRAPH_TRANSCENDENTAL_SIN, a, d, Int32(n))
        case .cos: graph_transcendental_span(GRAPH_TRANSCENDENTAL_COS, a, d, Int32(n))
        case .atan: graph_transcendental_span(GRAPH_TRANSCENDENTAL_ATAN, a, d, Int32(n))
        case .tan, .asin, .acos:
            for i in 0..<n { d[i] = ScalarMath.unary(op, a[i]) }
        }
    }

    static func binary(_ op: BinaryOperator, _ d: Span, _ a: Span, _ b: Span, _ n: Int) {
        switch op {
        case .add: map2(d, a, b, n) { $0 + $1 }
        case .subtract: map2(d, a, b, n) { $0 - $1 }
        case .multiply: map2(d, a, b, n) { $0 * $1 }
        case .divide: map2(d, a, b, n) { $0 / $1 }
        case .minimum: map2(d, a, b, n) { $1 < $0 ? $1 : $0 }
        case .maximum: map2(d, a, b, n) { $1 > $0 ? $1 : $0 }
        case .step: map2(d, a, b, n) { $1 < $0 ? 0 : 1 }
        case .lessThan: map2(d, a, b, n) { $0 < $1 ? 1 : 0 }
        case .lessThanOrEqual: map2(d, a, b, n) { $0 <= $1 ? 1 : 0 }
        case .greaterThan: map2(d, a, b, n) { $0 > $1 ? 1 : 0 }
        case .greaterThanOrEqual: map2(d, a, b, n) { $0 >= $1 ? 1 : 0 }
        case .equal: map2(d, a, b, n) { $0 == $1 ? 1 : 0 }
        case .notEqual: map2(d, a, b, n) { $0 != $1 ? 1 : 0 }
        case .logicalAnd: map2(d, a, b, n) { ($0 != 0 && $1 != 0) ? 1 : 0 }
        case .logicalOr: map2(d, a, b, n) { ($0 != 0 || $1 != 0) ? 1 : 0 }
        case .modulo: map2(d, a, b, n) { $0 - $1 * roundedDown($0 / $1) }
        case .power:
            graph_pow_span(a, b, d, Int32(n))  // CRowKernels: polynomial exp2/log2, eight lanes at a time
        case .atan2:
            for i in 0..<n { d[i] = ScalarMath.binary(op, a[i], b[i]) }
        }
    }

    static func ternary(_ op: TernaryOperator, _ d: Span, _ a: Span, _ b: Span, _ c: Span, _ n: Int) {
        switch op {
        case .multiplyAdd: map3(d, a, b, c, n) { $0 * $1 + $2 }
        case .mix: map3(d, a, b, c, n) { $0 + ($1 - $0) * $2 }
        case .clamp: map3(d, a, b, c, n) { x, lo, hi in
            let low = lo > x ? lo : x
            return hi < low ? hi : low
        }
        case .select: map3(d, a, b, c, n) { $0 != 0 ? $1 : $2 }
        case .compare: map3(d, a, b, c, n) { $0 < 0 ? $1 : $2 }
        case .smoothstep: map3(d, a, b, c, n) { ScalarMath.ternary(.smoothstep, $0, $1, $2) }
        }
    }

    /// The three colour rows of a colour matrix (alpha passes through).
    static func colorMatrixRGB(destination d: (Span, Span, Span), source s: (Span, Span, Span, Span),
                               coefficients: UnsafePointer<Float>?, count n: Int) {
        guard let m = coefficients else { return }
        let m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3], m04 = m[4]
        let m10 = m[5], m11 = m[6], m12 = m[7], m13 = m[8], m14 = m[9]
        let m20 = m[10], m21 = m[11], m22 = m[12], m23 = m[13], m24 = m[14]
        let (sr, sg, sb, sa) = s
        let (dr, dg, db) = d
        for i in 0..<n {
            let r = sr[i], g = sg[i], b = sb[i], a = sa[i]
            dr[i] = m00 * r + m01 * g + m02 * b + m03 * a + m04
            dg[i] = m10 * r + m11 * g + m12 * b + m13 * a + m14
            db[i] = m20 * r + m21 * g + m22 * b + m23 * a + m24
        }
    }

    /// `out_i = Σ_j m[i][j]·in_j + m[i][4]`, reading all four inputs before writing (so the
    /// destination may alias the source).
    static func colorMatrix(destination d: (Span, Span, Span, Span), source s: (Span, Span, Span, Span),
                            coefficients: UnsafePointer<Float>?, count n: Int) {
        guard let m = coefficients else { return }
        let m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3], m04 = m[4]
        let m10 = m[5], m11 = m[6], m12 = m[7], m13 = m[8], m14 = m[9]
        let m20 = m[10], m21 = m[11], m22 = m[12], m23 = m[13], m24 = m[14]
        let m30 = m[15], m31 = m[16], m32 = m[17], m33 = m[18], m34 = m[19]
        let (sr, sg, sb, sa) = s
        let (dr, dg, db, da) = d
        for i in 0..<n {
            let r = sr[i], g = sg[i], b = sb[i], a = sa[i]
            // Explicit left-to-right sums, so every build computes the same rounding.
            dr[i] = m00 * r + m01 * g + m02 * b + m03 * a + m04
            dg[i] = m10 * r + m11 * g + m12 * b + m13 * a + m14
            db[i] = m20 * r + m21 * g + m22 * b + m23 * a + m24
            da[i] = m30 * r + m31 * g + m32 * b + m33 * a + m34
        }
    }

    /// Trilinear lookup of premultiplied colour in a `d³` RGBA table (red fastest), the result
    /// multiplied by the source alpha (``Instruction/lookup3D(destination:source:dimension:extrapolate:uniformBase:)``):
    /// CRowKernels' `graph_lookup3d_span`, four pixels at a time.
    static func lookup3D(destination d: (Span, Span, Span, Span), source s: (Span, Span, Span, Span),
                         table: UnsafePointer<Float>?, dimension: Int, extrapolate: Bool, count n: Int) {
        guard let table, dimension >= 2 else { return }
        graph_lookup3d_span(s.0, s.1, s.2, s.3, d.0, d.1, d.2, d.3, table, Int32(dimension), extrapolate ? 1 : 0, Int32(n))
    }
}
