// The loops of span_arithmetic.c, included once per target: SPAN_NAME(x) names this target's
// functions, SPAN_TARGET is its target attribute (empty for the baseline) and SPAN_FLOOR(x) its
// floor (every definition exact, so the paths agree bit for bit). Each loop is independent per
// element (a destination is either one of the sources or disjoint from all of them), which is what
// `vectorize(assume_safety)` promises the vectoriser.

#define SPAN_LOOP(body)                                                                                      \
    _Pragma("clang loop vectorize(assume_safety)") for (int i = 0; i < n; i++) { body; }

SPAN_TARGET static inline __attribute__((always_inline)) void SPAN_NAME(unary_loop)(GraphSpanUnary op, const float *a, float *d, int n) {
    switch (op) {
    case GRAPH_SPAN_NEGATE: SPAN_LOOP(d[i] = -a[i]) break;
    case GRAPH_SPAN_ABS: SPAN_LOOP(d[i] = __builtin_fabsf(a[i])) break;
    case GRAPH_SPAN_FLOOR: SPAN_LOOP(d[i] = SPAN_FLOOR(a[i])) break;
    case GRAPH_SPAN_CEIL: SPAN_LOOP(d[i] = -SPAN_FLOOR(-a[i])) break;
    case GRAPH_SPAN_FRACT: SPAN_LOOP(float x = a[i]; d[i] = x - SPAN_FLOOR(x)) break;
    case GRAPH_SPAN_SQRT: SPAN_LOOP(d[i] = __builtin_elementwise_sqrt(a[i])) break;
    case GRAPH_SPAN_INVERSE_SQRT: SPAN_LOOP(d[i] = 1.0f / __builtin_elementwise_sqrt(a[i])) break;
    case GRAPH_SPAN_LOGICAL_NOT: SPAN_LOOP(d[i] = a[i] == 0.0f ? 1.0f : 0.0f) break;
    }
}

