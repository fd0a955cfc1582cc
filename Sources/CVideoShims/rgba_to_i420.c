/* 8-bit RGBA to 8-bit I420 for the encoder, done here rather than by libswscale, whose general
 * scaler path took 8.7 % of a 1080p Backdrop run for a conversion without any scaling.
 *
 * Y' = Kr·R + Kg·G + Kb·B, Cb = (B − Y')/(2(1 − Kb)), Cr = (R − Y')/(2(1 − Kr)) with the stream's
 * matrix (BT.601, BT.709 or BT.2020), scaled to video range (Y' 16 + 219·Y'/255, chroma 128 +
 * 224·C/255) or full range (Y' as is, chroma 128 + C). Chroma is computed from the mean of each
 * 2x2 block, centred between its four luma samples (libswscale averaged pixel pairs across and
 * filtered rows bilinearly: the same siting); a last odd column or row repeats its neighbour.
 * Alpha is ignored. The arithmetic is integer (16.16 fixed point, round half up), so the AVX2
 * build of the loops and the baseline one give the same bytes. */
#include "CVideoShims.h"

#include <libavutil/pixfmt.h>
#include <math.h>
#include <string.h>

/* Fixed-point weights: luma per sample, chroma per sum of four samples. */
typedef struct {
    int32_t yr, yg, yb, y_offset;
    int32_t ur, ug, ub, vr, vg, vb;
} weights;

