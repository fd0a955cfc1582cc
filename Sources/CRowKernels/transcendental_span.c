// exp, exp2, log, log2, sin, cos and atan over spans (see CTranscendentalSpan.h): Cephes' float
// reductions and polynomials, eight lanes per AVX2 step with the same operations in the same order
// as the scalar path; lanes outside the polynomials' ranges go to libm.
#include "CTranscendentalSpan.h"
#include "cpu_features.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma clang fp contract(off)

static const float kLog2E = 1.44269504088896341f;
static const float kLog2EMinusOne = 0.44269504088896340736f;
static const float kLn2 = 0.69314718056f;
/// ln 2 = kLn2High + kLn2Low; kLn2High has 9 significant bits, so n · kLn2High is exact.
static const float kLn2High = 0.693359375f;
static const float kLn2Low = -2.12194440e-4f;
/// π/4 = kQuarterPi1 + kQuarterPi2 + kQuarterPi3, the first two short enough that y · part is exact
/// for the octants of |x| ≤ 8192.
static const float kQuarterPi1 = 0.78515625f;
static const float kQuarterPi2 = 2.4187564849853515625e-4f;
static const float kQuarterPi3 = 3.77489497744594108e-8f;
static const float kFourOverPi = 1.27323954473516f;
static const float kSqrtHalf = 0.707106781186547524f;
static const float kSmallestNormal = 1.17549435e-38f;
static const float kLargestFinite = 3.40282347e38f;

static inline float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/// e^r for |r| ≤ ln 2 / 2 (slightly beyond is fine): 1 + r + r²·P(r).
static inline float exp_reduced(float r) {
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    return ((p * (r * r)) + r) + 1.0f;
}

/// 2^n for an integral n in [−126, 127].
static inline float power_of_two(float n) { return from_bits((uint32_t)((int)n + 127) << 23); }

static inline int exp_in_range(float x) { return x >= -87.0f && x <= 88.0f; }
static inline int exp2_in_range(float x) { return x >= -125.0f && x <= 127.0f; }

static inline float exp_one(float x) {
    if (!exp_in_range(x)) return expf(x);
    float n = rintf(x * kLog2E);
    float r = (x - n * kLn2High) - n * kLn2Low;
    return exp_reduced(r) * power_of_two(n);
}

static inline float exp2_one(float x) {
    if (!exp2_in_range(x)) return exp2f(x);
    float n = rintf(x);
    return exp_reduced((x - n) * kLn2) * power_of_two(n);
}

/// For a positive normal finite x = 2^e·m, m in [√½, √2): e and f = m − 1, and ln m − f.
static inline float log_split(float x, float *e, float *f) {
    uint32_t bits = to_bits(x);
    float exponent = (float)((int)(bits >> 23) - 126);
    float m = from_bits((bits & 0x007FFFFF) | 0x3F000000);  // in [½, 1)
    if (m < kSqrtHalf) {
        exponent = exponent - 1.0f;
        m = (m + m) - 1.0f;
    } else {
        m = m - 1.0f;
    }
    float z = m * m;
    float p = 7.0376836292e-2f;
    p = p * m - 1.1514610310e-1f;
    p = p * m + 1.1676998740e-1f;
    p = p * m - 1.2420140846e-1f;
    p = p * m + 1.4249322787e-1f;
    p = p * m - 1.6668057665e-1f;
    p = p * m + 2.0000714765e-1f;
    p = p * m - 2.4999993993e-1f;
    p = p * m + 3.3333331174e-1f;
    *e = exponent;
    *f = m;
    return (m * z) * p - 0.5f * z;
}

static inline int log_in_range(float x) { return x >= kSmallestNormal && x <= kLargestFinite; }

static inline float log_one(float x) {
    if (!log_in_range(x)) return logf(x);
    float e, f;
    float tail = log_split(x, &e, &f);
    return ((f + (tail + e * kLn2Low)) + e * kLn2High);
}

static inline float log2_one(float x) {
    if (!log_in_range(x)) return log2f(x);
    float e, f;
    float tail = log_split(x, &e, &f);
    return (((tail * kLog2EMinusOne + f * kLog2EMinusOne) + tail) + f) + e;
}

static inline int sincos_in_range(float x) { return fabsf(x) <= 8192.0f; }

