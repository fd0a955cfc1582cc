// Integer rows of a separable blur with a symmetric kernel (see CSymmetricConvolve.h): the Gaussian
// over 8-bit codes in 16-bit fixed point, libvips' approach, with exact int32 sums.
//
// Vectors hold 16-bit values; the taps are folded in pairs (s(i + k) + s(i + 2R − k), one add for two
// taps) and two folded values are multiplied and summed into int32 lanes at once (vpmaddwd, or
// vpdpwssd with AVX-512 VNNI, which also accumulates): four taps per two instructions per lane.
// The unpack that interleaves two folded vectors for the multiply works within 128-bit lanes, and
// the pack back to int16 undoes it; the float finish reorders its 128-bit blocks explicitly.
#include <math.h>
#include "CSymmetricConvolve.h"
#include "cpu_features.h"

#pragma clang fp contract(off)

static inline int32_t symmetric_sum(const int16_t *s, ptrdiff_t tapStride, const int16_t *weights, int radius) {
    int32_t acc = (int32_t)weights[radius] * s[radius * tapStride];
    for (int k = 0; k < radius; k++)
        acc += (int32_t)weights[k] * ((int32_t)s[k * tapStride] + s[(2 * radius - k) * tapStride]);
    return acc;
}

void graph_symmetric_convolve_to_int16_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                                int tapCount, int count, int shift, int16_t *out) {
    int radius = tapCount / 2;
    int32_t half = (int32_t)1 << (shift - 1);
    for (int i = 0; i < count; i++)
        out[i] = (int16_t)((symmetric_sum(source + i, tapStride, weights, radius) + half) >> shift);
}

void graph_symmetric_convolve_to_float_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                                int tapCount, int count, float scale, float *out) {
    int radius = tapCount / 2;
    for (int i = 0; i < count; i++) out[i] = (float)symmetric_sum(source + i, tapStride, weights, radius) * scale;
}

void graph_symmetric_convolve_to_codes_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                                int tapCount, int count, int shift, uint8_t *out) {
    int radius = tapCount / 2;
    int32_t half = (int32_t)1 << (shift - 1);
    for (int i = 0; i < count; i++) {
        int32_t code = (symmetric_sum(source + i, tapStride, weights, radius) + half) >> shift;
        out[i] = (uint8_t)(code < 0 ? 0 : code > 255 ? 255 : code);
    }
}

static void interleave8_portable(const uint8_t *r, const uint8_t *g, const uint8_t *b, int count, int channels,
                                 int redIndex, int blueIndex, uint8_t *out) {
    for (int i = 0; i < count; i++) {
        uint8_t *pixel = out + channels * i;
        pixel[redIndex] = r[i];
        pixel[1] = g[i];
        pixel[blueIndex] = b[i];
        if (channels == 4) pixel[3] = 255;
    }
}

static void unpack8_codes_portable(const uint8_t *pixels, int channels, int redIndex, int blueIndex, int count,
                                   int16_t *r, int16_t *g, int16_t *b) {
    for (int i = 0; i < count; i++) {
        const uint8_t *pixel = pixels + channels * i;
        r[i] = pixel[redIndex];
        g[i] = pixel[1];
        b[i] = pixel[blueIndex];
    }
}

