// Convolution rows for the Gaussian blur's separable passes.
//
// A Swift package used as a dependency cannot pass -mavx, so the wide path lives here behind a
// target attribute and a run-time CPU check (like the F16C shim). No FMA: fused multiply-adds
// would round differently from the portable path.
#include "CRowKernels.h"
#include "cpu_features.h"

#pragma clang fp contract(off)

void graph_convolve_row_portable(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                                 float *out) {
    for (int i = 0; i < count; i++) {
        float sum = 0;
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            float product = taps[k] * p[0];
            sum = sum + product;
            p += tapStride;
        }
        out[i] = sum;
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx")))
static void convolve_avx(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                         float *out) {
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            __m256 w = _mm256_broadcast_ss(taps + k);
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(w, _mm256_loadu_ps(p)));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(w, _mm256_loadu_ps(p + 8)));
            a2 = _mm256_add_ps(a2, _mm256_mul_ps(w, _mm256_loadu_ps(p + 16)));
            a3 = _mm256_add_ps(a3, _mm256_mul_ps(w, _mm256_loadu_ps(p + 24)));
            p += tapStride;
        }
        _mm256_storeu_ps(out + i, a0);
        _mm256_storeu_ps(out + i + 8, a1);
        _mm256_storeu_ps(out + i + 16, a2);
        _mm256_storeu_ps(out + i + 24, a3);
    }
    for (; i + 8 <= count; i += 8) {
        __m256 a0 = _mm256_setzero_ps();
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_broadcast_ss(taps + k), _mm256_loadu_ps(p)));
            p += tapStride;
        }
        _mm256_storeu_ps(out + i, a0);
    }
    if (i < count) graph_convolve_row_portable(source + i, tapStride, taps, tapCount, count - i, out + i);
}

void graph_convolve_row(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                        float *out) {
    if (graph_cpu_has_avx()) convolve_avx(source, tapStride, taps, tapCount, count, out);
    else graph_convolve_row_portable(source, tapStride, taps, tapCount, count, out);
}
#else
void graph_convolve_row(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                        float *out) {
    graph_convolve_row_portable(source, tapStride, taps, tapCount, count, out);
}
#endif
