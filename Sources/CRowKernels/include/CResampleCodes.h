#ifndef GRAPH_CRESAMPLECODES_H
#define GRAPH_CRESAMPLECODES_H

#include <stddef.h>
#include <stdint.h>

// Integer rows of a separable resample (Lanczos, cubic) over 8-bit codes in 16-bit fixed point, as
// libvips' reducev and reduceh work on 8-bit images: weights int16 (each output's summing to a power
// of two), values int16, exact int32 sums taken two taps at a time (vpmaddwd, or vpdpwssd with
// AVX-512 VNNI). The caller keeps every sum within int32 and every result within int16. Integer
// sums are exact, so the AVX-512 VNNI and AVX2 paths (chosen at run time) give the portable loop's
// bits; the float finish is one conversion and one multiply (round to nearest) on every path.

/// The vertical pass: for i < count,
///
///     out[i] = (Σ_{k < tapCount} weights[k]·source[i + k·tapStride] + 2^(shift−1)) >> shift   (shift ≥ 1).
///
/// Reads only the `tapCount` rows.
void graph_weighted_rows_to_int16(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights, int tapCount,
                                  int count, int shift, int16_t *out);

/// The horizontal pass over one row: for output o < count, with `pairs[p·pairStride + o]` holding
/// output o's weights for taps 2p and 2p + 1 (low 16 bits first; zero past its last tap),
///
///     out[o] = (float)(Σ_{p < pairCount} w_lo·source[firsts[o] + 2p] + w_hi·source[firsts[o] + 2p + 1]) · scale.
///
/// Reads source[firsts[o] ... firsts[o] + max(2·pairCount, 64) − 1] for every o (the caller pads
/// the row; the AVX-512 path loads 64 values from the first tap of each group of 16 outputs).
void graph_resample_codes_row(const int16_t *source, const int32_t *firsts, const int32_t *pairs, ptrdiff_t pairStride,
                              int pairCount, int count, float scale, float *out);

/// The portable loops alone (tests compare them with the wide paths bit for bit).
void graph_weighted_rows_to_int16_portable(const int16_t *source, ptrdiff_t tapStride, const int16_t *weights,
                                           int tapCount, int count, int shift, int16_t *out);
void graph_resample_codes_row_portable(const int16_t *source, const int32_t *firsts, const int32_t *pairs,
                                       ptrdiff_t pairStride, int pairCount, int count, float scale, float *out);

#endif
