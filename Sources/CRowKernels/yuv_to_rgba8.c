// Camera frames straight to RGBA8 (see CYUVToRGBA8.h): 4:2:0 chroma upsampling and a colour
// matrix in 16-bit fixed point, sixteen pixels per AVX2 register (the libyuv / OpenCV approach,
// but with exact bilinear chroma and Q15 coefficients instead of nearest chroma and Q6).
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

// MARK: Portable (also the heads, tails and edges of the wide path)

/// _mm256_mulhrs_epi16 on one lane.
static inline int mulhrs(int a, int k) { return (a * k + 0x4000) >> 15; }

/// The blended chroma column j (edges repeat), in quarters: topWeight · top + (4 − topWeight) · bottom.
static inline int blended_column(const uint8_t *top, const uint8_t *bottom, int step, int chromaWidth, int j,
                                 int topWeight) {
    j = j < 0 ? 0 : (j >= chromaWidth ? chromaWidth - 1 : j);
    return topWeight * top[j * step] + (4 - topWeight) * bottom[j * step];
}

/// 16 · chroma of luma column x.
static inline int chroma16(const uint8_t *top, const uint8_t *bottom, int step, int chromaWidth, int x, int topWeight,
                           int centred) {
    int k = x >> 1;
#define V(j) blended_column(top, bottom, step, chromaWidth, (j), topWeight)
    if (centred) return (x & 1) ? 3 * V(k) + V(k + 1) : V(k - 1) + 3 * V(k);
    return (x & 1) ? 2 * (V(k) + V(k + 1)) : 4 * V(k);
#undef V
}

