/* libjpeg-turbo wrappers: setjmp/longjmp error handling, silent warning collection,
 * a scan-count limit against pathological progressive files, and row-by-row I/O
 * straight into the caller's buffer. */
#include <setjmp.h>
#include <stdlib.h>
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

struct ccs_jpeg_dec {
    struct jpeg_decompress_struct cinfo; /* first member: the progress callback casts */
    ccs_jpeg_err err;
    struct jpeg_progress_mgr progress;
    int max_scans;
};

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

void ccs_jpeg_dec_destroy(ccs_jpeg_dec *dec) {
    if (dec == NULL) return;
    jpeg_destroy_decompress(&dec->cinfo);
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

int ccs_jpeg_dec_read_all(ccs_jpeg_dec *dec, unsigned char *base, size_t stride) {
    if (setjmp(dec->err.jump)) return -1;
    struct jpeg_decompress_struct *cinfo = &dec->cinfo;
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[8];
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = 0;
        while (count < 8 && first + count < cinfo->output_height) {
            rows[count] = base + (size_t)(first + count) * stride;
            count++;
        }
        if (jpeg_read_scanlines(cinfo, rows, count) == 0) {
            ccs_report_set_error(dec->err.report, "libjpeg returned no scanlines", 0);
            return -1;
        }
    }
    return 0;
}

int ccs_jpeg_dec_finish(ccs_jpeg_dec *dec) {
    if (setjmp(dec->err.jump)) return -1;
    jpeg_finish_decompress(&dec->cinfo);
    return 0;
}

/* ---- encoding ---- */

typedef struct ccs_jpeg_enc_state {
    struct jpeg_compress_struct cinfo;
    ccs_jpeg_err err;
    unsigned char *buffer;
    unsigned long size;
} ccs_jpeg_enc_state;

int ccs_jpeg_encode(const ccs_jpeg_enc_params *p, unsigned char **out, unsigned long *out_size,
                    ccs_report *report) {
    *out = NULL;
    *out_size = 0;
    ccs_jpeg_enc_state *st = calloc(1, sizeof(ccs_jpeg_enc_state));
    if (st == NULL) {
        ccs_report_set_error(report, "Out of memory creating the JPEG encoder", 0);
        return -1;
    }
    st->cinfo.err = &st->err.pub;
    ccs_jpeg_install_errors(&st->err, report);
    if (setjmp(st->err.jump)) {
        jpeg_destroy_compress(&st->cinfo);
        free(st->buffer);
        free(st);
        return -1;
    }
    jpeg_create_compress(&st->cinfo);
    jpeg_mem_dest(&st->cinfo, &st->buffer, &st->size);
    st->cinfo.image_width = p->width;
    st->cinfo.image_height = p->height;
    st->cinfo.input_components = p->components;
    st->cinfo.in_color_space = (J_COLOR_SPACE)p->in_color_space;
    jpeg_set_defaults(&st->cinfo);
    jpeg_set_quality(&st->cinfo, p->quality, TRUE);
    st->cinfo.write_JFIF_header = p->write_jfif ? TRUE : FALSE;
    if (st->cinfo.num_components >= 3) {
        st->cinfo.comp_info[0].h_samp_factor = p->luma_h_samp;
        st->cinfo.comp_info[0].v_samp_factor = p->luma_v_samp;
        for (int c = 1; c < st->cinfo.num_components; c++) {
            st->cinfo.comp_info[c].h_samp_factor = 1;
            st->cinfo.comp_info[c].v_samp_factor = 1;
        }
    }
    if (p->progressive) jpeg_simple_progression(&st->cinfo);
    st->cinfo.optimize_coding = p->optimize_coding ? TRUE : FALSE;
    st->cinfo.dct_method = (J_DCT_METHOD)p->dct_method;
    jpeg_start_compress(&st->cinfo, TRUE);
    for (int i = 0; i < p->marker_count; i++) {
        jpeg_write_marker(&st->cinfo, p->markers[i].code, p->markers[i].data, p->markers[i].size);
    }
    while (st->cinfo.next_scanline < st->cinfo.image_height) {
        JSAMPROW rows[16];
        JDIMENSION first = st->cinfo.next_scanline;
        JDIMENSION count = 0;
        while (count < 16 && first + count < st->cinfo.image_height) {
            rows[count] = (JSAMPROW)(p->pixels + (size_t)(first + count) * p->stride);
            count++;
        }
        jpeg_write_scanlines(&st->cinfo, rows, count);
    }
    jpeg_finish_compress(&st->cinfo);
    *out = st->buffer;
    *out_size = st->size;
    st->buffer = NULL;
    jpeg_destroy_compress(&st->cinfo);
    free(st);
    return 0;
}
