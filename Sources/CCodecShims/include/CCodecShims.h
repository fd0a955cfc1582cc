/*
 * CCodecShims: thin C wrappers around libpng 1.6 and libjpeg-turbo.
 *
 * Why C: both libraries report fatal errors by calling an error handler that must not
 * return (libjpeg's default calls exit()). Swift cannot use setjmp/longjmp, so every
 * library call that can fail is wrapped here in a function that sets a jump point and
 * turns a longjmp into a -1 return. Messages (error + warnings) are collected in a
 * ccs_report; nothing is ever printed.
 *
 * The library structs (jpeg_decompress_struct, png_struct) are reached through accessor
 * functions so that Swift can read header fields and set decode parameters directly.
 */
#ifndef CCODECSHIMS_H
#define CCODECSHIMS_H

#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#include <png.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Diagnostics --------------------------------------------------------------------- */

/** Collected library messages for one operation (opaque). */
typedef struct ccs_report ccs_report;

/** Flag: libjpeg hit the end of the data before the image was complete. */
#define CCS_FLAG_PREMATURE_END 1
/** Flag: the error was raised by the scan-count limit (hang protection). */
#define CCS_FLAG_SCAN_LIMIT 2

ccs_report *ccs_report_create(void);
void ccs_report_destroy(ccs_report *report);
/** The fatal error message, or "" when there was none. */
const char *ccs_report_error(const ccs_report *report);
/** libjpeg msg_code of the fatal error (0 for libpng). */
int ccs_report_error_code(const ccs_report *report);
/** Number of stored warnings (at most CCS_MAX_WARNINGS are stored). */
int ccs_report_warning_count(const ccs_report *report);
/** Total number of warnings emitted, including ones not stored. */
int ccs_report_total_warnings(const ccs_report *report);
const char *ccs_report_warning(const ccs_report *report, int index);
int ccs_report_flags(const ccs_report *report);

/** Frees memory returned by the encoders. */
void ccs_free(void *pointer);

/* ---- JPEG decoding -------------------------------------------------------------------- */

typedef struct ccs_jpeg_dec ccs_jpeg_dec;

/** Creates a decompressor reading from `data` (not copied: keep it alive). NULL on failure
 *  (the message is in `report`). APPn and COM markers are saved (jpeg_save_markers). */
ccs_jpeg_dec *ccs_jpeg_dec_create(const unsigned char *data, size_t size, ccs_report *report,
                                  int max_scans);
/** The same, reading bytes `0 ..< length` of the open file `fd` with pread, 64 KiB at a time
 *  (the file is never held whole; `fd` is not closed). A file shorter than `length` reads as
 *  truncated data (libjpeg's premature-end warning), a read error too (see ccs_jpeg_dec_io_errno). */
ccs_jpeg_dec *ccs_jpeg_dec_create_fd(int fd, long long length, ccs_report *report, int max_scans);
/** The errno of a failed read of a descriptor source, else 0. */
int ccs_jpeg_dec_io_errno(const ccs_jpeg_dec *dec);
void ccs_jpeg_dec_destroy(ccs_jpeg_dec *dec);
struct jpeg_decompress_struct *ccs_jpeg_dec_cinfo(ccs_jpeg_dec *dec);
/** jpeg_read_header. 0 on success, -1 on error. */
int ccs_jpeg_dec_read_header(ccs_jpeg_dec *dec);
/** jpeg_calc_output_dimensions (after setting scale / colour space). */
int ccs_jpeg_dec_calc_output(ccs_jpeg_dec *dec);
/** jpeg_start_decompress. */
int ccs_jpeg_dec_start(ccs_jpeg_dec *dec);
/** Reads all remaining scanlines straight into `base` (row y at base + y * stride). */
int ccs_jpeg_dec_read_all(ccs_jpeg_dec *dec, unsigned char *base, size_t stride);
/** Reads the next min(max_rows, rows left) scanlines into `base` (row i at base + i * stride),
 *  top-down. *rows_read receives how many were stored (also on error). 0 / -1. */
