#ifndef GRAPH_CHALF_H
#define GRAPH_CHALF_H

#include <stddef.h>
#include <stdint.h>

/// Converts `count` IEEE binary16 values to Float32.
/// Uses F16C when the CPU has it (checked once at run time), otherwise a bit-exact portable path.
void graph_half_to_float(const uint16_t *source, float *destination, size_t count);

/// Converts `count` Float32 values to IEEE binary16, rounding to nearest even (like VCVTPS2PH).
void graph_float_to_half(const float *source, uint16_t *destination, size_t count);

/// Same conversions, always through the portable path (used by tests to check the fast path).
void graph_half_to_float_portable(const uint16_t *source, float *destination, size_t count);
void graph_float_to_half_portable(const float *source, uint16_t *destination, size_t count);

/// 1 when the fast hardware path is in use.
int graph_half_uses_hardware(void);

#endif
