#ifndef GRAPH_CBILATERALSLICE_H
#define GRAPH_CBILATERALSLICE_H

#include <stddef.h>
#include <stdint.h>

/// One output row of a bilateral-grid slice (the joint bilateral upsample). `rows` holds, for each
/// luma level k < levels, a grid row of `planeWidth` samples with `planes` values each, interleaved:
/// sample i of level k, plane p at ((k·planeWidth + i)·planes + p) (already blended between the two
/// grid rows around the output row; the last plane is the weight D, the others the weighted values
/// N). For x < count:
///   l = clamp(luma[x], 0, 1)·(levels − 1) (NaN reads as 0), k = min(⌊l⌋, levels − 2), fk = l − k,
///   i = columns[x], fx = fractions[x],
///   v_p = lerp(lerp(k, i, p), lerp(k + 1, i, p), fk) with lerp(k, i, p) = lerp(row(k)[i][p], row(k)[i+1][p], fx),
///   weights[x] = v_D and out[p·outStride + x] = v_p · (1 / v_D) for p < planes − 1,
/// with lerp(a, b, t) = a + t·(b − a) and no fused multiply-adds. `planes` ≤ 8.
void graph_bilateral_slice_row(const float *rows, int planeWidth, int planes, int levels, const float *luma,
                               const int32_t *columns, const float *fractions, int count, float *out, int outStride,
                               float *weights);

#endif