int ccs_jpeg_dec_read_rows(ccs_jpeg_dec *dec, unsigned char *base, size_t stride,
                           unsigned int max_rows, unsigned int *rows_read);
/** jpeg_finish_decompress. */
int ccs_jpeg_dec_finish(ccs_jpeg_dec *dec);

/* ---- JPEG encoding -------------------------------------------------------------------- */

typedef struct ccs_jpeg_marker {
    int code;                   /* JPEG_APP0 + n, JPEG_COM */
    const unsigned char *data;  /* payload without marker and length */
    unsigned int size;          /* <= 65533 */
} ccs_jpeg_marker;

typedef struct ccs_jpeg_enc_params {
    unsigned int width, height;
    int components;             /* input components per pixel: 1, 3 or 4 (4th ignored) */
    int in_color_space;         /* J_COLOR_SPACE value: JCS_GRAYSCALE, JCS_EXT_RGB, JCS_EXT_RGBX */
    const unsigned char *pixels;
    size_t stride;
    int quality;                /* 1...100 */
    int luma_h_samp, luma_v_samp; /* 1/1 = 4:4:4, 2/1 = 4:2:2, 2/2 = 4:2:0 */
    int progressive;
    int optimize_coding;
    int dct_method;             /* J_DCT_METHOD */
    int write_jfif;             /* write the JFIF APP0 marker */
    const ccs_jpeg_marker *markers;
    int marker_count;
} ccs_jpeg_enc_params;

/** Encodes into a malloc'd buffer (*out, free with ccs_free). 0 on success, -1 on error.
 *  (A loop over the streaming encoder below.) */
int ccs_jpeg_encode(const ccs_jpeg_enc_params *params, unsigned char **out,
                    unsigned long *out_size, ccs_report *report);

/** Streaming (row-band) compressor writing into a growing malloc'd memory buffer. */
typedef struct ccs_jpeg_enc ccs_jpeg_enc;

/** Sets up the compressor from `params` (`pixels` and `stride` are ignored), calls
 *  jpeg_start_compress and writes the markers. `initial_capacity` sizes the output buffer
 *  (it grows by realloc; 0 = 64 KiB). NULL on failure (the message is in `report`). */
ccs_jpeg_enc *ccs_jpeg_enc_create(const ccs_jpeg_enc_params *params, size_t initial_capacity,
                                  ccs_report *report);
/** The same, streaming the file to `fd` (written at its current offset; not closed) through
 *  a 256 KiB buffer, with early writeback (sync_file_range) every MiB on Linux. */
ccs_jpeg_enc *ccs_jpeg_enc_create_fd(const ccs_jpeg_enc_params *params, int fd, ccs_report *report);
/** errno of a failed write(2) to the file descriptor (0 when none). */
int ccs_jpeg_enc_io_errno(const ccs_jpeg_enc *enc);
/** jpeg_write_scanlines for `count` rows (row i at base + i * stride). 0 / -1. */
int ccs_jpeg_enc_write_rows(ccs_jpeg_enc *enc, const unsigned char *base, size_t stride,
                            unsigned int count);
/** Rows written so far (cinfo.next_scanline). */
unsigned int ccs_jpeg_enc_next_row(const ccs_jpeg_enc *enc);
/** jpeg_finish_compress; on success hands over the buffer (*out, free with ccs_free), or for
 *  a file-descriptor encoder sets *out = NULL and *out_size = bytes written. */
int ccs_jpeg_enc_finish(ccs_jpeg_enc *enc, unsigned char **out, size_t *out_size);
/** Frees the compressor (and the output buffer unless it was handed over). NULL is fine. */
void ccs_jpeg_enc_destroy(ccs_jpeg_enc *enc);

/* ---- PNG decoding --------------------------------------------------------------------- */

typedef struct ccs_png_dec ccs_png_dec;

/** Creates a libpng reader over `data` (not copied). NULL on failure. */
ccs_png_dec *ccs_png_dec_create(const unsigned char *data, size_t size, ccs_report *report);
/** The same reading bytes 0 ..< size of the open file `fd` (pread, 64 KiB at a time; the
 *  descriptor stays the caller's and must outlive the reader). NULL on failure. */
