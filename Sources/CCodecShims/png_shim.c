/* libpng wrappers: png_set_error_fn with longjmp to our own jump buffer, warnings
 * collected silently, memory-based I/O, and row-by-row reads into the caller's buffer. */
#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shims_internal.h"

typedef struct ccs_png_err {
    jmp_buf jump;
    ccs_report *report;
} ccs_png_err;

static void ccs_png_error(png_structp png, png_const_charp message) {
    ccs_png_err *err = (ccs_png_err *)png_get_error_ptr(png);
    ccs_report_set_error(err->report, message, 0);
    longjmp(err->jump, 1);
}

static void ccs_png_warning(png_structp png, png_const_charp message) {
    ccs_png_err *err = (ccs_png_err *)png_get_error_ptr(png);
    ccs_report_add_warning(err->report, message);
}

/* ---- decoding ---- */

struct ccs_png_dec {
    ccs_png_err err; /* first member: it is the libpng error pointer */
    png_structp png;
    png_infop info;
    const unsigned char *data;
    size_t size;
    size_t position;
    /* Offset of the next chunk header (libpng reads each one as one 8-byte read). */
    size_t next_chunk;
};

static void ccs_png_read_data(png_structp png, png_bytep out, size_t length) {
    ccs_png_dec *dec = (ccs_png_dec *)png_get_io_ptr(png);
    if (length > dec->size - dec->position) {
        png_error(png, "Unexpected end of data: the PNG file is truncated");
    }
    if (dec->position == dec->next_chunk && length == 8) {
        /* A chunk header. libpng 1.6 allocates an ancillary chunk's whole declared length (and
         * zeroes it) before reading it, even past its own size limit, which it only warns about:
         * a 700-byte file declaring a 1.9 GB iTXt took 1.9 GB and seconds. A chunk cannot be
         * longer than the data left, so such a header is truncation. IDAT is read piecewise, so
         * a truncated image keeps libpng's own error. */
        const unsigned char *h = dec->data + dec->position;
        size_t declared = (size_t)h[0] << 24 | (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
        size_t left = dec->size - dec->position - 8;
        dec->next_chunk = dec->position + 12 + declared;
        if (declared + 4 > left && memcmp(h + 4, "IDAT", 4) != 0) {
            char type[5] = {0}, message[160];
            for (int i = 0; i < 4; i++) type[i] = isalpha(h[4 + i]) ? (char)h[4 + i] : '?';
            snprintf(message, sizeof message,
                     "Unexpected end of data: the PNG file is truncated (chunk %s declares %zu bytes, %zu remain)",
                     type, declared, left < 4 ? 0 : left - 4);
            png_error(png, message);
        }
    }
    memcpy(out, dec->data + dec->position, length);
    dec->position += length;
}

ccs_png_dec *ccs_png_dec_create(const unsigned char *data, size_t size, ccs_report *report) {
    ccs_png_dec *dec = calloc(1, sizeof(ccs_png_dec));
    if (dec == NULL) {
        ccs_report_set_error(report, "Out of memory creating the PNG decoder", 0);
        return NULL;
    }
    dec->err.report = report;
    dec->data = data;
    dec->size = size;
    dec->next_chunk = 8; /* after the signature */
    dec->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &dec->err, ccs_png_error, ccs_png_warning);
    if (dec->png == NULL) {
        ccs_report_set_error(report, "png_create_read_struct failed", 0);
        free(dec);
        return NULL;
    }
    dec->info = png_create_info_struct(dec->png);
    if (dec->info == NULL) {
        ccs_report_set_error(report, "png_create_info_struct failed", 0);
        png_destroy_read_struct(&dec->png, NULL, NULL);
        free(dec);
        return NULL;
    }
    png_set_read_fn(dec->png, dec, ccs_png_read_data);
    return dec;
}

void ccs_png_dec_destroy(ccs_png_dec *dec) {
    if (dec == NULL) return;
    png_destroy_read_struct(&dec->png, &dec->info, NULL);
    free(dec);
}

png_structp ccs_png_dec_png(ccs_png_dec *dec) { return dec->png; }
png_infop ccs_png_dec_info(ccs_png_dec *dec) { return dec->info; }

int ccs_png_dec_read_info(ccs_png_dec *dec) {
    if (setjmp(dec->err.jump)) return -1;
    png_read_info(dec->png, dec->info);
    return 0;
}

int ccs_png_dec_prepare(ccs_png_dec *dec, int swap16, int rgba, int *passes) {
    if (setjmp(dec->err.jump)) return -1;
    png_set_expand(dec->png);
    if (rgba) {
        png_set_gray_to_rgb(dec->png);
        png_set_add_alpha(dec->png, 0xFFFF, PNG_FILLER_AFTER);
    }
    if (swap16 && png_get_bit_depth(dec->png, dec->info) == 16) png_set_swap(dec->png);
    *passes = png_set_interlace_handling(dec->png);
    png_read_update_info(dec->png, dec->info);
    return 0;
}

