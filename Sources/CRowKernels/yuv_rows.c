// Camera-frame rows (see CYUVRows.h): chroma upsampling and the YCbCr -> RGBA8 program. Like the
// F16C and convolution shims, the wide paths sit behind target attributes and a run-time CPU
// check, because a package used as a dependency cannot pass -mavx2.
#include "CYUVRows.h"

#pragma clang fp contract(off)

// MARK: Portable pieces (also the scalar heads and tails of the wide paths)

/// NaN and negatives to 0, above 255 to 255, then round half to even (like cvtps2dq): adding
/// 1.5·2^23 leaves the rounded integer in the low mantissa bits.
static inline uint8_t code(float v) {
    float clamped = v > 0 ? (v < 255 ? v : 255) : 0;
    union { float f; uint32_t u; } bits = { clamped + 12582912.0f };
    return (uint8_t)(bits.u & 0xFF);
}

static inline void convert_pixel(uint8_t y8, float u, float v, const float *m, uint8_t *out) {
    float y = (float)y8;
    out[0] = code(m[0] * y + m[1] * u + m[2] * v + m[3]);
    out[1] = code(m[4] * y + m[5] * u + m[6] * v + m[7]);
    out[2] = code(m[8] * y + m[9] * u + m[10] * v + m[11]);
    out[3] = 255;
}

/// Chroma columns kFirst ..< kFirst + chromaCount of two rows, blended; edges repeat, the interior is
/// read directly (so the loops vectorise where the caller's target allows).
static inline __attribute__((always_inline)) void vertical_blend(
    const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom, int step,
    int chromaWidth, int kFirst, int chromaCount, float w0, float w1, float *cb, float *cr) {
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

/// The chroma of luma column x from the blended columns (c[0] is column kFirst): the pair weights.
static inline float chroma_at(const float *c, int x, int kFirst, int centred) {
    int k = (x >> 1) - kFirst;
    if ((x & 1) == 0) return centred ? 0.25f * c[k - 1] + 0.75f * c[k] : c[k];
    return centred ? 0.75f * c[k] + 0.25f * c[k + 1] : 0.5f * (c[k] + c[k + 1]);
}

/// The blended chroma columns a span reads, in `scratch`.
#define BLEND_SPAN                                                                                            \
    int kFirst = (x0 >> 1) - 1, chromaCount = ((x0 + count - 1) >> 1) + 1 - kFirst + 1;                      \
    float *cb = scratch, *cr = scratch + chromaCount;                                                        \
    vertical_blend(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, kFirst, chromaCount, w0, w1, cb, cr);

static void chroma_span_portable(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                                 const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0,
                                 float w1, int centred, float *cbOut, float *crOut, float *scratch) {
    BLEND_SPAN
    for (int i = 0; i < count; i++) {
        cbOut[i] = chroma_at(cb, x0 + i, kFirst, centred);
        crOut[i] = chroma_at(cr, x0 + i, kFirst, centred);
    }
}

void graph_yuv_to_rgba8_span_portable(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                      const uint8_t *crTop, const uint8_t *crBottom, int step, int chromaWidth, int x0,
                                      int count, float w0, float w1, int centred, const float *m, uint8_t *out,
                                      float *scratch) {
    BLEND_SPAN
    for (int i = 0; i < count; i++) {
        convert_pixel(luma[i], chroma_at(cb, x0 + i, kFirst, centred), chroma_at(cr, x0 + i, kFirst, centred), m,
                      out + 4 * i);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// MARK: AVX2 (+ FMA for the conversion)

/// Eight chroma pairs at once: the sixteen luma columns' chroma, in column order, as two vectors
/// (the same operations per lane as chroma_at).
__attribute__((target("avx2")))
static inline void expand_eight_pairs(const float *c, int centred, __m256 *first, __m256 *second) {
    __m256 previous = _mm256_loadu_ps(c - 1), current = _mm256_loadu_ps(c), next = _mm256_loadu_ps(c + 1);
    __m256 even, odd;
    if (centred) {
        even = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.25f), previous), _mm256_mul_ps(_mm256_set1_ps(0.75f), current));
        odd = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.75f), current), _mm256_mul_ps(_mm256_set1_ps(0.25f), next));
    } else {
        even = current;
        odd = _mm256_mul_ps(_mm256_set1_ps(0.5f), _mm256_add_ps(current, next));
    }
    __m256 low = _mm256_unpacklo_ps(even, odd), high = _mm256_unpackhi_ps(even, odd);
    *first = _mm256_permute2f128_ps(low, high, 0x20);
    *second = _mm256_permute2f128_ps(low, high, 0x31);
}

/// A span starting at an even or odd column: scalar first pixel, eight pairs at a time, scalar rest.
/// `pairs16(i)` handles luma columns i ..< i + 16; `single(i)` one column.
#define FOR_PAIRS_OF_SPAN(single, pairs16)                                                                    \
    int i = 0;                                                                                               \
    if (x0 & 1) { single(0); i = 1; }                                                                        \
    for (; i + 16 <= count; i += 16) { pairs16(i); }                                                         \
    for (; i < count; i++) { single(i); }

