#ifndef GRAPH_CLOOKUP3D_H
#define GRAPH_CLOOKUP3D_H

/// The IR's `lut3d` over a span of n premultiplied pixels (planes r, g, b, a): for each pixel,
/// c = rgb / a (rgb when a <= 0); x = c * (d - 1), clamped to [0, d - 1] (NaN to 0) unless
/// `extrapolate` (then only NaN becomes 0); cell = trunc(clamp(x, 0, d - 2)); f = x - cell;
/// the RGBA texels (table: d^3 texels of 4 floats, red fastest, then green, then blue) of the
/// cell's eight corners are blended along blue, then green, then red (v0 + (v1 - v0) * f), and
/// the result is multiplied by a. On x86 four pixels at a time, with SSE2 or, when the CPU has it,
/// AVX (a texel and its red neighbour in one 256-bit load): the same operations in the same order
/// as the portable loop, so every path gives the same bits. The output planes may not alias the
/// inputs.
void graph_lookup3d_span(const float *r, const float *g, const float *b, const float *a,
                         float *outR, float *outG, float *outB, float *outA,
                         const float *table, int dimension, int extrapolate, int n);

/// The SSE2 path without the AVX one (on x86; elsewhere the portable loop), for the tests.
void graph_lookup3d_span_sse(const float *r, const float *g, const float *b, const float *a,
                             float *outR, float *outG, float *outB, float *outA,
                             const float *table, int dimension, int extrapolate, int n);

/// The portable path alone (tests compare the paths bit for bit).
void graph_lookup3d_span_portable(const float *r, const float *g, const float *b, const float *a,
                                  float *outR, float *outG, float *outB, float *outA,
                                  const float *table, int dimension, int extrapolate, int n);

#endif
