// Integer rows of a separable resample over 8-bit codes (see CResampleCodes.h): libvips' reducev and
// reduceh approach, 16-bit weights and values with exact int32 sums.
//
// Vertical: every output of a row has the same weights, so vectors run along the row and two taps'
// rows are interleaved (unpack within 128-bit lanes) and multiplied and summed into int32 lanes at
// once (vpmaddwd, or vpdpwssd with AVX-512 VNNI, which also accumulates); the pack back to int16
// undoes the unpack's order. Horizontal: every output has its own weights and first tap, so vectors
// run across outputs: each output's pair of neighbouring values (the int16 pair vpmaddwd wants) is
// fetched by one two-vector permute (AVX-512, where sixteen outputs' taps lie within 64 values) or
// one 32-bit gather per two taps, and multiplied by that output's pair of weights.
#include "CResampleCodes.h"
#include "cpu_features.h"

static inline int32_t pair_weight(const int16_t *weights, int tapCount, int j) {
    uint16_t lo = (uint16_t)weights[2 * j];
    uint16_t hi = 2 * j + 1 < tapCount ? (uint16_t)weights[2 * j + 1] : 0;
    return (int32_t)((uint32_t)lo | ((uint32_t)hi << 16));
}

void graph_weighted_rows_to_int16_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                           int tapCount, int count, int shift, int16_t *out) {
    int32_t half = (int32_t)1 << (shift - 1);
    for (int i = 0; i < count; i++) {
        int32_t acc = 0;
        for (int k = 0; k < tapCount; k++) acc += (int32_t)weights[k] * source[i + k * tapStride];
        out[i] = (int16_t)((acc + half) >> shift);
    }
}

void graph_resample_codes_row_portable(const int16_t *source, const int32_t *firsts, const int32_t *pairs,
                                       ptrdiff_t pairStride, int pairCount, int count, float scale, float *out) {
    for (int o = 0; o < count; o++) {
        const int16_t *s = source + firsts[o];
        int32_t acc = 0;
        for (int p = 0; p < pairCount; p++) {
            uint32_t w = (uint32_t)pairs[p * pairStride + o];
            acc += (int32_t)(int16_t)(w & 0xFFFF) * s[2 * p] + (int32_t)(int16_t)(w >> 16) * s[2 * p + 1];
        }
        out[o] = (float)acc * scale;
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// ---- AVX-512 (BW + VNNI): 32 vertical outputs or 16 horizontal ones per vector.

#define LOAD512(k) _mm512_loadu_si512((const void *)(p + (k) * tapStride))

__attribute__((target("avx512f,avx512bw,avx512vnni")))
static int rows_512(const int16_t *source, ptrdiff_t tapStride, const int32_t *pairs, int tapCount, int count,
                    int shift, int16_t *out) {
    const __m512i half = _mm512_set1_epi32((int32_t)1 << (shift - 1));
    const __m128i bits = _mm_cvtsi32_si128(shift);
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        const int16_t *p = source + i;
        __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();
        int j = 0;
        for (; 2 * j + 1 < tapCount; j++) {
            __m512i w = _mm512_set1_epi32(pairs[j]), x = LOAD512(2 * j), y = LOAD512(2 * j + 1);
            lo = _mm512_dpwssd_epi32(lo, _mm512_unpacklo_epi16(x, y), w);
            hi = _mm512_dpwssd_epi32(hi, _mm512_unpackhi_epi16(x, y), w);
        }
        if (2 * j < tapCount) {  // an odd last tap, paired with zeros
            __m512i w = _mm512_set1_epi32(pairs[j]), x = LOAD512(2 * j), y = _mm512_setzero_si512();
            lo = _mm512_dpwssd_epi32(lo, _mm512_unpacklo_epi16(x, y), w);
            hi = _mm512_dpwssd_epi32(hi, _mm512_unpackhi_epi16(x, y), w);
        }
        __m512i packed = _mm512_packs_epi32(_mm512_sra_epi32(_mm512_add_epi32(lo, half), bits),
                                            _mm512_sra_epi32(_mm512_add_epi32(hi, half), bits));
        _mm512_storeu_si512((void *)(out + i), packed);
    }
    return i;
}
#undef LOAD512

/// Sixteen outputs whose taps lie within 64 values of the first one's first tap: those 64 values in
/// two vectors, and each pair of taps picked from them by one two-table permute (vpermt2w) into the
/// (value 2p, value 2p + 1) pairs of each output's lane, no gather. Groups spread wider (shrinks by
/// more than about 3) take a 32-bit gather per pair instead.
__attribute__((target("avx512f,avx512bw,avx512vnni")))
static int row_512(const int16_t *source, const int32_t *firsts, const int32_t *pairs, ptrdiff_t pairStride,
                   int pairCount, int count, float scale, float *out) {
    const __m512 s = _mm512_set1_ps(scale);
    const __m512i one = _mm512_set1_epi32(1);
    int o = 0;
    for (; o + 16 <= count; o += 16) {
        const __m512i index = _mm512_loadu_si512((const void *)(firsts + o));
        __m512i acc = _mm512_setzero_si512();
        // Within the window when every d = firsts[o] − firsts[first of the group] is in [0, 64 − 2·pairCount].
        const int32_t base = firsts[o];
        const __m512i d = _mm512_sub_epi32(index, _mm512_set1_epi32(base));
        const __mmask16 outside = _mm512_cmplt_epi32_mask(d, _mm512_setzero_si512())
            | _mm512_cmpgt_epi32_mask(d, _mm512_set1_epi32(64 - 2 * pairCount));
        if (outside == 0) {
            const __m512i low = _mm512_loadu_si512((const void *)(source + base));
            const __m512i high = _mm512_loadu_si512((const void *)(source + base + 32));
            // Lane o's two 16-bit indices: d and d + 1 (then + 2p per pair).
            __m512i picks = _mm512_or_si512(d, _mm512_slli_epi32(_mm512_add_epi32(d, one), 16));
            const __m512i two = _mm512_set1_epi16(2);
            for (int p = 0; p < pairCount; p++) {
                __m512i values = _mm512_permutex2var_epi16(low, picks, high);
                acc = _mm512_dpwssd_epi32(acc, values, _mm512_loadu_si512((const void *)(pairs + p * pairStride + o)));
                picks = _mm512_add_epi16(picks, two);
            }
        } else {
            for (int p = 0; p < pairCount; p++) {
                __m512i values = _mm512_i32gather_epi32(_mm512_add_epi32(index, _mm512_set1_epi32(2 * p)), source, 2);
                acc = _mm512_dpwssd_epi32(acc, values, _mm512_loadu_si512((const void *)(pairs + p * pairStride + o)));
            }
        }
        _mm512_storeu_ps(out + o, _mm512_mul_ps(_mm512_cvtepi32_ps(acc), s));
    }
    return o;
}

// ---- AVX2: 16 vertical outputs or 8 horizontal ones per vector (vpmaddwd, then an int32 add).

#define LOAD256(k) _mm256_loadu_si256((const __m256i *)(p + (k) * tapStride))

__attribute__((target("avx2")))
static int rows_256(const int16_t *source, ptrdiff_t tapStride, const int32_t *pairs, int tapCount, int count,
                    int shift, int16_t *out) {
    const __m256i half = _mm256_set1_epi32((int32_t)1 << (shift - 1));
    const __m128i bits = _mm_cvtsi32_si128(shift);
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        const int16_t *p = source + i;
        __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
        int j = 0;
        for (; 2 * j + 1 < tapCount; j++) {
            __m256i w = _mm256_set1_epi32(pairs[j]), x = LOAD256(2 * j), y = LOAD256(2 * j + 1);
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(x, y), w));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(x, y), w));
        }
        if (2 * j < tapCount) {
            __m256i w = _mm256_set1_epi32(pairs[j]), x = LOAD256(2 * j), y = _mm256_setzero_si256();
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(x, y), w));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(x, y), w));
        }
        __m256i packed = _mm256_packs_epi32(_mm256_sra_epi32(_mm256_add_epi32(lo, half), bits),
                                            _mm256_sra_epi32(_mm256_add_epi32(hi, half), bits));
        _mm256_storeu_si256((__m256i *)(out + i), packed);
    }
    return i;
}
#undef LOAD256

