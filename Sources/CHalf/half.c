// Float16 <-> Float32 row conversion.
//
// A Swift package used as a dependency cannot pass -target-cpu, so the F16C path lives here behind
// a target attribute and a run-time CPU check; the portable path is bit-exact with it.
#include "CHalf.h"
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GRAPH_HAVE_X86 1
#endif

static inline uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static inline float half_to_float_one(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exponent = (h >> 10) & 0x1F;
    uint32_t mantissa = h & 0x3FF;
    if (exponent == 0) {
        if (mantissa == 0) return float_of(sign);
        // Subnormal half: value = mantissa * 2^-24, exact in float.
        float magnitude = (float)mantissa * 5.9604644775390625e-8f;
        return float_of(sign | bits_of(magnitude));
    }
    if (exponent == 31) {
        // Inf or NaN; keep the payload (quieted like VCVTPH2PS).
        return float_of(sign | 0x7F800000u | (mantissa << 13) | (mantissa ? 0x00400000u : 0));
    }
    return float_of(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

static inline uint16_t float_to_half_one(float f) {
    uint32_t u = bits_of(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    uint32_t absolute = u & 0x7FFFFFFFu;
    if (absolute >= 0x7F800000u) {
        if (absolute == 0x7F800000u) return sign | 0x7C00;
        return sign | 0x7E00 | (uint16_t)((absolute >> 13) & 0x3FF);  // quiet NaN, payload kept
    }
    if (absolute >= 0x477FF000u) return sign | 0x7C00;  // rounds to >= 2^16: infinity
    if (absolute < 0x38800000u) {
        // Result is subnormal (or zero): value / 2^-24 rounded to nearest even.
        if (absolute < 0x33000000u) return sign;  // < 2^-25: rounds to zero
        uint32_t exponent = absolute >> 23;
        uint32_t mantissa = (absolute & 0x7FFFFF) | 0x800000;
        uint32_t shift = 126 - exponent;  // value / 2^-24 == mantissa * 2^(exponent - 126)
        uint32_t value = mantissa >> shift;
        uint32_t remainder = mantissa & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (remainder > halfway || (remainder == halfway && (value & 1))) value += 1;
        return sign | (uint16_t)value;
    }
    // Normal: rebias the exponent and round the 13 dropped mantissa bits to nearest even.
    uint32_t value = ((absolute - 0x38000000u) >> 13);
    uint32_t remainder = absolute & 0x1FFF;
    if (remainder > 0x1000 || (remainder == 0x1000 && (value & 1))) value += 1;
    return sign | (uint16_t)value;
}

void graph_half_to_float_portable(const uint16_t *source, float *destination, size_t count) {
    for (size_t i = 0; i < count; i++) destination[i] = half_to_float_one(source[i]);
}

void graph_float_to_half_portable(const float *source, uint16_t *destination, size_t count) {
    for (size_t i = 0; i < count; i++) destination[i] = float_to_half_one(source[i]);
}

#ifdef GRAPH_HAVE_X86
__attribute__((target("avx,f16c")))
static void half_to_float_f16c(const uint16_t *source, float *destination, size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(source + i));
        _mm256_storeu_ps(destination + i, _mm256_cvtph_ps(h));
    }
    for (; i < count; i++) destination[i] = half_to_float_one(source[i]);
}

__attribute__((target("avx,f16c")))
static void float_to_half_f16c(const float *source, uint16_t *destination, size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256 f = _mm256_loadu_ps(source + i);
        _mm_storeu_si128((__m128i *)(destination + i), _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < count; i++) destination[i] = float_to_half_one(source[i]);
}

static int hardware_state = -1;

int graph_half_uses_hardware(void) {
    int state = __atomic_load_n(&hardware_state, __ATOMIC_RELAXED);
    if (state < 0) {
        __builtin_cpu_init();
        state = (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx")) ? 1 : 0;
        __atomic_store_n(&hardware_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

void graph_half_to_float(const uint16_t *source, float *destination, size_t count) {
    if (graph_half_uses_hardware()) half_to_float_f16c(source, destination, count);
    else graph_half_to_float_portable(source, destination, count);
}

void graph_float_to_half(const float *source, uint16_t *destination, size_t count) {
    if (graph_half_uses_hardware()) float_to_half_f16c(source, destination, count);
    else graph_float_to_half_portable(source, destination, count);
}
#else
int graph_half_uses_hardware(void) { return 0; }
void graph_half_to_float(const uint16_t *source, float *destination, size_t count) {
    graph_half_to_float_portable(source, destination, count);
}
void graph_float_to_half(const float *source, uint16_t *destination, size_t count) {
    graph_float_to_half_portable(source, destination, count);
}
#endif
