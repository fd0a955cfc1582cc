// Convolution rows for the Gaussian blur's separable passes.
//
// A Swift package used as a dependency cannot pass -mavx2 -mfma, so the wide paths (AVX2, and
// AVX-512 where the CPU has it) live here behind target attributes and run-time CPU checks (like
// the F16C shim).
#include <math.h>
#include "CRowKernels.h"
#include "cpu_features.h"

// Each output is sum = fma(taps[k], in[k], sum) for k ascending, one rounding per tap (fused
// multiply-adds: twice the throughput of a multiply and an add, and closer to the exact sum).
// The portable loop calls fmaf, so every path gives the same bits.
#pragma clang fp contract(off)

void graph_convolve_row_portable(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                                 float *out) {
    for (int i = 0; i < count; i++) {
        float sum = 0;
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            sum = fmaf(taps[k], p[0], sum);
            p += tapStride;
        }
        out[i] = sum;
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// Eight accumulators of eight floats: two FMA units with four cycles of latency each stay busy.
__attribute__((target("avx2,fma")))
static void convolve_fma(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                         float *out) {
    int i = 0;
    for (; i + 64 <= count; i += 64) {
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
        __m256 a4 = _mm256_setzero_ps(), a5 = _mm256_setzero_ps(), a6 = _mm256_setzero_ps(), a7 = _mm256_setzero_ps();
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            __m256 w = _mm256_broadcast_ss(taps + k);
            a0 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p), a0);
            a1 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p + 8), a1);
            a2 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p + 16), a2);
            a3 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p + 24), a3);
            a4 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p + 32), a4);
            a5 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p + 40), a5);
            a6 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p + 48), a6);
            a7 = _mm256_fmadd_ps(w, _mm256_loadu_ps(p + 56), a7);
            p += tapStride;
        }
        _mm256_storeu_ps(out + i, a0);
        _mm256_storeu_ps(out + i + 8, a1);
        _mm256_storeu_ps(out + i + 16, a2);
        _mm256_storeu_ps(out + i + 24, a3);
        _mm256_storeu_ps(out + i + 32, a4);
        _mm256_storeu_ps(out + i + 40, a5);
        _mm256_storeu_ps(out + i + 48, a6);
        _mm256_storeu_ps(out + i + 56, a7);
    }
    for (; i + 8 <= count; i += 8) {
        __m256 a0 = _mm256_setzero_ps();
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            a0 = _mm256_fmadd_ps(_mm256_broadcast_ss(taps + k), _mm256_loadu_ps(p), a0);
            p += tapStride;
        }
        _mm256_storeu_ps(out + i, a0);
    }
    // The last few outputs: scalar fused multiply-adds (the same bits as fmaf).
    for (; i < count; i++) {
        __m128 sum = _mm_setzero_ps();
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            sum = _mm_fmadd_ss(_mm_load_ss(taps + k), _mm_load_ss(p), sum);
            p += tapStride;
        }
        out[i] = _mm_cvtss_f32(sum);
    }
}


// Four rows of a vertical pass at once: each input row is loaded once for the four outputs it
// feeds (a vertical pass is otherwise bound by loads), still summed in k order for each.
#define CCS_FEED(acc, x, k) \
    if ((k) >= 0 && (k) < tapCount) acc = _mm256_fmadd_ps(_mm256_broadcast_ss(taps + (k)), x, acc)

__attribute__((target("avx2,fma")))
static void convolve_four_rows_fma(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                                   float *out, ptrdiff_t outStride) {
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256 r0a = _mm256_setzero_ps(), r0b = _mm256_setzero_ps(), r1a = _mm256_setzero_ps(), r1b = _mm256_setzero_ps();
        __m256 r2a = _mm256_setzero_ps(), r2b = _mm256_setzero_ps(), r3a = _mm256_setzero_ps(), r3b = _mm256_setzero_ps();
        const float *p = source + i;
        for (int j = 0; j < tapCount + 3; j++) {
            __m256 xa = _mm256_loadu_ps(p), xb = _mm256_loadu_ps(p + 8);
            CCS_FEED(r0a, xa, j); CCS_FEED(r0b, xb, j);
            CCS_FEED(r1a, xa, j - 1); CCS_FEED(r1b, xb, j - 1);
            CCS_FEED(r2a, xa, j - 2); CCS_FEED(r2b, xb, j - 2);
            CCS_FEED(r3a, xa, j - 3); CCS_FEED(r3b, xb, j - 3);
            p += tapStride;
        }
        _mm256_storeu_ps(out + i, r0a); _mm256_storeu_ps(out + i + 8, r0b);
        _mm256_storeu_ps(out + outStride + i, r1a); _mm256_storeu_ps(out + outStride + i + 8, r1b);
        _mm256_storeu_ps(out + 2 * outStride + i, r2a); _mm256_storeu_ps(out + 2 * outStride + i + 8, r2b);
        _mm256_storeu_ps(out + 3 * outStride + i, r3a); _mm256_storeu_ps(out + 3 * outStride + i + 8, r3b);
    }
    if (i < count) {
        for (int row = 0; row < 4; row++)
            convolve_fma(source + row * tapStride + i, tapStride, taps, tapCount, count - i, out + row * outStride + i);
    }
}
#undef CCS_FEED