__attribute__((target("avx2")))
static void chroma_span_avx2(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0,
                             float w1, int centred, float *cbOut, float *crOut, float *scratch) {
    BLEND_SPAN
#define SINGLE(i)                                                                                            \
    cbOut[i] = chroma_at(cb, x0 + (i), kFirst, centred);                                                      \
    crOut[i] = chroma_at(cr, x0 + (i), kFirst, centred);
#define PAIRS16(i)                                                                                           \
    {                                                                                                        \
        int k = ((x0 + (i)) >> 1) - kFirst;                                                                  \
        __m256 a, b;                                                                                         \
        expand_eight_pairs(cb + k, centred, &a, &b);                                                         \
        _mm256_storeu_ps(cbOut + (i), a);                                                                    \
        _mm256_storeu_ps(cbOut + (i) + 8, b);                                                                \
        expand_eight_pairs(cr + k, centred, &a, &b);                                                         \
        _mm256_storeu_ps(crOut + (i), a);                                                                    \
        _mm256_storeu_ps(crOut + (i) + 8, b);                                                                \
    }
    FOR_PAIRS_OF_SPAN(SINGLE, PAIRS16)
#undef SINGLE
#undef PAIRS16
}

/// Eight pixels: Y bytes, Cb, Cr to packed RGBA8 (FMA; max with 0 maps NaN to 0, then min 255).
__attribute__((target("avx2,fma")))
static inline __m256i convert_eight(const uint8_t *luma, __m256 u, __m256 v, const __m256 *k) {
    __m256 y = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)luma)));
    __m256 r = _mm256_fmadd_ps(k[2], v, _mm256_fmadd_ps(k[1], u, _mm256_fmadd_ps(k[0], y, k[3])));
    __m256 g = _mm256_fmadd_ps(k[6], v, _mm256_fmadd_ps(k[5], u, _mm256_fmadd_ps(k[4], y, k[7])));
    __m256 b = _mm256_fmadd_ps(k[10], v, _mm256_fmadd_ps(k[9], u, _mm256_fmadd_ps(k[8], y, k[11])));
    __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255);
    __m256i ri = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(r, zero), top));
    __m256i gi = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(g, zero), top));
    __m256i bi = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(b, zero), top));
    return _mm256_or_si256(_mm256_or_si256(ri, _mm256_slli_epi32(gi, 8)),
                           _mm256_or_si256(_mm256_slli_epi32(bi, 16), _mm256_set1_epi32((int)0xFF000000u)));
}

__attribute__((target("avx2,fma")))
static void yuv_to_rgba8_span_avx2(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                   const uint8_t *crTop, const uint8_t *crBottom, int step, int chromaWidth, int x0,
                                   int count, float w0, float w1, int centred, const float *m, uint8_t *out,
                                   float *scratch) {
    BLEND_SPAN
    __m256 k[12];
    for (int c = 0; c < 12; c++) k[c] = _mm256_set1_ps(m[c]);
#define SINGLE(i)                                                                                            \
    convert_pixel(luma[i], chroma_at(cb, x0 + (i), kFirst, centred), chroma_at(cr, x0 + (i), kFirst, centred), m, \
                  out + 4 * (i));
#define PAIRS16(i)                                                                                           \
    {                                                                                                        \
        int kk = ((x0 + (i)) >> 1) - kFirst;                                                                 \
        __m256 u0, u1, v0, v1;                                                                               \
        expand_eight_pairs(cb + kk, centred, &u0, &u1);                                                      \
        expand_eight_pairs(cr + kk, centred, &v0, &v1);                                                      \
        _mm256_storeu_si256((__m256i *)(out + 4 * (i)), convert_eight(luma + (i), u0, v0, k));               \
        _mm256_storeu_si256((__m256i *)(out + 4 * ((i) + 8)), convert_eight(luma + (i) + 8, u1, v1, k));     \
    }
    FOR_PAIRS_OF_SPAN(SINGLE, PAIRS16)
#undef SINGLE
#undef PAIRS16
}

/// 1 when the CPU has AVX2 and FMA (checked once).
static int wide_path(void) {
    static int state = -1;
    int known = __atomic_load_n(&state, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
        __atomic_store_n(&state, known, __ATOMIC_RELAXED);
    }
    return known;
}
#else
static int wide_path(void) { return 0; }
#define chroma_span_avx2 chroma_span_portable
#define yuv_to_rgba8_span_avx2 graph_yuv_to_rgba8_span_portable
#endif

// MARK: Entry points

void graph_yuv_chroma_span(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom,
                           int step, int chromaWidth, int x0, int count, float w0, float w1, int centred,
                           float *cbOut, float *crOut, float *scratch) {
    (wide_path() ? chroma_span_avx2 : chroma_span_portable)(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0,
                                                            count, w0, w1, centred, cbOut, crOut, scratch);
}

void graph_yuv_to_rgba8_span(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0, float w1,
                             int centred, const float *m, uint8_t *out, float *scratch) {
    (wide_path() ? yuv_to_rgba8_span_avx2 : graph_yuv_to_rgba8_span_portable)(
        luma, cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, w0, w1, centred, m, out, scratch);
}