SPAN_TARGET static inline __attribute__((always_inline)) void SPAN_NAME(binary_loop)(GraphSpanBinary op, const float *a, const float *b, float *d, int n) {
    switch (op) {
    case GRAPH_SPAN_ADD: SPAN_LOOP(d[i] = a[i] + b[i]) break;
    case GRAPH_SPAN_SUBTRACT: SPAN_LOOP(d[i] = a[i] - b[i]) break;
    case GRAPH_SPAN_MULTIPLY: SPAN_LOOP(d[i] = a[i] * b[i]) break;
    case GRAPH_SPAN_DIVIDE: SPAN_LOOP(d[i] = a[i] / b[i]) break;
    case GRAPH_SPAN_MINIMUM: SPAN_LOOP(float x = a[i]; float y = b[i]; d[i] = y < x ? y : x) break;
    case GRAPH_SPAN_MAXIMUM: SPAN_LOOP(float x = a[i]; float y = b[i]; d[i] = y > x ? y : x) break;
    case GRAPH_SPAN_STEP: SPAN_LOOP(d[i] = b[i] < a[i] ? 0.0f : 1.0f) break;
    case GRAPH_SPAN_LESS_THAN: SPAN_LOOP(d[i] = a[i] < b[i] ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_LESS_THAN_OR_EQUAL: SPAN_LOOP(d[i] = a[i] <= b[i] ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_GREATER_THAN: SPAN_LOOP(d[i] = a[i] > b[i] ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_GREATER_THAN_OR_EQUAL: SPAN_LOOP(d[i] = a[i] >= b[i] ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_EQUAL: SPAN_LOOP(d[i] = a[i] == b[i] ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_NOT_EQUAL: SPAN_LOOP(d[i] = a[i] != b[i] ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_LOGICAL_AND: SPAN_LOOP(d[i] = (a[i] != 0.0f && b[i] != 0.0f) ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_LOGICAL_OR: SPAN_LOOP(d[i] = (a[i] != 0.0f || b[i] != 0.0f) ? 1.0f : 0.0f) break;
    case GRAPH_SPAN_MODULO: SPAN_LOOP(float x = a[i]; float y = b[i]; d[i] = x - y * SPAN_FLOOR(x / y)) break;
    }
}

SPAN_TARGET static inline __attribute__((always_inline)) void SPAN_NAME(ternary_loop)(GraphSpanTernary op, const float *a, const float *b, const float *c, float *d,
                                           int n) {
    switch (op) {
    case GRAPH_SPAN_MULTIPLY_ADD: SPAN_LOOP(d[i] = a[i] * b[i] + c[i]) break;
    case GRAPH_SPAN_MIX: SPAN_LOOP(float x = a[i]; d[i] = x + (b[i] - x) * c[i]) break;
    case GRAPH_SPAN_CLAMP:
        SPAN_LOOP(float x = a[i]; float lo = b[i]; float hi = c[i]; float low = lo > x ? lo : x;
                  d[i] = hi < low ? hi : low)
        break;
    case GRAPH_SPAN_SELECT: SPAN_LOOP(d[i] = a[i] != 0.0f ? b[i] : c[i]) break;
    case GRAPH_SPAN_COMPARE: SPAN_LOOP(d[i] = a[i] < 0.0f ? b[i] : c[i]) break;
    }
}

SPAN_TARGET static void SPAN_NAME(unary)(GraphSpanUnary op, const float *a, float *d, int n) {
    SPAN_NAME(unary_loop)(op, a, d, n);
}

SPAN_TARGET static void SPAN_NAME(binary)(GraphSpanBinary op, const float *a, const float *b, float *d, int n) {
    SPAN_NAME(binary_loop)(op, a, b, d, n);
}

SPAN_TARGET static void SPAN_NAME(ternary)(GraphSpanTernary op, const float *a, const float *b, const float *c, float *d,
                                           int n) {
    SPAN_NAME(ternary_loop)(op, a, b, c, d, n);
}

SPAN_TARGET static void SPAN_NAME(color_matrix)(const float *sr, const float *sg, const float *sb, const float *sa,
                                                const float *m, int rows, float *dr, float *dg, float *db, float *da,
                                                int n) {
    const float m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3], m04 = m[4];
    const float m10 = m[5], m11 = m[6], m12 = m[7], m13 = m[8], m14 = m[9];
    const float m20 = m[10], m21 = m[11], m22 = m[12], m23 = m[13], m24 = m[14];
    if (rows < 4) {
        SPAN_LOOP(float r = sr[i]; float g = sg[i]; float b = sb[i]; float a = sa[i];
                  dr[i] = m00 * r + m01 * g + m02 * b + m03 * a + m04;
                  dg[i] = m10 * r + m11 * g + m12 * b + m13 * a + m14;
                  db[i] = m20 * r + m21 * g + m22 * b + m23 * a + m24)
        return;
    }
    const float m30 = m[15], m31 = m[16], m32 = m[17], m33 = m[18], m34 = m[19];
    SPAN_LOOP(float r = sr[i]; float g = sg[i]; float b = sb[i]; float a = sa[i];
              dr[i] = m00 * r + m01 * g + m02 * b + m03 * a + m04;
              dg[i] = m10 * r + m11 * g + m12 * b + m13 * a + m14;
              db[i] = m20 * r + m21 * g + m22 * b + m23 * a + m24;
              da[i] = m30 * r + m31 * g + m32 * b + m33 * a + m34)
}

/// The step list: each case inlines one operator's loop (its operator a constant), so a step costs
/// one branch.
SPAN_TARGET static void SPAN_NAME(steps)(const GraphSpanStep *steps, int count, float *r, int n) {
#define U(op) case GRAPH_SPAN_STEP_UNARY + op: SPAN_NAME(unary_loop)(op, r + s->a, r + s->d, n); break;
#define B(op) case GRAPH_SPAN_STEP_BINARY + op: SPAN_NAME(binary_loop)(op, r + s->a, r + s->b, r + s->d, n); break;
#define T(op) case GRAPH_SPAN_STEP_TERNARY + op: SPAN_NAME(ternary_loop)(op, r + s->a, r + s->b, r + s->c, r + s->d, n); break;
    for (const GraphSpanStep *s = steps, *end = steps + count; s < end; s++) {
        switch (s->code) {
        U(GRAPH_SPAN_NEGATE) U(GRAPH_SPAN_ABS) U(GRAPH_SPAN_FLOOR) U(GRAPH_SPAN_CEIL) U(GRAPH_SPAN_FRACT)
        U(GRAPH_SPAN_SQRT) U(GRAPH_SPAN_INVERSE_SQRT) U(GRAPH_SPAN_LOGICAL_NOT)
        B(GRAPH_SPAN_ADD) B(GRAPH_SPAN_SUBTRACT) B(GRAPH_SPAN_MULTIPLY) B(GRAPH_SPAN_DIVIDE) B(GRAPH_SPAN_MINIMUM)
        B(GRAPH_SPAN_MAXIMUM) B(GRAPH_SPAN_STEP) B(GRAPH_SPAN_LESS_THAN) B(GRAPH_SPAN_LESS_THAN_OR_EQUAL)
        B(GRAPH_SPAN_GREATER_THAN) B(GRAPH_SPAN_GREATER_THAN_OR_EQUAL) B(GRAPH_SPAN_EQUAL) B(GRAPH_SPAN_NOT_EQUAL)
        B(GRAPH_SPAN_LOGICAL_AND) B(GRAPH_SPAN_LOGICAL_OR) B(GRAPH_SPAN_MODULO)
        T(GRAPH_SPAN_MULTIPLY_ADD) T(GRAPH_SPAN_MIX) T(GRAPH_SPAN_CLAMP) T(GRAPH_SPAN_SELECT) T(GRAPH_SPAN_COMPARE)
        default: break;
        }
    }
#undef U
#undef B
#undef T
}

#undef SPAN_LOOP
