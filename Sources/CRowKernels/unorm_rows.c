// Plain 8-bit RGB(A) rows to and from planar Float32 (no transfer function): the loads of every
// unmanaged 8-bit source and the stores of every 8-bit output (JPEG rows), where the scalar loops
// at three bytes a pixel cost as much as a 19-tap blur. Both directions are exact per sample (a
// conversion and one rounding), so the AVX2 path gives the portable path's bytes.
#include "CPixelRows.h"
#include "unorm8.h"

#include <string.h>

#pragma clang fp contract(off)

static const float unit = 1.0f / 255.0f;

void graph_unpack8_row_portable(const uint8_t *p, int channels, int redIndex, int blueIndex, int count, float *r,
                                float *g, float *b, float *a) {
    for (int i = 0; i < count; i++) {
        const uint8_t *pixel = p + channels * i;
        r[i] = (float)pixel[redIndex] * unit;
        g[i] = (float)pixel[1] * unit;
        b[i] = (float)pixel[blueIndex] * unit;
        a[i] = channels == 4 ? (float)pixel[3] * unit : 1.0f;
    }
}

void graph_pack8_rgb_row_portable(const float *r, const float *g, const float *b, int count, uint8_t *out) {
    for (int i = 0; i < count; i++) {
        out[3 * i] = unorm8(r[i]);
        out[3 * i + 1] = unorm8(g[i]);
        out[3 * i + 2] = unorm8(b[i]);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include "cpu_features.h"

__attribute__((target("avx2"))) static inline __m256 unit8(__m128i bytes) {
    return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes)), _mm256_set1_ps(unit));
}

/// Eight pixels at a time: RGB from 24 bytes (two loads, no read past the row) split by byte
/// shuffles; RGBA from one 32-byte load by shifts.
__attribute__((target("avx2"))) static int unpack8_avx2(const uint8_t *p, int channels, int redIndex, int blueIndex,
                                                         int count, float *r, float *g, float *b, float *a) {
    int i = 0;
    if (channels == 3) {
        // Byte k of the 8 pixels' red, green or blue: from bytes 0-15 (first shuffle) or 16-23 (second).
        const __m128i lowR = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i highR = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i lowG = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i highG = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i lowB = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i highB = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, -1, -1, -1, -1, -1, -1, -1, -1);
        float *first = redIndex == 0 ? r : b, *third = redIndex == 0 ? b : r;
        const __m256 one = _mm256_set1_ps(1.0f);
        for (; i + 8 <= count; i += 8) {
            const __m128i low = _mm_loadu_si128((const __m128i *)(p + 3 * i));
            const __m128i high = _mm_loadl_epi64((const __m128i *)(p + 3 * i + 16));
            _mm256_storeu_ps(first + i, unit8(_mm_or_si128(_mm_shuffle_epi8(low, lowR), _mm_shuffle_epi8(high, highR))));
            _mm256_storeu_ps(g + i, unit8(_mm_or_si128(_mm_shuffle_epi8(low, lowG), _mm_shuffle_epi8(high, highG))));
            _mm256_storeu_ps(third + i, unit8(_mm_or_si128(_mm_shuffle_epi8(low, lowB), _mm_shuffle_epi8(high, highB))));
            _mm256_storeu_ps(a + i, one);
        }
    } else {
        const __m256i mask = _mm256_set1_epi32(0xFF);
        const __m256 scale = _mm256_set1_ps(unit);
        for (; i + 8 <= count; i += 8) {
            const __m256i v = _mm256_loadu_si256((const __m256i *)(p + 4 * i));
            __m256 channel[4];
            for (int k = 0; k < 4; k++)
                channel[k] = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8 * k), mask)), scale);
            _mm256_storeu_ps(r + i, channel[redIndex]);
            _mm256_storeu_ps(g + i, channel[1]);
            _mm256_storeu_ps(b + i, channel[blueIndex]);
            _mm256_storeu_ps(a + i, channel[3]);
        }
    }
    return i;
}

/// Eight pixels at a time: the rounding of unorm8 (max, min, add 1.5·2^23), the codes gathered
/// into 0x00BBGGRR words and packed to 12 bytes per 128-bit half; the last 4 bytes of each 16-byte
/// store are overwritten by the next (so the loop stops 10 pixels before the end).
__attribute__((target("avx2"))) static int pack8_rgb_avx2(const float *r, const float *g, const float *b, int count,
                                                           uint8_t *out) {
    const __m256 scale = _mm256_set1_ps(255.0f), top = _mm256_set1_ps(255.0f), shift = _mm256_set1_ps(12582912.0f);
    const __m256i mask = _mm256_set1_epi32(0xFF);
    const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    int i = 0;
    for (; i + 10 <= count; i += 8) {
        __m256i words = _mm256_setzero_si256();
        const float *channels[3] = {r, g, b};
        for (int k = 0; k < 3; k++) {
            // max(x, 0) gives 0 for NaN (the second operand), as `scaled > 0 ? scaled : 0`.
            const __m256 low = _mm256_max_ps(_mm256_mul_ps(_mm256_loadu_ps(channels[k] + i), scale), _mm256_setzero_ps());
            const __m256 clamped = _mm256_min_ps(low, top);
            const __m256i code = _mm256_and_si256(_mm256_castps_si256(_mm256_add_ps(clamped, shift)), mask);
            words = _mm256_or_si256(words, _mm256_slli_epi32(code, 8 * k));
        }
        const __m256i packed = _mm256_shuffle_epi8(words, pack);
        _mm_storeu_si128((__m128i *)(out + 3 * i), _mm256_castsi256_si128(packed));
        _mm_storeu_si128((__m128i *)(out + 3 * i + 12), _mm256_extracti128_si256(packed, 1));
    }
    return i;
}
#endif

void graph_unpack8_row(const uint8_t *p, int channels, int redIndex, int blueIndex, int count, float *r, float *g,
                       float *b, float *a) {
    int done = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (graph_cpu_has_avx2()) done = unpack8_avx2(p, channels, redIndex, blueIndex, count, r, g, b, a);
#endif
    graph_unpack8_row_portable(p + channels * done, channels, redIndex, blueIndex, count - done, r + done, g + done,
                               b + done, a + done);
}

void graph_pack8_rgb_row(const float *r, const float *g, const float *b, int count, uint8_t *out) {
    int done = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (graph_cpu_has_avx2()) done = pack8_rgb_avx2(r, g, b, count, out);
#endif
    graph_pack8_rgb_row_portable(r + done, g + done, b + done, count - done, out + 3 * done);
}