static void float_to_code16_portable(const float *in, int count, int16_t *out) {
    for (int i = 0; i < count; i++) {
        float x = in[i] * 255.0f;
        x = x > 0 ? x : 0;  // NaN too
        x = x < 255 ? x : 255;
        out[i] = (int16_t)lrintf(x);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// The weights of folded values 2j and 2j + 1 as one int32 (low half first), j ≤ radius / 2 (value
/// `radius` is the centre, alone; it pairs with a zero weight when radius is even).
static void pair_weights(const int16_t *weights, int radius, int32_t *pairs) {
    for (int j = 0; j <= radius / 2; j++) {
        uint16_t lo = (uint16_t)weights[2 * j];
        uint16_t hi = 2 * j + 1 <= radius ? (uint16_t)weights[2 * j + 1] : 0;
        pairs[j] = (int32_t)((uint32_t)lo | ((uint32_t)hi << 16));
    }
}

// ---- AVX-512 (BW + VNNI): 32 outputs per vector, two vectors per step (four accumulation chains).

// Folded value k < radius: s(k) + s(2·radius − k); the last pair is (fold radius − 1, centre) for an
// odd radius and (centre, 0) for an even one.
#define LOAD512(p, k) _mm512_loadu_si512((const void *)((p) + (k) * tapStride))
#define FOLD512(p, k) _mm512_add_epi16(LOAD512(p, k), LOAD512(p, 2 * radius - (k)))
#define LAST512(p, x, y)                                                                                                   \
    __m512i x = radius & 1 ? FOLD512(p, radius - 1) : LOAD512(p, radius);                                             \
    __m512i y = radius & 1 ? LOAD512(p, radius) : _mm512_setzero_si512();

__attribute__((target("avx512f,avx512bw,avx512vnni")))
static inline void sums512(const int16_t *p, ptrdiff_t tapStride, const int32_t *pairs, int radius, __m512i *lo,
                           __m512i *hi) {
    __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
    __m512i b0 = _mm512_setzero_si512(), b1 = _mm512_setzero_si512();
    const int16_t *q = p + 32;
    int j = 0;
    for (; j < radius / 2; j++) {
        __m512i w = _mm512_set1_epi32(pairs[j]);
        __m512i x = FOLD512(p, 2 * j), y = FOLD512(p, 2 * j + 1);
        __m512i u = FOLD512(q, 2 * j), v = FOLD512(q, 2 * j + 1);
        a0 = _mm512_dpwssd_epi32(a0, _mm512_unpacklo_epi16(x, y), w);
        a1 = _mm512_dpwssd_epi32(a1, _mm512_unpackhi_epi16(x, y), w);
        b0 = _mm512_dpwssd_epi32(b0, _mm512_unpacklo_epi16(u, v), w);
        b1 = _mm512_dpwssd_epi32(b1, _mm512_unpackhi_epi16(u, v), w);
    }
    __m512i w = _mm512_set1_epi32(pairs[j]);
    LAST512(p, x, y)
    LAST512(q, u, v)
    lo[0] = _mm512_dpwssd_epi32(a0, _mm512_unpacklo_epi16(x, y), w);
    hi[0] = _mm512_dpwssd_epi32(a1, _mm512_unpackhi_epi16(x, y), w);
    lo[1] = _mm512_dpwssd_epi32(b0, _mm512_unpacklo_epi16(u, v), w);
    hi[1] = _mm512_dpwssd_epi32(b1, _mm512_unpackhi_epi16(u, v), w);
}

__attribute__((target("avx512f,avx512bw,avx512vnni")))
static inline void sums512_one(const int16_t *p, ptrdiff_t tapStride, const int32_t *pairs, int radius, __m512i *lo,
                               __m512i *hi) {
    __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
    int j = 0;
    for (; j < radius / 2; j++) {
        __m512i w = _mm512_set1_epi32(pairs[j]);
        __m512i x = FOLD512(p, 2 * j), y = FOLD512(p, 2 * j + 1);
        a0 = _mm512_dpwssd_epi32(a0, _mm512_unpacklo_epi16(x, y), w);
        a1 = _mm512_dpwssd_epi32(a1, _mm512_unpackhi_epi16(x, y), w);
    }
    __m512i w = _mm512_set1_epi32(pairs[j]);
    LAST512(p, x, y)
    *lo = _mm512_dpwssd_epi32(a0, _mm512_unpacklo_epi16(x, y), w);
    *hi = _mm512_dpwssd_epi32(a1, _mm512_unpackhi_epi16(x, y), w);
}
#undef LAST512
#undef FOLD512
#undef LOAD512

__attribute__((target("avx512f,avx512bw,avx512vnni")))
static inline __m512i finish512_int16(__m512i lo, __m512i hi, __m512i half, int shift) {
    __m128i count = _mm_cvtsi32_si128(shift);
    return _mm512_packs_epi32(_mm512_sra_epi32(_mm512_add_epi32(lo, half), count),
                              _mm512_sra_epi32(_mm512_add_epi32(hi, half), count));
}

/// Stores 32 float sums in order: 128-bit block b of `lo` holds outputs 8b ... 8b + 3, of `hi` 8b + 4 ... 8b + 7.
__attribute__((target("avx512f,avx512bw,avx512vnni")))
static inline void store512_float(__m512i lo, __m512i hi, __m512 scale, float *out) {
    const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i second = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    __m512 l = _mm512_mul_ps(_mm512_cvtepi32_ps(lo), scale), h = _mm512_mul_ps(_mm512_cvtepi32_ps(hi), scale);
    _mm512_storeu_ps(out, _mm512_permutex2var_ps(l, first, h));
    _mm512_storeu_ps(out + 16, _mm512_permutex2var_ps(l, second, h));
}

__attribute__((target("avx512f,avx512bw,avx512vnni")))
static int to_int16_512(const int16_t *source, ptrdiff_t tapStride, const int32_t *pairs, int radius,
                        int count, int shift, int16_t *out) {
    __m512i half = _mm512_set1_epi32((int32_t)1 << (shift - 1));
    int i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512i lo[2], hi[2];
        sums512(source + i, tapStride, pairs, radius, lo, hi);
        _mm512_storeu_si512((void *)(out + i), finish512_int16(lo[0], hi[0], half, shift));
        _mm512_storeu_si512((void *)(out + i + 32), finish512_int16(lo[1], hi[1], half, shift));
    }
    for (; i + 32 <= count; i += 32) {
        __m512i lo, hi;
        sums512_one(source + i, tapStride, pairs, radius, &lo, &hi);
        _mm512_storeu_si512((void *)(out + i), finish512_int16(lo, hi, half, shift));
    }
    if (i < count && count >= 32) {
        // The last 32 outputs again (overlapping those done): the same sums, no narrower loop.
        __m512i lo, hi;
        sums512_one(source + count - 32, tapStride, pairs, radius, &lo, &hi);
        _mm512_storeu_si512((void *)(out + count - 32), finish512_int16(lo, hi, half, shift));
        i = count;
    }
    return i;
}

__attribute__((target("avx512f,avx512bw,avx512vnni")))
static int to_float_512(const int16_t *source, ptrdiff_t tapStride, const int32_t *pairs, int radius,
                        int count, float scale, float *out) {
    __m512 s = _mm512_set1_ps(scale);
    int i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512i lo[2], hi[2];
        sums512(source + i, tapStride, pairs, radius, lo, hi);
        store512_float(lo[0], hi[0], s, out + i);
        store512_float(lo[1], hi[1], s, out + i + 32);
    }
    for (; i + 32 <= count; i += 32) {
        __m512i lo, hi;
        sums512_one(source + i, tapStride, pairs, radius, &lo, &hi);
        store512_float(lo, hi, s, out + i);
    }
    if (i < count && count >= 32) {
        __m512i lo, hi;
        sums512_one(source + count - 32, tapStride, pairs, radius, &lo, &hi);
        store512_float(lo, hi, s, out + count - 32);
        i = count;
    }
    return i;
}

