/* A PNG's image data compressed in independent bands, pigz's way: rows are filtered with
 * libpng's adaptive filter choice, each band of filtered rows is deflated on its own by
 * libdeflate, its final block made non-final and followed by an empty stored block (what zlib's
 * sync flush writes) so the pieces concatenate, and the pieces joined give one zlib stream whose
 * Adler-32 is combined from the bands'. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>
#include "shims_internal.h"

/* ---- filtering ---- */

struct ccs_png_filter {
    size_t row_bytes;
    unsigned int bpp;
    int swap16;
    unsigned char *prior;   /* the previous row as stored (zeros before the first row) */
    unsigned char *current; /* the row being filtered, as stored */
};

ccs_png_filter *ccs_png_filter_create(size_t row_bytes, unsigned int bpp, int swap16) {
    ccs_png_filter *f = calloc(1, sizeof(ccs_png_filter));
    if (f == NULL) return NULL;
    f->row_bytes = row_bytes;
    f->bpp = bpp;
    f->swap16 = swap16;
    f->prior = calloc(row_bytes ? row_bytes : 1, 1);
    f->current = malloc(row_bytes ? row_bytes : 1);
    if (f->prior == NULL || f->current == NULL) {
        ccs_png_filter_destroy(f);
        return NULL;
    }
    return f;
}

void ccs_png_filter_destroy(ccs_png_filter *f) {
    if (f == NULL) return;
    free(f->prior);
    free(f->current);
    free(f);
}

/* The magnitude of a filtered byte read as signed, 0...128: what libpng sums. */
static inline unsigned int ccs_signed_magnitude(unsigned int v) {
    v &= 0xFF;
    return v < 128 ? v : 256 - v;
}

/* The same on a byte, as min(v, -v) mod 256 (one unsigned minimum per byte in vector code). */
static inline uint8_t ccs_byte_magnitude(uint8_t v) {
    uint8_t negated = (uint8_t)-v;
    return v < negated ? v : negated;
}

/* PNG's Paeth predictor from left a, up b and upper-left c (16-bit lanes in vector code). */
static inline uint8_t ccs_paeth(int16_t a, int16_t b, int16_t c) {
    int16_t p = (int16_t)(b - c), q = (int16_t)(a - c), r = (int16_t)(p + q);
    int16_t pa = p < 0 ? (int16_t)-p : p;
    int16_t pb = q < 0 ? (int16_t)-q : q;
    int16_t pc = r < 0 ? (int16_t)-r : r;
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc) ? b : c);
}

/* Sums of the five filters' outputs over a row of `n` bytes (bytes before `bpp` have no left
 * neighbour: a = c = 0). Blocks of 256 bytes keep 16-bit sums (at most 256 * 128) exact, which
 * lets vector code add 8 or 16 of them at once. */
static void ccs_filter_sums(const uint8_t *row, const uint8_t *prior, size_t n, unsigned int bpp, size_t sums[5]) {
    size_t head = n < bpp ? n : bpp;
    for (size_t i = 0; i < head; i++) {
        unsigned int x = row[i], b = prior[i];
        sums[0] += ccs_signed_magnitude(x);
        sums[1] += ccs_signed_magnitude(x);
        sums[2] += ccs_signed_magnitude(x - b);
        sums[3] += ccs_signed_magnitude(x - (b >> 1));
        sums[4] += ccs_signed_magnitude(x - b);
    }
    for (size_t start = head; start < n;) {
        size_t block = n - start < 256 ? n - start : 256;
        uint16_t none = 0, sub = 0, up = 0, avg = 0, paeth = 0;
        const uint8_t *x = row + start, *b = prior + start, *a = x - bpp, *c = b - bpp;
        for (size_t i = 0; i < block; i++) {
            none += ccs_byte_magnitude(x[i]);
            sub += ccs_byte_magnitude((uint8_t)(x[i] - a[i]));
            up += ccs_byte_magnitude((uint8_t)(x[i] - b[i]));
            avg += ccs_byte_magnitude((uint8_t)(x[i] - (uint8_t)(((unsigned int)a[i] + b[i]) >> 1)));
            paeth += ccs_byte_magnitude((uint8_t)(x[i] - ccs_paeth(a[i], b[i], c[i])));
        }
        sums[0] += none;
        sums[1] += sub;
        sums[2] += up;
        sums[3] += avg;
        sums[4] += paeth;
        start += block;
    }
}