static weights make_weights(int color_space, int full_range) {
    double kr = 0.2126, kb = 0.0722; /* BT.709 */
    if (color_space == AVCOL_SPC_BT470BG || color_space == AVCOL_SPC_SMPTE170M) { kr = 0.299; kb = 0.114; }
    if (color_space == AVCOL_SPC_BT2020_NCL) { kr = 0.2627; kb = 0.0593; }
    double kg = 1 - kr - kb;
    double ys = full_range ? 1 : 219.0 / 255, cs = full_range ? 1 : 224.0 / 255;
    double cb = cs / (2 * (1 - kb)), cr = cs / (2 * (1 - kr));
    const double one = 65536, quarter = 16384;
    weights w = {
        (int32_t)lround(ys * kr * one), (int32_t)lround(ys * kg * one), (int32_t)lround(ys * kb * one),
        (full_range ? 0 : 16) * 65536 + 32768,
        (int32_t)lround(-cb * kr * quarter), (int32_t)lround(-cb * kg * quarter), (int32_t)lround(cb * (1 - kb) * quarter),
        (int32_t)lround(cr * (1 - kr) * quarter), (int32_t)lround(-cr * kg * quarter), (int32_t)lround(-cr * kb * quarter),
    };
    return w;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "rgba_to_i420.c reads a pixel as one little-endian 32-bit word (R in the low byte)"
#endif

#define INLINE static inline __attribute__((always_inline))

INLINE uint8_t clamp8(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

/* One pixel as a word: R in bits 0-7, G 8-15, B 16-23 (whole-word loads let the loops vectorise). */
INLINE uint32_t pixel(const uint8_t *rgba, int x) {
    uint32_t word;
    memcpy(&word, rgba + 4 * (ptrdiff_t)x, 4);
    return word;
}

INLINE void luma_row(const uint8_t *rgba, uint8_t *out, int width, const weights *w) {
    for (int x = 0; x < width; x++) {
        uint32_t p = pixel(rgba, x);
        int32_t r = (int32_t)(p & 255), g = (int32_t)((p >> 8) & 255), b = (int32_t)((p >> 16) & 255);
        out[x] = (uint8_t)((w->yr * r + w->yg * g + w->yb * b + w->y_offset) >> 16);
    }
}

/* Columns handled at once by chroma_rows (even, so only the image's last chunk can be odd). */
#define CHUNK 512

/* The chroma row of the row pair top/bottom: each column's two samples summed, then each pair
 * of columns, so every sum covers a 2x2 block. */
INLINE void chroma_rows(const uint8_t *top, const uint8_t *bottom, uint8_t *cb, uint8_t *cr, int width, const weights *w) {
    const int32_t offset = 128 * 65536 + 32768;
    int16_t sr[CHUNK + 1], sg[CHUNK + 1], sb[CHUNK + 1];
    for (int x0 = 0; x0 < width; x0 += CHUNK) {
        int n = width - x0 < CHUNK ? width - x0 : CHUNK;
        for (int i = 0; i < n; i++) {
            uint32_t p = pixel(top, x0 + i), q = pixel(bottom, x0 + i);
            sr[i] = (int16_t)((p & 255) + (q & 255));
            sg[i] = (int16_t)(((p >> 8) & 255) + ((q >> 8) & 255));
            sb[i] = (int16_t)(((p >> 16) & 255) + ((q >> 16) & 255));
        }
        if (n % 2) { sr[n] = sr[n - 1]; sg[n] = sg[n - 1]; sb[n] = sb[n - 1]; }
        uint8_t *u = cb + x0 / 2, *v = cr + x0 / 2;
        for (int i = 0; i < (n + 1) / 2; i++) {
            int32_t r = sr[2 * i] + sr[2 * i + 1], g = sg[2 * i] + sg[2 * i + 1], b = sb[2 * i] + sb[2 * i + 1];
            u[i] = clamp8((w->ur * r + w->ug * g + w->ub * b + offset) >> 16);
            v[i] = clamp8((w->vr * r + w->vg * g + w->vb * b + offset) >> 16);
        }
    }
}

INLINE void convert(const uint8_t *rgba, int rgba_stride, int width, int height, const weights w,
                    uint8_t *const planes[3], const int strides[3]) {
    for (int y = 0; y < height; y += 2) {
        const uint8_t *top = rgba + (ptrdiff_t)y * rgba_stride;
        const uint8_t *bottom = y + 1 < height ? top + rgba_stride : top;
        luma_row(top, planes[0] + (ptrdiff_t)y * strides[0], width, &w);
        if (y + 1 < height) luma_row(bottom, planes[0] + (ptrdiff_t)(y + 1) * strides[0], width, &w);
        chroma_rows(top, bottom, planes[1] + (ptrdiff_t)(y / 2) * strides[1], planes[2] + (ptrdiff_t)(y / 2) * strides[2],
                    width, &w);
    }
}

/* The same loops compiled for AVX2 (eight 32-bit products at once; SSE2 has no 32-bit multiply)
 * and for the baseline: integer arithmetic, so both give the same bytes. */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static void convert_avx2(const uint8_t *rgba, int rgba_stride, int width, int height,
                                                         const weights w, uint8_t *const planes[3], const int strides[3]) {
    convert(rgba, rgba_stride, width, height, w, planes, strides);
}
#endif

static void convert_baseline(const uint8_t *rgba, int rgba_stride, int width, int height, const weights w,
                             uint8_t *const planes[3], const int strides[3]) {
    convert(rgba, rgba_stride, width, height, w, planes, strides);
}

/* 1 when the CPU has AVX2, 0 when not, -1 not yet asked (racing first calls store the same). */
static int has_avx2 = -1;

void gv_rgba_to_i420(const uint8_t *rgba, int rgba_stride, int width, int height, int color_space, int full_range,
                     uint8_t *const planes[3], const int strides[3]) {
#if defined(__x86_64__)
    int wide = __atomic_load_n(&has_avx2, __ATOMIC_RELAXED);
    if (wide < 0) {
        __builtin_cpu_init();
        wide = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&has_avx2, wide, __ATOMIC_RELAXED);
    }
    if (wide) return convert_avx2(rgba, rgba_stride, width, height, make_weights(color_space, full_range), planes, strides);
#endif
    convert_baseline(rgba, rgba_stride, width, height, make_weights(color_space, full_range), planes, strides);
}

void gv_rgba_to_i420_baseline(const uint8_t *rgba, int rgba_stride, int width, int height, int color_space, int full_range,
                              uint8_t *const planes[3], const int strides[3]) {
    convert_baseline(rgba, rgba_stride, width, height, make_weights(color_space, full_range), planes, strides);
}
