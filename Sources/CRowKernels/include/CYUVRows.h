#ifndef GRAPH_CYUVROWS_H
#define GRAPH_CYUVROWS_H

#include <stdint.h>

/// One row of the program "YCbCr 4:2:0 -> 3-row colour matrix -> RGBA8":
/// for each pixel, c = (luma[i], cb[i], cr[i]) (chroma already upsampled, all in byte units) and
/// channel k = round(clamp(m[4k]·Y + m[4k+1]·Cb + m[4k+2]·Cr + m[4k+3], 0, 255)); alpha 255.
/// `out` is RGBA8, four bytes per pixel (any alignment). AVX2 with FMA when the CPU has them
/// (run-time check), else a portable loop; both round to nearest even, and the fused multiply-adds
/// make the two differ by at most one code.
void graph_yuv_to_rgba8_row(const uint8_t *luma, const float *cb, const float *cr, int count, const float *m,
                            uint8_t *out);

/// The portable loop alone (tests compare the two).
void graph_yuv_to_rgba8_row_portable(const uint8_t *luma, const float *cb, const float *cr, int count,
                                     const float *m, uint8_t *out);

/// Upsampled chroma for luma columns `x0 ..< x0 + count` (count <= 256) of one luma row: the two
/// nearest chroma rows (`*Top`, `*Bottom`, each at column 0; samples `step` bytes apart) blended
/// with weights `w0`, `w1`, then expanded to luma columns with fixed pair weights: left siting
/// (c[k]; (c[k] + c[k+1])/2), centred (c[k-1]/4 + 3c[k]/4; 3c[k]/4 + c[k+1]/4). Columns past the
/// edges repeat the edge. `scratch` holds 2 * (count / 2 + 4) floats.
void graph_yuv_chroma_span(const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop, const uint8_t *crBottom,
                           int step, int chromaWidth, int x0, int count, float w0, float w1, int centred,
                           float *cbOut, float *crOut, float *scratch);

/// One span of the program "4:2:0 frame -> colour matrix -> RGBA8": graph_yuv_chroma_span, then
/// graph_yuv_to_rgba8_row on its output; on AVX2 the expanded chroma stays in registers between
/// the two. `luma` points at column x0; `scratch` holds 2 * (count / 2 + 4) + 2 * count floats.
void graph_yuv_to_rgba8_span(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                             const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, float w0, float w1,
                             int centred, const float *m, uint8_t *out, float *scratch);

#endif
