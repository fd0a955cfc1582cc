#ifndef GRAPH_CYUVTORGBA8_H
#define GRAPH_CYUVTORGBA8_H

#include <stdint.h>

/// A YCbCr -> RGB matrix in 16-bit fixed point, for graph_yuv_to_rgba8_row. For channel c and
/// bytes Y, Cb, Cr the exact value is a[4c]·Y + a[4c+1]·Cb + a[4c+2]·Cr + a[4c+3]; here each
/// coefficient is stored as k = round(a · 2^13) (a/4 in Q15) and the offset as
/// round(16 · a[4c+3]) + 8 (Q4, with the final rounding folded in).
typedef struct {
    int16_t coefficients[9];
    int16_t offsets[3];
} graph_yuv_fixed_matrix;

/// Fills `out` from the byte-unit matrix `a` (12 floats, rows R, G, B of Y, Cb, Cr, offset).
/// Returns 0 when the matrix does not fit (a coefficient of magnitude 4 or more, an offset or a
/// sum that could leave the 16-bit range, or NaN); the caller then takes the float path.
int graph_yuv_fixed_matrix_make(const float *a, graph_yuv_fixed_matrix *out);

/// One row of the program "4:2:0 frame -> colour matrix -> RGBA8", in 16-bit fixed point.
///
/// Chroma is upsampled exactly in integers: the two nearest chroma rows (`*Top`, `*Bottom`, each
/// at chroma column 0, samples `step` bytes apart: 2 for NV12, 1 for I420) are blended with
/// weights topWeight/4 and (4 − topWeight)/4 into `scratch`; luma column pairs (2k, 2k+1) then
/// take left-sited (c[k]; (c[k] + c[k+1])/2) or centred (c[k−1]/4 + 3c[k]/4; 3c[k]/4 + c[k+1]/4)
/// weights, edges repeating. So 16·chroma is an exact integer. Each channel is then
/// Σ mulhrs(input · 64, k) + offset, shifted right by 4 and clamped to 0...255 (mulhrs(a, k) =
/// (a·k + 2^14) >> 15), alpha 255: within 0.15 of the exact value before rounding.
///
/// `luma` points at column x0; `out` is RGBA8 for columns x0 ..< x0 + count (any alignment);
/// `scratch` holds graph_yuv_to_rgba8_scratch_count(count) values. AVX2 when the CPU has it
/// (run-time check), else the portable loop; both give the same bytes, so the result does not
/// depend on where a row is split.
void graph_yuv_to_rgba8_row(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom, const uint8_t *crTop,
                            const uint8_t *crBottom, int step, int chromaWidth, int x0, int count, int topWeight,
                            int centred, const graph_yuv_fixed_matrix *matrix, int16_t *scratch, uint8_t *out);

/// The number of int16 values of scratch a row of `count` pixels needs.
int graph_yuv_to_rgba8_scratch_count(int count);

/// The portable path of graph_yuv_to_rgba8_row alone (tests compare the two byte for byte).
void graph_yuv_to_rgba8_row_portable(const uint8_t *luma, const uint8_t *cbTop, const uint8_t *cbBottom,
                                     const uint8_t *crTop, const uint8_t *crBottom, int step, int chromaWidth, int x0,
                                     int count, int topWeight, int centred, const graph_yuv_fixed_matrix *matrix,
                                     int16_t *scratch, uint8_t *out);

#endif
