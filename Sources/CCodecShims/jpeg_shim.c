/* libjpeg-turbo wrappers: setjmp/longjmp error handling, silent warning collection,
 * a scan-count limit against pathological progressive files, and row-by-row I/O
 * straight into the caller's buffer. */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <jerror.h>
#include "shims_internal.h"

typedef struct ccs_jpeg_err {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    ccs_report *report;
} ccs_jpeg_err;

static void ccs_jpeg_error_exit(j_common_ptr cinfo) {
    ccs_jpeg_err *err = (ccs_jpeg_err *)cinfo->err;
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    ccs_report_set_error(err->report, message, cinfo->err->msg_code);
    longjmp(err->jump, 1);
}

static void ccs_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return; /* trace messages: ignored */
    ccs_jpeg_err *err = (ccs_jpeg_err *)cinfo->err;
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) ccs_report_add_flags(err->report, CCS_FLAG_PREMATURE_END);
    ccs_report_add_warning(err->report, message);
    cinfo->err->num_warnings++;
}

static void ccs_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; /* never print */ }

static void ccs_jpeg_install_errors(ccs_jpeg_err *err, ccs_report *report) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = ccs_jpeg_error_exit;
    err->pub.emit_message = ccs_jpeg_emit_message;
    err->pub.output_message = ccs_jpeg_output_message;
    err->report = report;
}

/* ---- decoding ---- */

/* A source reading an open file with pread (as jpeg_stdio_src, but positional: decodes of one
 * file at several scales share the descriptor). */
#define CCS_JPEG_FD_CHUNK 65536
typedef struct ccs_fd_src {
    struct jpeg_source_mgr pub;
    int fd;
    long long position, end;
    int saved_errno;
    JOCTET buffer[CCS_JPEG_FD_CHUNK];
} ccs_fd_src;

struct ccs_jpeg_dec {
    struct jpeg_decompress_struct cinfo; /* first member: the progress callback casts */
    ccs_jpeg_err err;
    struct jpeg_progress_mgr progress;
    int max_scans;
    ccs_fd_src *fd_source; /* NULL for a memory source */
};

static void ccs_fd_init_source(j_decompress_ptr cinfo) { (void)cinfo; }
static void ccs_fd_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean ccs_fd_fill_input_buffer(j_decompress_ptr cinfo) {
    ccs_fd_src *src = (ccs_fd_src *)cinfo->src;
    ssize_t count = 0;
    long long left = src->end - src->position;
    if (left > 0) {
        do {
            count = pread(src->fd, src->buffer, left < CCS_JPEG_FD_CHUNK ? (size_t)left : CCS_JPEG_FD_CHUNK,
                          (off_t)src->position);
        } while (count < 0 && errno == EINTR);
        if (count < 0) src->saved_errno = errno;
    }
    if (count <= 0) {
        /* As jpeg_mem_src at the end of its data: warn and insert a fake EOI. */
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->buffer[0] = (JOCTET)0xFF;
        src->buffer[1] = (JOCTET)JPEG_EOI;
        count = 2;
    } else {
        src->position += count;
    }
    src->pub.next_input_byte = src->buffer;
    src->pub.bytes_in_buffer = (size_t)count;
    return TRUE;
}

static void ccs_fd_skip_input_data(j_decompress_ptr cinfo, long num_bytes) {
    ccs_fd_src *src = (ccs_fd_src *)cinfo->src;
    if (num_bytes <= 0) return;
    if ((size_t)num_bytes <= src->pub.bytes_in_buffer) {
        src->pub.next_input_byte += num_bytes;
        src->pub.bytes_in_buffer -= (size_t)num_bytes;
        return;
    }
    src->position += num_bytes - (long)src->pub.bytes_in_buffer;
    src->pub.bytes_in_buffer = 0;
}

