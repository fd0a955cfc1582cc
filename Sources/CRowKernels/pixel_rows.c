// 8-bit pixel rows in and out of Float32 planes with the sRGB transfer (see CPixelRows.h): the
// loads of every 8-bit photo and the stores of every 8-bit output, one loop per channel count; and
// 8-bit rows looked up through per-channel byte tables (the channel lookup of gamma-like programs).
#include "CPixelRows.h"
#include "cpu_features.h"
#include "unorm8.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <math.h>
#include <stddef.h>
#include <string.h>

#pragma clang fp contract(off)

void graph_decode8_row(const uint8_t *p, int channels, int redIndex, int blueIndex, const float *table, int count,
                       float *r, float *g, float *b, float *a) {
    const float unit = 1.0f / 255.0f;
    switch (channels) {
    case 4:
        for (int i = 0; i < count; i++) {
            r[i] = table[p[4 * i + redIndex]];
            g[i] = table[p[4 * i + 1]];
            b[i] = table[p[4 * i + blueIndex]];
            a[i] = (float)p[4 * i + 3] * unit;
        }
        break;
    case 3:
        for (int i = 0; i < count; i++) {
            r[i] = table[p[3 * i + redIndex]];
            g[i] = table[p[3 * i + 1]];
            b[i] = table[p[3 * i + blueIndex]];
        }
        for (int i = 0; i < count; i++) a[i] = 1.0f;
        break;
    case 2:
        for (int i = 0; i < count; i++) {
            r[i] = table[p[2 * i]];
            a[i] = (float)p[2 * i + 1] * unit;
        }
        memmove(g, r, (size_t)count * sizeof(float));
        memmove(b, r, (size_t)count * sizeof(float));
        break;
    default:
        for (int i = 0; i < count; i++) r[i] = table[p[i]];
        memmove(g, r, (size_t)count * sizeof(float));
        memmove(b, r, (size_t)count * sizeof(float));
        for (int i = 0; i < count; i++) a[i] = 1.0f;
        break;
    }
}

static inline float encode_srgb(float x) {
    const float a = fabsf(x);
    const float encoded = a <= 0.0031308f ? a * 12.92f : 1.055f * powf(a, 1.0f / 2.4f) - 0.055f;
    return x < 0 ? -encoded : encoded;
}

static inline uint8_t code(float value, float alpha, const uint8_t *table) {
    if (alpha == 1.0f) {
        const float clamped = value > 0 ? (value < 1 ? value : 1) : 0;
        return table[(int)(clamped * 65535.0f + 0.5f)];
    }
    if (!(alpha > 0)) return unorm8(value);
    return unorm8(encode_srgb(value / alpha) * alpha);
}

void graph_encode8_row(const float *r, const float *g, const float *b, const float *a, int count, int channels,
                       int redIndex, int blueIndex, const uint8_t *table, uint8_t *out) {
    switch (channels) {
    case 4:
        for (int i = 0; i < count; i++) {
            const float alpha = a[i];
            out[4 * i + redIndex] = code(r[i], alpha, table);
            out[4 * i + 1] = code(g[i], alpha, table);
            out[4 * i + blueIndex] = code(b[i], alpha, table);
            out[4 * i + 3] = unorm8(alpha);
        }
        break;
    case 3:
        for (int i = 0; i < count; i++) {
            const float alpha = a[i];
            out[3 * i + redIndex] = code(r[i], alpha, table);
            out[3 * i + 1] = code(g[i], alpha, table);
            out[3 * i + blueIndex] = code(b[i], alpha, table);
        }
        break;
    case 2:
        for (int i = 0; i < count; i++) {
            out[2 * i] = code(r[i], a[i], table);
            out[2 * i + 1] = unorm8(a[i]);
        }
        break;
    default:
        for (int i = 0; i < count; i++) out[i] = code(r[i], a[i], table);
        break;
    }
}

#if defined(__x86_64__)
/// Each byte of `x` through the 256-entry byte table t[0..3] (64 entries each): two 128-entry
/// permutes, picked by each byte's top bit.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static inline __m512i lookup_bytes_vbmi(__m512i x, const __m512i t[4]) {
    __m512i low = _mm512_permutex2var_epi8(t[0], x, t[1]);
    __m512i high = _mm512_permutex2var_epi8(t[2], x, t[3]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), low, high);
}

