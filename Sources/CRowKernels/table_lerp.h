// A transfer curve read from its table t[k] = f(k/resolution), k = 0…resolution, by linear
// interpolation, odd-extended (f(−x) = −f(x)), for |x| ≤ 1: shared by the IR's transfer spans and
// the guide luma of the joint bilateral upsample. The callers take |x| > 1 and NaN elsewhere.
#ifndef GRAPH_TABLE_LERP_H
#define GRAPH_TABLE_LERP_H

#pragma clang fp contract(off)

static inline float table_lerp_signed(const float *table, int resolution, float x) {
    const float f = (x < 0 ? -x : x) * (float)resolution;
    int index = (int)f;
    if (index > resolution - 1) index = resolution - 1;
    const float t = f - (float)index;
    const float y = table[index] + (table[index + 1] - table[index]) * t;
    return x < 0 ? -y : y;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// table_lerp_signed of eight values (every |v| ≤ 1), the table read by gathers: the same operations.
__attribute__((target("avx2"), always_inline)) static inline __m256 table_lerp_signed_avx2(const float *table, int resolution,
                                                                                           __m256 v) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 f = _mm256_mul_ps(_mm256_andnot_ps(sign, v), _mm256_set1_ps((float)resolution));
    const __m256i index = _mm256_min_epi32(_mm256_cvttps_epi32(f), _mm256_set1_epi32(resolution - 1));
    const __m256 t = _mm256_sub_ps(f, _mm256_cvtepi32_ps(index));
    const __m256 lower = _mm256_i32gather_ps(table, index, 4), upper = _mm256_i32gather_ps(table + 1, index, 4);
    const __m256 y = _mm256_add_ps(lower, _mm256_mul_ps(_mm256_sub_ps(upper, lower), t));
    return _mm256_blendv_ps(y, _mm256_xor_ps(y, sign), _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ));
}
#endif

#endif
