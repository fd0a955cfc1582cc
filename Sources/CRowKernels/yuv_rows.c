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

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx2")))
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
        __m256 r = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(r0, y), _mm256_mul_ps(r1, u)), _mm256_mul_ps(r2, v)), r3);
        __m256 g = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(g0, y), _mm256_mul_ps(g1, u)), _mm256_mul_ps(g2, v)), g3);
        __m256 b = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(b0, y), _mm256_mul_ps(b1, u)), _mm256_mul_ps(b2, v)), b3);
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
        state = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    }
    if (state) yuv_to_rgba8_avx2(luma, cb, cr, count, m, out);
    else graph_yuv_to_rgba8_row_portable(luma, cb, cr, count, m, out);
}
#else
void graph_yuv_to_rgba8_row(const uint8_t *luma, const float *cb, const float *cr, int count, const float *m,
                            uint8_t *out) {
    graph_yuv_to_rgba8_row_portable(luma, cb, cr, count, m, out);
}
#endif