static void ccs_jpeg_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    ccs_jpeg_dec *dec = (ccs_jpeg_dec *)cinfo;
    if (dec->max_scans > 0 && dec->cinfo.input_scan_number > dec->max_scans) {
        char message[JMSG_LENGTH_MAX];
        snprintf(message, sizeof message, "Scan number %d exceeds the limit of %d scans",
                 dec->cinfo.input_scan_number, dec->max_scans);
        ccs_report_set_error(dec->err.report, message, 0);
        ccs_report_add_flags(dec->err.report, CCS_FLAG_SCAN_LIMIT);
        longjmp(dec->err.jump, 1);
    }
}

ccs_jpeg_dec *ccs_jpeg_dec_create(const unsigned char *data, size_t size, ccs_report *report,
                                  int max_scans) {
    ccs_jpeg_dec *dec = calloc(1, sizeof(ccs_jpeg_dec));
    if (dec == NULL) {
        ccs_report_set_error(report, "Out of memory creating the JPEG decoder", 0);
        return NULL;
    }
    dec->cinfo.err = &dec->err.pub;
    ccs_jpeg_install_errors(&dec->err, report);
    dec->max_scans = max_scans;
    if (setjmp(dec->err.jump)) {
        jpeg_destroy_decompress(&dec->cinfo);
        free(dec);
        return NULL;
    }
    jpeg_create_decompress(&dec->cinfo);
    jpeg_mem_src(&dec->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&dec->cinfo, JPEG_COM, 0xFFFF);
    for (int i = 0; i < 16; i++) jpeg_save_markers(&dec->cinfo, JPEG_APP0 + i, 0xFFFF);
    dec->progress.progress_monitor = ccs_jpeg_progress;
    dec->cinfo.progress = &dec->progress;
    return dec;
}

ccs_jpeg_dec *ccs_jpeg_dec_create_fd(int fd, long long length, ccs_report *report, int max_scans) {
    ccs_fd_src *src = calloc(1, sizeof(ccs_fd_src));
    if (src == NULL) {
        ccs_report_set_error(report, "Out of memory creating the JPEG decoder", 0);
        return NULL;
    }
    /* An empty memory source first (for the setup), then ours in its place. */
    static const unsigned char none[2] = {0xFF, 0xD9};
    ccs_jpeg_dec *dec = ccs_jpeg_dec_create(none, sizeof none, report, max_scans);
    if (dec == NULL) {
        free(src);
        return NULL;
    }
    src->fd = fd;
    src->end = length;
    src->pub.init_source = ccs_fd_init_source;
    src->pub.fill_input_buffer = ccs_fd_fill_input_buffer;
    src->pub.skip_input_data = ccs_fd_skip_input_data;
    src->pub.resync_to_restart = jpeg_resync_to_restart;
    src->pub.term_source = ccs_fd_term_source;
    dec->fd_source = src;
    dec->cinfo.src = &src->pub;
    return dec;
}

int ccs_jpeg_dec_io_errno(const ccs_jpeg_dec *dec) { return dec->fd_source ? dec->fd_source->saved_errno : 0; }

void ccs_jpeg_dec_destroy(ccs_jpeg_dec *dec) {
    if (dec == NULL) return;
    if (dec->fd_source != NULL) dec->cinfo.src = NULL; /* ours: libjpeg must not touch it */
    jpeg_destroy_decompress(&dec->cinfo);
    free(dec->fd_source);
    free(dec);
}

struct jpeg_decompress_struct *ccs_jpeg_dec_cinfo(ccs_jpeg_dec *dec) { return &dec->cinfo; }

int ccs_jpeg_dec_read_header(ccs_jpeg_dec *dec) {
    if (setjmp(dec->err.jump)) return -1;
    int result = jpeg_read_header(&dec->cinfo, TRUE);
    if (result != JPEG_HEADER_OK) {
        ccs_report_set_error(dec->err.report, "No JPEG image found (tables-only datastream)", 0);
        return -1;
    }
    return 0;
}

int ccs_jpeg_dec_calc_output(ccs_jpeg_dec *dec) {
    if (setjmp(dec->err.jump)) return -1;
    jpeg_calc_output_dimensions(&dec->cinfo);
    return 0;
}

