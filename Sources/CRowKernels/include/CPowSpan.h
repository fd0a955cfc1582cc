#ifndef GRAPH_CPOWSPAN_H
#define GRAPH_CPOWSPAN_H

/// out[i] = x[i]^y[i] for i < n, the IR's `power`. For a positive normal finite x, a finite y and
/// a result in the normal range: exp2(y · log2 x), log2 by exponent and an atanh series, exp2 by
/// exponent and a degree-7 polynomial (relative error below 2e-6 against the exact power); +0
/// to a positive power is 0; every other case (zero, negative or non-finite x, non-finite y, results that would overflow or
/// be denormal) is powf's. AVX2 when the CPU has it (run-time check); the same bits either way.
void graph_pow_span(const float *x, const float *y, float *out, int n);

/// The portable path of graph_pow_span alone (tests compare the two bit for bit).
void graph_pow_span_portable(const float *x, const float *y, float *out, int n);

#endif