ccs_png_dec *ccs_png_dec_create_fd(int fd, size_t size, ccs_report *report);
void ccs_png_dec_destroy(ccs_png_dec *dec);
png_structp ccs_png_dec_png(ccs_png_dec *dec);
png_infop ccs_png_dec_info(ccs_png_dec *dec);
/** png_read_info (signature + chunks up to the first IDAT). */
int ccs_png_dec_read_info(ccs_png_dec *dec);
/** Sets the transforms: expand palette / low bit depth / tRNS to 8-bit samples + alpha,
 *  optional grey->RGB plus opaque alpha (rgba), optional 16-bit byte swap to native little
 *  endian, interlace handling, then png_read_update_info. *passes receives the number of
 *  interlace passes. */
int ccs_png_dec_prepare(ccs_png_dec *dec, int swap16, int rgba, int *passes);
/** Reads every pass into the final buffer (row y at base + y * stride). */
int ccs_png_dec_read_rows(ccs_png_dec *dec, unsigned char *base, size_t stride,
                          unsigned int height, int passes);
/** png_read_end: checks the chunks after the image data up to IEND. */
int ccs_png_dec_read_end(ccs_png_dec *dec);

/* ---- PNG encoding --------------------------------------------------------------------- */

typedef struct ccs_png_enc_params {
    unsigned int width, height;
    int color_type;             /* PNG_COLOR_TYPE_* */
    int bit_depth;              /* 8 or 16 */
    const unsigned char *pixels;
    size_t stride;
    int swap16;                 /* 16-bit samples are little endian in memory */
    const unsigned char *icc;   /* optional iCCP profile */
    unsigned int icc_size;
    const char *icc_name;
    int compression_level;      /* 0...9, -1 = libpng default */
    int interlace;              /* 0 or 1 (Adam7) */
    const unsigned char *exif;  /* optional eXIf chunk: a bare EXIF TIFF structure */
    unsigned int exif_size;
    const char *xmp;            /* optional XMP packet: uncompressed iTXt "XML:com.adobe.xmp" */
    size_t xmp_length;
} ccs_png_enc_params;

int ccs_png_encode(const ccs_png_enc_params *params, unsigned char **out, size_t *out_size,
                   ccs_report *report);

/** Streaming PNG encoder (not interlaced): the header and metadata chunks are written at
 *  creation (`pixels` and `stride` are ignored), then the image data as IDAT chunks compressed
 *  elsewhere (ccs_png_enc_write_idat, e.g. from png_bands.c), then IEND (ccs_png_enc_finish). */
typedef struct ccs_png_enc ccs_png_enc;

/** Writes to `fd` at its current offset through a 256 KiB buffer (never closed here), or, with
 *  fd < 0, into a growing memory buffer. NULL on failure (the message is in `report`). */
ccs_png_enc *ccs_png_enc_create(const ccs_png_enc_params *params, int fd, ccs_report *report);
/** Writes the next `size` bytes of the image data's zlib stream as IDAT chunks (the first call's
 *  bytes start with the zlib header, the last call's end with the Adler-32). 0 / -1. */
int ccs_png_enc_write_idat(ccs_png_enc *enc, const unsigned char *data, size_t size);
/** Completes the file (after the image data). Memory: hands over the buffer (*out, free with
 *  ccs_free); descriptor: *out = NULL and *out_size = bytes written. 0 / -1. */
int ccs_png_enc_finish(ccs_png_enc *enc, unsigned char **out, size_t *out_size);
/** errno of a failed write(2) to the descriptor (0 when none). */
int ccs_png_enc_io_errno(const ccs_png_enc *enc);
/** Frees the encoder (and its output buffer unless handed over). NULL is fine. */
void ccs_png_enc_destroy(ccs_png_enc *enc);


/* ---- PNG image data compressed in independent bands (png_bands.c) ---------------------- */

