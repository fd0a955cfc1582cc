// The YCbCr -> RGBA8 row kernel of camera frames (see CYUVRows.h). Like the F16C and convolution
// shims, the wide path sits behind a target attribute and a run-time CPU check, because a package
// used as a dependency cannot pass -mavx2.
#include "CYUVRows.h"

#pragma clang fp contract(off)

static inline uint8_t code(float v) {
    // NaN and negatives to 0, above 255 to 255, then round half to even (like cvtps2dq): adding
    // 1.5·2^23 leaves the rounded integer in the low mantissa bits.
    float clamped = v > 0 ? (v < 255 ? v : 255) : 0;
    union { float f; uint32_t u; } bits = { clamped + 12582912.0f };
    return (uint8_t)(bits.u & 0xFF);
}

void graph_yuv_to_rgba8_row_portable(const uint8_t *luma, const float *cb, const float *cr, int count,
                                     const float *m, uint8_t *out) {
    for (int i = 0; i < count; i++) {
        float y = (float)luma[i], u = cb[i], v = cr[i];
        out[4 * i] = code(m[0] * y + m[1] * u + m[2] * v + m[3]);
        out[4 * i + 1] = code(m[4] * y + m[5] * u + m[6] * v + m[7]);
        out[4 * i + 2] = code(m[8] * y + m[9] * u + m[10] * v + m[11]);
        out[4 * i + 3] = 255;
    }
}

/// Chroma columns kFirst ..< kFirst + chromaCount of two rows, blended; edges repeat.
static inline __attribute__((always_inline)) void vertical_blend(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                                  const uint8_t *crBottom, int step, int chromaWidth, int kFirst, int chromaCount,
                                  float w0, float w1, float *cb, float *cr) {
    /* Columns before 0 and past the last repeat the edge; the interior is read directly. */
    int interiorStart = -kFirst < 0 ? 0 : (-kFirst > chromaCount ? chromaCount : -kFirst);
    int interiorEnd = chromaWidth - kFirst > chromaCount ? chromaCount : chromaWidth - kFirst;
    if (interiorEnd < interiorStart) interiorEnd = interiorStart;
    int lastColumn = (chromaWidth - 1) * step;
    float cbFirst = (float)cbTop[0] * w0 + (float)cbBottom[0] * w1;
    float crFirst = (float)crTop[0] * w0 + (float)crBottom[0] * w1;
    float cbLast = (float)cbTop[lastColumn] * w0 + (float)cbBottom[lastColumn] * w1;
    float crLast = (float)crTop[lastColumn] * w0 + (float)crBottom[lastColumn] * w1;
    for (int index = 0; index < interiorStart; index++) { cb[index] = cbFirst; cr[index] = crFirst; }
    if (step == 2) {
        for (int index = interiorStart; index < interiorEnd; index++) {
            int k = (kFirst + index) * 2;
            cb[index] = (float)cbTop[k] * w0 + (float)cbBottom[k] * w1;
            cr[index] = (float)crTop[k] * w0 + (float)crBottom[k] * w1;
        }
    } else {
        for (int index = interiorStart; index < interiorEnd; index++) {
            int k = kFirst + index;
            cb[index] = (float)cbTop[k] * w0 + (float)cbBottom[k] * w1;
            cr[index] = (float)crTop[k] * w0 + (float)crBottom[k] * w1;
        }
    }
    for (int index = interiorEnd; index < chromaCount; index++) { cb[index] = cbLast; cr[index] = crLast; }
}

// The chroma span as plain loops, compiled twice (portable, and for AVX2 where the compiler
// vectorises the blends and pair expansions); the same arithmetic in the same order both times.
#define CHROMA_SPAN_BODY                                                                                       \
    int kFirst = (x0 >> 1) - 1, kLast = ((x0 + count - 1) >> 1) + 1, chromaCount = kLast - kFirst + 1;      \
    float *cb = scratch, *cr = scratch + chromaCount;                                                        \
    vertical_blend(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, kFirst, chromaCount, w0, w1, cb, cr);     \
    int i = 0;                                                                                               \
    if (x0 & 1) {                                                                                            \
        int k = (x0 >> 1) - kFirst;                                                                          \
        cbOut[0] = centred ? 0.75f * cb[k] + 0.25f * cb[k + 1] : 0.5f * (cb[k] + cb[k + 1]);                 \
        crOut[0] = centred ? 0.75f * cr[k] + 0.25f * cr[k + 1] : 0.5f * (cr[k] + cr[k + 1]);                 \
        i = 1;                                                                                               \
    }                                                                                                        \
    int pairs = (count - i) / 2, k0 = ((x0 + i) >> 1) - kFirst;                                              \
    float *cbPair = cbOut + i, *crPair = crOut + i;                                                          \
    const float *cbK = cb + k0, *crK = cr + k0;                                                              \
    EXPAND_PAIRS(cbK, cbPair);                                                                               \
    EXPAND_PAIRS(crK, crPair);                                                                               \
    i += 2 * pairs;                                                                                          \
    if (i < count) {                                                                                         \
        int k = ((x0 + i) >> 1) - kFirst;                                                                    \
        cbOut[i] = centred ? 0.25f * cb[k - 1] + 0.75f * cb[k] : cb[k];                                      \
        crOut[i] = centred ? 0.25f * cr[k - 1] + 0.75f * cr[k] : cr[k];                                      \
    }

