// The IR's lut3d (see CLookup3D.h): trilinear interpolation in a 3D colour table.
#include "CLookup3D.h"
#include "cpu_features.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#pragma clang fp contract(off)

/// The table coordinate of one unpremultiplied component, its cell and the fraction in it.
static inline void cell_of(float c, float scale, float last, int extrapolate, int *cell, float *fraction) {
    float x = c * scale;
    if (extrapolate) {
        if (x != x) x = 0.0f;
    } else {
        x = x > 0.0f ? x : 0.0f;  // NaN becomes 0 too
        x = x < scale ? x : scale;
    }
    float clamped = x > 0.0f ? x : 0.0f;
    clamped = clamped < last ? clamped : last;
    int index = (int)clamped;
    *cell = index;
    *fraction = x - (float)index;
}

static inline float lerp(float v0, float v1, float f) { return v0 + (v1 - v0) * f; }

/// One pixel, channel by channel, the same operations as the vector path.
static inline void lookup_one(float r, float g, float b, float a, const float *table, int dimension, int extrapolate,
                              float out[4]) {
    float scale = (float)(dimension - 1), last = (float)(dimension - 2);
    float inverse = a > 0.0f ? 1.0f / a : 1.0f;
    int ri, gi, bi;
    float rf, gf, bf;
    cell_of(r * inverse, scale, last, extrapolate, &ri, &rf);
    cell_of(g * inverse, scale, last, extrapolate, &gi, &gf);
    cell_of(b * inverse, scale, last, extrapolate, &bi, &bf);
    ptrdiff_t gs = (ptrdiff_t)dimension * 4, bs = (ptrdiff_t)dimension * dimension * 4;
    const float *p = table + ri * 4 + gi * gs + bi * bs;
    for (int k = 0; k < 4; k++) {
        // Along blue first (the vector paths load the red neighbours as one pair), then green, then red.
        float e00 = lerp(p[k], p[bs + k], bf), e10 = lerp(p[4 + k], p[bs + 4 + k], bf);
        float e01 = lerp(p[gs + k], p[gs + bs + k], bf), e11 = lerp(p[gs + 4 + k], p[gs + bs + 4 + k], bf);
        float f0 = lerp(e00, e01, gf), f1 = lerp(e10, e11, gf);
        out[k] = lerp(f0, f1, rf) * a;
    }
}

