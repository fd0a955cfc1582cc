// The 8-bit code of a float sample, shared by the pixel-row and 8-bit row kernels (and equal to
// PixelIO.unorm8 in Swift): the nearest code to clamp(v·255, 0, 255), ties to even, NaN as 0 —
// the float's low mantissa bits after adding 1.5·2^23.
#ifndef GRAPH_UNORM8_H
#define GRAPH_UNORM8_H

#include <stdint.h>
#include <string.h>

static inline uint8_t unorm8(float value) {
    const float scaled = value * 255.0f;
    const float low = scaled > 0 ? scaled : 0;
    const float clamped = low < 255.0f ? low : 255.0f;
    const float shifted = clamped + 12582912.0f;
    uint32_t bits;
    memcpy(&bits, &shifted, sizeof bits);
    return (uint8_t)bits;
}

#endif