int ccs_jpeg_dec_start(ccs_jpeg_dec *dec) {
    if (setjmp(dec->err.jump)) return -1;
    if (!jpeg_start_decompress(&dec->cinfo)) {
        ccs_report_set_error(dec->err.report, "libjpeg suspended while starting decompression", 0);
        return -1;
    }
    return 0;
}

int ccs_jpeg_dec_read_rows(ccs_jpeg_dec *dec, unsigned char *base, size_t stride,
                           unsigned int max_rows, unsigned int *rows_read) {
    /* volatile: read after a longjmp */
    volatile unsigned int done = 0;
    *rows_read = 0;
    if (setjmp(dec->err.jump)) {
        *rows_read = done;
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &dec->cinfo;
    unsigned int left = cinfo->output_height - cinfo->output_scanline;
    unsigned int wanted = max_rows < left ? max_rows : left;
    while (done < wanted) {
        JSAMPROW rows[16];
        JDIMENSION count = 0;
        while (count < 16 && done + count < wanted) {
            rows[count] = base + (size_t)(done + count) * stride;
            count++;
        }
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows, count);
        if (got == 0) {
            ccs_report_set_error(dec->err.report, "libjpeg returned no scanlines", 0);
            *rows_read = done;
            return -1;
        }
        done += got;
    }
    *rows_read = done;
    return 0;
}

int ccs_jpeg_dec_read_all(ccs_jpeg_dec *dec, unsigned char *base, size_t stride) {
    struct jpeg_decompress_struct *cinfo = &dec->cinfo;
    unsigned int got = 0;
    unsigned int first = cinfo->output_scanline;
    return ccs_jpeg_dec_read_rows(dec, base + (size_t)first * stride, stride,
                                  cinfo->output_height - first, &got);
}

int ccs_jpeg_dec_finish(ccs_jpeg_dec *dec) {
    if (setjmp(dec->err.jump)) return -1;
    jpeg_finish_decompress(&dec->cinfo);
    return 0;
}

/* ---- encoding ---- */

/* Memory destination growing by realloc (jpeg_mem_dest copies on every growth). */
typedef struct ccs_mem_dest {
    struct jpeg_destination_mgr pub;
    unsigned char *buffer;
    size_t capacity;
    size_t size; /* set by term_destination */
} ccs_mem_dest;

static void ccs_mem_init(j_compress_ptr cinfo) {
    ccs_mem_dest *d = (ccs_mem_dest *)cinfo->dest;
    d->pub.next_output_byte = d->buffer;
    d->pub.free_in_buffer = d->capacity;
}

static boolean ccs_mem_empty(j_compress_ptr cinfo) {
    ccs_mem_dest *d = (ccs_mem_dest *)cinfo->dest;
    size_t old = d->capacity;
    size_t grown = old < ((size_t)1 << 20) ? old * 4 : old * 2;
    unsigned char *bigger = realloc(d->buffer, grown);
    if (bigger == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    d->buffer = bigger;
    d->capacity = grown;
    d->pub.next_output_byte = bigger + old;
    d->pub.free_in_buffer = grown - old;
    return TRUE;
}

static void ccs_mem_term(j_compress_ptr cinfo) {
    ccs_mem_dest *d = (ccs_mem_dest *)cinfo->dest;
    d->size = d->capacity - d->pub.free_in_buffer;
}

/* File-descriptor destination: 256 KiB buffer flushed with write(2); every 1 MiB written
 * starts the kernel's writeback early (sync_file_range), so that a final fsync has little
 * left to wait for. A write error is reported as JERR_FILE_WRITE with errno saved. */
#define CCS_FD_BUFFER (256 * 1024)
#define CCS_FD_SYNC_STEP (1024 * 1024)

typedef struct ccs_fd_dest {
    struct jpeg_destination_mgr pub;
    int fd;
    unsigned char *buffer;
    size_t written, synced;
    int saved_errno;
} ccs_fd_dest;

static void ccs_fd_flush(j_compress_ptr cinfo, ccs_fd_dest *d, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t n = write(d->fd, d->buffer + done, count - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            d->saved_errno = errno;
            ERREXIT(cinfo, JERR_FILE_WRITE);
        }
        done += (size_t)n;
    }
    d->written += count;
#ifdef SYNC_FILE_RANGE_WRITE
    if (d->written - d->synced >= CCS_FD_SYNC_STEP) {
        (void)sync_file_range(d->fd, (off_t)d->synced, (off_t)(d->written - d->synced), SYNC_FILE_RANGE_WRITE);
        d->synced = d->written;
    }
#endif
}

