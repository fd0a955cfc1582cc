// The per-pixel blend of CIMaskedVariableBlur's levels (see CVariableBlend.h): two bilinear reads
// and a mix per pixel, in a plain loop (the Swift closure it replaces checked every index).
#include "CVariableBlend.h"

#include <stddef.h>

#pragma clang fp contract(off)

static inline float level(const float *const *rows, int rowStride, const int64_t *columns, const float *fractions, int width,
                          int64_t l, int x) {
    const ptrdiff_t k = (ptrdiff_t)(l - 1) * width + x;
    const float *p = rows[(l - 1) * rowStride] + columns[k];
    return p[0] + fractions[k] * (p[1] - p[0]);
}

void graph_variable_blend_row(const float *sharp, const float *const *rows, int rowStride, const int64_t *columns,
                              const float *fractions, const int64_t *chosen, const float *blend, int width, float *out) {
    for (int x = 0; x < width; x++) {
        const int64_t j = chosen[x];
        const float a = j == 0 ? sharp[x] : level(rows, rowStride, columns, fractions, width, j, x);
        const float b = level(rows, rowStride, columns, fractions, width, j + 1, x);
        out[x] = a + blend[x] * (b - a);
    }
}
