#ifndef GRAPH_CROWKERNELS_H
#define GRAPH_CROWKERNELS_H

// Row kernels whose wide paths need CPU features a package cannot enable with build flags: each
// sits behind a target attribute and a run-time check, with a portable path.

#include <stddef.h>

/// out[i] = sum over k ascending of taps[k] * source[i + k * tapStride], for i in 0..<count, each
/// term added with a fused multiply-add (sum = fma(taps[k], source[...], sum)). Uses 512-bit
/// AVX-512 or 256-bit AVX2 with FMA when the CPU has them (checked once at run time); the portable
/// path calls fmaf, so every path gives the same bits.
void graph_convolve_row(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                        float *out);

/// `rows` rows of a vertical pass (tapStride = the input's row stride): output row r (at
/// out + r * outStride) is graph_convolve_row(source + r * tapStride, ...), the same bits; four
/// rows at a time share each input row's loads.
void graph_convolve_rows(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count, int rows,
                         float *out, ptrdiff_t outStride);

/// The same, always through the portable loop (tests compare the two bit for bit).
void graph_convolve_row_portable(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                                 float *out);

#include "CYUVRows.h"
#include "CYUVToRGBA8.h"
#include "CPowSpan.h"
#include "CLookup3D.h"
#include "CBilateralSlice.h"
#include "CSpanArithmetic.h"
#include "CResampleColumns.h"
#include "CResampleCodes.h"
#include "CPixelRows.h"
#include "CSymmetricConvolve.h"
#include "CTransferSpan.h"
#include "CTranscendentalSpan.h"
#include "CVariableBlend.h"

#endif
