// The horizontal pass of separable resampling, rows side by side in the vector lanes: each output
// column is a short weighted sum of input columns, and every lane (row) uses the same weights.
// AVX-512 (where the CPU has it) takes a 16-row block as one vector per column and transposes 16
// outputs at a time back to rows; AVX takes 8 lanes and stores each result alone.
#include "CResampleColumns.h"
#include "cpu_features.h"

#pragma clang fp contract(off)

void graph_resample_columns_portable(const float *block, int lanes, const int32_t *firsts, const int32_t *counts,
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

/// Transposes 16 vectors of 16 floats in place: afterwards s[j] lane q holds what s[q] lane j held.
__attribute__((target("avx512f"))) static inline void transpose16(__m512 s[16]) {
    __m512 t[16], u[16];
    // Pairs of rows interleaved by 32-bit elements, then by 64-bit pairs: 4x4 blocks in each 128-bit lane.
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(s[2 * i], s[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(s[2 * i], s[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++) {
        u[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        u[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        u[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        u[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
    // 128-bit blocks: rows 4k..4k+3 of block column c come from u[4c..4c+3] lane k.
    for (int i = 0; i < 4; i++) {
        const __m512 a = _mm512_shuffle_f32x4(u[i], u[4 + i], 0x88), b = _mm512_shuffle_f32x4(u[i], u[4 + i], 0xDD);
        const __m512 c = _mm512_shuffle_f32x4(u[8 + i], u[12 + i], 0x88), d = _mm512_shuffle_f32x4(u[8 + i], u[12 + i], 0xDD);
        s[i] = _mm512_shuffle_f32x4(a, c, 0x88);
        s[i + 8] = _mm512_shuffle_f32x4(a, c, 0xDD);
        s[i + 4] = _mm512_shuffle_f32x4(b, d, 0x88);
        s[i + 12] = _mm512_shuffle_f32x4(b, d, 0xDD);
    }
}

/// Sixteen rows (a full block) sixteen columns at a time: loads, one transpose, aligned-width stores.
__attribute__((target("avx512f")))
static int interleave_512(const float *rows, int rowStride, int length, float *block) {
    int i = 0;
    for (; i + 16 <= length; i += 16) {
        __m512 s[16];
        for (int j = 0; j < 16; j++) s[j] = _mm512_loadu_ps(rows + (long)j * rowStride + i);
        transpose16(s);
        for (int q = 0; q < 16; q++) _mm512_storeu_ps(block + (long)(i + q) * 16, s[q]);
    }
    return i;
}

/// Sixteen lanes: one vector per output column, the same multiply then add per tap as the other
/// paths; sixteen output columns are transposed so each row's sixteen results go out in one store.
__attribute__((target("avx512f")))
static int columns_512(const float *block, const int32_t *firsts, const int32_t *counts, const float *weights,
                       int weightStride, int count, float *out, int outStride) {
    int o = 0;
    for (; o + 16 <= count; o += 16) {
        __m512 s[16];
        for (int q = 0; q < 16; q++) {
            const float *w = weights + (long)(o + q) * weightStride;
            const float *source = block + (long)firsts[o + q] * 16;
            __m512 sum = _mm512_setzero_ps();
            for (int t = 0; t < counts[o + q]; t++)
                sum = _mm512_add_ps(sum, _mm512_mul_ps(_mm512_set1_ps(w[t]), _mm512_loadu_ps(source + (long)t * 16)));
            s[q] = sum;
        }
        transpose16(s);
        for (int j = 0; j < 16; j++) _mm512_storeu_ps(out + (long)j * outStride + o, s[j]);
    }
    return o;
}
#endif

void graph_interleave_rows(const float *rows, int rowStride, int count, int length, float *block) {
    int done = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (count == 16 && graph_cpu_has_avx512f()) done = interleave_512(rows, rowStride, length, block);
#endif
    // The columns left: each row's, into its lane.
    for (int j = 0; j < count; j++) {
        const float *source = rows + (long)j * rowStride;
        for (int i = done; i < length; i++) block[(long)i * count + j] = source[i];
    }
}

void graph_resample_columns(const float *block, int lanes, const int32_t *firsts, const int32_t *counts,
                            const float *weights, int weightStride, int count, float *out, int outStride) {
#if defined(__x86_64__) || defined(__i386__)
    if (lanes == 16 && graph_cpu_has_avx512f()) {
        const int done = columns_512(block, firsts, counts, weights, weightStride, count, out, outStride);
        firsts += done; counts += done; weights += (long)done * weightStride; out += done; count -= done;
    }
    if (lanes % 8 == 0 && graph_cpu_has_avx()) {
        columns_avx(block, lanes, firsts, counts, weights, weightStride, count, out, outStride);
        return;
    }
#endif
    graph_resample_columns_portable(block, lanes, firsts, counts, weights, weightStride, count, out, outStride);
}