/// Four rows of a vertical pass at once (rows o = 0 ... 3 at p + o·tapStride, 32 columns): every
/// source row is loaded once for the four, where it is a tap of each (L and H: the five rows
/// 2j ... 2j + 4 and 2·radius − 2j − 1 ... 2·radius − 2j + 3 that fold pair j of the four rows reads).
__attribute__((target("avx512f,avx512bw,avx512vnni")))
static inline void sums512_rows4(const int16_t *p, ptrdiff_t tapStride, const int32_t *pairs, int radius, __m512i lo[4],
                                 __m512i hi[4]) {
#define ROW512(k) _mm512_loadu_si512((const void *)(p + (ptrdiff_t)(k) * tapStride))
    __m512i a[4], b[4];
    for (int o = 0; o < 4; o++) a[o] = b[o] = _mm512_setzero_si512();
    __m512i L[5], H[5];
    for (int m = 0; m < 5; m++) {
        L[m] = ROW512(m);
        H[m] = ROW512(2 * radius - 1 + m);
    }
    int j = 0;
    for (; j < radius / 2; j++) {
        __m512i w = _mm512_set1_epi32(pairs[j]);
        for (int o = 0; o < 4; o++) {
            // Folds 2j and 2j + 1 of row o: rows (2j + o, 2·radius − 2j + o), (2j + 1 + o, 2·radius − 2j − 1 + o).
            __m512i x = _mm512_add_epi16(L[o], H[o + 1]), y = _mm512_add_epi16(L[o + 1], H[o]);
            a[o] = _mm512_dpwssd_epi32(a[o], _mm512_unpacklo_epi16(x, y), w);
            b[o] = _mm512_dpwssd_epi32(b[o], _mm512_unpackhi_epi16(x, y), w);
        }
        L[0] = L[2], L[1] = L[3], L[2] = L[4], L[3] = ROW512(2 * j + 5), L[4] = ROW512(2 * j + 6);
        H[4] = H[2], H[3] = H[1], H[2] = H[0], H[1] = ROW512(2 * radius - 2 * j - 2), H[0] = ROW512(2 * radius - 2 * j - 3);
    }
    __m512i w = _mm512_set1_epi32(pairs[j]);
    for (int o = 0; o < 4; o++) {
        __m512i x = radius & 1 ? _mm512_add_epi16(ROW512(radius - 1 + o), ROW512(radius + 1 + o)) : ROW512(radius + o);
        __m512i y = radius & 1 ? ROW512(radius + o) : _mm512_setzero_si512();
        lo[o] = _mm512_dpwssd_epi32(a[o], _mm512_unpacklo_epi16(x, y), w);
        hi[o] = _mm512_dpwssd_epi32(b[o], _mm512_unpackhi_epi16(x, y), w);
    }
#undef ROW512
}

/// 32 sums as codes: (sum + half) >> shift, clamped to 0 ... 255, in order (the pack undoes the
/// unpack's interleave, as in finish512_int16).
__attribute__((target("avx512f,avx512bw,avx512vnni")))
static inline void store512_codes(__m512i lo, __m512i hi, __m512i half, int shift, uint8_t *out) {
    __m512i v = finish512_int16(lo, hi, half, shift);
    v = _mm512_min_epi16(_mm512_max_epi16(v, _mm512_setzero_si512()), _mm512_set1_epi16(255));
    _mm256_storeu_si256((__m256i *)out, _mm512_cvtepi16_epi8(v));
}

/// What a vertical pass stores: sum·scale as floats, (sum + half) >> shift as int16, or that clamped to codes.
enum column_output { COLUMNS_FLOAT, COLUMNS_INT16, COLUMNS_CODES };

