/* libpng wrappers: png_set_error_fn with longjmp to our own jump buffer, warnings
 * collected silently, memory-based or file-descriptor I/O, and row-by-row reads into the
 * caller's buffer. */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* A file is read through a window of this many bytes (pread), so it is never held whole. */
#define CCS_PNG_FD_WINDOW 65536

struct ccs_png_dec {
    ccs_png_err err; /* first member: it is the libpng error pointer */
    png_structp png;
    png_infop info;
    const unsigned char *data; /* the bytes in memory; NULL when reading a file */
    size_t size;               /* of the data, or of the file */
    size_t position;
    /* Offset of the next chunk header (libpng reads each one as one 8-byte read). */
    size_t next_chunk;
    /* Reading a file: its descriptor (-1 for memory) and the window last read from it, file
     * bytes window_start ..< window_start + window_length. */
    int fd;
    unsigned char *window;
    size_t window_start, window_length;
};

/* Copies `length` bytes from the read position into `out` (the caller checked they are within
 * `size`): from memory, or from the file through the window, read again with pread when the
 * position leaves it (positional: decodes of one file share the descriptor). */
static void ccs_png_copy(png_structp png, ccs_png_dec *dec, png_bytep out, size_t length) {
    if (dec->fd < 0) {
        memcpy(out, dec->data + dec->position, length);
        return;
    }
    size_t done = 0;
    while (done < length) {
        size_t at = dec->position + done;
        if (at < dec->window_start || at >= dec->window_start + dec->window_length) {
            size_t want = dec->size - at < CCS_PNG_FD_WINDOW ? dec->size - at : CCS_PNG_FD_WINDOW;
            ssize_t got;
            do {
                got = pread(dec->fd, dec->window, want, (off_t)at);
            } while (got < 0 && errno == EINTR);
            if (got < 0) {
                char message[160];
                snprintf(message, sizeof message, "Read error at byte %zu of the file: %s", at, strerror(errno));
                png_error(png, message);
            }
            if (got == 0) png_error(png, "Unexpected end of data: the PNG file is truncated (it shrank while being read)");
            dec->window_start = at;
            dec->window_length = (size_t)got;
        }
        size_t offset = at - dec->window_start;
        size_t count = length - done < dec->window_length - offset ? length - done : dec->window_length - offset;
        memcpy(out + done, dec->window + offset, count);
        done += count;
    }
}

