// The per-pixel loops of the joint bilateral upsample (see CBilateralSlice.h): the guide luma, the
// grid's splat and its trilinear slice. Each pixel of the slice reads its eight grid cells directly:
// the two columns of a cell pair are 2·planes contiguous floats, so it is four short contiguous
// runs, blended with the plane count known at compile time (the loops unroll and vectorise).
#include "CBilateralSlice.h"
#include "table_lerp.h"

#include <math.h>

#pragma clang fp contract(off)

static inline float lerp(float a, float b, float t) { return a + t * (b - a); }

/// Pixels per chunk: each pixel's level is found for a chunk first (a loop the compiler
/// vectorises), then its cells are read, then N/D for the chunk (vectorised too).
enum { CHUNK = 64 };

/// Pixel x's lower luma level and its fraction towards the next.
static inline void locate(const float *luma, int first, int n, int levels, int32_t *level, float *fk) {
    const float top = (float)(levels - 1);
    for (int j = 0; j < n; j++) {
        float l = luma[first + j];
        l = l > 0 ? l : 0;  // NaN reads as 0
        l = l < 1 ? l : 1;
        l = l * top;
        int k = (int)l;
        k = k < levels - 2 ? k : levels - 2;
        fk[j] = l - (float)k;
        level[j] = k;
    }
}

/// `out` (planes − 1 rows) divided by the weights: out · (1 / D).
static inline void divide(float *out, ptrdiff_t outStride, const float *weights, int first, int n, int planes) {
    for (int p = 0; p < planes - 1; p++) {
        float *o = out + (ptrdiff_t)p * outStride + first;
        for (int j = 0; j < n; j++) o[j] = o[j] * (1.0f / weights[first + j]);
    }
}

/// One pixel, plane by plane (`P` planes, a constant after inlining): rows, then levels, then columns.
static inline __attribute__((always_inline)) void slice_pixel(const float *cell, ptrdiff_t levelStride,
                                                               ptrdiff_t rowStride, float fy, float fk, float fx,
                                                               int P, float *v) {
    const float *lower = cell, *upper = cell + levelStride;
    float b[16];
    for (int q = 0; q < 2 * P; q++) {
        const float a0 = lerp(lower[q], lower[rowStride + q], fy);
        const float a1 = lerp(upper[q], upper[rowStride + q], fy);
        b[q] = lerp(a0, a1, fk);
    }
    for (int p = 0; p < P; p++) v[p] = lerp(b[p], b[P + p], fx);
}

static inline __attribute__((always_inline)) void slice_row(const float *grid, ptrdiff_t levelStride,
                                                             ptrdiff_t rowStride, int P, int levels, float fy,
                                                             const float *luma, const int32_t *columns,
                                                             const float *fractions, int count, float *out,
                                                             ptrdiff_t outStride, float *weights) {
    int32_t level[CHUNK];
    float fk[CHUNK];
    for (int first = 0; first < count; first += CHUNK) {
        const int n = count - first < CHUNK ? count - first : CHUNK;
        locate(luma, first, n, levels, level, fk);
        for (int j = 0; j < n; j++) {
            float v[8];
            const float *cell = grid + level[j] * levelStride + (ptrdiff_t)columns[first + j] * P;
            slice_pixel(cell, levelStride, rowStride, fy, fk[j], fractions[first + j], P, v);
            for (int p = 0; p < P - 1; p++) out[(ptrdiff_t)p * outStride + first + j] = v[p];
            weights[first + j] = v[P - 1];
        }
        divide(out, outStride, weights, first, n, P);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// slice_row for two planes (a grey grid) with 128-bit vectors: a pixel's cell pair (N, D of two
/// columns) is one load per level and row; the same operations as slice_pixel, lane by lane.
static void slice_row_grey_sse(const float *grid, ptrdiff_t levelStride, ptrdiff_t rowStride, int levels, float fy,
                               const float *luma, const int32_t *columns, const float *fractions, int count, float *out,
                               float *weights) {
    int32_t level[CHUNK];
    float fk[CHUNK];
    const __m128 y = _mm_set1_ps(fy);
    for (int first = 0; first < count; first += CHUNK) {
        const int n = count - first < CHUNK ? count - first : CHUNK;
        locate(luma, first, n, levels, level, fk);
        for (int j = 0; j < n; j++) {
            const float *cell = grid + level[j] * levelStride + (ptrdiff_t)columns[first + j] * 2;
            const __m128 l0 = _mm_loadu_ps(cell), l1 = _mm_loadu_ps(cell + rowStride);
            const __m128 u0 = _mm_loadu_ps(cell + levelStride), u1 = _mm_loadu_ps(cell + levelStride + rowStride);
            const __m128 a0 = _mm_add_ps(l0, _mm_mul_ps(y, _mm_sub_ps(l1, l0)));
            const __m128 a1 = _mm_add_ps(u0, _mm_mul_ps(y, _mm_sub_ps(u1, u0)));
            const __m128 b = _mm_add_ps(a0, _mm_mul_ps(_mm_set1_ps(fk[j]), _mm_sub_ps(a1, a0)));
            const __m128 right = _mm_movehl_ps(b, b);
            const __m128 v = _mm_add_ps(b, _mm_mul_ps(_mm_set1_ps(fractions[first + j]), _mm_sub_ps(right, b)));
            _mm_store_ss(out + first + j, v);
            _mm_store_ss(weights + first + j, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1)));
        }
        divide(out, 0, weights, first, n, 2);
    }
}
#endif