/** Row filtering state: the previous row, as stored (16-bit samples big-endian). */
typedef struct ccs_png_filter ccs_png_filter;

/** Filters rows of `row_bytes` with `bpp` bytes per pixel (rounded up); `swap16`: the rows come
 *  with 16-bit samples little-endian and are stored swapped. NULL when out of memory. */
ccs_png_filter *ccs_png_filter_create(size_t row_bytes, unsigned int bpp, int swap16);
void ccs_png_filter_destroy(ccs_png_filter *filter);
/** Filters `count` rows (row i at rows + i * stride) into `out`: for each, the filter type byte
 *  and the filtered row (row_bytes + 1 bytes), the filter chosen as libpng 1.6 chooses it (the
 *  smallest sum of the filtered bytes read as signed; None, Sub, Up, Average, Paeth, the first
 *  on a tie). The first row of the image has a row of zeros above it. */
void ccs_png_filter_rows(ccs_png_filter *filter, const unsigned char *rows, size_t stride, unsigned int count,
                         unsigned char *out);

/** A raw-deflate compressor (libdeflate) at one compression level, reused band after band (one
 *  thread at a time). */
typedef struct ccs_png_deflater ccs_png_deflater;

/** libdeflate at `level` 0...9 (zlib's scale). NULL when out of memory. */
ccs_png_deflater *ccs_png_deflater_create(int level);
void ccs_png_deflater_destroy(ccs_png_deflater *deflater);

/** One band of filtered rows and its compressed form. */
typedef struct ccs_png_band {
    const unsigned char *data;       /* the band's filtered rows */
    size_t size;
    int first, last;                 /* the image's first band (zlib header) / last (final block) */
    unsigned char *output;           /* grown with realloc; free with ccs_free */
    size_t output_capacity;
    size_t output_size;              /* bytes of output written */
    unsigned long adler;             /* Adler-32 of `data` alone */
} ccs_png_band;

/** Deflates `band->data` on its own: the zlib header in front for the first band; at the end an
 *  empty stored block (byte aligned, not final, so the next band's data follows: what zlib's sync
 *  flush writes) or, for the last band, the final block, with 4 bytes of capacity left after
 *  `output_size` for the stream's Adler-32. Returns Z_OK (0) or a zlib error code (Z_MEM_ERROR). */
int ccs_png_deflate_band(ccs_png_deflater *deflater, ccs_png_band *band);

/* ---- Temporary files removed on SIGINT, SIGTERM and SIGHUP -------------------------------- */

/** Registers a temporary file to remove if the process is interrupted (once handlers are
 *  installed). Returns its slot, or -1 when all 64 slots are taken (or the path is too long). */
int ccs_temp_register(const char *path);
/** Forgets a slot (after the file was renamed or removed). -1 is ignored. */
void ccs_temp_unregister(int slot);
/** Installs the handlers (once; a signal the process ignores stays ignored): they remove every
 *  registered file, then let the signal terminate the process as it would have. */
void ccs_temp_install_signal_handlers(void);
/** Holds SIGINT, SIGTERM and SIGHUP (as handled above) while files are renamed into place: a signal
 *  that arrives now is acted on by the matching ccs_temp_resume_signals. Nestable, any thread. */
void ccs_temp_defer_signals(void);
/** Ends ccs_temp_defer_signals; the last one to end acts on a signal that arrived meanwhile. */
void ccs_temp_resume_signals(void);
/** Ends the process of `sig` as an unhandled signal would, first removing the registered
 *  temporary files; while a commit is renaming (ccs_temp_defer_signals) it returns at once and
 *  that commit ends the process when done. For a program that handled the signal itself. */
void ccs_temp_die_of_signal(int sig);

/* ---- Memory ---------------------------------------------------------------------------- */

/** Returns the heap memory freed so far to the system (glibc's malloc_trim(0): the free pages of
 *  every arena). 1 when some was released, 0 when none was or the C library has no such call. */
int ccs_release_free_memory(void);

#ifdef __cplusplus
}
#endif
#endif
