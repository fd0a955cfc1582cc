#ifndef GRAPH_CVARIABLEBLEND_H
#define GRAPH_CVARIABLEBLEND_H

#include <stdint.h>

/// One channel of one output row of the masked variable blur's blend (VariableBlurBlend): for
/// x < width, with level l ≥ 1 read bilinearly along the row,
///   level(l) = p[0] + f·(p[1] − p[0]),  p = rows[(l − 1)·rowStride] + columns[(l − 1)·width + x],
///   f = fractions[(l − 1)·width + x],
/// j = chosen[x], a = j == 0 ? sharp[x] : level(j), b = level(j + 1), out[x] = a + blend[x]·(b − a),
/// no fused multiply-adds.
void graph_variable_blend_row(const float *sharp, const float *const *rows, int rowStride, const int64_t *columns,
                              const float *fractions, const int64_t *chosen, const float *blend, int width, float *out);

#endif