/// The pair expansion of the portable path.
static inline void expand_pairs(const float *cK, float *out, int pairs, int centred) {
    for (int p = 0; p < pairs; p++) {
        out[2 * p] = centred ? 0.25f * cK[p - 1] + 0.75f * cK[p] : cK[p];
        out[2 * p + 1] = centred ? 0.75f * cK[p] + 0.25f * cK[p + 1] : 0.5f * (cK[p] + cK[p + 1]);
    }
}

static void chroma_span_portable(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                                 const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0,
                                 float w1, int centred, float *restrict cbOut, float *restrict crOut,
                                 float *restrict scratch) {
#define EXPAND_PAIRS(cK, out) expand_pairs(cK, out, pairs, centred)
    CHROMA_SPAN_BODY
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// Eight pairs at once: even = q·c[k−1] + r·c[k] (or c[k]), odd = r·c[k] + q·c[k+1] (or ½(c[k] + c[k+1])),
/// interleaved into 16 outputs; the same operations per lane as the portable loop.
__attribute__((target("avx2")))
static inline void expand_pairs_avx2(const float *cK, float *out, int pairs, int centred) {
    const __m256 quarter = _mm256_set1_ps(0.25f), threeQuarters = _mm256_set1_ps(0.75f), half = _mm256_set1_ps(0.5f);
    int p = 0;
    for (; p + 8 <= pairs; p += 8) {
        __m256 previous = _mm256_loadu_ps(cK + p - 1), current = _mm256_loadu_ps(cK + p), next = _mm256_loadu_ps(cK + p + 1);
        __m256 even, odd;
        if (centred) {
            even = _mm256_add_ps(_mm256_mul_ps(quarter, previous), _mm256_mul_ps(threeQuarters, current));
            odd = _mm256_add_ps(_mm256_mul_ps(threeQuarters, current), _mm256_mul_ps(quarter, next));
        } else {
            even = current;
            odd = _mm256_mul_ps(half, _mm256_add_ps(current, next));
        }
        __m256 low = _mm256_unpacklo_ps(even, odd), high = _mm256_unpackhi_ps(even, odd);
        _mm256_storeu_ps(out + 2 * p, _mm256_permute2f128_ps(low, high, 0x20));
        _mm256_storeu_ps(out + 2 * p + 8, _mm256_permute2f128_ps(low, high, 0x31));
    }
    for (; p < pairs; p++) {
        out[2 * p] = centred ? 0.25f * cK[p - 1] + 0.75f * cK[p] : cK[p];
        out[2 * p + 1] = centred ? 0.75f * cK[p] + 0.25f * cK[p + 1] : 0.5f * (cK[p] + cK[p + 1]);
    }
}

// The AVX2 chroma span: the portable body's vertical blend (auto-vectorised) and, for the pairs,
// expand_pairs_avx2 in place of the scalar loop.
__attribute__((target("avx2")))
static void chroma_span_avx2(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0,
                             float w1, int centred, float *restrict cbOut, float *restrict crOut,
                             float *restrict scratch) {
#undef EXPAND_PAIRS
#define EXPAND_PAIRS(cK, out) expand_pairs_avx2(cK, out, pairs, centred)
    CHROMA_SPAN_BODY
}

__attribute__((target("avx2,fma")))
static void yuv_to_rgba8_avx2(const uint8_t *luma, const float *cb, const float *cr, int count, const float *m,
                              uint8_t *out) {
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255);
    const __m256 r0 = _mm256_set1_ps(m[0]), r1 = _mm256_set1_ps(m[1]), r2 = _mm256_set1_ps(m[2]), r3 = _mm256_set1_ps(m[3]);
    const __m256 g0 = _mm256_set1_ps(m[4]), g1 = _mm256_set1_ps(m[5]), g2 = _mm256_set1_ps(m[6]), g3 = _mm256_set1_ps(m[7]);
    const __m256 b0 = _mm256_set1_ps(m[8]), b1 = _mm256_set1_ps(m[9]), b2 = _mm256_set1_ps(m[10]), b3 = _mm256_set1_ps(m[11]);
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256 y = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(luma + i))));
        __m256 u = _mm256_loadu_ps(cb + i), v = _mm256_loadu_ps(cr + i);
        // Fused multiply-adds: rounding differs from the portable loop by at most one code.
        __m256 r = _mm256_fmadd_ps(r2, v, _mm256_fmadd_ps(r1, u, _mm256_fmadd_ps(r0, y, r3)));
        __m256 g = _mm256_fmadd_ps(g2, v, _mm256_fmadd_ps(g1, u, _mm256_fmadd_ps(g0, y, g3)));
        __m256 b = _mm256_fmadd_ps(b2, v, _mm256_fmadd_ps(b1, u, _mm256_fmadd_ps(b0, y, b3)));
        // max(x, 0) returns 0 for NaN (the second operand), then min with 255.
        __m256i ri = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(r, zero), top));
        __m256i gi = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(g, zero), top));
        __m256i bi = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(b, zero), top));
        __m256i pixel = _mm256_or_si256(_mm256_or_si256(ri, _mm256_slli_epi32(gi, 8)),
                                        _mm256_or_si256(_mm256_slli_epi32(bi, 16), alpha));
        _mm256_storeu_si256((__m256i *)(out + 4 * i), pixel);
    }
    if (i < count) graph_yuv_to_rgba8_row_portable(luma + i, cb + i, cr + i, count - i, m, out + 4 * i);
}

