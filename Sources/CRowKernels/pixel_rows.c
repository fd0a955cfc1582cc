// 8-bit pixel rows in and out of Float32 planes with the sRGB transfer (see CPixelRows.h): the
// loads of every 8-bit photo and the stores of every 8-bit output, one loop per channel count; and
// 8-bit rows looked up through per-channel byte tables (the channel lookup of gamma-like programs).
#include "CPixelRows.h"
#include "unorm8.h"

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

void graph_lookup8_rgb_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, const uint8_t *codes, int count,
                           uint8_t *out) {
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
        for (; i < count; i++) {
            out[3 * i] = red[pixels[3 * i]], out[3 * i + 1] = green[pixels[3 * i + 1]], out[3 * i + 2] = blue[pixels[3 * i + 2]];
        }
        return;
    }
    const int greenIndex = channels >= 3 ? 1 : 0;
    if (channels < 3) redIndex = blueIndex = 0;
    for (int i = 0; i < count; i++) {
        const uint8_t *p = pixels + (ptrdiff_t)i * channels;
        out[3 * i] = red[p[redIndex]], out[3 * i + 1] = green[p[greenIndex]], out[3 * i + 2] = blue[p[blueIndex]];
    }
}