/// A vertical pass over `width` ≥ 32 columns: blocks of 32 columns (the last one overlapping the
/// one before it: the same sums again) down all the rows, four rows at a time, into `out` (rows
/// `outStride` elements of its type apart).
__attribute__((target("avx512f,avx512bw,avx512vnni")))
static inline void columns512(const int16_t *source, ptrdiff_t stride, const int32_t *pairs, int radius, int width, int rows,
                              enum column_output kind, float scale, int shift, void *out, ptrdiff_t outStride) {
    __m512 s = _mm512_set1_ps(scale);
    __m512i half = _mm512_set1_epi32(kind != COLUMNS_FLOAT ? (int32_t)1 << (shift - 1) : 0);
    for (int block = 0; block < width; block += 32) {
        int x = block + 32 <= width ? block : width - 32;
        for (int y = 0; y < rows;) {
            __m512i lo[4], hi[4];
            int n = y + 4 <= rows ? 4 : 1;
            if (n == 4) sums512_rows4(source + y * stride + x, stride, pairs, radius, lo, hi);
            else sums512_one(source + y * stride + x, stride, pairs, radius, lo, hi);
            for (int o = 0; o < n; o++) {
                ptrdiff_t at = (y + o) * outStride + x;
                switch (kind) {
                case COLUMNS_FLOAT: store512_float(lo[o], hi[o], s, (float *)out + at); break;
                case COLUMNS_INT16:
                    _mm512_storeu_si512((void *)((int16_t *)out + at), finish512_int16(lo[o], hi[o], half, shift));
                    break;
                case COLUMNS_CODES: store512_codes(lo[o], hi[o], half, shift, (uint8_t *)out + at); break;
                }
            }
            y += n;
        }
    }
}

// ---- AVX2: 16 outputs per vector (vpmaddwd, then an int32 add).

#define LOAD256(p, k) _mm256_loadu_si256((const __m256i *)((p) + (k) * tapStride))
#define FOLD256(p, k) _mm256_add_epi16(LOAD256(p, k), LOAD256(p, 2 * radius - (k)))

__attribute__((target("avx2")))
static inline void sums256(const int16_t *p, ptrdiff_t tapStride, const int32_t *pairs, int radius, __m256i *lo,
                           __m256i *hi) {
    __m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
    int j = 0;
    for (; j < radius / 2; j++) {
        __m256i w = _mm256_set1_epi32(pairs[j]);
        __m256i x = FOLD256(p, 2 * j), y = FOLD256(p, 2 * j + 1);
        a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_unpacklo_epi16(x, y), w));
        a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_unpackhi_epi16(x, y), w));
    }
    __m256i w = _mm256_set1_epi32(pairs[j]);
    __m256i x = radius & 1 ? FOLD256(p, radius - 1) : LOAD256(p, radius);
    __m256i y = radius & 1 ? LOAD256(p, radius) : _mm256_setzero_si256();
    *lo = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_unpacklo_epi16(x, y), w));
    *hi = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_unpackhi_epi16(x, y), w));
}
#undef LOAD256
#undef FOLD256

__attribute__((target("avx2")))
static int to_int16_256(const int16_t *source, ptrdiff_t tapStride, const int32_t *pairs, int radius,
                        int count, int shift, int16_t *out) {
    __m256i half = _mm256_set1_epi32((int32_t)1 << (shift - 1));
    __m128i bits = _mm_cvtsi32_si128(shift);
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i lo, hi;
        sums256(source + i, tapStride, pairs, radius, &lo, &hi);
        __m256i packed = _mm256_packs_epi32(_mm256_sra_epi32(_mm256_add_epi32(lo, half), bits),
                                            _mm256_sra_epi32(_mm256_add_epi32(hi, half), bits));
        _mm256_storeu_si256((__m256i *)(out + i), packed);
    }
    return i;
}

__attribute__((target("avx2")))
static int to_float_256(const int16_t *source, ptrdiff_t tapStride, const int32_t *pairs, int radius,
                        int count, float scale, float *out) {
    __m256 s = _mm256_set1_ps(scale);
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i lo, hi;
        sums256(source + i, tapStride, pairs, radius, &lo, &hi);
        __m256 l = _mm256_mul_ps(_mm256_cvtepi32_ps(lo), s), h = _mm256_mul_ps(_mm256_cvtepi32_ps(hi), s);
        _mm256_storeu_ps(out + i, _mm256_permute2f128_ps(l, h, 0x20));
        _mm256_storeu_ps(out + i + 8, _mm256_permute2f128_ps(l, h, 0x31));
    }
    return i;
}

