#ifndef GRAPH_CPIXELROWS_H
#define GRAPH_CPIXELROWS_H

#include <stdint.h>

/// Reads `count` 8-bit pixels of `channels` samples (1 to 4; red and blue at `redIndex` and
/// `blueIndex` for 3 or 4) into planes, colour through `table` (256 floats, a transfer decode):
///   4: r, g, b = table[byte], a = byte · (1/255);  3: r, g, b = table[byte], a = 1;
///   2: r = g = b = table[byte], a = byte · (1/255);  1: r = g = b = table[byte], a = 1.
/// Premultiplying straight alpha is the caller's.
void graph_decode8_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, const float *table, int count,
                       float *r, float *g, float *b, float *a);

/// Writes `count` premultiplied linear pixels as 8-bit sRGB codes of `channels` samples (1 to 4; red
/// and blue at `redIndex` and `blueIndex`; 2 and 4 carry alpha). A colour value v with alpha 1 is
/// table[(int)(clamp(v, 0, 1)·65535 + 0.5)] (`table`: 65536 codes; NaN reads as 0); with alpha
/// a in (0, 1) or above 1 it is unorm8(encode_sRGB(v / a) · a) with encode_sRGB sign-preserving
/// (12.92·x up to 0.0031308, else 1.055·powf(x, 1/2.4) − 0.055); with alpha ≤ 0 or NaN, unorm8(v).
/// unorm8(x) rounds clamp(x · 255, 0, 255) to the nearest code, ties to even. Alpha is unorm8(a).
void graph_encode8_row(const float *r, const float *g, const float *b, const float *a, int count, int channels,
                       int redIndex, int blueIndex, const uint8_t *table, uint8_t *out);

/// Reads `count` 8-bit pixels of `channels` samples (3 or 4; red and blue at `redIndex` and
/// `blueIndex`) into planes as stored: each sample (float)byte · (1.0f/255); alpha 1 for 3 samples.
/// AVX2 eight pixels at a time when the CPU has it, the same bits as the portable loop.
void graph_unpack8_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, int count, float *r, float *g,
                       float *b, float *a);
/// The same, always through the portable loop (tests compare the two).
void graph_unpack8_row_portable(const uint8_t *pixels, int channels, int redIndex, int blueIndex, int count, float *r,
                                float *g, float *b, float *a);

/// Writes `count` pixels as interleaved 8-bit RGB: each sample unorm8(v), the nearest code to
/// clamp(v · 255, 0, 255), ties to even, NaN as 0. AVX2 eight pixels at a time when the CPU has
/// it, the same bytes as the portable loop.
void graph_pack8_rgb_row(const float *r, const float *g, const float *b, int count, uint8_t *out);
/// The same, always through the portable loop (tests compare the two).
void graph_pack8_rgb_row_portable(const float *r, const float *g, const float *b, int count, uint8_t *out);

/// Looks `count` 8-bit pixels of `channels` samples (1 to 4; red, green and blue at `redIndex`, 1
/// and `blueIndex` for 3 or 4, all at 0 for 1 or 2) up into interleaved RGB8: out[3i + c] =
/// codes[256c + sample c of pixel i] (`codes`: the red, green and blue tables, 256 bytes each).
/// In-order RGB goes 64 bytes at a time through AVX-512 VBMI byte permutes when the CPU has them,
/// the same bytes as the portable loop.
void graph_lookup8_rgb_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, const uint8_t *codes, int count,
                           uint8_t *out);
/// The same, always through the portable loops (tests compare the two).
void graph_lookup8_rgb_row_portable(const uint8_t *pixels, int channels, int redIndex, int blueIndex, const uint8_t *codes,
                                    int count, uint8_t *out);

#endif