static void ccs_fd_init(j_compress_ptr cinfo) {
    ccs_fd_dest *d = (ccs_fd_dest *)cinfo->dest;
    d->pub.next_output_byte = d->buffer;
    d->pub.free_in_buffer = CCS_FD_BUFFER;
}

static boolean ccs_fd_empty(j_compress_ptr cinfo) {
    ccs_fd_dest *d = (ccs_fd_dest *)cinfo->dest;
    ccs_fd_flush(cinfo, d, CCS_FD_BUFFER);
    d->pub.next_output_byte = d->buffer;
    d->pub.free_in_buffer = CCS_FD_BUFFER;
    return TRUE;
}

static void ccs_fd_term(j_compress_ptr cinfo) {
    ccs_fd_dest *d = (ccs_fd_dest *)cinfo->dest;
    ccs_fd_flush(cinfo, d, CCS_FD_BUFFER - d->pub.free_in_buffer);
}

struct ccs_jpeg_enc {
    struct jpeg_compress_struct cinfo;
    ccs_jpeg_err err;
    ccs_mem_dest dest;
    ccs_fd_dest fd_dest;
    int to_fd;
    int created; /* jpeg_create_compress ran */
};

void ccs_jpeg_enc_destroy(ccs_jpeg_enc *enc) {
    if (enc == NULL) return;
    if (enc->created) jpeg_destroy_compress(&enc->cinfo);
    free(enc->dest.buffer);
    free(enc->fd_dest.buffer);
    free(enc);
}

static ccs_jpeg_enc *ccs_jpeg_enc_setup(const ccs_jpeg_enc_params *p, size_t initial_capacity,
                                        int fd, ccs_report *report) {
    ccs_jpeg_enc *enc = calloc(1, sizeof(ccs_jpeg_enc));
    if (enc == NULL) {
        ccs_report_set_error(report, "Out of memory creating the JPEG encoder", 0);
        return NULL;
    }
    enc->to_fd = fd >= 0;
    enc->fd_dest.fd = fd;
    if (enc->to_fd) {
        enc->fd_dest.buffer = malloc(CCS_FD_BUFFER);
    } else {
        enc->dest.capacity = initial_capacity > 0 ? initial_capacity : 65536;
        enc->dest.buffer = malloc(enc->dest.capacity);
    }
    if (enc->to_fd ? enc->fd_dest.buffer == NULL : enc->dest.buffer == NULL) {
        ccs_report_set_error(report, "Out of memory allocating the JPEG output buffer", 0);
        free(enc);
        return NULL;
    }
    enc->cinfo.err = &enc->err.pub;
    ccs_jpeg_install_errors(&enc->err, report);
    if (setjmp(enc->err.jump)) {
        ccs_jpeg_enc_destroy(enc);
        return NULL;
    }
    jpeg_create_compress(&enc->cinfo);
    enc->created = 1;
    if (enc->to_fd) {
        enc->fd_dest.pub.init_destination = ccs_fd_init;
        enc->fd_dest.pub.empty_output_buffer = ccs_fd_empty;
        enc->fd_dest.pub.term_destination = ccs_fd_term;
        enc->cinfo.dest = &enc->fd_dest.pub;
    } else {
        enc->dest.pub.init_destination = ccs_mem_init;
        enc->dest.pub.empty_output_buffer = ccs_mem_empty;
        enc->dest.pub.term_destination = ccs_mem_term;
        enc->cinfo.dest = &enc->dest.pub;
    }
    struct jpeg_compress_struct *c = &enc->cinfo;
    c->image_width = p->width;
    c->image_height = p->height;
    c->input_components = p->components;
    c->in_color_space = (J_COLOR_SPACE)p->in_color_space;
    jpeg_set_defaults(c);
    jpeg_set_quality(c, p->quality, TRUE);
    c->write_JFIF_header = p->write_jfif ? TRUE : FALSE;
    if (c->num_components >= 3) {
        c->comp_info[0].h_samp_factor = p->luma_h_samp;
        c->comp_info[0].v_samp_factor = p->luma_v_samp;
        for (int i = 1; i < c->num_components; i++) {
            c->comp_info[i].h_samp_factor = 1;
            c->comp_info[i].v_samp_factor = 1;
        }
    }
    if (p->progressive) jpeg_simple_progression(c);
    c->optimize_coding = p->optimize_coding ? TRUE : FALSE;
    c->dct_method = (J_DCT_METHOD)p->dct_method;
    jpeg_start_compress(c, TRUE);
    for (int i = 0; i < p->marker_count; i++) {
        jpeg_write_marker(c, p->markers[i].code, p->markers[i].data, p->markers[i].size);
    }
    return enc;
}

