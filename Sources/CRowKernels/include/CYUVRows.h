#ifndef GRAPH_CYUVROWS_H
#define GRAPH_CYUVROWS_H

#include <stdint.h>

/// One row of the program "YCbCr 4:2:0 -> 3-row colour matrix -> RGBA8":
/// for each pixel, c = (luma[i], cb[i], cr[i]) (chroma already upsampled, all in byte units) and
/// channel k = round(clamp(m[4k]·Y + m[4k+1]·Cb + m[4k+2]·Cr + m[4k+3], 0, 255)); alpha 255.
/// `out` is RGBA8, four bytes per pixel (any alignment). AVX2 when the CPU has it (run-time check),
/// else a portable loop; both round to nearest even.
void graph_yuv_to_rgba8_row(const uint8_t *luma, const float *cb, const float *cr, int count, const float *m,
                            uint8_t *out);

/// The portable loop alone (tests compare the two).
void graph_yuv_to_rgba8_row_portable(const uint8_t *luma, const float *cb, const float *cr, int count,
                                     const float *m, uint8_t *out);

#endif