// AVX-512: sixteen lanes per vector, the same fused multiply-add per lane and tap order as the
// AVX2 loops (so the same bits); leftovers go to the AVX2 loops.
__attribute__((target("avx512f,avx2,fma")))
static void convolve_512(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                         float *out) {
    int i = 0;
    for (; i + 128 <= count; i += 128) {
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps(), a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
        __m512 a4 = _mm512_setzero_ps(), a5 = _mm512_setzero_ps(), a6 = _mm512_setzero_ps(), a7 = _mm512_setzero_ps();
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            __m512 w = _mm512_set1_ps(taps[k]);
            a0 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p), a0);
            a1 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p + 16), a1);
            a2 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p + 32), a2);
            a3 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p + 48), a3);
            a4 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p + 64), a4);
            a5 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p + 80), a5);
            a6 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p + 96), a6);
            a7 = _mm512_fmadd_ps(w, _mm512_loadu_ps(p + 112), a7);
            p += tapStride;
        }
        _mm512_storeu_ps(out + i, a0);
        _mm512_storeu_ps(out + i + 16, a1);
        _mm512_storeu_ps(out + i + 32, a2);
        _mm512_storeu_ps(out + i + 48, a3);
        _mm512_storeu_ps(out + i + 64, a4);
        _mm512_storeu_ps(out + i + 80, a5);
        _mm512_storeu_ps(out + i + 96, a6);
        _mm512_storeu_ps(out + i + 112, a7);
    }
    for (; i + 16 <= count; i += 16) {
        __m512 a0 = _mm512_setzero_ps();
        const float *p = source + i;
        for (int k = 0; k < tapCount; k++) {
            a0 = _mm512_fmadd_ps(_mm512_set1_ps(taps[k]), _mm512_loadu_ps(p), a0);
            p += tapStride;
        }
        _mm512_storeu_ps(out + i, a0);
    }
    if (i < count) convolve_fma(source + i, tapStride, taps, tapCount, count - i, out + i);
}

#define CCS_FEED512(acc, x, k) \
    if ((k) >= 0 && (k) < tapCount) acc = _mm512_fmadd_ps(_mm512_set1_ps(taps[k]), x, acc)

// Four rows of a vertical pass, 32 columns at a time (see convolve_four_rows_fma).
__attribute__((target("avx512f,avx2,fma")))
static void convolve_four_rows_512(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                                   float *out, ptrdiff_t outStride) {
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        __m512 r0a = _mm512_setzero_ps(), r0b = _mm512_setzero_ps(), r1a = _mm512_setzero_ps(), r1b = _mm512_setzero_ps();
        __m512 r2a = _mm512_setzero_ps(), r2b = _mm512_setzero_ps(), r3a = _mm512_setzero_ps(), r3b = _mm512_setzero_ps();
        const float *p = source + i;
        for (int j = 0; j < tapCount + 3; j++) {
            __m512 xa = _mm512_loadu_ps(p), xb = _mm512_loadu_ps(p + 16);
            CCS_FEED512(r0a, xa, j); CCS_FEED512(r0b, xb, j);
            CCS_FEED512(r1a, xa, j - 1); CCS_FEED512(r1b, xb, j - 1);
            CCS_FEED512(r2a, xa, j - 2); CCS_FEED512(r2b, xb, j - 2);
            CCS_FEED512(r3a, xa, j - 3); CCS_FEED512(r3b, xb, j - 3);
            p += tapStride;
        }
        _mm512_storeu_ps(out + i, r0a); _mm512_storeu_ps(out + i + 16, r0b);
        _mm512_storeu_ps(out + outStride + i, r1a); _mm512_storeu_ps(out + outStride + i + 16, r1b);
        _mm512_storeu_ps(out + 2 * outStride + i, r2a); _mm512_storeu_ps(out + 2 * outStride + i + 16, r2b);
        _mm512_storeu_ps(out + 3 * outStride + i, r3a); _mm512_storeu_ps(out + 3 * outStride + i + 16, r3b);
    }
    if (i < count) convolve_four_rows_fma(source + i, tapStride, taps, tapCount, count - i, out + i, outStride);
}
#undef CCS_FEED512

void graph_convolve_row(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                        float *out) {
    if (graph_cpu_has_avx512f() && graph_cpu_has_fma()) convolve_512(source, tapStride, taps, tapCount, count, out);
    else if (graph_cpu_has_avx2() && graph_cpu_has_fma()) convolve_fma(source, tapStride, taps, tapCount, count, out);
    else graph_convolve_row_portable(source, tapStride, taps, tapCount, count, out);
}

void graph_convolve_rows(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count, int rows,
                         float *out, ptrdiff_t outStride) {
    int row = 0;
    if (graph_cpu_has_avx512f() && graph_cpu_has_fma()) {
        for (; row + 4 <= rows; row += 4)
            convolve_four_rows_512(source + row * tapStride, tapStride, taps, tapCount, count, out + row * outStride, outStride);
    } else if (graph_cpu_has_avx2() && graph_cpu_has_fma()) {
        for (; row + 4 <= rows; row += 4)
            convolve_four_rows_fma(source + row * tapStride, tapStride, taps, tapCount, count, out + row * outStride, outStride);
    }
    for (; row < rows; row++) graph_convolve_row(source + row * tapStride, tapStride, taps, tapCount, count, out + row * outStride);
}
#else
void graph_convolve_row(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                        float *out) {
    graph_convolve_row_portable(source, tapStride, taps, tapCount, count, out);
}

void graph_convolve_rows(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count, int rows,
                         float *out, ptrdiff_t outStride) {
    for (int row = 0; row < rows; row++)
        graph_convolve_row_portable(source + row * tapStride, tapStride, taps, tapCount, count, out + row * outStride);
}
#endif