void graph_bilateral_slice_row(const float *grid, ptrdiff_t levelStride, ptrdiff_t rowStride, int planes, int levels,
                               float fy, const float *luma, const int32_t *columns, const float *fractions, int count,
                               float *out, ptrdiff_t outStride, float *weights) {
    switch (planes) {
    case 2:
#if defined(__x86_64__) || defined(__i386__)
        slice_row_grey_sse(grid, levelStride, rowStride, levels, fy, luma, columns, fractions, count, out, weights);
#else
        slice_row(grid, levelStride, rowStride, 2, levels, fy, luma, columns, fractions, count, out, outStride, weights);
#endif
        break;
    case 3: slice_row(grid, levelStride, rowStride, 3, levels, fy, luma, columns, fractions, count, out, outStride, weights); break;
    case 4: slice_row(grid, levelStride, rowStride, 4, levels, fy, luma, columns, fractions, count, out, outStride, weights); break;
    default: slice_row(grid, levelStride, rowStride, 5, levels, fy, luma, columns, fractions, count, out, outStride, weights); break;
    }
}

void graph_bilateral_slice_row_portable(const float *grid, ptrdiff_t levelStride, ptrdiff_t rowStride, int planes,
                                        int levels, float fy, const float *luma, const int32_t *columns,
                                        const float *fractions, int count, float *out, ptrdiff_t outStride,
                                        float *weights) {
    switch (planes) {
    case 2: slice_row(grid, levelStride, rowStride, 2, levels, fy, luma, columns, fractions, count, out, outStride, weights); break;
    case 3: slice_row(grid, levelStride, rowStride, 3, levels, fy, luma, columns, fractions, count, out, outStride, weights); break;
    case 4: slice_row(grid, levelStride, rowStride, 4, levels, fy, luma, columns, fractions, count, out, outStride, weights); break;
    default: slice_row(grid, levelStride, rowStride, 5, levels, fy, luma, columns, fractions, count, out, outStride, weights); break;
    }
}

