// Camera frames straight to RGBA8 (see CYUVToRGBA8.h): 4:2:0 chroma upsampling and a colour
// matrix in 16-bit fixed point, sixteen pixels per AVX2 register (the libyuv / OpenCV approach,
// but with exact bilinear chroma and Q15 coefficients instead of shared chroma and Q6).
//
// A row runs in two passes: the two chroma rows are blended vertically into worker scratch
// (edges repeated there, so the second pass has no edge cases), then every pixel pair takes its
// horizontal weights and the matrix.
#include "CYUVToRGBA8.h"
#include "cpu_features.h"

#include <math.h>
#include <stdlib.h>

int graph_yuv_fixed_matrix_make(const float *a, graph_yuv_fixed_matrix *out) {
    for (int c = 0; c < 3; c++) {
        // The largest magnitude any partial sum can reach: every term at its extreme (input byte
        // 255, so input · 64 <= 16320) plus the offset. Below 2^15 nothing wraps in 16 bits.
        double bound = 0;
        for (int i = 0; i < 3; i++) {
            double scaled = (double)a[4 * c + i] * 8192.0;
            if (!(fabs(scaled) <= 32767.0)) return 0;
            long k = lrint(scaled);
            out->coefficients[3 * c + i] = (int16_t)k;
            bound += floor((16320.0 * (double)labs(k) + 16384.0) / 32768.0);
        }
        double offset = (double)a[4 * c + 3] * 16.0;
        if (!(fabs(offset) + 9.0 + bound <= 32767.0)) return 0;
        out->offsets[c] = (int16_t)(lrint(offset) + 8);
    }
    return 1;
}

/// The chroma pairs a row of `count` pixels from column x0 reads: kFirst ... kFirst + pairs − 1.
static inline int first_pair(int x0) { return (x0 >> 1) - 1; }
static inline int pair_count(int x0, int count) { return ((x0 + count - 1) >> 1) + 1 - first_pair(x0) + 1; }

int graph_yuv_to_rgba8_scratch_count(int count) { return count > 0 ? 2 * pair_count(0, count) + 2 : 0; }

// MARK: Portable (also the edges and tails of the wide path)

/// _mm256_mulhrs_epi16 on one lane.
static inline int mulhrs(int a, int k) { return (a * k + 0x4000) >> 15; }

/// Blended pairs j = kFirst + n for n < `pairs`, from n = `from`, as (Cb, Cr) quarters:
/// topWeight · top + (4 − topWeight) · bottom, with columns outside the row repeating the edge.
static void blend_portable(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                           const uint8_t *crBottom, int step, int chromaWidth, int kFirst, int from, int pairs,
                           int topWeight, int16_t *v) {
    for (int n = from; n < pairs; n++) {
        int j = kFirst + n;
        j = j < 0 ? 0 : (j >= chromaWidth ? chromaWidth - 1 : j);
        v[2 * n] = (int16_t)(topWeight * cbTop[j * step] + (4 - topWeight) * cbBottom[j * step]);
        v[2 * n + 1] = (int16_t)(topWeight * crTop[j * step] + (4 - topWeight) * crBottom[j * step]);
    }
}

/// Pixel i (column x0 + i) from the blended pairs `v` (pair n is chroma column kFirst + n).
static inline void portable_pixel(const uint8_t *luma, const int16_t *v, int x0, int i, int centred,
                                  const graph_yuv_fixed_matrix *m, uint8_t *out) {
    int x = x0 + i, n = (x >> 1) - first_pair(x0);
    int chroma[2];
    for (int c = 0; c < 2; c++) {
        int previous = v[2 * (n - 1) + c], current = v[2 * n + c], next = v[2 * (n + 1) + c];
        if (centred) chroma[c] = (x & 1) ? 3 * current + next : previous + 3 * current;
        else chroma[c] = (x & 1) ? 2 * (current + next) : 4 * current;
    }
    int y6 = luma[i] << 6, cb6 = chroma[0] << 2, cr6 = chroma[1] << 2;
    for (int c = 0; c < 3; c++) {
        const int16_t *k = m->coefficients + 3 * c;
        int value = (mulhrs(y6, k[0]) + mulhrs(cb6, k[1]) + mulhrs(cr6, k[2]) + m->offsets[c]) >> 4;
        out[4 * i + c] = (uint8_t)(value < 0 ? 0 : (value > 255 ? 255 : value));
    }
    out[4 * i + 3] = 255;
}