__attribute__((target("avx2")))
static int to_codes_256(const int16_t *source, ptrdiff_t tapStride, const int32_t *pairs, int radius, int count, int shift,
                        uint8_t *out) {
    __m256i half = _mm256_set1_epi32((int32_t)1 << (shift - 1));
    __m128i bits = _mm_cvtsi32_si128(shift);
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i lo, hi;
        sums256(source + i, tapStride, pairs, radius, &lo, &hi);
        // int16 in order (the pack undoes the unpack), then bytes with unsigned saturation (0 ... 255,
        // as the portable clamp): packus works per 128-bit lane, so qwords 0 and 2 hold the 16 codes.
        __m256i packed = _mm256_packs_epi32(_mm256_sra_epi32(_mm256_add_epi32(lo, half), bits),
                                            _mm256_sra_epi32(_mm256_add_epi32(hi, half), bits));
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(packed, packed), 0x08);
        _mm_storeu_si128((__m128i *)(out + i), _mm256_castsi256_si128(bytes));
    }
    return i;
}

/// 64 RGB pixels a step from three planes: each 64-byte block of the output picks its bytes from
/// red and green (one two-table byte permute) and from blue (a byte permute), blended (AVX-512 VBMI).
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static int interleave8_rgb_512(const uint8_t *r, const uint8_t *g, const uint8_t *b, int count, uint8_t *out) {
    uint8_t fromRG[3][64], fromB[3][64];
    uint64_t blue[3] = {0, 0, 0};
    // Output byte t of block k is channel c = (64k + t) % 3 of pixel (64k + t) / 3.
    for (int k = 0; k < 3; k++)
        for (int t = 0; t < 64; t++) {
            int at = 64 * k + t, pixel = at / 3, channel = at % 3;
            fromRG[k][t] = (uint8_t)(channel == 1 ? 64 + pixel : pixel);
            fromB[k][t] = (uint8_t)pixel;
            if (channel == 2) blue[k] |= (uint64_t)1 << t;
        }
    __m512i rg[3], bb[3];
    for (int k = 0; k < 3; k++) {
        rg[k] = _mm512_loadu_si512((const void *)fromRG[k]);
        bb[k] = _mm512_loadu_si512((const void *)fromB[k]);
    }
    int i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512i vr = _mm512_loadu_si512((const void *)(r + i)), vg = _mm512_loadu_si512((const void *)(g + i));
        __m512i vb = _mm512_loadu_si512((const void *)(b + i));
        for (int k = 0; k < 3; k++)
            _mm512_storeu_si512((void *)(out + 3 * i + 64 * k),
                                _mm512_mask_blend_epi8(blue[k], _mm512_permutex2var_epi8(vr, rg[k], vg),
                                                       _mm512_permutexvar_epi8(bb[k], vb)));
    }
    return i;
}

/// Eight 4-byte pixels a step (alpha 255), red and blue at the byte shifts given.
__attribute__((target("avx2")))
static int interleave8_quad_256(const uint8_t *r, const uint8_t *g, const uint8_t *b, int count, int redIndex,
                                int blueIndex, uint8_t *out) {
    __m128i redShift = _mm_cvtsi32_si128(8 * redIndex), blueShift = _mm_cvtsi32_si128(8 * blueIndex);
    const __m256i alpha = _mm256_set1_epi32((int32_t)0xFF000000u);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i vr = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(r + i)));
        __m256i vg = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(g + i)));
        __m256i vb = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(b + i)));
        __m256i packed = _mm256_or_si256(_mm256_or_si256(_mm256_sll_epi32(vr, redShift), _mm256_slli_epi32(vg, 8)),
                                         _mm256_or_si256(_mm256_sll_epi32(vb, blueShift), alpha));
        _mm256_storeu_si256((__m256i *)(out + 4 * i), packed);
    }
    return i;
}

__attribute__((target("avx2")))
static int float_to_code16_256(const float *in, int count, int16_t *out) {
    const __m256 top = _mm256_set1_ps(255.0f), zero = _mm256_setzero_ps();
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        // max(x, 0) gives 0 for NaN (the second operand), as the portable loop.
        __m256 a = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_loadu_ps(in + i), top), zero), top);
        __m256 b = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_loadu_ps(in + i + 8), top), zero), top);
        __m256i packed = _mm256_packs_epi32(_mm256_cvtps_epi32(a), _mm256_cvtps_epi32(b));
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_permute4x64_epi64(packed, 0xD8));
    }
    return i;
}

/// Byte shuffles picking, for 16 RGB pixels (48 bytes in three 16-byte blocks), channel c's bytes
/// from block k: masks[3c + k] (−1: none from that block).
static const int8_t rgb_masks[9][16] = {
        {0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, 4, 7, 10, 13},
        {1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 5, 8, 11, 14},
        {2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, 1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 3, 6, 9, 12, 15},
};

