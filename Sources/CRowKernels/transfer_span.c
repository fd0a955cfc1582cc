// The sRGB transfer curves of the IR through their interpolated tables (see CTransferSpan.h): every
// colour conversion that is not fused into a load or a store (a filter working in sRGB, as
// CIPhotoEffectMono does) runs them per value.
#include "CTransferSpan.h"
#include "cpu_features.h"
#include "table_lerp.h"

#include <math.h>

#pragma clang fp contract(off)

static inline float exact(float x, int decode) {
    const float a = fabsf(x);
    float y;
    if (decode) {
        y = a <= 0.04045f ? a / 12.92f : powf((a + 0.055f) / 1.055f, 2.4f);
    } else {
        y = a <= 0.0031308f ? a * 12.92f : 1.055f * powf(a, 1.0f / 2.4f) - 0.055f;
    }
    return x < 0 ? -y : y;
}

static inline float one(const float *table, int resolution, int decode, float x) {
    return fabsf(x) <= 1 ? table_lerp_signed(table, resolution, x) : exact(x, decode);
}

void graph_transfer_span_portable(const float *table, int resolution, int decode, const float *x, float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = one(table, resolution, decode, x[i]);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// Eight at a time; a block with a value outside [−1, 1] (or NaN) goes through `one`.
__attribute__((target("avx2"))) static int transfer_avx2(const float *table, int resolution, int decode, const float *x,
                                                        float *out, int n) {
    const __m256 one_ = _mm256_set1_ps(1.0f), sign = _mm256_set1_ps(-0.0f);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        if (_mm256_movemask_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, v), one_, _CMP_LE_OQ)) != 0xff) {
            for (int j = i; j < i + 8; j++) out[j] = one(table, resolution, decode, x[j]);
            continue;
        }
        _mm256_storeu_ps(out + i, table_lerp_signed_avx2(table, resolution, v));
    }
    return i;
}
#endif

void graph_transfer_span(const float *table, int resolution, int decode, const float *x, float *out, int n) {
    int i = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (graph_cpu_has_avx2()) i = transfer_avx2(table, resolution, decode, x, out, n);
#endif
    for (; i < n; i++) out[i] = one(table, resolution, decode, x[i]);
}