void graph_yuv_to_rgba8_row_portable(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                     const uint8_t *crTop, const uint8_t *crBottom, int step, int chromaWidth, int x0,
                                     int count, int topWeight, int centred, const graph_yuv_fixed_matrix *matrix,
                                     int16_t *scratch, uint8_t *out) {
    if (count <= 0) return;
    blend_portable(cbTop, cbBottom, crTop, crBottom, step, chromaWidth, first_pair(x0), 0, pair_count(x0, count),
                   topWeight, scratch);
    for (int i = 0; i < count; i++) portable_pixel(luma, scratch, x0, i, centred, matrix, out);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// MARK: AVX2

/// Chroma pairs j ..< j + 8 of one row as sixteen 16-bit lanes Cb, Cr, Cb, Cr, ...
__attribute__((target("avx2")))
static inline __m256i load_pairs(const uint8_t *cb, const uint8_t *cr, int j, int interleaved) {
    if (interleaved) return _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cb + 2 * j)));
    __m128i b = _mm_loadl_epi64((const __m128i *)(cb + j)), r = _mm_loadl_epi64((const __m128i *)(cr + j));
    return _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(b, r));
}

/// blend_portable, eight pairs at a time where the columns lie inside the row.
__attribute__((target("avx2")))
static inline __attribute__((always_inline)) void blend_avx2(
    const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom, int interleaved,
    int chromaWidth, int kFirst, int pairs, int topWeight, int16_t *v) {
    __m256i top = _mm256_set1_epi16((short)topWeight), bottom = _mm256_set1_epi16((short)(4 - topWeight));
    int n = 0;
    // Columns left of the row repeat its edge.
    for (; n < pairs && kFirst + n < 0; n++) {
        blend_portable(cbTop, cbBottom, crTop, crBottom, interleaved ? 2 : 1, chromaWidth, kFirst, n, n + 1, topWeight, v);
    }
    for (; n + 8 <= pairs && kFirst + n + 8 <= chromaWidth; n += 8) {
        __m256i blended = _mm256_add_epi16(_mm256_mullo_epi16(load_pairs(cbTop, crTop, kFirst + n, interleaved), top),
                                           _mm256_mullo_epi16(load_pairs(cbBottom, crBottom, kFirst + n, interleaved), bottom));
        _mm256_storeu_si256((__m256i *)(v + 2 * n), blended);
    }
    blend_portable(cbTop, cbBottom, crTop, crBottom, interleaved ? 2 : 1, chromaWidth, kFirst, n, pairs, topWeight, v);
}

/// One channel of sixteen pixels: the Q4 sum shifted to bytes' scale (still 16-bit, unclamped).
__attribute__((target("avx2")))
static inline __m256i channel(__m256i y6, __m256i cb6, __m256i cr6, const __m256i *k, __m256i offset) {
    __m256i sum = _mm256_add_epi16(_mm256_mulhrs_epi16(y6, k[0]), _mm256_mulhrs_epi16(cb6, k[1]));
    sum = _mm256_add_epi16(sum, _mm256_add_epi16(_mm256_mulhrs_epi16(cr6, k[2]), offset));
    return _mm256_srai_epi16(sum, 4);
}

/// Sixteen pixels from an even column whose pairs are v[n − 1 ...< n + 9] (blended pairs).
__attribute__((target("avx2")))
static inline void sixteen_pixels(const uint8_t *luma, const int16_t *v, int centred, const __m256i *coefficients,
                                  const __m256i *offsets, uint8_t *out) {
    // Even and odd columns' 16 · chroma, as (Cb, Cr) pairs n ..< n + 8.
    __m256i current = _mm256_loadu_si256((const __m256i *)v), next = _mm256_loadu_si256((const __m256i *)(v + 2));
    __m256i even, odd;
    if (centred) {
        __m256i previous = _mm256_loadu_si256((const __m256i *)(v - 2));
        __m256i threeCurrent = _mm256_add_epi16(_mm256_slli_epi16(current, 1), current);
        even = _mm256_add_epi16(previous, threeCurrent);
        odd = _mm256_add_epi16(threeCurrent, next);
    } else {
        even = _mm256_slli_epi16(current, 2);
        odd = _mm256_slli_epi16(_mm256_add_epi16(current, next), 1);
    }
    // Pixel order: 32-bit (Cb, Cr) lanes even/odd interleaved (pixels 0-3 | 8-11 and 4-7 | 12-15),
    // then Cb and Cr apart; packus_epi32 works per 128-bit lane, which restores pixels 0-15.
    __m256i low = _mm256_unpacklo_epi32(even, odd), high = _mm256_unpackhi_epi32(even, odd);
    __m256i mask = _mm256_set1_epi32(0xFFFF);
    __m256i cb6 = _mm256_slli_epi16(_mm256_packus_epi32(_mm256_and_si256(low, mask), _mm256_and_si256(high, mask)), 2);
    __m256i cr6 = _mm256_slli_epi16(_mm256_packus_epi32(_mm256_srli_epi32(low, 16), _mm256_srli_epi32(high, 16)), 2);
    __m256i y6 = _mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)luma)), 6);

    __m256i r = channel(y6, cb6, cr6, coefficients, offsets[0]);
    __m256i g = channel(y6, cb6, cr6, coefficients + 3, offsets[1]);
    __m256i b = channel(y6, cb6, cr6, coefficients + 6, offsets[2]);
    // Saturating packs clamp to 0...255; byte then 16-bit interleaves give RGBA per 128-bit lane.
    __m256i rb = _mm256_packus_epi16(r, b), ga = _mm256_packus_epi16(g, _mm256_set1_epi16(255));
    __m256i rg = _mm256_unpacklo_epi8(rb, ga), ba = _mm256_unpackhi_epi8(rb, ga);
    __m256i first = _mm256_unpacklo_epi16(rg, ba), second = _mm256_unpackhi_epi16(rg, ba);
    _mm256_storeu_si256((__m256i *)out, _mm256_permute2x128_si256(first, second, 0x20));
    _mm256_storeu_si256((__m256i *)(out + 32), _mm256_permute2x128_si256(first, second, 0x31));
}