/* Writes filter `type` of `row` (previous row `prior`) to out[1...] and the type to out[0]. */
static void ccs_filter_apply(const unsigned char *row, const unsigned char *prior, size_t n, unsigned int bpp,
                             int type, unsigned char *out) {
    out[0] = (unsigned char)type;
    unsigned char *d = out + 1;
    size_t head = n < bpp ? n : bpp;
    for (size_t i = 0; i < head; i++) {
        unsigned int x = row[i], b = prior[i];
        unsigned int predicted = type == 2 || type == 4 ? b : type == 3 ? b >> 1 : 0;
        d[i] = (unsigned char)(x - predicted);
    }
    const unsigned char *a = row - bpp, *c = prior - bpp;
    switch (type) {
    case 0: memcpy(d + head, row + head, n - head); break;
    case 1: for (size_t i = head; i < n; i++) d[i] = (unsigned char)(row[i] - a[i]); break;
    case 2: for (size_t i = head; i < n; i++) d[i] = (unsigned char)(row[i] - prior[i]); break;
    case 3:
        for (size_t i = head; i < n; i++) d[i] = (unsigned char)(row[i] - (((unsigned int)a[i] + prior[i]) >> 1));
        break;
    default:
        for (size_t i = head; i < n; i++) d[i] = (unsigned char)(row[i] - ccs_paeth(a[i], prior[i], c[i]));
        break;
    }
}

void ccs_png_filter_rows(ccs_png_filter *f, const unsigned char *rows, size_t stride, unsigned int count,
                         unsigned char *out) {
    size_t n = f->row_bytes;
    for (unsigned int y = 0; y < count; y++) {
        const unsigned char *source = rows + (size_t)y * stride;
        if (f->swap16) {
            for (size_t i = 0; i + 1 < n; i += 2) {
                f->current[i] = source[i + 1];
                f->current[i + 1] = source[i];
            }
        } else {
            memcpy(f->current, source, n);
        }
        /* libpng's choice (png_write_find_filter, 1.6): the smallest sum of the filtered bytes
         * read as signed, None, Sub, Up, Average, Paeth in that order, the first one on a tie. */
        size_t sums[5] = {0, 0, 0, 0, 0};
        ccs_filter_sums(f->current, f->prior, n, f->bpp, sums);
        int best = 0;
        for (int type = 1; type < 5; type++) {
            if (sums[type] < sums[best]) best = type;
        }
        ccs_filter_apply(f->current, f->prior, n, f->bpp, best, out + (size_t)y * (n + 1));
        unsigned char *swap = f->prior;
        f->prior = f->current;
        f->current = swap;
    }
}

/* ---- deflating a band ---- */

/* Bytes of decompressed output the block walk throws away per inflate call. */
#define CCS_WALK_SCRATCH (64u << 10)

struct ccs_png_deflater {
    struct libdeflate_compressor *compressor;
    z_stream walker;         /* raw inflate, to find where a band's last block starts */
    unsigned char *scratch;  /* CCS_WALK_SCRATCH bytes of the walk's output */
    int level;
};

ccs_png_deflater *ccs_png_deflater_create(int level) {
    ccs_png_deflater *d = calloc(1, sizeof(ccs_png_deflater));
    if (d == NULL) return NULL;
    d->level = level;
    d->compressor = libdeflate_alloc_compressor(level);
    d->scratch = malloc(CCS_WALK_SCRATCH);
    if (d->compressor == NULL || d->scratch == NULL || inflateInit2(&d->walker, -15) != Z_OK) {
        libdeflate_free_compressor(d->compressor);
        free(d->scratch);
        free(d);
        return NULL;
    }
    return d;
}

void ccs_png_deflater_destroy(ccs_png_deflater *d) {
    if (d == NULL) return;
    inflateEnd(&d->walker);
    libdeflate_free_compressor(d->compressor);
    free(d->scratch);
    free(d);
}

