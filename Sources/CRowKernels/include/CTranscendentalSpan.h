#ifndef GRAPH_CTRANSCENDENTALSPAN_H
#define GRAPH_CTRANSCENDENTALSPAN_H

/// The IR's transcendental unary operators that have a span kernel.
typedef enum {
    GRAPH_TRANSCENDENTAL_EXP = 0,
    GRAPH_TRANSCENDENTAL_EXP2 = 1,
    GRAPH_TRANSCENDENTAL_LOG = 2,
    GRAPH_TRANSCENDENTAL_LOG2 = 3,
    GRAPH_TRANSCENDENTAL_SIN = 4,
    GRAPH_TRANSCENDENTAL_COS = 5,
    GRAPH_TRANSCENDENTAL_ATAN = 6,
} GraphTranscendental;

/// out[i] = f(x[i]) for i < n, f the IR's exp, exp2, log, log2, sin, cos or atan, in float32 without fused
/// multiply-adds (Cephes' single-precision reductions and polynomials):
/// - exp, exp2: x = n·ln 2 + r (Cody–Waite, two-part ln 2) or x = n + f, a degree-7 polynomial of
///   |r| ≤ ln 2 / 2 scaled by 2^n, for x in [−87, 88] (exp) and [−125, 127] (exp2);
/// - log, log2: x = 2^e·m with m in [√½, √2), a degree-11 polynomial of m − 1, for positive normal
///   finite x;
/// - sin, cos: the octant of |x| (4/π·|x| truncated, made even), x reduced by three-part π/4 and the
///   sine or cosine polynomial of the octant, for |x| ≤ 8192;
/// - atan: |x| above tan 3π/8 as π/2 + atan(−1/|x|), above tan π/8 as π/4 + atan((|x| − 1)/(|x| + 1)),
///   a degree-9 odd polynomial of what is left, for every x (NaN stays NaN, ±∞ gives ±π/2).
/// Every other value (outside those ranges, zero, negative, NaN, infinite) is libm's expf, exp2f,
/// logf, log2f, sinf or cosf. The largest errors against the exact values are measured by
/// RowKernelTests (about 2 ulp where the polynomials apply). AVX2 when the CPU has it (run-time
/// check); the same bits either way.
void graph_transcendental_span(GraphTranscendental f, const float *x, float *out, int n);

/// The portable path of graph_transcendental_span alone (tests compare the two bit for bit).
void graph_transcendental_span_portable(GraphTranscendental f, const float *x, float *out, int n);

#endif