ccs_jpeg_enc *ccs_jpeg_enc_create(const ccs_jpeg_enc_params *params, size_t initial_capacity,
                                  ccs_report *report) {
    return ccs_jpeg_enc_setup(params, initial_capacity, -1, report);
}

ccs_jpeg_enc *ccs_jpeg_enc_create_fd(const ccs_jpeg_enc_params *params, int fd, ccs_report *report) {
    if (fd < 0) {
        ccs_report_set_error(report, "invalid file descriptor", 0);
        return NULL;
    }
    return ccs_jpeg_enc_setup(params, 0, fd, report);
}

int ccs_jpeg_enc_io_errno(const ccs_jpeg_enc *enc) { return enc->fd_dest.saved_errno; }

int ccs_jpeg_enc_write_rows(ccs_jpeg_enc *enc, const unsigned char *base, size_t stride,
                            unsigned int count) {
    if (setjmp(enc->err.jump)) return -1;
    struct jpeg_compress_struct *c = &enc->cinfo;
    unsigned int done = 0;
    while (done < count) {
        JSAMPROW rows[16];
        JDIMENSION n = 0;
        while (n < 16 && done + n < count) {
            rows[n] = (JSAMPROW)(base + (size_t)(done + n) * stride);
            n++;
        }
        JDIMENSION written = jpeg_write_scanlines(c, rows, n);
        if (written == 0) {
            ccs_report_set_error(enc->err.report, "libjpeg accepted no scanlines (too many rows?)", 0);
            return -1;
        }
        done += written;
    }
    return 0;
}

unsigned int ccs_jpeg_enc_next_row(const ccs_jpeg_enc *enc) { return enc->cinfo.next_scanline; }

int ccs_jpeg_enc_finish(ccs_jpeg_enc *enc, unsigned char **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (setjmp(enc->err.jump)) return -1;
    jpeg_finish_compress(&enc->cinfo);
    if (enc->to_fd) {
        *out_size = enc->fd_dest.written;
        return 0;
    }
    *out = enc->dest.buffer;
    *out_size = enc->dest.size;
    enc->dest.buffer = NULL;
    return 0;
}

int ccs_jpeg_encode(const ccs_jpeg_enc_params *p, unsigned char **out, unsigned long *out_size,
                    ccs_report *report) {
    *out = NULL;
    *out_size = 0;
    ccs_jpeg_enc *enc = ccs_jpeg_enc_create(p, 0, report);
    if (enc == NULL) return -1;
    size_t size = 0;
    int status = ccs_jpeg_enc_write_rows(enc, p->pixels, p->stride, p->height);
    if (status == 0) status = ccs_jpeg_enc_finish(enc, out, &size);
    ccs_jpeg_enc_destroy(enc);
    *out_size = (unsigned long)size;
    return status;
}
