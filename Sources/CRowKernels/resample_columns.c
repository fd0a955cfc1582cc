// The horizontal pass of separable resampling, rows side by side in the vector lanes: each output
// column is a short weighted sum of input columns, and every lane (row) uses the same weights.
#include "CResampleColumns.h"
#include "cpu_features.h"

#pragma clang fp contract(off)

void graph_interleave_rows(const float *rows, int rowStride, int count, int length, float *block) {
    for (int j = 0; j < count; j++) {
        const float *source = rows + (long)j * rowStride;
        float *target = block + j;
        for (int i = 0; i < length; i++) target[(long)i * count] = source[i];
    }
}

static void columns_portable(const float *block, int lanes, const int32_t *firsts, const int32_t *counts,
                             const float *weights, int weightStride, int count, float *out, int outStride) {
    for (int o = 0; o < count; o++) {
        const float *w = weights + (long)o * weightStride;
        for (int j = 0; j < lanes; j++) {
            const float *source = block + (long)firsts[o] * lanes + j;
            float sum = 0;
            for (int t = 0; t < counts[o]; t++) {
                float product = w[t] * source[(long)t * lanes];
                sum = sum + product;
            }
            out[(long)j * outStride + o] = sum;
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx")))
static void columns_avx(const float *block, int lanes, const int32_t *firsts, const int32_t *counts,
                        const float *weights, int weightStride, int count, float *out, int outStride) {
    float sums[8];
    for (int o = 0; o < count; o++) {
        const float *w = weights + (long)o * weightStride;
        for (int j = 0; j < lanes; j += 8) {
            const float *source = block + (long)firsts[o] * lanes + j;
            __m256 sum = _mm256_setzero_ps();
            for (int t = 0; t < counts[o]; t++) {
                sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_broadcast_ss(w + t), _mm256_loadu_ps(source + (long)t * lanes)));
            }
            _mm256_storeu_ps(sums, sum);
            for (int k = 0; k < 8; k++) out[(long)(j + k) * outStride + o] = sums[k];
        }
    }
}
#endif

void graph_resample_columns(const float *block, int lanes, const int32_t *firsts, const int32_t *counts,
                            const float *weights, int weightStride, int count, float *out, int outStride) {
#if defined(__x86_64__) || defined(__i386__)
    if (lanes % 8 == 0 && graph_cpu_has_avx()) {
        columns_avx(block, lanes, firsts, counts, weights, weightStride, count, out, outStride);
        return;
    }
#endif
    columns_portable(block, lanes, firsts, counts, weights, weightStride, count, out, outStride);
}
