#ifndef GRAPH_CYUVROWS_H
#define GRAPH_CYUVROWS_H

#include <stdint.h>

/// Upsampled chroma for luma columns `x0 ..< x0 + count` (count <= 256) of one luma row: the two
/// nearest chroma rows (`*Top`, `*Bottom`, each at column 0; samples `step` bytes apart) blended
/// with weights `w0`, `w1`, then expanded to luma columns with fixed pair weights: left siting
/// (c[k]; (c[k] + c[k+1])/2), centred (c[k-1]/4 + 3c[k]/4; 3c[k]/4 + c[k+1]/4). Columns past the
/// edges repeat the edge. `scratch` holds 2 * (count / 2 + 4) floats.
void graph_yuv_chroma_span(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom,
                           int step, int chromaWidth, int x0, int count, float w0, float w1, int centred,
                           float *cbOut, float *crOut, float *scratch);

#endif
