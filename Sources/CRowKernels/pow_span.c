// x^y over spans (see CPowSpan.h): exp2(y · log2 x) with polynomials, eight lanes per AVX2 step;
// what the polynomials do not cover goes to powf.
#include "CPowSpan.h"
#include "cpu_features.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#pragma clang fp contract(off)

static const float kSqrt2 = 1.41421356237f;
static const float kLog2Scale = 2.8853900817779268f;  // 2 / ln 2
static const float kLn2 = 0.69314718056f;

static inline float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/// log2 of a positive normal x: exponent plus an atanh series of the mantissa in [√½, √2).
static inline float log2_positive(float x) {
    uint32_t bits = to_bits(x);
    float e = (float)((int)(bits >> 23) - 127);
    float m = from_bits((bits & 0x007FFFFF) | 0x3F800000);
    if (m > kSqrt2) { m = m * 0.5f; e = e + 1.0f; }
    float t = (m - 1.0f) / (m + 1.0f), t2 = t * t;
    float s = ((((t2 * (1.0f / 9) + (1.0f / 7)) * t2 + (1.0f / 5)) * t2 + (1.0f / 3)) * t2 + 1.0f) * t;
    return e + s * kLog2Scale;
}

/// 2^z for z in [−126, 127]: exponent bits times a Taylor polynomial on [−½, ½].
static inline float exp2_bounded(float z) {
    float n = rintf(z), f = (z - n) * kLn2;
    float p = ((((((f * (1.0f / 5040) + (1.0f / 720)) * f + (1.0f / 120)) * f + (1.0f / 24)) * f + (1.0f / 6)) * f + 0.5f) * f + 1.0f) * f + 1.0f;
    return p * from_bits((uint32_t)((int)n + 127) << 23);
}

/// x^y: the polynomials for a positive normal x, finite y and a normal result; powf otherwise.
static inline float pow_one(float x, float y) {
    if (to_bits(x) == 0 && y > 0) return 0.0f;  // +0 to a positive power (black pixels: common)
    if (!(x >= 1.17549435e-38f) || x > 3.40282347e38f || !(fabsf(y) <= 3.40282347e38f)) return powf(x, y);
    float z = y * log2_positive(x);
    if (!(z >= -126.0f && z <= 127.0f)) return powf(x, y);
    return exp2_bounded(z);
}

void graph_pow_span_portable(const float *x, const float *y, float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = pow_one(x[i], y[i]);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// pow_one on eight lanes with the same operations in the same order.
__attribute__((target("avx2")))
static void pow_avx2(const float *x, const float *y, float *out, int n) {
    int i = 0;
    const __m256 one = _mm256_set1_ps(1.0f);
    for (; i + 8 <= n; i += 8) {
        __m256 vx = _mm256_loadu_ps(x + i), vy = _mm256_loadu_ps(y + i);
        __m256i bits = _mm256_castps_si256(vx);
        __m256 e = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127)));
        __m256 m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x007FFFFF)), _mm256_set1_epi32(0x3F800000)));
        __m256 big = _mm256_cmp_ps(m, _mm256_set1_ps(kSqrt2), _CMP_GT_OQ);
        m = _mm256_blendv_ps(m, _mm256_mul_ps(m, _mm256_set1_ps(0.5f)), big);
        e = _mm256_blendv_ps(e, _mm256_add_ps(e, one), big);
        __m256 t = _mm256_div_ps(_mm256_sub_ps(m, one), _mm256_add_ps(m, one)), t2 = _mm256_mul_ps(t, t);
        __m256 s = _mm256_add_ps(_mm256_mul_ps(t2, _mm256_set1_ps(1.0f / 9)), _mm256_set1_ps(1.0f / 7));
        s = _mm256_add_ps(_mm256_mul_ps(s, t2), _mm256_set1_ps(1.0f / 5));
        s = _mm256_add_ps(_mm256_mul_ps(s, t2), _mm256_set1_ps(1.0f / 3));
        s = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(s, t2), one), t);
        __m256 z = _mm256_mul_ps(vy, _mm256_add_ps(e, _mm256_mul_ps(s, _mm256_set1_ps(kLog2Scale))));
        // Lanes the polynomial does not cover take powf: x not a positive normal finite, y not
        // finite, or the result outside the normal range.
        __m256 ok = _mm256_and_ps(_mm256_cmp_ps(vx, _mm256_set1_ps(1.17549435e-38f), _CMP_GE_OQ),
                                  _mm256_cmp_ps(vx, _mm256_set1_ps(3.40282347e38f), _CMP_LE_OQ));
        ok = _mm256_and_ps(ok, _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), vy), _mm256_set1_ps(3.40282347e38f), _CMP_LE_OQ));
        ok = _mm256_and_ps(ok, _mm256_and_ps(_mm256_cmp_ps(z, _mm256_set1_ps(-126.0f), _CMP_GE_OQ),
                                             _mm256_cmp_ps(z, _mm256_set1_ps(127.0f), _CMP_LE_OQ)));
        __m256 zc = _mm256_blendv_ps(_mm256_setzero_ps(), z, ok);
        __m256 nn = _mm256_round_ps(zc, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m256 f = _mm256_mul_ps(_mm256_sub_ps(zc, nn), _mm256_set1_ps(kLn2));
        __m256 p = _mm256_add_ps(_mm256_mul_ps(f, _mm256_set1_ps(1.0f / 5040)), _mm256_set1_ps(1.0f / 720));
        p = _mm256_add_ps(_mm256_mul_ps(p, f), _mm256_set1_ps(1.0f / 120));
        p = _mm256_add_ps(_mm256_mul_ps(p, f), _mm256_set1_ps(1.0f / 24));
        p = _mm256_add_ps(_mm256_mul_ps(p, f), _mm256_set1_ps(1.0f / 6));
        p = _mm256_add_ps(_mm256_mul_ps(p, f), _mm256_set1_ps(0.5f));
        p = _mm256_add_ps(_mm256_mul_ps(p, f), one);
        p = _mm256_add_ps(_mm256_mul_ps(p, f), one);
        __m256 scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(nn), _mm256_set1_epi32(127)), 23));
        // +0 to a positive power is 0, as powf gives.
        __m256 zero = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bits, _mm256_setzero_si256())),
                                    _mm256_cmp_ps(vy, _mm256_setzero_ps(), _CMP_GT_OQ));
        _mm256_storeu_ps(out + i, _mm256_andnot_ps(zero, _mm256_mul_ps(p, scale)));
        int mask = _mm256_movemask_ps(_mm256_or_ps(ok, zero));
        if (mask != 0xFF) {
            for (int k = 0; k < 8; k++) if (!(mask >> k & 1)) out[i + k] = powf(x[i + k], y[i + k]);
        }
    }
    graph_pow_span_portable(x + i, y + i, out + i, n - i);
}
#endif

void graph_pow_span(const float *x, const float *y, float *out, int n) {
#if defined(__x86_64__) || defined(__i386__)
    if (graph_cpu_has_avx2()) { pow_avx2(x, y, out, n); return; }
#endif
    graph_pow_span_portable(x, y, out, n);
}
