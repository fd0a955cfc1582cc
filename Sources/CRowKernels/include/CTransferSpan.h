#ifndef GRAPH_CTRANSFERSPAN_H
#define GRAPH_CTRANSFERSPAN_H

/// The IR's srgbToLinear (`decode` 1) and linearToSRGB (`decode` 0) over a span, sign-preserving:
/// for |x| ≤ 1, m = |x|·resolution, k = min(⌊m⌋, resolution − 1),
/// y = table[k] + (table[k + 1] − table[k])·(m − k) (no fused multiply-add) with `table` the curve at
/// k/resolution, k = 0…resolution; otherwise (and NaN) the exact curve in Float: decode
/// |x|/12.92 up to 0.04045, else powf((|x| + 0.055)/1.055, 2.4); encode 12.92·|x| up to 0.0031308,
/// else 1.055·powf(|x|, 1/2.4) − 0.055. Eight values at a time with AVX2 gathers when the CPU has
/// them (run-time check); the same bits either way.
void graph_transfer_span(const float *table, int resolution, int decode, const float *x, float *out, int n);

/// The portable path alone (tests compare the two bit for bit).
void graph_transfer_span_portable(const float *table, int resolution, int decode, const float *x, float *out, int n);

#endif