/// The sine polynomial of r (|r| ≤ π/4) and the cosine one.
static inline float sin_reduced(float r, float z) {
    return ((((-1.9515295891e-4f * z) + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z) * r + r;
}
static inline float cos_reduced(float z) {
    return ((((((2.443315711809948e-5f * z) - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z) * z) - 0.5f * z) + 1.0f;
}

/// |x| = (octant j, even) · π/4 + r: returns r, sets j (0, 2, 4 or 6 after & 7).
static inline float sincos_reduce(float a, int *octant) {
    int j = (int)(a * kFourOverPi);
    j = (j + 1) & ~1;
    float y = (float)j;
    *octant = j & 7;
    return ((a - y * kQuarterPi1) - y * kQuarterPi2) - y * kQuarterPi3;
}

static inline float sin_one(float x) {
    if (!sincos_in_range(x)) return sinf(x);
    int j;
    float r = sincos_reduce(fabsf(x), &j), z = r * r;
    float v = (j & 2) ? cos_reduced(z) : sin_reduced(r, z);
    // Octants 4 and 6 are negative; sin is odd.
    uint32_t sign = (to_bits(x) & 0x80000000u) ^ ((j & 4) ? 0x80000000u : 0);
    return from_bits(to_bits(v) ^ sign);
}

static inline float cos_one(float x) {
    if (!sincos_in_range(x)) return cosf(x);
    int j;
    float r = sincos_reduce(fabsf(x), &j), z = r * r;
    float v = (j & 2) ? sin_reduced(r, z) : cos_reduced(z);
    // Octants 2 and 4 are negative (2: −sin r, 4: −cos r).
    uint32_t sign = ((j + 2) & 4) ? 0x80000000u : 0;
    return from_bits(to_bits(v) ^ sign);
}

static const float kTanThreeEighthsPi = 2.414213562373095f;
static const float kTanEighthPi = 0.4142135623730950f;
static const float kHalfPi = 1.5707963267948966f;
static const float kQuarterPi = 0.7853981633974483f;

/// The arctangent polynomial of r (|r| ≤ tan π/8): r + r³·P(r²).
static inline float atan_reduced(float r) {
    float z = r * r;
    float p = 8.05374449538e-2f;
    p = p * z - 1.38776856032e-1f;
    p = p * z + 1.99777106478e-1f;
    p = p * z - 3.33329491539e-1f;
    return ((p * z) * r) + r;
}

static inline float atan_one(float x) {
    float a = fabsf(x), base, r;
    if (a > kTanThreeEighthsPi) {
        base = kHalfPi, r = -1.0f / a;
    } else if (a > kTanEighthPi) {
        base = kQuarterPi, r = (a - 1.0f) / (a + 1.0f);
    } else {
        base = 0.0f, r = a;
    }
    float v = base + atan_reduced(r);
    return from_bits(to_bits(v) ^ (to_bits(x) & 0x80000000u));
}

static inline float one(GraphTranscendental f, float x) {
    switch (f) {
    case GRAPH_TRANSCENDENTAL_EXP: return exp_one(x);
    case GRAPH_TRANSCENDENTAL_EXP2: return exp2_one(x);
    case GRAPH_TRANSCENDENTAL_LOG: return log_one(x);
    case GRAPH_TRANSCENDENTAL_LOG2: return log2_one(x);
    case GRAPH_TRANSCENDENTAL_SIN: return sin_one(x);
    case GRAPH_TRANSCENDENTAL_COS: return cos_one(x);
    case GRAPH_TRANSCENDENTAL_ATAN: return atan_one(x);
    }
    return x;
}

void graph_transcendental_span_portable(GraphTranscendental f, const float *x, float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = one(f, x[i]);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

static AVX2 inline __m256 set(float v) { return _mm256_set1_ps(v); }
static AVX2 inline __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
static AVX2 inline __m256 sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
static AVX2 inline __m256 mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
static AVX2 inline __m256 between(__m256 x, float lo, float hi) {
    return _mm256_and_ps(_mm256_cmp_ps(x, set(lo), _CMP_GE_OQ), _mm256_cmp_ps(x, set(hi), _CMP_LE_OQ));
}

static AVX2 inline __m256 exp_reduced8(__m256 r) {
    __m256 p = set(1.9875691500e-4f);
    p = add(mul(p, r), set(1.3981999507e-3f));
    p = add(mul(p, r), set(8.3334519073e-3f));
    p = add(mul(p, r), set(4.1665795894e-2f));
    p = add(mul(p, r), set(1.6666665459e-1f));
    p = add(mul(p, r), set(5.0000001201e-1f));
    return add(add(mul(p, mul(r, r)), r), set(1.0f));
}

static AVX2 inline __m256 power_of_two8(__m256 n) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23));
}

static AVX2 inline __m256 round8(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }

/// exp_one's polynomial path on eight lanes (lanes outside `ok` hold 0 before the polynomial).
static AVX2 inline __m256 exp8(__m256 x, __m256 *ok) {
    *ok = between(x, -87.0f, 88.0f);
    x = _mm256_and_ps(x, *ok);
    __m256 n = round8(mul(x, set(kLog2E)));
    __m256 r = sub(sub(x, mul(n, set(kLn2High))), mul(n, set(kLn2Low)));
    return mul(exp_reduced8(r), power_of_two8(n));
}

static AVX2 inline __m256 exp2_8(__m256 x, __m256 *ok) {
    *ok = between(x, -125.0f, 127.0f);
    x = _mm256_and_ps(x, *ok);
    __m256 n = round8(x);
    return mul(exp_reduced8(mul(sub(x, n), set(kLn2))), power_of_two8(n));
}

static AVX2 inline __m256 log_split8(__m256 x, __m256 *e, __m256 *f) {
    __m256i bits = _mm256_castps_si256(x);
    __m256 exponent = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(126)));
    __m256 m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x007FFFFF)), _mm256_set1_epi32(0x3F000000)));
    __m256 small = _mm256_cmp_ps(m, set(kSqrtHalf), _CMP_LT_OQ);
    exponent = _mm256_blendv_ps(exponent, sub(exponent, set(1.0f)), small);
    m = _mm256_blendv_ps(sub(m, set(1.0f)), sub(add(m, m), set(1.0f)), small);
    __m256 z = mul(m, m);
    __m256 p = set(7.0376836292e-2f);
    p = sub(mul(p, m), set(1.1514610310e-1f));
    p = add(mul(p, m), set(1.1676998740e-1f));
    p = sub(mul(p, m), set(1.2420140846e-1f));
    p = add(mul(p, m), set(1.4249322787e-1f));
    p = sub(mul(p, m), set(1.6668057665e-1f));
    p = add(mul(p, m), set(2.0000714765e-1f));
    p = sub(mul(p, m), set(2.4999993993e-1f));
    p = add(mul(p, m), set(3.3333331174e-1f));
    *e = exponent;
    *f = m;
    return sub(mul(mul(m, z), p), mul(set(0.5f), z));
}