/* RFC 1950's two header bytes for a 32 KiB window at `level` (FLEVEL as zlib and libdeflate set
 * it), such that CMF * 256 + FLG is a multiple of 31. */
static void ccs_zlib_header(int level, unsigned char header[2]) {
    unsigned int flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
    unsigned int value = 0x78u << 8 | flevel << 6;
    value += 31 - value % 31;
    header[0] = (unsigned char)(value >> 8);
    header[1] = (unsigned char)value;
}

/* Makes the raw deflate stream at `stream` (`*size` bytes, ending with its final block) one that
 * another stream can follow: the final block's BFINAL bit is cleared and an empty stored block is
 * appended, byte aligned (5 bytes of room needed after `*size`). zlib's gzjoin method: inflate
 * with Z_BLOCK stops at each block boundary and reports the unused bits of the last byte read,
 * which locate the next block's header bit, and where the final block ends. Returns Z_OK, or
 * Z_DATA_ERROR if the stream does not decode (libdeflate wrote something else than deflate). */
static int ccs_continue_stream(ccs_png_deflater *d, unsigned char *stream, size_t *size) {
    z_stream *z = &d->walker;
    if (inflateReset(z) != Z_OK) return Z_STREAM_ERROR;
    z->next_in = stream;
    z->avail_in = (uInt)*size;
    size_t header_byte = 0;         /* the byte holding the current block's BFINAL bit */
    unsigned int header_mask = 1;   /* and that bit */
    size_t end_byte = 0;            /* the bytes up to the final block's end (last one partly) */
    int end_unused_bits = -1;       /* bits left unused in that last byte */
    for (;;) {
        z->next_out = d->scratch;
        z->avail_out = CCS_WALK_SCRATCH;
        int status = inflate(z, Z_BLOCK);
        if (status == Z_STREAM_END) break;
        if (status != Z_OK) return Z_DATA_ERROR;
        if (!(z->data_type & 128)) continue;  /* stopped for output room, inside a block */
        int unused = z->data_type & 7;
        size_t used = (size_t)(z->next_in - stream);
        if (z->data_type & 64) {
            /* Just after the final block's end-of-block code. */
            end_byte = used;
            end_unused_bits = unused;
        } else {
            /* Between blocks: the next header starts at the first unused bit. */
            header_byte = unused ? used - 1 : used;
            header_mask = unused ? 0x100u >> unused : 1;
        }
    }
    if (end_unused_bits < 0 || header_byte >= *size) return Z_DATA_ERROR;
    stream[header_byte] &= (unsigned char)~header_mask;
    /* The stored block's 3 header bits (not final, type 0) are zeros: they fit in the final
     * byte's zero padding when 3 bits are left, else take one more byte; then LEN 0, NLEN ~0. */
    size_t at = end_byte;
    if (end_unused_bits < 3) stream[at++] = 0;
    stream[at++] = 0x00;
    stream[at++] = 0x00;
    stream[at++] = 0xFF;
    stream[at++] = 0xFF;
    *size = at;
    return Z_OK;
}

int ccs_png_deflate_band(ccs_png_deflater *d, ccs_png_band *band) {
    size_t header = band->first ? 2 : 0, trailer = band->last ? 4 : 0;
    size_t needed = header + libdeflate_deflate_compress_bound(d->compressor, band->size) + 5 + trailer;
    if (band->output_capacity < needed) {
        unsigned char *grown = realloc(band->output, needed);
        if (grown == NULL) return Z_MEM_ERROR;
        band->output = grown;
        band->output_capacity = needed;
    }
    if (band->first) ccs_zlib_header(d->level, band->output);
    size_t size = libdeflate_deflate_compress(d->compressor, band->data, band->size, band->output + header,
                                              band->output_capacity - header - 5 - trailer);
    if (size == 0) return Z_BUF_ERROR;  /* not within libdeflate's own bound: cannot happen */
    if (!band->last) {
        int status = ccs_continue_stream(d, band->output + header, &size);
        if (status != Z_OK) return status;
    }
    band->output_size = header + size;
    band->adler = libdeflate_adler32(1, band->data, band->size);
    return Z_OK;
}
