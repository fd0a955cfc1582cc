#ifndef GRAPH_CRESAMPLECOLUMNS_H
#define GRAPH_CRESAMPLECOLUMNS_H

#include <stdint.h>

/// `block[i·count + j] = rows[j·rowStride + i]` for j < count, i < length: rows side by side (a
/// 16-row block through AVX-512 transposes where the CPU has it).
void graph_interleave_rows(const float *rows, int rowStride, int count, int length, float *block);

/// The horizontal pass of a resample over a block of rows side by side: `block[i·lanes + j]` is
/// input column i of row j. For output o < count and lane j < lanes:
///   out[j·outStride + o] = Σ_{t < counts[o]}, t ascending, weights[o·weightStride + t] · block[(firsts[o] + t)·lanes + j]
/// (a multiply then an add per tap, no fused multiply-adds). AVX-512 when the CPU has it and lanes is
/// 16, AVX when lanes is a multiple of 8 (run-time checks); the same bits every way.
void graph_resample_columns(const float *block, int lanes, const int32_t *firsts, const int32_t *counts,
                            const float *weights, int weightStride, int count, float *out, int outStride);

/// The same, always through the portable loop (tests compare the two).
void graph_resample_columns_portable(const float *block, int lanes, const int32_t *firsts, const int32_t *counts,
                                     const float *weights, int weightStride, int count, float *out, int outStride);

#endif
