/*
 * FFmpeg's functions, reached through a table filled by dlopen/dlsym on first use, so that
 * `graph` starts without loading libavcodec and the ~140 libraries it pulls in (x264, x265, vpx,
 * aom, dav1d...): only `graph video` pays for them. The libraries are the ones the headers belong
 * to (`libavformat.so.<LIBAVFORMAT_VERSION_MAJOR>` etc.), so the ABI matches what was compiled.
 */
#ifndef GV_FFMPEG_FUNCTIONS_H
#define GV_FFMPEG_FUNCTIONS_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <stddef.h>

#define GV_FFMPEG_FUNCTIONS(X) \
    X(avutil, av_dict_copy) X(avutil, av_dict_free) X(avutil, av_dict_set) X(avutil, av_dict_set_int) \
    X(avutil, av_display_rotation_get) X(avutil, av_display_rotation_set) X(avutil, av_frame_alloc) \
    X(avutil, av_frame_free) X(avutil, av_frame_get_buffer) X(avutil, av_frame_make_writable) X(avutil, av_free) \
    X(avutil, av_freep) X(avutil, av_get_pix_fmt_name) X(avutil, av_image_alloc) X(avutil, av_image_copy_plane) \
    X(avutil, av_log_set_level) X(avutil, av_mallocz) X(avutil, av_pix_fmt_desc_get) X(avutil, av_read_image_line2) X(avutil, av_strerror) \
    X(avcodec, av_packet_alloc) X(avcodec, av_packet_free) X(avcodec, av_packet_rescale_ts) X(avcodec, av_packet_unref) \
    X(avcodec, avcodec_alloc_context3) X(avcodec, avcodec_find_decoder) X(avcodec, avcodec_find_encoder_by_name) \
    X(avcodec, avcodec_free_context) X(avcodec, avcodec_get_name) X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_parameters_copy) X(avcodec, avcodec_parameters_from_context) \
    X(avcodec, avcodec_parameters_to_context) X(avcodec, avcodec_receive_frame) X(avcodec, avcodec_receive_packet) \
    X(avcodec, avcodec_send_frame) X(avcodec, avcodec_send_packet) \
    X(avformat, av_find_best_stream) X(avformat, av_guess_format) X(avformat, av_interleaved_write_frame) \
    X(avformat, av_read_frame) X(avformat, av_stream_get_side_data) X(avformat, av_stream_new_side_data) \
    X(avformat, av_write_trailer) X(avformat, avformat_alloc_output_context2) X(avformat, avformat_close_input) \
    X(avformat, avformat_find_stream_info) X(avformat, avformat_free_context) X(avformat, avformat_new_stream) \
    X(avformat, avformat_open_input) X(avformat, avformat_query_codec) X(avformat, avformat_write_header) \
    X(avformat, avio_closep) X(avformat, avio_open) \
    X(swscale, sws_freeContext) X(swscale, sws_getCoefficients) X(swscale, sws_getContext) X(swscale, sws_scale) \
    X(swscale, sws_setColorspaceDetails)

/** One pointer per function, named as the function. */
struct gv_ffmpeg {
#define GV_FIELD(library, name) __typeof__(&name) name;
    GV_FFMPEG_FUNCTIONS(GV_FIELD)
#undef GV_FIELD
};

/** The table (valid once gv_ffmpeg_load returned 0). */
extern struct gv_ffmpeg gv_ff;

/** Loads the libraries and every function once (thread-safe); 0, or -1 with a message naming
 *  the library or function that is missing. */
int gv_ffmpeg_load(char *error, size_t error_size);

#endif