static AVX2 inline __m256 log8(__m256 x, __m256 *ok) {
    *ok = between(x, kSmallestNormal, kLargestFinite);
    x = _mm256_blendv_ps(set(1.0f), x, *ok);
    __m256 e, f;
    __m256 tail = log_split8(x, &e, &f);
    return add(add(f, add(tail, mul(e, set(kLn2Low)))), mul(e, set(kLn2High)));
}

static AVX2 inline __m256 log2_8(__m256 x, __m256 *ok) {
    *ok = between(x, kSmallestNormal, kLargestFinite);
    x = _mm256_blendv_ps(set(1.0f), x, *ok);
    __m256 e, f;
    __m256 tail = log_split8(x, &e, &f);
    __m256 lo = set(kLog2EMinusOne);
    return add(add(add(add(mul(tail, lo), mul(f, lo)), tail), f), e);
}

static AVX2 inline __m256 sin_reduced8(__m256 r, __m256 z) {
    __m256 p = add(mul(set(-1.9515295891e-4f), z), set(8.3321608736e-3f));
    p = sub(mul(p, z), set(1.6666654611e-1f));
    return add(mul(mul(p, z), r), r);
}

static AVX2 inline __m256 cos_reduced8(__m256 z) {
    __m256 p = sub(mul(set(2.443315711809948e-5f), z), set(1.388731625493765e-3f));
    p = add(mul(p, z), set(4.166664568298827e-2f));
    return add(sub(mul(mul(p, z), z), mul(set(0.5f), z)), set(1.0f));
}