__attribute__((target("avx2")))
static inline __attribute__((always_inline)) void row_avx2(
    const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom,
    int interleaved, int chromaWidth, int x0, int count, int topWeight, int centred,
    const graph_yuv_fixed_matrix *matrix, int16_t *v, uint8_t *out) {
    int kFirst = first_pair(x0);
    blend_avx2(cbTop, cbBottom, crTop, crBottom, interleaved, chromaWidth, kFirst, pair_count(x0, count), topWeight, v);
    __m256i coefficients[9], offsets[3];
    for (int c = 0; c < 9; c++) coefficients[c] = _mm256_set1_epi16(matrix->coefficients[c]);
    for (int c = 0; c < 3; c++) offsets[c] = _mm256_set1_epi16(matrix->offsets[c]);
    int i = 0;
    if (x0 & 1) { portable_pixel(luma, v, x0, 0, centred, matrix, out); i = 1; }
    // Every whole block's pairs lie within the blended ones (see pair_count).
    for (; i + 16 <= count; i += 16) {
        sixteen_pixels(luma + i, v + 2 * (((x0 + i) >> 1) - kFirst), centred, coefficients, offsets, out + 4 * i);
    }
    for (; i < count; i++) portable_pixel(luma, v, x0, i, centred, matrix, out);
}

/// row_avx2 specialised for the layout and siting (the branches leave the inner loop).
#define ROW_VARIANT(name, interleavedValue, centredValue)                                                      \
    __attribute__((target("avx2"))) static void name(                                                        \
        const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,               \
        const uint8_t *crBottom, int chromaWidth, int x0, int count, int topWeight,                            \
        const graph_yuv_fixed_matrix *matrix, int16_t *scratch, uint8_t *out) {                                \
        row_avx2(luma, cbTop, cbBottom, crTop, crBottom, interleavedValue, chromaWidth, x0, count, topWeight,   \
                 centredValue, matrix, scratch, out);                                                          \
    }
ROW_VARIANT(row_interleaved_centred, 1, 1)
ROW_VARIANT(row_interleaved_left, 1, 0)
ROW_VARIANT(row_planar_centred, 0, 1)
ROW_VARIANT(row_planar_left, 0, 0)
#undef ROW_VARIANT

void graph_yuv_to_rgba8_row(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                            const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, int topWeight,
                            int centred, const graph_yuv_fixed_matrix *matrix, int16_t *scratch, uint8_t *out) {
    // Interleaved loads need Cr right after Cb; any other layout takes the portable loop.
    int interleaved = step == 2 && crTop == cbTop + 1 && crBottom == cbBottom + 1;
    if (count <= 0) return;
    if (!graph_cpu_has_avx2() || !(interleaved || step == 1)) {
        graph_yuv_to_rgba8_row_portable(luma, cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count,
                                        topWeight, centred, matrix, scratch, out);
    } else if (interleaved) {
        (centred ? row_interleaved_centred : row_interleaved_left)(luma, cbTop, cbBottom, crTop, crBottom, chromaWidth,
                                                                   x0, count, topWeight, matrix, scratch, out);
    } else {
        (centred ? row_planar_centred : row_planar_left)(luma, cbTop, cbBottom, crTop, crBottom, chromaWidth, x0, count,
                                                         topWeight, matrix, scratch, out);
    }
}
#else
void graph_yuv_to_rgba8_row(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                            const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, int topWeight,
                            int centred, const graph_yuv_fixed_matrix *matrix, int16_t *scratch, uint8_t *out) {
    graph_yuv_to_rgba8_row_portable(luma, cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, topWeight,
                                    centred, matrix, scratch, out);
}
#endif
