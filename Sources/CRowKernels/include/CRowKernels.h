#ifndef GRAPH_CROWKERNELS_H
#define GRAPH_CROWKERNELS_H

// Row kernels whose wide paths need CPU features a package cannot enable with build flags: each
// sits behind a target attribute and a run-time check, with a portable path.

#include <stddef.h>

/// out[i] = sum over k ascending of taps[k] * source[i + k * tapStride], for i in 0..<count.
/// Uses 256-bit AVX when the CPU has it (checked once at run time): separate multiplies and adds
/// in the same order as the portable path, so both give the same bits.
void graph_convolve_row(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                        float *out);

/// The same, always through the portable loop (tests compare the two bit for bit).
void graph_convolve_row_portable(const float *source, ptrdiff_t tapStride, const float *taps, int tapCount, int count,
                                 float *out);

#include "CYUVRows.h"
#include "CYUVToRGBA8.h"
#include "CPowSpan.h"
#include "CLookup3D.h"
#include "CBilateralSlice.h"
#include "CResampleColumns.h"

#endif
