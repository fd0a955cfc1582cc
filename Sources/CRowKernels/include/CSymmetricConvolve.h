#ifndef GRAPH_CSYMMETRICCONVOLVE_H
#define GRAPH_CSYMMETRICCONVOLVE_H

#include <stddef.h>
#include <stdint.h>

// Integer rows of a separable blur with a symmetric kernel (the Gaussian over 8-bit codes): taps
// W[0 ..< 2R+1] with W[k] = W[2R−k], values and weights int16. Each output is the exact int32 sum
//
//     acc(i) = W[R]·s(i + R) + Σ_{k<R} W[k]·(s(i + k) + s(i + 2R − k)),   s(j) = source[j·tapStride],
//
// (pairs of taps folded before the multiply: half the multiplies). The caller keeps the sum in
// range: every value times the weights' sum below 2^31, and s(a) + s(b) below 2^15. Integer sums
// are exact, so the AVX-512 VNNI and AVX2 paths (chosen at run time) give the portable loop's
// bits; the float finish is one conversion and one multiply (round to nearest), the same on every path.

/// out[i] = (acc(i) + 2^(shift−1)) >> shift for i < count (shift ≥ 1), the result in int16 range.
void graph_symmetric_convolve_to_int16(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                       int count, int shift, int16_t *out);

/// out[i] = (float)acc(i) · scale for i < count.
void graph_symmetric_convolve_to_float(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                       int count, float scale, float *out);

/// `rows` rows of a vertical pass (tapStride = sourceStride): output row y (at out + y·outStride) is
/// graph_symmetric_convolve_to_float(source + y·sourceStride, ...), the same bits, computed a column
/// block at a time down all the rows (the taps' rows of a block stay in the L1 cache); with AVX-512
/// VNNI 32 columns and four rows at once (each source row loaded once for the four).
void graph_symmetric_convolve_columns_to_float(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, float scale, float *out,
                                               ptrdiff_t outStride);

/// `rows` rows of a vertical pass (tapStride = sourceStride) as 8-bit codes: output row y (at
/// out + y·outStride) is graph_symmetric_convolve_to_codes_portable(source + y·sourceStride, ...),
/// the same bytes; with AVX-512 VNNI 32 columns down all the rows, four rows at a time (each
/// source row loaded once for the four).
void graph_symmetric_convolve_columns_to_codes(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, int shift, uint8_t *out,
                                               ptrdiff_t outStride);

/// `rows` rows of a vertical pass (tapStride = sourceStride) as int16: output row y (at
/// out + y·outStride) is graph_symmetric_convolve_to_int16(source + y·sourceStride, ...), the same
/// values (with AVX-512 VNNI four rows at a time). The horizontal pass of a transposed tile.
void graph_symmetric_convolve_columns_to_int16(const int16_t *source, ptrdiff_t sourceStride, const int16_t *weights,
                                               int tapCount, int width, int rows, int shift, int16_t *out,
                                               ptrdiff_t outStride);

/// out[x·outStride + y] = in[y·inStride + x] for y < rows, x < columns (AVX2 16×16 blocks where the
/// CPU has it, SSE2 8×8 blocks on x86-64).
void graph_transpose16(const int16_t *in, ptrdiff_t inStride, int rows, int columns, int16_t *out, ptrdiff_t outStride);

/// `count` pixels of `channels` bytes (3, or 4 with alpha 255) from three planes of codes, red and
/// blue at the indices given: AVX-512 VBMI 64 RGB pixels a step, AVX2 eight 4-byte pixels.
void graph_interleave8_row(const uint8_t *r, const uint8_t *g, const uint8_t *b, int count, int channels, int redIndex,
                           int blueIndex, uint8_t *out);

/// The portable loops alone (tests compare them with the wide paths bit for bit).
void graph_symmetric_convolve_to_int16_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                                int tapCount, int count, int shift, int16_t *out);
void graph_symmetric_convolve_to_float_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                                int tapCount, int count, float scale, float *out);
/// out[i] = clamp((acc(i) + 2^(shift−1)) >> shift, 0, 255) for i < count (shift ≥ 1).
void graph_symmetric_convolve_to_codes_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                                int tapCount, int count, int shift, uint8_t *out);

/// out[i] = the 8-bit code nearest 255·in[i], clamped to 0 ... 255 (exact for in[i] = c/255 as
/// a float: the codes of an 8-bit image loaded as floats).
void graph_float_to_code16(const float *in, int count, int16_t *out);

/// The red, green and blue codes of `count` interleaved 8-bit pixels (`channels` 3 or 4 bytes
/// each, red and blue at the indices given) as Int16 rows.
void graph_unpack8_codes_row(const uint8_t *pixels, int channels, int redIndex, int blueIndex, int count, int16_t *r,
                             int16_t *g, int16_t *b);

#endif