__attribute__((target("avx2")))
static int row_256(const int16_t *source, const int32_t *firsts, const int32_t *pairs, ptrdiff_t pairStride,
                   int pairCount, int count, float scale, float *out) {
    const __m256 s = _mm256_set1_ps(scale);
    int o = 0;
    for (; o + 8 <= count; o += 8) {
        const __m256i index = _mm256_loadu_si256((const __m256i *)(firsts + o));
        __m256i acc = _mm256_setzero_si256();
        for (int p = 0; p < pairCount; p++) {
            __m256i values = _mm256_i32gather_epi32((const int *)source, _mm256_add_epi32(index, _mm256_set1_epi32(2 * p)), 2);
            __m256i w = _mm256_loadu_si256((const __m256i *)(pairs + p * pairStride + o));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(values, w));
        }
        _mm256_storeu_ps(out + o, _mm256_mul_ps(_mm256_cvtepi32_ps(acc), s));
    }
    return o;
}

void graph_weighted_rows_to_int16(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                  int count, int shift, int16_t *out) {
    int32_t pairs[(tapCount + 1) / 2];
    for (int j = 0; 2 * j < tapCount; j++) pairs[j] = pair_weight(weights, tapCount, j);
    int done = 0;
    if (graph_cpu_has_avx512_dot_products()) done = rows_512(source, tapStride, pairs, tapCount, count, shift, out);
    if (graph_cpu_has_avx2()) done += rows_256(source + done, tapStride, pairs, tapCount, count - done, shift, out + done);
    graph_weighted_rows_to_int16_portable(source + done, tapStride, weights, tapCount, count - done, shift, out + done);
}

void graph_resample_codes_row(const int16_t *source, const int32_t *firsts, const int32_t *pairs, ptrdiff_t pairStride,
                              int pairCount, int count, float scale, float *out) {
    int done = 0;
    if (graph_cpu_has_avx512_dot_products()) done = row_512(source, firsts, pairs, pairStride, pairCount, count, scale, out);
    if (graph_cpu_has_avx2())
        done += row_256(source, firsts + done, pairs + done, pairStride, pairCount, count - done, scale, out + done);
    graph_resample_codes_row_portable(source, firsts + done, pairs + done, pairStride, pairCount, count - done, scale,
                                      out + done);
}
#else
void graph_weighted_rows_to_int16(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                  int count, int shift, int16_t *out) {
    graph_weighted_rows_to_int16_portable(source, tapStride, weights, tapCount, count, shift, out);
}

void graph_resample_codes_row(const int16_t *source, const int32_t *firsts, const int32_t *pairs, ptrdiff_t pairStride,
                              int pairCount, int count, float scale, float *out) {
    graph_resample_codes_row_portable(source, firsts, pairs, pairStride, pairCount, count, scale, out);
}
#endif
