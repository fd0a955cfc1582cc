/*
 * CVideoShims: thin C wrappers around FFmpeg's libavformat, libavcodec and libavutil (libswscale
 * only to turn rendered RGBA into encoder formats other than 4:2:0, which rgba_to_i420.c makes, and
 * to bring unusual decoder formats to I420 or 16-bit grey). No codec is written here: every sample is decoded and encoded by FFmpeg.
 *
 * Why C: FFmpeg's API is macros (AVERROR, av_err2str), out-parameters and struct fields that
 * change between versions; a small stable surface keeps the Swift side simple. Errors come back
 * as -1 with a message in the caller's buffer; nothing is printed (the log level is set to quiet).
 */
#ifndef CVIDEOSHIMS_H
#define CVIDEOSHIMS_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Pixel layouts handed to and from Swift. */
enum gv_pixel_format {
    GV_PIX_OTHER = 0,
    GV_PIX_I420 = 1,   /* 8-bit Y, Cb, Cr planes (yuv420p / yuvj420p) */
    GV_PIX_NV12 = 2,   /* 8-bit Y plane, interleaved CbCr plane */
    GV_PIX_P010 = 3,   /* 10-bit 4:2:0 (p010 or yuv420p10): delivered reduced to 8-bit I420 */
    GV_PIX_GRAY8 = 4,
    GV_PIX_GRAY16 = 5, /* native-endian 16-bit grey (any sample of up to 16 bits, as stored) */
    GV_PIX_RGBA = 6,   /* 8-bit RGBA, encoder input only */
    GV_PIX_GRAYF = 7,  /* 32-bit float grey (depth as decoded from float formats) */
};

/** What a video stream is. */
typedef struct gv_stream_info {
    int width, height;
    int stream_index;
    /** The decoder's native pixel format (enum gv_pixel_format; GV_PIX_OTHER is converted). */
    int native_format;
    /** The format frames are delivered in (enum gv_pixel_format). */
    int delivered_format;
    /** Bits per grey or luma sample as stored (8, 10, 12, 16; 32 for float grey). */
    int sample_bits;
    int time_base_num, time_base_den;
    int frame_rate_num, frame_rate_den;
    /** Frames declared by the container, or 0 when unknown. */
    int64_t declared_frames;
    /** Clockwise rotation in degrees for display (from the display matrix; 0, 90, 180, 270). */
    int rotation;
    /** AVCOL_RANGE_*, AVCOL_PRI_*, AVCOL_TRC_*, AVCOL_SPC_*, AVCHROMA_LOC_* values. */
    int color_range, color_primaries, color_transfer, color_space, chroma_location;
    /** Audio streams present (copied unchanged by a writer given this file). */
    int audio_streams;
    /** Video streams in the file. */
    int video_streams;
    char codec_name[32];
    char pixel_format_name[32];
} gv_stream_info;

/** One decoded frame; its planes stay valid until the next call on the reader. */
typedef struct gv_frame {
    const uint8_t *data[3];
    int linesize[3];
    int format; /* delivered format */
    int width, height;
    /** Presentation timestamp in the stream's time base (best effort). */
    int64_t pts;
    /** Seconds from the stream's start time. */
    double seconds;
    int64_t index;
} gv_frame;

typedef struct gv_reader gv_reader;

/** Opens `path` and its video stream `stream` (-1: the best one). With `luma_only` every frame is
 *  delivered as its grey or luma (Y) samples, as stored (depth streams: GRAY8, GRAY16 or GRAYF),
 *  and a format without such a plane (RGB, palette, Bayer) is an error. 0 on success. */
int gv_reader_open(const char *path, int stream, int threads, int luma_only, gv_reader **out, gv_stream_info *info,
                   char *error, size_t error_size);
/** The next frame: 1 with `frame` filled, 0 at the end, -1 on error. */
int gv_reader_next(gv_reader *reader, gv_frame *frame, char *error, size_t error_size);
void gv_reader_close(gv_reader *reader);

/** Stream index of the index-th video stream of `path` other than `skip` (for depth tracks); -1 when none. */
int gv_probe_video_streams(const char *path, int *indices, int capacity, char *error, size_t error_size);

/** What to encode. */
typedef struct gv_writer_config {
    int width, height;
    /** Encoder name ("libx264", "libx265", "ffv1", ...). */
    const char *codec;
    /** x264/x265 preset and CRF (ignored by other encoders when negative / NULL). */
    const char *preset;
    int crf;
    int time_base_num, time_base_den;
    int frame_rate_num, frame_rate_den;
    /** GV_PIX_RGBA (converted to the encoder's 4:2:0), GV_PIX_I420, GV_PIX_GRAY8 or GV_PIX_GRAY16. */
    int input_format;
    int rotation;
    int color_range, color_primaries, color_transfer, color_space;
    /** A file whose audio streams are copied unchanged (NULL: none). */
    const char *audio_source;
    int threads;
} gv_writer_config;

typedef struct gv_writer gv_writer;

/** Creates `path`, its container chosen by the name `format_from` (the final name when `path`
 *  is a temporary). 0 on success. */
int gv_writer_open(const char *path, const char *format_from, const gv_writer_config *config, gv_writer **out,
                   char *error, size_t error_size);
/** Encodes one frame: planes in `input_format` (one plane for RGBA and grey), pts in the time base. */
int gv_writer_write(gv_writer *writer, const uint8_t *const planes[3], const int linesizes[3], int64_t pts,
                    char *error, size_t error_size);
/** Flushes the encoder, copies the remaining audio (up to `audio_until` seconds: a cut video's
 *  length; infinity for all), writes the trailer and closes the file. */
int gv_writer_finish(gv_writer *writer, double audio_until, char *error, size_t error_size);
/** Frees the writer (closing the file unfinished if `finish` was not called). */
void gv_writer_free(gv_writer *writer);
/** Whether an encoder of this name exists. */
int gv_encoder_available(const char *name);
/** 8-bit RGBA rows (`rgba_stride` bytes apart) to 8-bit I420 planes with the YCbCr matrix of
 *  `color_space` (AVCOL_SPC_*: BT.601 for bt470bg/smpte170m, BT.2020 for bt2020nc, else BT.709),
 *  video range unless `full_range`; chroma from the mean of each 2x2 block (rgba_to_i420.c).
 *  Little-endian machines only (a pixel is read as one word). */
void gv_rgba_to_i420(const uint8_t *rgba, int rgba_stride, int width, int height, int color_space, int full_range,
                     uint8_t *const planes[3], const int strides[3]);
/** gv_rgba_to_i420 through its portable loops only (where the CPU has AVX2 the other call runs
 *  the same loops built for it; both must give the same bytes). */
void gv_rgba_to_i420_baseline(const uint8_t *rgba, int rgba_stride, int width, int height, int color_space, int full_range,
                              uint8_t *const planes[3], const int strides[3]);

#ifdef __cplusplus
}
#endif
#endif