/// The range weights of one small-image sample for every level: w_k = exp(−(t_k − g)²·s), t_k = k·h.
/// From the level k0 nearest g outwards by the ratio of neighbours, itself a geometric sequence:
/// w_{k+1} = w_k·q_k with q_k = exp(−s(h² + 2h(t_k − g))) and q_{k+1} = q_k·F, going down
/// w_{k−1} = w_k·p_k with p_k = exp(−s(h² − 2h(t_k − g))) and p_{k−1} = p_k·F, F = exp(−2sh²). Every
/// factor is at most 1 (no overflow; tiny weights underflow to 0 as expf's would). Three expf
/// instead of one per level.
static inline void range_weights(float g, int levels, float h, float s, float F, float *w, ptrdiff_t stride) {
    if (g != g) {
        for (int k = 0; k < levels; k++) w[k * stride] = g;
        return;
    }
    float position = g / h + 0.5f;
    int k0 = position <= 0 ? 0 : (position >= (float)(levels - 1) ? levels - 1 : (int)position);
    const float d = (float)k0 * h - g;
    const float w0 = expf(-d * d * s);
    w[k0 * stride] = w0;
    float wk = w0, q = expf(-s * (h * h + 2 * h * d));
    for (int k = k0 + 1; k < levels; k++) {
        wk = wk * q;
        q = q * F;
        w[k * stride] = wk;
    }
    wk = w0;
    float p = expf(-s * (h * h - 2 * h * d));
    for (int k = k0 - 1; k >= 0; k--) {
        wk = wk * p;
        p = p * F;
        w[k * stride] = wk;
    }
}

/// One row of the splat: (w·v_0, …, w·v_{P−2}, w) per sample.
static inline __attribute__((always_inline)) void splat_planes(const float *restrict w, const float *restrict values,
                                                                ptrdiff_t valueStride, int P, int width,
                                                                float *restrict target) {
    for (int x = 0; x < width; x++) {
        for (int c = 0; c < P - 1; c++) target[x * P + c] = w[x] * values[c * valueStride + x];
        target[x * P + P - 1] = w[x];
    }
}

static void splat_row(const float *w, const float *values, ptrdiff_t valueStride, int planes, int width, float *target) {
    switch (planes) {
    case 2: splat_planes(w, values, valueStride, 2, width, target); break;
    case 4: splat_planes(w, values, valueStride, 4, width, target); break;
    default: splat_planes(w, values, valueStride, 5, width, target); break;
    }
}

/// s0·r[i − 2P] + s1·r[i − P] + s2·r[i] + s3·r[i + P] + s4·r[i + 2P] for i in [2P, length − 2P).
static inline void blur_row(const float *restrict r, int P, int length, const float *restrict s, float *restrict out) {
    const float s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3], s4 = s[4];
    for (int i = 2 * P; i < length - 2 * P; i++)
        out[i] = s0 * r[i - 2 * P] + s1 * r[i - P] + s2 * r[i] + s3 * r[i + P] + s4 * r[i + 2 * P];
}

/// The same taps across five rows.
static inline void blur_column(const float *restrict r0, const float *restrict r1, const float *restrict r2,
                               const float *restrict r3, const float *restrict r4, int P, int length,
                               const float *restrict s, float *restrict out) {
    const float s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3], s4 = s[4];
    for (int i = 2 * P; i < length - 2 * P; i++)
        out[i] = s0 * r0[i] + s1 * r1[i] + s2 * r2[i] + s3 * r3[i] + s4 * r4[i];
}

/// Stores grid row `row` of level k at its two ring positions (see graph_bilateral_grid_rows).
static inline void store_ring_row(const float *source, float *grid, ptrdiff_t levelStride, int k, int row, int rowLength) {
    float *level = grid + (ptrdiff_t)k * levelStride;
    float *first = level + (ptrdiff_t)(row % 2) * rowLength, *second = first + 2 * (ptrdiff_t)rowLength;
    for (int i = 0; i < rowLength; i++) first[i] = source[i];
    for (int i = 0; i < rowLength; i++) second[i] = source[i];
}

