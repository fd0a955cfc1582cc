#ifndef GRAPH_CBILATERALSLICE_H
#define GRAPH_CBILATERALSLICE_H

#include <stddef.h>
#include <stdint.h>

/// One output row of a bilateral-grid slice (the joint bilateral upsample), reading the grid cells
/// directly. The grid holds `planes` values per cell, interleaved: level k, grid row j, grid column i,
/// plane p at grid[k·levelStride + j·rowStride + i·planes + p], the last plane the weight D, the
/// others the weighted values N; `grid` points at the output row's lower grid row j, and `fy` is the
/// row's fraction towards j + 1. For x < count:
///   l = clamp(luma[x], 0, 1)·(levels − 1) (NaN reads as 0), k = min(⌊l⌋, levels − 2), fk = l − k,
///   i = columns[x], fx = fractions[x];
///   rows first: a(k', i') = lerp(c(k', j, i'), c(k', j + 1, i'), fy), then levels:
///   b(i') = lerp(a(k, i'), a(k + 1, i'), fk), then columns: v_p = lerp(b(i), b(i + 1), fx);
///   weights[x] = v_D and out[p·outStride + x] = v_p · (1 / v_D) for p < planes − 1,
/// with lerp(a, b, t) = a + t·(b − a) and no fused multiply-adds, so every plane count gives the
/// same bits for the same plane values (a grey grid of 2 planes equals the red plane of 5).
/// `planes` is 2 to 5.
void graph_bilateral_slice_row(const float *grid, ptrdiff_t levelStride, ptrdiff_t rowStride, int planes, int levels,
                               float fy, const float *luma, const int32_t *columns, const float *fractions, int count,
                               float *out, ptrdiff_t outStride, float *weights);

/// The bilateral grid of a small image, blurred, built row by row: for the `width`×`height` samples
/// (rows contiguous), guide g = guide[y·width + x] and values v_p = values[p·valueStride + y·width + x]
/// (p < planes − 1), level k (t_k = k/(levels − 1)) gets the range weight
/// w = exp(−(t_k − g)²·rangeScale) (see range_weights: three expf per sample, the rest by
/// products), the splat (w·v_0, …, w·v_{planes−2}, w), and the separable 5×5 spatial blur with
/// taps `spatial[0…4]` (along rows, then across them, each tap sum left to right, no fused
/// multiply-adds), for the samples 2 or more in from every edge (the others are not written).
/// Smaller than 5×5: the splat unblurred everywhere.
///
/// Each call takes the small image's rows `first ..< end` (calls must cover 0, 1, 2, … in order,
/// with the same `scratch`, which carries the rows in progress) and writes every grid row they
/// finish: row r (r = y − 2 once row y ≥ 4 is in; r = y unblurred) of level k at
/// grid[k·levelStride + (r mod 2)·width·planes] and again two rows later, so the grid is a ring of
/// the last two rows with rows r and r + 1 adjacent at position r mod 2 (what a slice reads);
/// levelStride is at least 4·width·planes. `scratch` holds levels·width + (5·levels + 2)·width·planes
/// floats. `levels` is 2 or more.
void graph_bilateral_grid_rows(const float *guide, const float *values, ptrdiff_t valueStride, int planes, int width,
                               int height, int levels, float rangeScale, const float *spatial, int first, int end,
                               float *grid, ptrdiff_t levelStride, float *scratch);

/// The guide luma of the joint bilateral upsample for `count` premultiplied pixels:
/// y = 0.2125·r + 0.7154·g + 0.0721·b (left to right, no fused multiply-adds), divided by a where
/// a > 0 (`a` NULL: opaque), then sRGB-encoded, sign-preserving: |y| ≤ 1 through `encodeTable`
/// (the encode at k/resolution, k = 0…resolution) with linear interpolation, the exact formula
/// 1.055·|y|^(1/2.4) − 0.055 otherwise (NaN stays NaN). Eight pixels at a time with AVX2 gathers
/// when the CPU has them (run-time check); the same bits either way.
void graph_guide_luma_row(const float *r, const float *g, const float *b, const float *a, int count,
                          const float *encodeTable, int resolution, float *out);

/// The portable path of graph_guide_luma_row alone (tests compare the two bit for bit).
void graph_guide_luma_row_portable(const float *r, const float *g, const float *b, const float *a, int count,
                                   const float *encodeTable, int resolution, float *out);

#endif