static int avx2_state = -1;

void graph_yuv_to_rgba8_row(const uint8_t *luma, const float *cb, const float *cr, int count, const float *m,
                            uint8_t *out) {
    int state = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (state < 0) {
        __builtin_cpu_init();
        state = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
        __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    }
    if (state) yuv_to_rgba8_avx2(luma, cb, cr, count, m, out);
    else graph_yuv_to_rgba8_row_portable(luma, cb, cr, count, m, out);
}

/// Chroma of luma column x (relative column k = (x >> 1) − kFirst) from the blended rows.
static inline float chroma_at(const float *c, int x, int kFirst, int centred) {
    int k = (x >> 1) - kFirst;
    if ((x & 1) == 0) return centred ? 0.25f * c[k - 1] + 0.75f * c[k] : c[k];
    return centred ? 0.75f * c[k] + 0.25f * c[k + 1] : 0.5f * (c[k] + c[k + 1]);
}

__attribute__((target("avx2,fma")))
static void yuv_to_rgba8_span_avx2(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                   const uint8_t *crTop, const uint8_t *crBottom, int step, int chromaWidth, int x0,
                                   int count, float w0, float w1, int centred, const float *m, uint8_t *out,
                                   float *scratch) {
    int kFirst = (x0 >> 1) - 1, kLast = ((x0 + count - 1) >> 1) + 1, chromaCount = kLast - kFirst + 1;
    float *cb = scratch, *cr = scratch + chromaCount;
    vertical_blend(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, kFirst, chromaCount, w0, w1, cb, cr);
    const __m256 quarter = _mm256_set1_ps(0.25f), threeQuarters = _mm256_set1_ps(0.75f), half = _mm256_set1_ps(0.5f);
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255);
    const __m256 r0 = _mm256_set1_ps(m[0]), r1 = _mm256_set1_ps(m[1]), r2 = _mm256_set1_ps(m[2]), r3 = _mm256_set1_ps(m[3]);
    const __m256 g0 = _mm256_set1_ps(m[4]), g1 = _mm256_set1_ps(m[5]), g2 = _mm256_set1_ps(m[6]), g3 = _mm256_set1_ps(m[7]);
    const __m256 b0 = _mm256_set1_ps(m[8]), b1 = _mm256_set1_ps(m[9]), b2 = _mm256_set1_ps(m[10]), b3 = _mm256_set1_ps(m[11]);
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    int i = 0;
    // A lone first pixel when the span starts on an odd column.
    if (x0 & 1) {
        float u = chroma_at(cb, x0, kFirst, centred), v = chroma_at(cr, x0, kFirst, centred);
        graph_yuv_to_rgba8_row_portable(luma, &u, &v, 1, m, out);
        i = 1;
    }
    // Sixteen pixels (eight chroma pairs) at a time; chroma never leaves the registers.
    for (; i + 16 <= count; i += 16) {
        int k = ((x0 + i) >> 1) - kFirst;
        __m256 halves[2][2];
        const float *planes[2] = {cb, cr};
        for (int plane = 0; plane < 2; plane++) {
            const float *c = planes[plane] + k;
            __m256 previous = _mm256_loadu_ps(c - 1), current = _mm256_loadu_ps(c), next = _mm256_loadu_ps(c + 1);
            __m256 even, odd;
            if (centred) {
                even = _mm256_add_ps(_mm256_mul_ps(quarter, previous), _mm256_mul_ps(threeQuarters, current));
                odd = _mm256_add_ps(_mm256_mul_ps(threeQuarters, current), _mm256_mul_ps(quarter, next));
            } else {
                even = current;
                odd = _mm256_mul_ps(half, _mm256_add_ps(current, next));
            }
            __m256 low = _mm256_unpacklo_ps(even, odd), high = _mm256_unpackhi_ps(even, odd);
            halves[plane][0] = _mm256_permute2f128_ps(low, high, 0x20);
            halves[plane][1] = _mm256_permute2f128_ps(low, high, 0x31);
        }
        for (int h = 0; h < 2; h++) {
            __m256 y = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(luma + i + 8 * h))));
            __m256 u = halves[0][h], v = halves[1][h];
            __m256 r = _mm256_fmadd_ps(r2, v, _mm256_fmadd_ps(r1, u, _mm256_fmadd_ps(r0, y, r3)));
            __m256 g = _mm256_fmadd_ps(g2, v, _mm256_fmadd_ps(g1, u, _mm256_fmadd_ps(g0, y, g3)));
            __m256 b = _mm256_fmadd_ps(b2, v, _mm256_fmadd_ps(b1, u, _mm256_fmadd_ps(b0, y, b3)));
            __m256i ri = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(r, zero), top));
            __m256i gi = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(g, zero), top));
            __m256i bi = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(b, zero), top));
            __m256i pixel = _mm256_or_si256(_mm256_or_si256(ri, _mm256_slli_epi32(gi, 8)),
                                            _mm256_or_si256(_mm256_slli_epi32(bi, 16), alpha));
            _mm256_storeu_si256((__m256i *)(out + 4 * (i + 8 * h)), pixel);
        }
    }
    for (; i < count; i++) {
        float u = chroma_at(cb, x0 + i, kFirst, centred), v = chroma_at(cr, x0 + i, kFirst, centred);
        graph_yuv_to_rgba8_row_portable(luma + i, &u, &v, 1, m, out + 4 * i);
    }
}

