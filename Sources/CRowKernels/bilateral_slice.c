// The per-pixel slice of the joint bilateral upsample's grid: two luma levels, two grid columns,
// every plane, then N/D. The grid rows are interleaved by plane, so each pixel reads two runs of
// 2·planes contiguous floats (no gathers), and the plane loop vectorises.
#include "CBilateralSlice.h"

#pragma clang fp contract(off)

void graph_bilateral_slice_row(const float *rows, int planeWidth, int planes, int levels, const float *luma,
                               const int32_t *columns, const float *fractions, int count, float *out, int outStride,
                               float *weights) {
    const float top = (float)(levels - 1);
    const ptrdiff_t levelStride = (ptrdiff_t)planeWidth * planes;
    for (int x = 0; x < count; x++) {
        float l = luma[x];
        l = l > 0 ? l : 0;   // NaN reads as 0
        l = l < 1 ? l : 1;
        l = l * top;
        int k = (int)l;
        if (k > levels - 2) k = levels - 2;
        const float fk = l - (float)k, fx = fractions[x];
        const float *a = rows + k * levelStride + (ptrdiff_t)columns[x] * planes, *b = a + levelStride;
        float v[8];
        for (int p = 0; p < planes; p++) {
            const float lo = a[p] + fx * (a[planes + p] - a[p]);
            const float hi = b[p] + fx * (b[planes + p] - b[p]);
            v[p] = lo + fk * (hi - lo);
        }
        const float d = v[planes - 1], inverse = 1.0f / d;
        weights[x] = d;
        for (int p = 0; p < planes - 1; p++) out[(ptrdiff_t)p * outStride + x] = v[p] * inverse;
    }
}