static inline void fixed_pixel(int y, int cb16, int cr16, const graph_yuv_fixed_matrix *m, uint8_t *out) {
    int y6 = y << 6, cb6 = cb16 << 2, cr6 = cr16 << 2;
    for (int c = 0; c < 3; c++) {
        const int16_t *k = m->coefficients + 3 * c;
        int v = (mulhrs(y6, k[0]) + mulhrs(cb6, k[1]) + mulhrs(cr6, k[2]) + m->offsets[c]) >> 4;
        out[c] = (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
    out[3] = 255;
}

/// Pixel i of the row (absolute column x0 + i).
#define PORTABLE_PIXEL(i)                                                                                     \
    fixed_pixel(luma[i], chroma16(cbTop, cbBottom, step, chromaWidth, x0 + (i), topWeight, centred),           \
                chroma16(crTop, crBottom, step, chromaWidth, x0 + (i), topWeight, centred), matrix, out + 4 * (i))

void graph_yuv_to_rgba8_row_portable(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                     const uint8_t *crTop, const uint8_t *crBottom, int step, int chromaWidth, int x0,
                                     int count, int topWeight, int centred, const graph_yuv_fixed_matrix *matrix,
                                     uint8_t *out) {
    for (int i = 0; i < count; i++) PORTABLE_PIXEL(i);
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

/// Pairs j ..< j + 8 blended vertically (quarters), the vector form of blended_column.
__attribute__((target("avx2")))
static inline __m256i blended_pairs(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                                    const uint8_t *crBottom, int j, int interleaved, __m256i topWeight,
                                    __m256i bottomWeight) {
    return _mm256_add_epi16(_mm256_mullo_epi16(load_pairs(cbTop, crTop, j, interleaved), topWeight),
                            _mm256_mullo_epi16(load_pairs(cbBottom, crBottom, j, interleaved), bottomWeight));
}

/// One channel of sixteen pixels: the Q4 sum shifted to bytes' scale (still 16-bit, unclamped).
__attribute__((target("avx2")))
static inline __m256i channel(__m256i y6, __m256i cb6, __m256i cr6, const __m256i *k, __m256i offset) {
    __m256i sum = _mm256_add_epi16(_mm256_mulhrs_epi16(y6, k[0]), _mm256_mulhrs_epi16(cb6, k[1]));
    sum = _mm256_add_epi16(sum, _mm256_add_epi16(_mm256_mulhrs_epi16(cr6, k[2]), offset));
    return _mm256_srai_epi16(sum, 4);
}

/// Luma columns x ..< x + 16 (x even, chroma pairs x/2 − 1 ... x/2 + 8 inside the row).
__attribute__((target("avx2")))
static inline void sixteen_pixels(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                  const uint8_t *crTop, const uint8_t *crBottom, int k, int interleaved, int centred,
                                  __m256i topWeight, __m256i bottomWeight, const __m256i *coefficients,
                                  const __m256i *offsets, uint8_t *out) {
    // Even and odd columns' 16 · chroma, as (Cb, Cr) pairs k ..< k + 8.
    __m256i current = blended_pairs(cbTop, cbBottom, crTop, crBottom, k, interleaved, topWeight, bottomWeight);
    __m256i next = blended_pairs(cbTop, cbBottom, crTop, crBottom, k + 1, interleaved, topWeight, bottomWeight);
    __m256i even, odd;
    if (centred) {
        __m256i previous = blended_pairs(cbTop, cbBottom, crTop, crBottom, k - 1, interleaved, topWeight, bottomWeight);
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
    int step, int chromaWidth, int x0, int count, int topWeight, int centred, const graph_yuv_fixed_matrix *matrix,
    uint8_t *out) {
    __m256i coefficients[9], offsets[3];
    for (int c = 0; c < 9; c++) coefficients[c] = _mm256_set1_epi16(matrix->coefficients[c]);
    for (int c = 0; c < 3; c++) offsets[c] = _mm256_set1_epi16(matrix->offsets[c]);
    __m256i top = _mm256_set1_epi16((short)topWeight), bottom = _mm256_set1_epi16((short)(4 - topWeight));
    int interleaved = step == 2, firstPair = centred ? 1 : 0;
    int i = 0;
    // Scalar until the column is even and its block's chroma lies inside the row.
    while (i < count && (((x0 + i) & 1) || ((x0 + i) >> 1) < firstPair)) { PORTABLE_PIXEL(i); i++; }
    for (; i + 16 <= count && ((x0 + i) >> 1) + 8 <= chromaWidth - 1; i += 16) {
        sixteen_pixels(luma + i, cbTop, cbBottom, crTop, crBottom, (x0 + i) >> 1, interleaved, centred, top, bottom,
                       coefficients, offsets, out + 4 * i);
    }
    for (; i < count; i++) PORTABLE_PIXEL(i);
}

/// row_avx2 specialised for the layout and siting (the branches leave the inner loop).
#define ROW_VARIANT(name, stepValue, centredValue)                                                            \
    __attribute__((target("avx2"))) static void name(                                                        \
        const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,               \
        const uint8_t *crBottom, int chromaWidth, int x0, int count, int topWeight,                            \
        const graph_yuv_fixed_matrix *matrix, uint8_t *out) {                                                  \
        row_avx2(luma, cbTop, cbBottom, crTop, crBottom, stepValue, chromaWidth, x0, count, topWeight,          \
                 centredValue, matrix, out);                                                                   \
    }
ROW_VARIANT(row_interleaved_centred, 2, 1)
ROW_VARIANT(row_interleaved_left, 2, 0)
ROW_VARIANT(row_planar_centred, 1, 1)
ROW_VARIANT(row_planar_left, 1, 0)
#undef ROW_VARIANT

void graph_yuv_to_rgba8_row(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                            const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, int topWeight,
                            int centred, const graph_yuv_fixed_matrix *matrix, uint8_t *out) {
    if (!graph_cpu_has_avx2() || (step != 1 && step != 2)) {
        graph_yuv_to_rgba8_row_portable(luma, cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count,
                                        topWeight, centred, matrix, out);
        return;
    }
    if (step == 2 && crTop != cbTop + 1) {
        // Interleaved loads assume Cr follows Cb in the same row; any other layout is portable.
        graph_yuv_to_rgba8_row_portable(luma, cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count,
                                        topWeight, centred, matrix, out);
        return;
    }
    if (step == 2) {
        (centred ? row_interleaved_centred : row_interleaved_left)(luma, cbTop, cbBottom, crTop, crBottom, chromaWidth,
                                                                   x0, count, topWeight, matrix, out);
    } else {
        (centred ? row_planar_centred : row_planar_left)(luma, cbTop, cbBottom, crTop, crBottom, chromaWidth, x0, count,
                                                         topWeight, matrix, out);
    }
}
#else
void graph_yuv_to_rgba8_row(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                            const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, int topWeight,
                            int centred, const graph_yuv_fixed_matrix *matrix, uint8_t *out) {
    graph_yuv_to_rgba8_row_portable(luma, cbTop, cbBottom, crTop, crBottom, step, chromaWidth, x0, count, topWeight,
                                    centred, matrix, out);
}
#endif