static void ccs_png_read_data(png_structp png, png_bytep out, size_t length) {
    ccs_png_dec *dec = (ccs_png_dec *)png_get_io_ptr(png);
    if (length > dec->size - dec->position) {
        png_error(png, "Unexpected end of data: the PNG file is truncated");
    }
    ccs_png_copy(png, dec, out, length);
    if (dec->position == dec->next_chunk && length == 8) {
        /* A chunk header. libpng 1.6 allocates an ancillary chunk's whole declared length (and
         * zeroes it) before reading it, even past its own size limit, which it only warns about:
         * a 700-byte file declaring a 1.9 GB iTXt took 1.9 GB and seconds. A chunk cannot be
         * longer than the data left, so such a header is truncation. IDAT is read piecewise, so
         * a truncated image keeps libpng's own error. */
        const unsigned char *h = out;
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
    dec->fd = -1;
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

ccs_png_dec *ccs_png_dec_create_fd(int fd, size_t size, ccs_report *report) {
    unsigned char *window = malloc(CCS_PNG_FD_WINDOW);
    if (window == NULL) {
        ccs_report_set_error(report, "Out of memory creating the PNG decoder", 0);
        return NULL;
    }
    ccs_png_dec *dec = ccs_png_dec_create(NULL, size, report);
    if (dec == NULL) {
        free(window);
        return NULL;
    }
    dec->fd = fd;
    dec->window = window;
    return dec;
}

void ccs_png_dec_destroy(ccs_png_dec *dec) {
    if (dec == NULL) return;
    png_destroy_read_struct(&dec->png, &dec->info, NULL);
    free(dec->window);
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

/* One encoder: the libpng write struct and where the file goes, memory (a growing buffer) or a
 * file descriptor (written through a 256 KiB buffer). */
struct ccs_png_enc {
    ccs_png_err err; /* first member: it is the libpng error pointer */
    png_structp png;
    png_infop info;
    int fd;           /* -1: memory */
    unsigned char *buffer;
    size_t size;      /* bytes in the buffer */
    size_t capacity;
    size_t written;   /* bytes written to the descriptor */
    int saved_errno;
    unsigned int height, next_row;
    int idat_written; /* the image data came as IDAT chunks (ccs_png_enc_write_idat), not rows */
};

#define CCS_PNG_FD_BUFFER (256 * 1024)

static void ccs_png_fd_flush(png_structp png, struct ccs_png_enc *st) {
    size_t done = 0;
    while (done < st->size) {
        ssize_t n = write(st->fd, st->buffer + done, st->size - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            st->saved_errno = errno;
            png_error(png, "writing the PNG file failed");
        }
        done += (size_t)n;
    }
    st->written += st->size;
    st->size = 0;
}

static void ccs_png_write_data(png_structp png, png_bytep data, size_t length) {
    struct ccs_png_enc *st = (struct ccs_png_enc *)png_get_io_ptr(png);
    if (st->fd >= 0) {
        while (length > 0) {
            size_t n = length < st->capacity - st->size ? length : st->capacity - st->size;
            memcpy(st->buffer + st->size, data, n);
            st->size += n;
            data += n;
            length -= n;
            if (st->size == st->capacity) ccs_png_fd_flush(png, st);
        }
        return;
    }
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

void ccs_png_enc_destroy(ccs_png_enc *enc) {
    if (enc == NULL) return;
    png_destroy_write_struct(&enc->png, &enc->info);
    free(enc->buffer);
    free(enc);
}

ccs_png_enc *ccs_png_enc_create(const ccs_png_enc_params *p, int fd, ccs_report *report) {
    ccs_png_enc *st = calloc(1, sizeof(ccs_png_enc));
    if (st == NULL) {
        ccs_report_set_error(report, "Out of memory creating the PNG encoder", 0);
        return NULL;
    }
    st->err.report = report;
    st->fd = fd;
    st->height = p->height;
    if (fd >= 0) {
        st->capacity = CCS_PNG_FD_BUFFER;
        st->buffer = malloc(st->capacity);
        if (st->buffer == NULL) {
            ccs_report_set_error(report, "Out of memory creating the PNG encoder", 0);
            free(st);
            return NULL;
        }
    }
    st->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &st->err, ccs_png_error, ccs_png_warning);
    if (st->png == NULL) {
        ccs_report_set_error(report, "png_create_write_struct failed", 0);
        ccs_png_enc_destroy(st);
        return NULL;
    }
    st->info = png_create_info_struct(st->png);
    if (st->info == NULL) {
        ccs_report_set_error(report, "png_create_info_struct failed", 0);
        ccs_png_enc_destroy(st);
        return NULL;
    }
    if (setjmp(st->err.jump)) {
        ccs_png_enc_destroy(st);
        return NULL;
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
    return st;
}

int ccs_png_enc_io_errno(const ccs_png_enc *enc) { return enc->saved_errno; }

/* Compresses `count` rows (row i at base + i * stride) through libpng's own IDAT writer. */
static int ccs_png_enc_write_rows(ccs_png_enc *enc, const unsigned char *base, size_t stride, unsigned int count) {
    if (setjmp(enc->err.jump)) return -1;
    if (count > enc->height - enc->next_row) png_error(enc->png, "more rows than the image height");
    for (unsigned int y = 0; y < count; y++) {
        png_write_row(enc->png, base + (size_t)y * stride);
        enc->next_row++;
    }
    return 0;
}

int ccs_png_enc_write_idat(ccs_png_enc *enc, const unsigned char *data, size_t size) {
    if (setjmp(enc->err.jump)) return -1;
    enc->idat_written = 1;
    do {
        size_t length = size < PNG_UINT_31_MAX ? size : PNG_UINT_31_MAX;
        png_write_chunk(enc->png, (png_const_bytep)"IDAT", data, length);
        data += length;
        size -= length;
    } while (size > 0);
    return 0;
}

int ccs_png_enc_finish(ccs_png_enc *enc, unsigned char **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (setjmp(enc->err.jump)) return -1;
    if (enc->idat_written) {
        /* libpng did not see the image data (it would refuse png_write_end): IEND alone is what
         * png_write_end writes after it when given no info. */
        png_write_chunk(enc->png, (png_const_bytep)"IEND", NULL, 0);
    } else {
        if (enc->next_row != enc->height) png_error(enc->png, "finished before every row was written");
        /* Every chunk was written before the image data; passing info again would make libpng
         * before 1.6.40 write eXIf a second time (pnggroup/libpng#480). */
        png_write_end(enc->png, NULL);
    }
    if (enc->fd >= 0) {
        ccs_png_fd_flush(enc->png, enc);
        *out_size = enc->written;
        return 0;
    }
    *out = enc->buffer;
    *out_size = enc->size;
    enc->buffer = NULL;
    return 0;
}

int ccs_png_encode(const ccs_png_enc_params *p, unsigned char **out, size_t *out_size,
                   ccs_report *report) {
    *out = NULL;
    *out_size = 0;
    ccs_png_enc *enc = ccs_png_enc_create(p, -1, report);
    if (enc == NULL) return -1;
    int status = 0;
    /* Adam7 writes the whole image once per pass (png_set_interlace_handling cannot fail; the
     * calls that can set their own jump points). */
    int passes = png_set_interlace_handling(enc->png);
    for (int pass = 0; pass < passes && status == 0; pass++) {
        enc->next_row = 0;
        status = ccs_png_enc_write_rows(enc, p->pixels, p->stride, p->height);
    }
    if (status == 0) status = ccs_png_enc_finish(enc, out, out_size);
    ccs_png_enc_destroy(enc);
    return status;
}