void graph_lookup3d_span_portable(const float *r, const float *g, const float *b, const float *a,
                                  float *outR, float *outG, float *outB, float *outA,
                                  const float *table, int dimension, int extrapolate, int n) {
    for (int i = 0; i < n; i++) {
        float out[4];
        lookup_one(r[i], g[i], b[i], a[i], table, dimension, extrapolate, out);
        outR[i] = out[0]; outG[i] = out[1]; outB[i] = out[2]; outA[i] = out[3];
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// cell_of on four lanes: the same comparisons, selects and subtraction; `cells` gets the cells
/// as floats (whole numbers).
static inline __m128 cells_of(__m128 c, __m128 scale, __m128 last, int extrapolate, __m128 *cells) {
    const __m128 zero = _mm_setzero_ps();
    __m128 x = _mm_mul_ps(c, scale);
    if (extrapolate) {
        x = _mm_and_ps(x, _mm_cmpord_ps(x, x));
    } else {
        x = _mm_max_ps(x, zero);   // x > 0 ? x : 0 (NaN gives 0)
        x = _mm_min_ps(x, scale);  // x < scale ? x : scale
    }
    __m128 clamped = _mm_min_ps(_mm_max_ps(x, zero), last);
    *cells = _mm_cvtepi32_ps(_mm_cvttps_epi32(clamped));
    return _mm_sub_ps(x, *cells);
}

static inline __m128 lerp4(__m128 v0, __m128 v1, __m128 f) { return _mm_add_ps(v0, _mm_mul_ps(_mm_sub_ps(v1, v0), f)); }

/// Lane k's texel blend with 128-bit vectors: blue, green, then red, as the portable loop.
#define GRAPH_BLEND_LANE_SSE(k)                                                                                  \
    do {                                                                                                       \
        const float *p = table + offsets[k];                                                                   \
        __m128 fr = _mm_shuffle_ps(rf, rf, _MM_SHUFFLE(k, k, k, k));                                           \
        __m128 fg = _mm_shuffle_ps(gf, gf, _MM_SHUFFLE(k, k, k, k));                                           \
        __m128 fb = _mm_shuffle_ps(bf, bf, _MM_SHUFFLE(k, k, k, k));                                           \
        __m128 e00 = lerp4(_mm_loadu_ps(p), _mm_loadu_ps(p + bs), fb);                                         \
        __m128 e10 = lerp4(_mm_loadu_ps(p + 4), _mm_loadu_ps(p + bs + 4), fb);                                 \
        __m128 e01 = lerp4(_mm_loadu_ps(p + gs), _mm_loadu_ps(p + gs + bs), fb);                               \
        __m128 e11 = lerp4(_mm_loadu_ps(p + gs + 4), _mm_loadu_ps(p + gs + bs + 4), fb);                       \
        texel##k = lerp4(lerp4(e00, e01, fg), lerp4(e10, e11, fg), fr);                                         \
    } while (0)

/// The same with 256-bit vectors holding a texel and its red neighbour (one load each).
#define GRAPH_BLEND_LANE_AVX(k)                                                                                  \
    do {                                                                                                       \
        const float *p = table + offsets[k];                                                                   \
        __m128 fr = _mm_shuffle_ps(rf, rf, _MM_SHUFFLE(k, k, k, k));                                           \
        __m128 fg4 = _mm_shuffle_ps(gf, gf, _MM_SHUFFLE(k, k, k, k));                                          \
        __m128 fb4 = _mm_shuffle_ps(bf, bf, _MM_SHUFFLE(k, k, k, k));                                          \
        __m256 fg = _mm256_insertf128_ps(_mm256_castps128_ps256(fg4), fg4, 1);                                  \
        __m256 fb = _mm256_insertf128_ps(_mm256_castps128_ps256(fb4), fb4, 1);                                  \
        __m256 e0 = lerp8(_mm256_loadu_ps(p), _mm256_loadu_ps(p + bs), fb);                                    \
        __m256 e1 = lerp8(_mm256_loadu_ps(p + gs), _mm256_loadu_ps(p + gs + bs), fb);                          \
        __m256 f = lerp8(e0, e1, fg);                                                                          \
        texel##k = lerp4(_mm256_castps256_ps128(f), _mm256_extractf128_ps(f, 1), fr);                           \
    } while (0)

/// Four pixels: unpremultiply, cells, offsets, the blend of each lane by `BLEND`, alpha.
#define GRAPH_LOOKUP_FOUR(BLEND)                                                                                 \
    do {                                                                                                       \
        __m128 va = _mm_loadu_ps(a + i);                                                                       \
        __m128 positive = _mm_cmpgt_ps(va, zero);                                                              \
        __m128 inverse = _mm_or_ps(_mm_and_ps(positive, _mm_div_ps(one, va)), _mm_andnot_ps(positive, one));   \
        __m128 rc, gc, bc;                                                                                     \
        __m128 rf = cells_of(_mm_mul_ps(_mm_loadu_ps(r + i), inverse), scale, last, extrapolate, &rc);         \
        __m128 gf = cells_of(_mm_mul_ps(_mm_loadu_ps(g + i), inverse), scale, last, extrapolate, &gc);         \
        __m128 bf = cells_of(_mm_mul_ps(_mm_loadu_ps(b + i), inverse), scale, last, extrapolate, &bc);         \
        __m128 offset = _mm_add_ps(_mm_add_ps(_mm_mul_ps(rc, four), _mm_mul_ps(gc, greenStride)),              \
                                   _mm_mul_ps(bc, blueStride));                                                \
        int32_t offsets[4];                                                                                    \
        _mm_storeu_si128((__m128i *)offsets, _mm_cvttps_epi32(offset));                                        \
        __m128 texel0, texel1, texel2, texel3;                                                                 \
        BLEND(0);                                                                                              \
        BLEND(1);                                                                                              \
        BLEND(2);                                                                                              \
        BLEND(3);                                                                                              \
        _MM_TRANSPOSE4_PS(texel0, texel1, texel2, texel3);                                                     \
        _mm_storeu_ps(outR + i, _mm_mul_ps(texel0, va));                                                       \
        _mm_storeu_ps(outG + i, _mm_mul_ps(texel1, va));                                                       \
        _mm_storeu_ps(outB + i, _mm_mul_ps(texel2, va));                                                       \
        _mm_storeu_ps(outA + i, _mm_mul_ps(texel3, va));                                                       \
    } while (0)

#define GRAPH_LOOKUP_CONSTANTS                                                                                   \
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();                                             \
    const __m128 scale = _mm_set1_ps((float)(dimension - 1)), last = _mm_set1_ps((float)(dimension - 2));      \
    const ptrdiff_t gs = (ptrdiff_t)dimension * 4, bs = (ptrdiff_t)dimension * dimension * 4;                  \
    const __m128 four = _mm_set1_ps(4.0f), greenStride = _mm_set1_ps((float)gs), blueStride = _mm_set1_ps((float)bs)

__attribute__((target("avx")))
static inline __m256 lerp8(__m256 v0, __m256 v1, __m256 f) {
    return _mm256_add_ps(v0, _mm256_mul_ps(_mm256_sub_ps(v1, v0), f));
}

/// Whole groups of four with AVX; returns how many pixels it did.
__attribute__((target("avx")))
static int lookup_avx(const float *r, const float *g, const float *b, const float *a, float *outR, float *outG,
                      float *outB, float *outA, const float *table, int dimension, int extrapolate, int n) {
    GRAPH_LOOKUP_CONSTANTS;
    int i = 0;
    for (; i + 4 <= n; i += 4) GRAPH_LOOKUP_FOUR(GRAPH_BLEND_LANE_AVX);
    return i;
}

static int lookup_sse(const float *r, const float *g, const float *b, const float *a, float *outR, float *outG,
                      float *outB, float *outA, const float *table, int dimension, int extrapolate, int n) {
    GRAPH_LOOKUP_CONSTANTS;
    int i = 0;
    for (; i + 4 <= n; i += 4) GRAPH_LOOKUP_FOUR(GRAPH_BLEND_LANE_SSE);
    return i;
}

void graph_lookup3d_span(const float *r, const float *g, const float *b, const float *a,
                         float *outR, float *outG, float *outB, float *outA,
                         const float *table, int dimension, int extrapolate, int n) {
    // Texel offsets are computed in float: whole numbers below 2^24 for dimensions up to 128.
    int i = 0;
    if (dimension <= 128) {
        i = graph_cpu_has_avx() ? lookup_avx(r, g, b, a, outR, outG, outB, outA, table, dimension, extrapolate, n)
                                : lookup_sse(r, g, b, a, outR, outG, outB, outA, table, dimension, extrapolate, n);
    }
    graph_lookup3d_span_portable(r + i, g + i, b + i, a + i, outR + i, outG + i, outB + i, outA + i, table, dimension,
                                 extrapolate, n - i);
}

void graph_lookup3d_span_sse(const float *r, const float *g, const float *b, const float *a,
                             float *outR, float *outG, float *outB, float *outA,
                             const float *table, int dimension, int extrapolate, int n) {
    int i = dimension <= 128 ? lookup_sse(r, g, b, a, outR, outG, outB, outA, table, dimension, extrapolate, n) : 0;
    graph_lookup3d_span_portable(r + i, g + i, b + i, a + i, outR + i, outG + i, outB + i, outA + i, table, dimension,
                                 extrapolate, n - i);
}
#else
void graph_lookup3d_span_sse(const float *r, const float *g, const float *b, const float *a,
                             float *outR, float *outG, float *outB, float *outA,
                             const float *table, int dimension, int extrapolate, int n) {
    graph_lookup3d_span_portable(r, g, b, a, outR, outG, outB, outA, table, dimension, extrapolate, n);
}

void graph_lookup3d_span(const float *r, const float *g, const float *b, const float *a,
                         float *outR, float *outG, float *outB, float *outA,
                         const float *table, int dimension, int extrapolate, int n) {
    graph_lookup3d_span_portable(r, g, b, a, outR, outG, outB, outA, table, dimension, extrapolate, n);
}
#endif