__attribute__((target("avx2")))
static int unpack8_codes_rgb_avx2(const uint8_t *pixels, int count, int16_t *r, int16_t *g, int16_t *b) {
    __m128i m[9];
    for (int k = 0; k < 9; k++) m[k] = _mm_loadu_si128((const __m128i *)rgb_masks[k]);
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        const uint8_t *p = pixels + 3 * i;
        __m128i a0 = _mm_loadu_si128((const __m128i *)p), a1 = _mm_loadu_si128((const __m128i *)(p + 16));
        __m128i a2 = _mm_loadu_si128((const __m128i *)(p + 32));
        int16_t *out[3] = {r, g, b};
        for (int c = 0; c < 3; c++) {
            __m128i bytes = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a0, m[3 * c]), _mm_shuffle_epi8(a1, m[3 * c + 1])),
                                         _mm_shuffle_epi8(a2, m[3 * c + 2]));
            _mm256_storeu_si256((__m256i *)(out[c] + i), _mm256_cvtepu8_epi16(bytes));
        }
    }
    return i;
}

/// 64 RGB pixels (192 bytes in three vectors) a step: each channel's bytes picked from the first two
/// vectors and from the last two by byte permutes (AVX-512 VBMI), blended, widened to 16 bits.
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static int unpack8_codes_rgb_512(const uint8_t *pixels, int count, int16_t *r, int16_t *g, int16_t *b) {
    uint8_t first[3][64], second[3][64];
    // Pixel i's channel c is byte 3i + c: from (vector 0, vector 1) below 128, else from (vector 1, vector 2).
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 64; i++) {
            int at = 3 * i + c;
            first[c][i] = (uint8_t)(at < 128 ? at : 0);
            second[c][i] = (uint8_t)(at >= 64 ? at - 64 : 0);
        }
    __m512i low[3], high[3];
    for (int c = 0; c < 3; c++) {
        low[c] = _mm512_loadu_si512((const void *)first[c]);
        high[c] = _mm512_loadu_si512((const void *)second[c]);
    }
    int16_t *out[3] = {r, g, b};
    int i = 0;
    for (; i + 64 <= count; i += 64) {
        const uint8_t *p = pixels + 3 * i;
        __m512i a0 = _mm512_loadu_si512((const void *)p), a1 = _mm512_loadu_si512((const void *)(p + 64));
        __m512i a2 = _mm512_loadu_si512((const void *)(p + 128));
        for (int c = 0; c < 3; c++) {
            // Lanes whose byte is at 128 or beyond: pixels i with 3i + c ≥ 128.
            const __mmask64 late = ~(__mmask64)0 << ((128 - c + 2) / 3);
            __m512i bytes = _mm512_mask_blend_epi8(late, _mm512_permutex2var_epi8(a0, low[c], a1),
                                                   _mm512_permutex2var_epi8(a1, high[c], a2));
            _mm512_storeu_si512((void *)(out[c] + i), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes)));
            _mm512_storeu_si512((void *)(out[c] + i + 32), _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(bytes, 1)));
        }
    }
    return i;
}

void graph_symmetric_convolve_to_int16(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                       int count, int shift, int16_t *out) {
    int radius = tapCount / 2, done = 0;
    int32_t pairs[radius / 2 + 1];
    pair_weights(weights, radius, pairs);
    if (graph_cpu_has_avx512_dot_products()) done = to_int16_512(source, tapStride, pairs, radius, count, shift, out);
    if (graph_cpu_has_avx2())
        done += to_int16_256(source + done, tapStride, pairs, radius, count - done, shift, out + done);
    graph_symmetric_convolve_to_int16_portable(source + done, tapStride, weights, tapCount, count - done, shift, out + done);
}

void graph_symmetric_convolve_to_float(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                       int count, float scale, float *out) {
    int radius = tapCount / 2, done = 0;
    int32_t pairs[radius / 2 + 1];
    pair_weights(weights, radius, pairs);
    if (graph_cpu_has_avx512_dot_products()) done = to_float_512(source, tapStride, pairs, radius, count, scale, out);
    if (graph_cpu_has_avx2())
        done += to_float_256(source + done, tapStride, pairs, radius, count - done, scale, out + done);
    graph_symmetric_convolve_to_float_portable(source + done, tapStride, weights, tapCount, count - done, scale, out + done);
}

void graph_symmetric_convolve_columns_to_float(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, float scale, float *out,
                                               ptrdiff_t outStride) {
    int radius = tapCount / 2;
    int32_t pairs[radius / 2 + 1];
    pair_weights(weights, radius, pairs);
    if (graph_cpu_has_avx512_dot_products() && width >= 32) {
        columns512(source, sourceStride, pairs, radius, width, rows, COLUMNS_FLOAT, scale, 0, out, outStride);
        return;
    }
    int wide = graph_cpu_has_avx512_dot_products(), avx2 = graph_cpu_has_avx2();
    for (int x = 0; x < width; x += 64) {
        int count = width - x < 64 ? width - x : 64;
        for (int y = 0; y < rows; y++) {
            const int16_t *s = source + y * sourceStride + x;
            float *o = out + y * outStride + x;
            int done = wide ? to_float_512(s, sourceStride, pairs, radius, count, scale, o) : 0;
            if (avx2) done += to_float_256(s + done, sourceStride, pairs, radius, count - done, scale, o + done);
            graph_symmetric_convolve_to_float_portable(s + done, sourceStride, weights, tapCount, count - done, scale, o + done);
        }
    }
}