int ccs_png_dec_read_rows(ccs_png_dec *dec, unsigned char *base, size_t stride,
                          unsigned int height, int passes) {
    if (setjmp(dec->err.jump)) return -1;
    for (int pass = 0; pass < passes; pass++) {
        for (unsigned int y = 0; y < height; y++) {
            png_read_row(dec->png, base + (size_t)y * stride, NULL);
        }
    }
    return 0;
}

int ccs_png_dec_read_end(ccs_png_dec *dec) {
    if (setjmp(dec->err.jump)) return -1;
    png_read_end(dec->png, dec->info);
    return 0;
}

/* ---- encoding ---- */

typedef struct ccs_png_enc_state {
    ccs_png_err err;
    png_structp png;
    png_infop info;
    unsigned char *buffer;
    size_t size;
    size_t capacity;
} ccs_png_enc_state;

static void ccs_png_write_data(png_structp png, png_bytep data, size_t length) {
    ccs_png_enc_state *st = (ccs_png_enc_state *)png_get_io_ptr(png);
    if (length > st->capacity - st->size) {
        size_t capacity = st->capacity ? st->capacity : 65536;
        while (length > capacity - st->size) {
            if (capacity > ((size_t)-1) / 2) png_error(png, "PNG output too large");
            capacity *= 2;
        }
        unsigned char *grown = realloc(st->buffer, capacity);
        if (grown == NULL) png_error(png, "Out of memory growing the PNG output buffer");
        st->buffer = grown;
        st->capacity = capacity;
    }
    memcpy(st->buffer + st->size, data, length);
    st->size += length;
}

static void ccs_png_flush(png_structp png) { (void)png; }

int ccs_png_encode(const ccs_png_enc_params *p, unsigned char **out, size_t *out_size,
                   ccs_report *report) {
    *out = NULL;
    *out_size = 0;
    ccs_png_enc_state *st = calloc(1, sizeof(ccs_png_enc_state));
    if (st == NULL) {
        ccs_report_set_error(report, "Out of memory creating the PNG encoder", 0);
        return -1;
    }
    st->err.report = report;
    st->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &st->err, ccs_png_error, ccs_png_warning);
    if (st->png == NULL) {
        ccs_report_set_error(report, "png_create_write_struct failed", 0);
        free(st);
        return -1;
    }
    st->info = png_create_info_struct(st->png);
    if (st->info == NULL) {
        ccs_report_set_error(report, "png_create_info_struct failed", 0);
        png_destroy_write_struct(&st->png, NULL);
        free(st);
        return -1;
    }
    if (setjmp(st->err.jump)) {
        png_destroy_write_struct(&st->png, &st->info);
        free(st->buffer);
        free(st);
        return -1;
    }
    png_set_write_fn(st->png, st, ccs_png_write_data, ccs_png_flush);
    png_set_IHDR(st->png, st->info, p->width, p->height, p->bit_depth, p->color_type,
                 p->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (p->icc != NULL && p->icc_size > 0) {
        png_set_iCCP(st->png, st->info, p->icc_name ? p->icc_name : "ICC profile",
                     PNG_COMPRESSION_TYPE_BASE, p->icc, p->icc_size);
    }
    if (p->exif != NULL && p->exif_size > 0) {
        png_set_eXIf_1(st->png, st->info, p->exif_size, (png_bytep)p->exif);
    }
    if (p->xmp != NULL) {
        /* As Adobe and exiftool write it: iTXt, uncompressed, no language tag. */
        png_text text = {0};
        text.compression = PNG_ITXT_COMPRESSION_NONE;
        text.key = "XML:com.adobe.xmp";
        text.text = (png_charp)p->xmp;
        text.itxt_length = p->xmp_length;
        text.lang = "";
        text.lang_key = "";
        png_set_text(st->png, st->info, &text, 1);
    }
    if (p->compression_level >= 0) png_set_compression_level(st->png, p->compression_level);
    png_write_info(st->png, st->info);
    if (p->swap16 && p->bit_depth == 16) png_set_swap(st->png);
    int passes = png_set_interlace_handling(st->png);
    for (int pass = 0; pass < passes; pass++) {
        for (unsigned int y = 0; y < p->height; y++) {
            png_write_row(st->png, p->pixels + (size_t)y * p->stride);
        }
    }
    /* Every chunk was written before the image data; passing info again would make libpng
     * before 1.6.40 write eXIf a second time (pnggroup/libpng#480). */
    png_write_end(st->png, NULL);
    *out = st->buffer;
    *out_size = st->size;
    st->buffer = NULL;
    png_destroy_write_struct(&st->png, &st->info);
    free(st);
    return 0;
}