void graph_yuv_to_rgba8_span(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0, float w1,
                             int centred, const float *m, uint8_t *out, float *scratch) {
    int state = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (state < 0) {
        __builtin_cpu_init();
        state = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
        __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    }
    if (state) {
        yuv_to_rgba8_span_avx2(luma, cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, w0, w1, centred,
                               m, out, scratch);
        return;
    }
    float *cbOut = scratch + 2 * (count / 2 + 4), *crOut = cbOut + count;
    chroma_span_portable(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, w0, w1, centred, cbOut, crOut,
                         scratch);
    graph_yuv_to_rgba8_row_portable(luma, cbOut, crOut, count, m, out);
}

void graph_yuv_chroma_span(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom,
                           int step, int chromaWidth, int x0, int count, float w0, float w1, int centred,
                           float *cbOut, float *crOut, float *scratch) {
    int state = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (state < 0) {
        __builtin_cpu_init();
        state = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
        __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    }
    if (state) chroma_span_avx2(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, w0, w1, centred, cbOut, crOut, scratch);
    else chroma_span_portable(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, w0, w1, centred, cbOut, crOut, scratch);
}
#else
void graph_yuv_to_rgba8_row(const uint8_t *luma, const float *cb, const float *cr, int count, const float *m,
                            uint8_t *out) {
    graph_yuv_to_rgba8_row_portable(luma, cb, cr, count, m, out);
}

void graph_yuv_to_rgba8_span(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0, float w1,
                             int centred, const float *m, uint8_t *out, float *scratch) {
    float *cbOut = scratch + 2 * (count / 2 + 4), *crOut = cbOut + count;
    chroma_span_portable(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, w0, w1, centred, cbOut, crOut,
                         scratch);
    graph_yuv_to_rgba8_row_portable(luma, cbOut, crOut, count, m, out);
}

void graph_yuv_chroma_span(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom,
                           int step, int chromaWidth, int x0, int count, float w0, float w1, int centred,
                           float *cbOut, float *crOut, float *scratch) {
    chroma_span_portable(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, w0, w1, centred, cbOut, crOut, scratch);
}
#endif
