import CRowKernels
import Foundation

/// The loop bodies of the span interpreter: one tight loop per operator over `n` floats.
///
/// The arithmetic, comparisons, selects and colour matrices are CRowKernels' span loops
/// (`CSpanArithmetic.h`: compiled for AVX-512, AVX2 and the baseline, chosen at run time, the same
/// bits on each); the transcendental operators are its polynomial kernels; the rare rest is a
/// scalar loop here.
enum SpanLoops {
    typealias Span = UnsafeMutablePointer<Float>

    static func unary(_ op: UnaryOperator, _ d: Span, _ a: Span, _ n: Int) {
        let count = Int32(n)
        switch op {
        // CRowKernels' span loops: AVX-512, AVX2 or the baseline, the same bits on each.
        case .negate: graph_span_unary(GRAPH_SPAN_NEGATE, a, d, count)
        case .abs: graph_span_unary(GRAPH_SPAN_ABS, a, d, count)
        case .floor: graph_span_unary(GRAPH_SPAN_FLOOR, a, d, count)
        case .ceil: graph_span_unary(GRAPH_SPAN_CEIL, a, d, count)
        case .fract: graph_span_unary(GRAPH_SPAN_FRACT, a, d, count)
        case .sqrt: graph_span_unary(GRAPH_SPAN_SQRT, a, d, count)
        case .inverseSqrt: graph_span_unary(GRAPH_SPAN_INVERSE_SQRT, a, d, count)
        case .logicalNot: graph_span_unary(GRAPH_SPAN_LOGICAL_NOT, a, d, count)
        case .sign:
            for i in 0..<n { d[i] = ScalarMath.unary(.sign, a[i]) }
        case .srgbToLinear, .linearToSRGB:
            // CRowKernels: interpolated in the tables for |x| ≤ 1, eight values at a time; exact beyond.
            let decode = op == .srgbToLinear
            (decode ? TransferTables.decode : TransferTables.encode).withUnsafeBufferPointer { table in
                if let base = table.baseAddress { graph_transfer_span(base, Int32(TransferTables.resolution), decode ? 1 : 0, a, d, count) }
            }
        case .exp: graph_transcendental_span(GRAPH_TRANSCENDENTAL_EXP, a, d, count)  // CRowKernels: polynomials, eight lanes
        case .exp2: graph_transcendental_span(GRAPH_TRANSCENDENTAL_EXP2, a, d, count)
        case .log: graph_transcendental_span(GRAPH_TRANSCENDENTAL_LOG, a, d, count)
        case .log2: graph_transcendental_span(GRAPH_TRANSCENDENTAL_LOG2, a, d, count)
        case .sin: graph_transcendental_span(GRAPH_TRANSCENDENTAL_SIN, a, d, count)
        case .cos: graph_transcendental_span(GRAPH_TRANSCENDENTAL_COS, a, d, count)
        case .atan: graph_transcendental_span(GRAPH_TRANSCENDENTAL_ATAN, a, d, count)
        case .tan, .asin, .acos:
            for i in 0..<n { d[i] = ScalarMath.unary(op, a[i]) }
        }
    }

    static func binary(_ op: BinaryOperator, _ d: Span, _ a: Span, _ b: Span, _ n: Int) {
        let code: GraphSpanBinary
        switch op {
        case .add: code = GRAPH_SPAN_ADD
        case .subtract: code = GRAPH_SPAN_SUBTRACT
        case .multiply: code = GRAPH_SPAN_MULTIPLY
        case .divide: code = GRAPH_SPAN_DIVIDE
        case .minimum: code = GRAPH_SPAN_MINIMUM
        case .maximum: code = GRAPH_SPAN_MAXIMUM
        case .step: code = GRAPH_SPAN_STEP
        case .lessThan: code = GRAPH_SPAN_LESS_THAN
        case .lessThanOrEqual: code = GRAPH_SPAN_LESS_THAN_OR_EQUAL
        case .greaterThan: code = GRAPH_SPAN_GREATER_THAN
        case .greaterThanOrEqual: code = GRAPH_SPAN_GREATER_THAN_OR_EQUAL
        case .equal: code = GRAPH_SPAN_EQUAL
        case .notEqual: code = GRAPH_SPAN_NOT_EQUAL
        case .logicalAnd: code = GRAPH_SPAN_LOGICAL_AND
        case .logicalOr: code = GRAPH_SPAN_LOGICAL_OR
        case .modulo: code = GRAPH_SPAN_MODULO
        case .power:
            graph_pow_span(a, b, d, Int32(n))  // CRowKernels: polynomial exp2/log2, eight lanes at a time
            return
        case .atan2:
            for i in 0..<n { d[i] = ScalarMath.binary(op, a[i], b[i]) }
            return
        }
        graph_span_binary(code, a, b, d, Int32(n))  // CRowKernels' span loops, as in `unary`
    }

    static func ternary(_ op: TernaryOperator, _ d: Span, _ a: Span, _ b: Span, _ c: Span, _ n: Int) {
        let code: GraphSpanTernary
        switch op {
        case .multiplyAdd: code = GRAPH_SPAN_MULTIPLY_ADD
        case .mix: code = GRAPH_SPAN_MIX
        case .clamp: code = GRAPH_SPAN_CLAMP
        case .select: code = GRAPH_SPAN_SELECT
        case .compare: code = GRAPH_SPAN_COMPARE
        case .smoothstep:
            for i in 0..<n { d[i] = ScalarMath.ternary(.smoothstep, a[i], b[i], c[i]) }
            return
        }
        graph_span_ternary(code, a, b, c, d, Int32(n))  // CRowKernels' span loops, as in `unary`
    }

    /// The three colour rows of a colour matrix (alpha passes through): CRowKernels'
    /// `graph_span_color_matrix`, left-to-right sums on every path.
    static func colorMatrixRGB(destination d: (Span, Span, Span), source s: (Span, Span, Span, Span),
                               coefficients: UnsafePointer<Float>?, count n: Int) {
        guard let m = coefficients else { return }
        graph_span_color_matrix(s.0, s.1, s.2, s.3, m, 3, d.0, d.1, d.2, nil, Int32(n))
    }

    /// `out_i = Σ_j m[i][j]·in_j + m[i][4]`, reading all four inputs before writing (so the
    /// destination may alias the source).
    static func colorMatrix(destination d: (Span, Span, Span, Span), source s: (Span, Span, Span, Span),
                            coefficients: UnsafePointer<Float>?, count n: Int) {
        guard let m = coefficients else { return }
        graph_span_color_matrix(s.0, s.1, s.2, s.3, m, 4, d.0, d.1, d.2, d.3, Int32(n))
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