void graph_symmetric_convolve_columns_to_codes(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, int shift, uint8_t *out,
                                               ptrdiff_t outStride) {
    int radius = tapCount / 2;
    int32_t pairs[radius / 2 + 1];
    pair_weights(weights, radius, pairs);
    if (graph_cpu_has_avx512_dot_products() && width >= 32) {
        columns512(source, sourceStride, pairs, radius, width, rows, COLUMNS_CODES, 0, shift, out, outStride);
        return;
    }
    int avx2 = graph_cpu_has_avx2();
    for (int y = 0; y < rows; y++) {
        const int16_t *s = source + y * sourceStride;
        uint8_t *o = out + y * outStride;
        int done = avx2 ? to_codes_256(s, sourceStride, pairs, radius, width, shift, o) : 0;
        graph_symmetric_convolve_to_codes_portable(s + done, sourceStride, weights, tapCount, width - done, shift, o + done);
    }
}

void graph_symmetric_convolve_columns_to_int16(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, int shift, int16_t *out,
                                               ptrdiff_t outStride) {
    int radius = tapCount / 2;
    int32_t pairs[radius / 2 + 1];
    pair_weights(weights, radius, pairs);
    if (graph_cpu_has_avx512_dot_products() && width >= 32) {
        columns512(source, sourceStride, pairs, radius, width, rows, COLUMNS_INT16, 0, shift, out, outStride);
        return;
    }
    for (int y = 0; y < rows; y++)
        graph_symmetric_convolve_to_int16(source + y * sourceStride, sourceStride, weights, tapCount, width, shift,
                                          out + y * outStride);
}

/// Eight rows of eight int16 values transposed in SSE2 registers (three rounds of unpacks).
__attribute__((target("sse2")))
static inline void transpose16_8x8(const int16_t *in, ptrdiff_t inStride, int16_t *out, ptrdiff_t outStride) {
    __m128i r[8], a[8], b[8];
    for (int k = 0; k < 8; k++) r[k] = _mm_loadu_si128((const __m128i *)(in + k * inStride));
    for (int k = 0; k < 4; k++) {
        a[2 * k] = _mm_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = _mm_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 2; k++)
        for (int h = 0; h < 2; h++) {
            b[4 * k + 2 * h] = _mm_unpacklo_epi32(a[4 * k + h], a[4 * k + h + 2]);
            b[4 * k + 2 * h + 1] = _mm_unpackhi_epi32(a[4 * k + h], a[4 * k + h + 2]);
        }
    // b[0..3]: rows 0-3 interleaved for columns 0-1, 2-3, 4-5, 6-7; b[4..7] the same for rows 4-7.
    for (int k = 0; k < 4; k++) {
        _mm_storeu_si128((__m128i *)(out + 2 * k * outStride), _mm_unpacklo_epi64(b[k], b[k + 4]));
        _mm_storeu_si128((__m128i *)(out + (2 * k + 1) * outStride), _mm_unpackhi_epi64(b[k], b[k + 4]));
    }
}

/// Sixteen rows of sixteen int16 values transposed in AVX2 registers: each 128-bit half does the
/// 8×8 transpose above (rows 0–7 and 8–15 apart; low halves columns 0–7, high halves 8–15), and
/// one lane permute joins the two row groups of every output row.
__attribute__((target("avx2")))
static inline void transpose16_16x16(const int16_t *in, ptrdiff_t inStride, int16_t *out, ptrdiff_t outStride) {
    __m256i c[2][8];
    for (int group = 0; group < 2; group++) {
        __m256i r[8], a[8], b[8];
        for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_si256((const __m256i *)(in + (8 * group + k) * inStride));
        for (int k = 0; k < 4; k++) {
            a[2 * k] = _mm256_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
            a[2 * k + 1] = _mm256_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
        }
        for (int k = 0; k < 2; k++)
            for (int h = 0; h < 2; h++) {
                b[4 * k + 2 * h] = _mm256_unpacklo_epi32(a[4 * k + h], a[4 * k + h + 2]);
                b[4 * k + 2 * h + 1] = _mm256_unpackhi_epi32(a[4 * k + h], a[4 * k + h + 2]);
            }
        for (int k = 0; k < 4; k++) {
            c[group][2 * k] = _mm256_unpacklo_epi64(b[k], b[k + 4]);
            c[group][2 * k + 1] = _mm256_unpackhi_epi64(b[k], b[k + 4]);
        }
    }
    for (int j = 0; j < 8; j++) {
        _mm256_storeu_si256((__m256i *)(out + j * outStride), _mm256_permute2x128_si256(c[0][j], c[1][j], 0x20));
        _mm256_storeu_si256((__m256i *)(out + (8 + j) * outStride), _mm256_permute2x128_si256(c[0][j], c[1][j], 0x31));
    }
}

