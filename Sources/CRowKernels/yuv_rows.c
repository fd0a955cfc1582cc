// Camera-frame chroma rows (see CYUVRows.h) for the general programs, in Float32. Like the F16C
// and convolution shims, the wide path sits behind a target attribute and a run-time CPU check,
// because a package used as a dependency cannot pass -mavx2.
#include "CYUVRows.h"
#include "cpu_features.h"

#pragma clang fp contract(off)

// MARK: Portable pieces (also the scalar heads and tails of the wide path)

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

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// MARK: AVX2

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
__attribute__((target("avx2")))
static void chroma_span_avx2(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0,
                             float w1, int centred, float *cbOut, float *crOut, float *scratch) {
    BLEND_SPAN
    int i = 0;
    if (x0 & 1) {
        cbOut[0] = chroma_at(cb, x0, kFirst, centred);
        crOut[0] = chroma_at(cr, x0, kFirst, centred);
        i = 1;
    }
    for (; i + 16 <= count; i += 16) {
        int k = ((x0 + i) >> 1) - kFirst;
        __m256 a, b;
        expand_eight_pairs(cb + k, centred, &a, &b);
        _mm256_storeu_ps(cbOut + i, a);
        _mm256_storeu_ps(cbOut + i + 8, b);
        expand_eight_pairs(cr + k, centred, &a, &b);
        _mm256_storeu_ps(crOut + i, a);
        _mm256_storeu_ps(crOut + i + 8, b);
    }
    for (; i < count; i++) {
        cbOut[i] = chroma_at(cb, x0 + i, kFirst, centred);
        crOut[i] = chroma_at(cr, x0 + i, kFirst, centred);
    }
}

#else
#define chroma_span_avx2 chroma_span_portable
#endif

// MARK: Entry points

void graph_yuv_chroma_span(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom,
                           int step, int chromaWidth, int x0, int count, float w0, float w1, int centred,
                           float *cbOut, float *crOut, float *scratch) {
    (graph_cpu_has_avx2() ? chroma_span_avx2 : chroma_span_portable)(cbTop, cbBottom, crTop, crBottom, step,
                                                                     chromaWidth, x0, count, w0, w1, centred, cbOut,
                                                                     crOut, scratch);
}
