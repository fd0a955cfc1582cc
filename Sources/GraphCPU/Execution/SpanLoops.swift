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

    /// The operator's loop in CRowKernels (`CSpanArithmetic.h`), or nil where it is elsewhere.
    static func code(_ op: UnaryOperator) -> GraphSpanUnary? {
        switch op {
        case .negate: GRAPH_SPAN_NEGATE
        case .abs: GRAPH_SPAN_ABS
        case .floor: GRAPH_SPAN_FLOOR
        case .ceil: GRAPH_SPAN_CEIL
        case .fract: GRAPH_SPAN_FRACT
        case .sqrt: GRAPH_SPAN_SQRT
        case .inverseSqrt: GRAPH_SPAN_INVERSE_SQRT
        case .logicalNot: GRAPH_SPAN_LOGICAL_NOT
        case .sign, .srgbToLinear, .linearToSRGB, .exp, .exp2, .log, .log2, .sin, .cos, .atan, .tan, .asin, .acos: nil
        }
    }

    /// The operator's loop in CRowKernels, or nil where it is elsewhere.
    static func code(_ op: BinaryOperator) -> GraphSpanBinary? {
        switch op {
        case .add: GRAPH_SPAN_ADD
        case .subtract: GRAPH_SPAN_SUBTRACT
        case .multiply: GRAPH_SPAN_MULTIPLY
        case .divide: GRAPH_SPAN_DIVIDE
        case .minimum: GRAPH_SPAN_MINIMUM
        case .maximum: GRAPH_SPAN_MAXIMUM
        case .step: GRAPH_SPAN_STEP
        case .lessThan: GRAPH_SPAN_LESS_THAN
        case .lessThanOrEqual: GRAPH_SPAN_LESS_THAN_OR_EQUAL
        case .greaterThan: GRAPH_SPAN_GREATER_THAN
        case .greaterThanOrEqual: GRAPH_SPAN_GREATER_THAN_OR_EQUAL
        case .equal: GRAPH_SPAN_EQUAL
        case .notEqual: GRAPH_SPAN_NOT_EQUAL
        case .logicalAnd: GRAPH_SPAN_LOGICAL_AND
        case .logicalOr: GRAPH_SPAN_LOGICAL_OR
        case .modulo: GRAPH_SPAN_MODULO
        case .power, .atan2: nil
        }
    }

    /// The operator's loop in CRowKernels, or nil where it is elsewhere.
    static func code(_ op: TernaryOperator) -> GraphSpanTernary? {
        switch op {
        case .multiplyAdd: GRAPH_SPAN_MULTIPLY_ADD
        case .mix: GRAPH_SPAN_MIX
        case .clamp: GRAPH_SPAN_CLAMP
        case .select: GRAPH_SPAN_SELECT
        case .compare: GRAPH_SPAN_COMPARE
        case .smoothstep: nil
        }
    }

    /// The unary operators without a CRowKernels arithmetic loop (see ``code(_:)-(UnaryOperator)``
    /// for the rest, run as steps).
    static func unary(_ op: UnaryOperator, _ d: Span, _ a: Span, _ n: Int) {
        let count = Int32(n)
        if let code = code(op) { return graph_span_unary(code, a, d, count) }
        switch op {
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
        default:
            for i in 0..<n { d[i] = ScalarMath.unary(op, a[i]) }
        }
    }

    /// The binary operators without a CRowKernels arithmetic loop (`power`, `atan2`).
    static func binary(_ op: BinaryOperator, _ d: Span, _ a: Span, _ b: Span, _ n: Int) {
        if let code = code(op) { return graph_span_binary(code, a, b, d, Int32(n)) }
        if op == .power { return graph_pow_span(a, b, d, Int32(n)) }  // CRowKernels: polynomial exp2/log2, eight lanes at a time
        for i in 0..<n { d[i] = ScalarMath.binary(op, a[i], b[i]) }
    }

    /// The ternary operators without a CRowKernels arithmetic loop (`smoothstep`).
    static func ternary(_ op: TernaryOperator, _ d: Span, _ a: Span, _ b: Span, _ c: Span, _ n: Int) {
        if let code = code(op) { return graph_span_ternary(code, a, b, c, d, Int32(n)) }
        for i in 0..<n { d[i] = ScalarMath.ternary(op, a[i], b[i], c[i]) }
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