void graph_transpose16(const int16_t *in, ptrdiff_t inStride, int rows, int columns, int16_t *out, ptrdiff_t outStride) {
    int y = 0;
    if (graph_cpu_has_avx2())
        for (; y + 16 <= rows; y += 16) {
            int x = 0;
            for (; x + 16 <= columns; x += 16)
                transpose16_16x16(in + y * inStride + x, inStride, out + x * outStride + y, outStride);
            for (; x + 8 <= columns; x += 8) {
                transpose16_8x8(in + y * inStride + x, inStride, out + x * outStride + y, outStride);
                transpose16_8x8(in + (y + 8) * inStride + x, inStride, out + x * outStride + y + 8, outStride);
            }
            for (; x < columns; x++)
                for (int k = 0; k < 16; k++) out[x * outStride + y + k] = in[(y + k) * inStride + x];
        }
    for (; y + 8 <= rows; y += 8) {
        int x = 0;
        for (; x + 8 <= columns; x += 8) transpose16_8x8(in + y * inStride + x, inStride, out + x * outStride + y, outStride);
        for (; x < columns; x++)
            for (int k = 0; k < 8; k++) out[x * outStride + y + k] = in[(y + k) * inStride + x];
    }
    for (; y < rows; y++)
        for (int x = 0; x < columns; x++) out[x * outStride + y] = in[y * inStride + x];
}

void graph_interleave8_row(const uint8_t *r, const uint8_t *g, const uint8_t *b, int count, int channels, int redIndex,
                           int blueIndex, uint8_t *out) {
    int done = 0;
    if (channels == 3 && redIndex == 0 && blueIndex == 2 && graph_cpu_has_avx512_byte_permutes()) done = interleave8_rgb_512(r, g, b, count, out);
    if (channels == 4 && graph_cpu_has_avx2()) done = interleave8_quad_256(r, g, b, count, redIndex, blueIndex, out);
    interleave8_portable(r + done, g + done, b + done, count - done, channels, redIndex, blueIndex, out + channels * done);
}

void graph_unpack8_codes_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, int count, int16_t *r,
                             int16_t *g, int16_t *b) {
    int rgb = channels == 3 && redIndex == 0 && blueIndex == 2, done = 0;
    if (rgb && graph_cpu_has_avx512_byte_permutes()) done = unpack8_codes_rgb_512(pixels, count, r, g, b);
    if (rgb && graph_cpu_has_avx2())
        done += unpack8_codes_rgb_avx2(pixels + 3 * done, count - done, r + done, g + done, b + done);
    unpack8_codes_portable(pixels + channels * done, channels, redIndex, blueIndex, count - done, r + done, g + done,
                           b + done);
}

void graph_float_to_code16(const float *in, int count, int16_t *out) {
    int done = graph_cpu_has_avx2() ? float_to_code16_256(in, count, out) : 0;
    float_to_code16_portable(in + done, count - done, out + done);
}
#else
void graph_symmetric_convolve_to_int16(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                       int count, int shift, int16_t *out) {
    graph_symmetric_convolve_to_int16_portable(source, tapStride, weights, tapCount, count, shift, out);
}

void graph_symmetric_convolve_to_float(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                       int count, float scale, float *out) {
    graph_symmetric_convolve_to_float_portable(source, tapStride, weights, tapCount, count, scale, out);
}

void graph_symmetric_convolve_columns_to_float(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, float scale, float *out,
                                               ptrdiff_t outStride) {
    for (int y = 0; y < rows; y++)
        graph_symmetric_convolve_to_float_portable(source + y * sourceStride, sourceStride, weights, tapCount, width, scale,
                                                   out + y * outStride);
}

void graph_unpack8_codes_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, int count, int16_t *r,
                             int16_t *g, int16_t *b) {
    unpack8_codes_portable(pixels, channels, redIndex, blueIndex, count, r, g, b);
}

void graph_symmetric_convolve_columns_to_codes(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, int shift, uint8_t *out,
                                               ptrdiff_t outStride) {
    for (int y = 0; y < rows; y++)
        graph_symmetric_convolve_to_codes_portable(source + y * sourceStride, sourceStride, weights, tapCount, width, shift,
                                                   out + y * outStride);
}

void graph_interleave8_row(const uint8_t *r, const uint8_t *g, const uint8_t *b, int count, int channels, int redIndex,
                           int blueIndex, uint8_t *out) {
    interleave8_portable(r, g, b, count, channels, redIndex, blueIndex, out);
}

void graph_symmetric_convolve_columns_to_int16(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, int shift, int16_t *out,
                                               ptrdiff_t outStride) {
    for (int y = 0; y < rows; y++)
        graph_symmetric_convolve_to_int16_portable(source + y * sourceStride, sourceStride, weights, tapCount, width, shift,
                                                   out + y * outStride);
}

void graph_transpose16(const int16_t *in, ptrdiff_t inStride, int rows, int columns, int16_t *out, ptrdiff_t outStride) {
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < columns; x++) out[x * outStride + y] = in[y * inStride + x];
}

void graph_float_to_code16(const float *in, int count, int16_t *out) { float_to_code16_portable(in, count, out); }
#endif
