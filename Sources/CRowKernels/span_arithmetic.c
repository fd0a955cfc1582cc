// The span interpreter's arithmetic loops (see CSpanArithmetic.h), compiled three times from
// span_arithmetic_body.h: for AVX-512 (sixteen lanes), AVX2 (eight) and the baseline, the widest
// the CPU has chosen once at run time.
#include "CSpanArithmetic.h"
#include "cpu_features.h"

#pragma clang fp contract(off)

/// floor(x) bit for bit (−0 and NaN kept) with selects only, so the baseline loops vectorise
/// without SSE4.1's roundps: below 2²³ in magnitude, adding and removing 2²³ (with x's sign)
/// rounds to an integer, stepped down when that went up; larger values are integers already.
static inline float floor_by_selects(float x) {
    float magic = __builtin_copysignf(8388608.0f, x);
    float r = (x + magic) - magic;
    r = r > x ? r - 1.0f : r;
    return (__builtin_fabsf(x) < 8388608.0f && x != 0.0f) ? r : x;
}

#define SPAN_NAME(name) name##_portable_loops
#define SPAN_TARGET
#define SPAN_FLOOR(x) floor_by_selects(x)
#include "span_arithmetic_body.h"
#undef SPAN_NAME
#undef SPAN_TARGET
#undef SPAN_FLOOR

#if defined(__x86_64__) || defined(__i386__)
#define SPAN_FLOOR(x) __builtin_floorf(x)
#define SPAN_NAME(name) name##_avx2
#define SPAN_TARGET __attribute__((target("avx2")))
#include "span_arithmetic_body.h"
#undef SPAN_NAME
#undef SPAN_TARGET
#define SPAN_NAME(name) name##_avx512
#define SPAN_TARGET __attribute__((target("avx512f")))
#include "span_arithmetic_body.h"
#undef SPAN_NAME
#undef SPAN_TARGET
#undef SPAN_FLOOR

/// 2 for AVX-512, 1 for AVX2, 0 for the baseline.
static inline int span_width_class(void) { return graph_cpu_has_avx512f() ? 2 : graph_cpu_has_avx2() ? 1 : 0; }
#define SPAN_DISPATCH(name, ...)                                                                             \
    switch (span_width_class()) {                                                                            \
    case 2: name##_avx512(__VA_ARGS__); return;                                                              \
    case 1: name##_avx2(__VA_ARGS__); return;                                                                \
    default: name##_portable_loops(__VA_ARGS__); return;                                                     \
    }
#else
#define SPAN_DISPATCH(name, ...) name##_portable_loops(__VA_ARGS__);
#endif

void graph_span_unary(GraphSpanUnary op, const float *a, float *d, int n) { SPAN_DISPATCH(unary, op, a, d, n) }

void graph_span_binary(GraphSpanBinary op, const float *a, const float *b, float *d, int n) {
    SPAN_DISPATCH(binary, op, a, b, d, n)
}

void graph_span_ternary(GraphSpanTernary op, const float *a, const float *b, const float *c, float *d, int n) {
    SPAN_DISPATCH(ternary, op, a, b, c, d, n)
}

void graph_span_color_matrix(const float *r, const float *g, const float *b, const float *a, const float *m, int rows,
                             float *dr, float *dg, float *db, float *da, int n) {
    SPAN_DISPATCH(color_matrix, r, g, b, a, m, rows, dr, dg, db, da, n)
}

void graph_span_steps(const GraphSpanStep *steps, int count, float *registers, int n) {
    SPAN_DISPATCH(steps, steps, count, registers, n)
}

void graph_span_steps_portable(const GraphSpanStep *steps, int count, float *registers, int n) {
    steps_portable_loops(steps, count, registers, n);
}

void graph_span_unary_portable(GraphSpanUnary op, const float *a, float *d, int n) { unary_portable_loops(op, a, d, n); }

void graph_span_binary_portable(GraphSpanBinary op, const float *a, const float *b, float *d, int n) {
    binary_portable_loops(op, a, b, d, n);
}

void graph_span_ternary_portable(GraphSpanTernary op, const float *a, const float *b, const float *c, float *d, int n) {
    ternary_portable_loops(op, a, b, c, d, n);
}

void graph_span_color_matrix_portable(const float *r, const float *g, const float *b, const float *a, const float *m,
                                      int rows, float *dr, float *dg, float *db, float *da, int n) {
    color_matrix_portable_loops(r, g, b, a, m, rows, dr, dg, db, da, n);
}
