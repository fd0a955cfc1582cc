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

/// One span of the program "4:2:0 frame -> colour matrix -> RGBA8": the chroma of
/// graph_yuv_chroma_span, then for each pixel (Y byte, Cb, Cr) channel k =
/// round(clamp(m[4k]·Y + m[4k+1]·Cb + m[4k+2]·Cr + m[4k+3], 0, 255)), alpha 255. `luma` points at
/// column x0; `out` is RGBA8 (any alignment); `scratch` holds 2 * (count / 2 + 4) + 2 * count floats.
/// AVX2 with FMA when the CPU has them (run-time check; chroma stays in registers), else a portable
/// loop; the fused multiply-adds make the two differ by at most one code.
void graph_yuv_to_rgba8_span(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0, float w1,
                             int centred, const float *m, uint8_t *out, float *scratch);

/// The portable path of graph_yuv_to_rgba8_span alone (tests compare the two).
void graph_yuv_to_rgba8_span_portable(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                      const uint8_t *crTop, const uint8_t *crBottom, int step, int chromaWidth, int x0,
                                      int count, float w0, float w1, int centred, const float *m, uint8_t *out,
                                      float *scratch);

#endif