/// sin (cosine = 0) or cos (cosine = 1) on eight lanes, as sin_one and cos_one.
static AVX2 inline __m256 sincos8(__m256 x, int cosine, __m256 *ok) {
    const __m256 signBit = set(-0.0f);
    __m256 a = _mm256_andnot_ps(signBit, x);
    *ok = _mm256_cmp_ps(a, set(8192.0f), _CMP_LE_OQ);
    a = _mm256_and_ps(a, *ok);
    __m256i j = _mm256_cvttps_epi32(mul(a, set(kFourOverPi)));
    j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
    __m256 y = _mm256_cvtepi32_ps(j);
    __m256 r = sub(sub(sub(a, mul(y, set(kQuarterPi1))), mul(y, set(kQuarterPi2))), mul(y, set(kQuarterPi3)));
    __m256 z = mul(r, r);
    __m256 useCos = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), _mm256_set1_epi32(cosine ? 0 : 2)));
    __m256 v = _mm256_blendv_ps(sin_reduced8(r, z), cos_reduced8(z), useCos);
    __m256i negative;
    if (cosine) {
        negative = _mm256_slli_epi32(_mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(2)), _mm256_set1_epi32(4)), 29);
    } else {
        negative = _mm256_xor_si256(_mm256_slli_epi32(_mm256_and_si256(j, _mm256_set1_epi32(4)), 29),
                                    _mm256_castps_si256(_mm256_and_ps(x, signBit)));
    }
    return _mm256_xor_ps(v, _mm256_castsi256_ps(negative));
}

/// atan_one on eight lanes (every lane is covered: `ok` is all ones).
static AVX2 inline __m256 atan8(__m256 x, __m256 *ok) {
    const __m256 signBit = set(-0.0f);
    *ok = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    __m256 a = _mm256_andnot_ps(signBit, x);
    __m256 big = _mm256_cmp_ps(a, set(kTanThreeEighthsPi), _CMP_GT_OQ);
    __m256 middle = _mm256_andnot_ps(big, _mm256_cmp_ps(a, set(kTanEighthPi), _CMP_GT_OQ));
    __m256 r = _mm256_blendv_ps(a, _mm256_div_ps(sub(a, set(1.0f)), add(a, set(1.0f))), middle);
    r = _mm256_blendv_ps(r, _mm256_div_ps(set(-1.0f), a), big);
    __m256 base = _mm256_or_ps(_mm256_and_ps(big, set(kHalfPi)), _mm256_and_ps(middle, set(kQuarterPi)));
    __m256 z = mul(r, r);
    __m256 p = sub(mul(set(8.05374449538e-2f), z), set(1.38776856032e-1f));
    p = add(mul(p, z), set(1.99777106478e-1f));
    p = sub(mul(p, z), set(3.33329491539e-1f));
    __m256 v = add(base, add(mul(mul(p, z), r), r));
    return _mm256_xor_ps(v, _mm256_and_ps(x, signBit));
}

static AVX2 void span_avx2(GraphTranscendental f, const float *x, float *out, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i), ok, result;
        switch (f) {
        case GRAPH_TRANSCENDENTAL_EXP: result = exp8(v, &ok); break;
        case GRAPH_TRANSCENDENTAL_EXP2: result = exp2_8(v, &ok); break;
        case GRAPH_TRANSCENDENTAL_LOG: result = log8(v, &ok); break;
        case GRAPH_TRANSCENDENTAL_LOG2: result = log2_8(v, &ok); break;
        case GRAPH_TRANSCENDENTAL_SIN: result = sincos8(v, 0, &ok); break;
        case GRAPH_TRANSCENDENTAL_COS: result = sincos8(v, 1, &ok); break;
        case GRAPH_TRANSCENDENTAL_ATAN: result = atan8(v, &ok); break;
        default: graph_transcendental_span_portable(f, x, out, n); return;
        }
        _mm256_storeu_ps(out + i, result);
        int mask = _mm256_movemask_ps(ok);
        if (mask != 0xFF) {
            for (int k = 0; k < 8; k++) if (!(mask >> k & 1)) out[i + k] = one(f, x[i + k]);
        }
    }
    graph_transcendental_span_portable(f, x + i, out + i, n - i);
}
#endif

void graph_transcendental_span(GraphTranscendental f, const float *x, float *out, int n) {
#if defined(__x86_64__) || defined(__i386__)
    if (graph_cpu_has_avx2()) { span_avx2(f, x, out, n); return; }
#endif
    graph_transcendental_span_portable(f, x, out, n);
}