/// In-order RGB bytes 0 ..< n (byte k through table k mod 3), 64 at a time; returns how many it did
/// (a multiple of 64; the caller finishes the rest). One permute pair per vector when the three
/// tables are the same (a gamma on every channel), three and two blends otherwise.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static int lookup_rgb_vbmi(const uint8_t *pixels, const uint8_t *codes, int n,
                                                                                  uint8_t *out) {
    __m512i tables[3][4];
    for (int c = 0; c < 3; c++) {
        for (int k = 0; k < 4; k++) tables[c][k] = _mm512_loadu_si512(codes + 256 * c + 64 * k);
    }
    int i = 0;
    if (memcmp(codes, codes + 256, 256) == 0 && memcmp(codes, codes + 512, 256) == 0) {
        for (; i + 64 <= n; i += 64) _mm512_storeu_si512(out + i, lookup_bytes_vbmi(_mm512_loadu_si512(pixels + i), tables[0]));
        return i;
    }
    // Byte j of a vector starting at byte k is channel (k + j) mod 3; k mod 3 steps 0, 1, 2 (64 = 1 mod 3).
    // The green and blue lanes of a vector of each phase: bits j with (phase + j) mod 3 = 1, 2.
    const __mmask64 greenLanes[3] = {0x2492492492492492ull, 0x9249249249249249ull, 0x4924924924924924ull};
    const __mmask64 blueLanes[3] = {0x4924924924924924ull, 0x2492492492492492ull, 0x9249249249249249ull};
    int phase = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i x = _mm512_loadu_si512(pixels + i);
        __m512i result = lookup_bytes_vbmi(x, tables[0]);
        result = _mm512_mask_blend_epi8(greenLanes[phase], result, lookup_bytes_vbmi(x, tables[1]));
        result = _mm512_mask_blend_epi8(blueLanes[phase], result, lookup_bytes_vbmi(x, tables[2]));
        _mm512_storeu_si512(out + i, result);
        phase = phase == 2 ? 0 : phase + 1;
    }
    return i;
}
#endif

/// In-order RGB bytes `from` ..< n: byte k through table k mod 3.
static void lookup_rgb_bytes(const uint8_t *pixels, const uint8_t *codes, int from, int n, uint8_t *out) {
    for (int k = from; k < n; k++) out[k] = codes[256 * (k % 3) + pixels[k]];
}

void graph_lookup8_rgb_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, const uint8_t *codes, int count,
                           uint8_t *out) {
    if (channels == 3 && redIndex == 0) {
        int done = 0;
#if defined(__x86_64__)
        if (graph_cpu_has_avx512_byte_permutes()) done = lookup_rgb_vbmi(pixels, codes, 3 * count, out);
#endif
        lookup_rgb_bytes(pixels, codes, done, 3 * count, out);
        return;
    }
    graph_lookup8_rgb_row_portable(pixels, channels, redIndex, blueIndex, codes, count, out);
}

void graph_lookup8_rgb_row_portable(const uint8_t *pixels, int channels, int redIndex, int blueIndex, const uint8_t *codes,
                                    int count, uint8_t *out) {
    const uint8_t *red = codes, *green = codes + 256, *blue = codes + 512;
    if (channels == 3 && redIndex == 0) {
        // RGB in order: byte k of the row goes through table k mod 3, four pixels a step.
        int i = 0;
        for (; i + 4 <= count; i += 4) {
            const uint8_t *p = pixels + 3 * i;
            uint8_t *o = out + 3 * i;
            o[0] = red[p[0]], o[1] = green[p[1]], o[2] = blue[p[2]];
            o[3] = red[p[3]], o[4] = green[p[4]], o[5] = blue[p[5]];
            o[6] = red[p[6]], o[7] = green[p[7]], o[8] = blue[p[8]];
            o[9] = red[p[9]], o[10] = green[p[10]], o[11] = blue[p[11]];
        }
        lookup_rgb_bytes(pixels, codes, 3 * i, 3 * count, out);
        return;
    }
    const int greenIndex = channels >= 3 ? 1 : 0;
    if (channels < 3) redIndex = blueIndex = 0;
    for (int i = 0; i < count; i++) {
        const uint8_t *p = pixels + (ptrdiff_t)i * channels;
        out[3 * i] = red[p[redIndex]], out[3 * i + 1] = green[p[greenIndex]], out[3 * i + 2] = blue[p[blueIndex]];
    }
}