void graph_bilateral_grid_rows(const float *guide, const float *values, ptrdiff_t valueStride, int planes, int width,
                               int height, int levels, float rangeScale, const float *spatial, int first, int end,
                               float *grid, ptrdiff_t levelStride, float *scratch) {
    const int rowLength = width * planes;
    const float h = 1.0f / (float)(levels - 1), F = expf(-2 * rangeScale * h * h);
    const int blurs = width >= 5 && height >= 5;
    float *weights = scratch;                              // levels × width
    float *splat = weights + (ptrdiff_t)levels * width;    // one row
    float *ring = splat + rowLength;                       // levels × 5 rows, horizontally blurred
    float *column = ring + (ptrdiff_t)levels * 5 * rowLength;  // one row, blurred both ways
    for (int y = first; y < end && y < height; y++) {
        const float *g = guide + (ptrdiff_t)y * width;
        for (int x = 0; x < width; x++) range_weights(g[x], levels, h, rangeScale, F, weights + x, width);
        for (int k = 0; k < levels; k++) {
            const float *w = weights + (ptrdiff_t)k * width;
            splat_row(w, values + (ptrdiff_t)y * width, valueStride, planes, width, splat);
            if (!blurs) {
                store_ring_row(splat, grid, levelStride, k, y, rowLength);
                continue;
            }
            float *rows = ring + (ptrdiff_t)k * 5 * rowLength;
            blur_row(splat, planes, rowLength, spatial, rows + (ptrdiff_t)(y % 5) * rowLength);
            if (y >= 4) {
                const int center = y - 2;
                blur_column(rows + (ptrdiff_t)((center + 3) % 5) * rowLength, rows + (ptrdiff_t)((center + 4) % 5) * rowLength,
                            rows + (ptrdiff_t)(center % 5) * rowLength, rows + (ptrdiff_t)((center + 1) % 5) * rowLength,
                            rows + (ptrdiff_t)((center + 2) % 5) * rowLength, planes, rowLength, spatial, column);
                store_ring_row(column, grid, levelStride, k, center, rowLength);
            }
        }
    }
}

/// One pixel of graph_guide_luma_row.
static inline float guide_luma(float r, float g, float b, const float *a, int i, const float *encodeTable, int resolution) {
    float y = 0.2125f * r + 0.7154f * g + 0.0721f * b;
    if (a && a[i] > 0) y = y / a[i];
    if (fabsf(y) <= 1) return table_lerp_signed(encodeTable, resolution, y);
    const float encoded = 1.055f * powf(fabsf(y), 1.0f / 2.4f) - 0.055f;
    return y < 0 ? -encoded : encoded;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include "cpu_features.h"

/// Eight pixels at a time, the table read by gathers: the same operations as guide_luma; a block
/// with a value outside [−1, 1] (or NaN) goes through guide_luma. Returns the pixels done.
__attribute__((target("avx2"))) static int guide_luma_avx2(const float *r, const float *g, const float *b, const float *a,
                                                          int count, const float *encodeTable, int resolution, float *out) {
    const __m256 w0 = _mm256_set1_ps(0.2125f), w1 = _mm256_set1_ps(0.7154f), w2 = _mm256_set1_ps(0.0721f);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), sign = _mm256_set1_ps(-0.0f);
    int x = 0;
    for (; x + 8 <= count; x += 8) {
        __m256 y = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(w0, _mm256_loadu_ps(r + x)), _mm256_mul_ps(w1, _mm256_loadu_ps(g + x))),
                                 _mm256_mul_ps(w2, _mm256_loadu_ps(b + x)));
        if (a) {
            const __m256 alpha = _mm256_loadu_ps(a + x);
            y = _mm256_blendv_ps(y, _mm256_div_ps(y, alpha), _mm256_cmp_ps(alpha, zero, _CMP_GT_OQ));
        }
        if (_mm256_movemask_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, y), one, _CMP_LE_OQ)) != 0xff) {
            for (int i = x; i < x + 8; i++) out[i] = guide_luma(r[i], g[i], b[i], a, i, encodeTable, resolution);
            continue;
        }
        _mm256_storeu_ps(out + x, table_lerp_signed_avx2(encodeTable, resolution, y));
    }
    return x;
}
#endif

void graph_guide_luma_row(const float *r, const float *g, const float *b, const float *a, int count,
                          const float *encodeTable, int resolution, float *out) {
    int x = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (graph_cpu_has_avx2()) x = guide_luma_avx2(r, g, b, a, count, encodeTable, resolution, out);
#endif
    for (; x < count; x++) out[x] = guide_luma(r[x], g[x], b[x], a, x, encodeTable, resolution);
}

void graph_guide_luma_row_portable(const float *r, const float *g, const float *b, const float *a, int count,
                                   const float *encodeTable, int resolution, float *out) {
    for (int x = 0; x < count; x++) out[x] = guide_luma(r[x], g[x], b[x], a, x, encodeTable, resolution);
}
