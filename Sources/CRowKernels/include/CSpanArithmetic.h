#ifndef GRAPH_CSPANARITHMETIC_H
#define GRAPH_CSPANARITHMETIC_H

// The span interpreter's arithmetic: one loop per operator over a span of floats, compiled for
// AVX-512, AVX2 and the baseline and chosen once at run time. Every path performs the same IEEE
// operations in the same order (no fused multiply-adds, no reassociation), so all give the same
// bits; RowKernelTests compare them.

/// Unary operators with a span loop. floor is exact (−0 and NaN kept), ceil is −floor(−x), fract
/// is x − floor(x), inverseSqrt is 1 / sqrt(x) (a correctly rounded division, not an estimate),
/// logicalNot is 1 where x == 0 and 0 elsewhere.
typedef enum {
    GRAPH_SPAN_NEGATE = 0,
    GRAPH_SPAN_ABS = 1,
    GRAPH_SPAN_FLOOR = 2,
    GRAPH_SPAN_CEIL = 3,
    GRAPH_SPAN_FRACT = 4,
    GRAPH_SPAN_SQRT = 5,
    GRAPH_SPAN_INVERSE_SQRT = 6,
    GRAPH_SPAN_LOGICAL_NOT = 7,
} GraphSpanUnary;

/// Binary operators with a span loop, d = f(a, b): minimum is (b < a ? b : a) and maximum
/// (b > a ? b : a), so a NaN in b gives a; step is (b < a ? 0 : 1); comparisons and logical
/// operators give 1 or 0 (nonzero is true); modulo is a − b·floor(a / b).
typedef enum {
    GRAPH_SPAN_ADD = 0,
    GRAPH_SPAN_SUBTRACT = 1,
    GRAPH_SPAN_MULTIPLY = 2,
    GRAPH_SPAN_DIVIDE = 3,
    GRAPH_SPAN_MINIMUM = 4,
    GRAPH_SPAN_MAXIMUM = 5,
    GRAPH_SPAN_STEP = 6,
    GRAPH_SPAN_LESS_THAN = 7,
    GRAPH_SPAN_LESS_THAN_OR_EQUAL = 8,
    GRAPH_SPAN_GREATER_THAN = 9,
    GRAPH_SPAN_GREATER_THAN_OR_EQUAL = 10,
    GRAPH_SPAN_EQUAL = 11,
    GRAPH_SPAN_NOT_EQUAL = 12,
    GRAPH_SPAN_LOGICAL_AND = 13,
    GRAPH_SPAN_LOGICAL_OR = 14,
    GRAPH_SPAN_MODULO = 15,
} GraphSpanBinary;

/// Ternary operators with a span loop, d = f(a, b, c): multiplyAdd a·b + c (rounded twice),
/// mix a + (b − a)·c, clamp min(max(a, b), c) as (c < m ? c : m) with m = (b > a ? b : a), select
/// (a != 0 ? b : c), compare (a < 0 ? b : c).
typedef enum {
    GRAPH_SPAN_MULTIPLY_ADD = 0,
    GRAPH_SPAN_MIX = 1,
    GRAPH_SPAN_CLAMP = 2,
    GRAPH_SPAN_SELECT = 3,
    GRAPH_SPAN_COMPARE = 4,
} GraphSpanTernary;

/// d[i] = op(a[i]) for i < n. d may be a (the same span) but must not overlap it otherwise.
void graph_span_unary(GraphSpanUnary op, const float *a, float *d, int n);
/// d[i] = op(a[i], b[i]) for i < n; d may be a or b, as above.
void graph_span_binary(GraphSpanBinary op, const float *a, const float *b, float *d, int n);
/// d[i] = op(a[i], b[i], c[i]) for i < n; d may be a, b or c, as above.
void graph_span_ternary(GraphSpanTernary op, const float *a, const float *b, const float *c, float *d, int n);

/// A colour matrix over a span: for each of the first `rows` (3 or 4) destinations,
/// d_k[i] = m[5k]·r + m[5k+1]·g + m[5k+2]·b + m[5k+3]·a + m[5k+4], summed left to right, with
/// (r, g, b, a) = the four sources at i, all read before any destination is written (so
/// destinations may be sources); `da` is unused (may be NULL) when rows is 3.
void graph_span_color_matrix(const float *r, const float *g, const float *b, const float *a, const float *m, int rows,
                             float *dr, float *dg, float *db, float *da, int n);

/// One instruction of a run of arithmetic (see graph_span_steps): `code` is a GraphSpanUnary plus
/// GRAPH_SPAN_STEP_UNARY, a GraphSpanBinary plus GRAPH_SPAN_STEP_BINARY or a GraphSpanTernary plus
/// GRAPH_SPAN_STEP_TERNARY; d, a, b and c are register offsets in floats (unused operands 0).
typedef struct {
    int code;
    int d, a, b, c;
} GraphSpanStep;

enum { GRAPH_SPAN_STEP_UNARY = 0, GRAPH_SPAN_STEP_BINARY = 16, GRAPH_SPAN_STEP_TERNARY = 32 };

/// Runs `count` steps in order over spans of n floats at registers + offset: what graph_span_unary,
/// _binary and _ternary give one by one (the same bits), with one branch per step.
void graph_span_steps(const GraphSpanStep *steps, int count, float *registers, int n);

/// The baseline paths alone (tests compare them with the dispatched ones bit for bit).
void graph_span_steps_portable(const GraphSpanStep *steps, int count, float *registers, int n);
void graph_span_unary_portable(GraphSpanUnary op, const float *a, float *d, int n);
void graph_span_binary_portable(GraphSpanBinary op, const float *a, const float *b, float *d, int n);
void graph_span_ternary_portable(GraphSpanTernary op, const float *a, const float *b, const float *c, float *d, int n);
void graph_span_color_matrix_portable(const float *r, const float *g, const float *b, const float *a, const float *m,
                                      int rows, float *dr, float *dg, float *db, float *da, int n);

#endif
