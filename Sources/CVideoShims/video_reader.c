/* Decoding through libavformat/libavcodec: frames in the codec's own 4:2:0 or grey planes. */
#include "CVideoShims.h"
#include "video_internal.h"
#include "ffmpeg_functions.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct gv_reader {
    AVFormatContext *format;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    int stream;
    int luma_only;
    int draining;
    int finished;
    int64_t index;
    int64_t start;
    AVRational time_base;
    /* Conversion of formats the engine does not read natively (to I420 or GRAY16), or 10-bit reduction. */
    struct SwsContext *sws;
    uint8_t *converted[4]; /* av_image_alloc fills four pointers and four line sizes */
    int converted_linesize[4];
    int converted_for; /* AVPixelFormat the buffers were made for, -1 none */
    int converted_width, converted_height;
};

void gv_error(char *error, size_t size, const char *what, int code) {
    if (!error || size == 0) return;
    if (code < 0) {
        char text[AV_ERROR_MAX_STRING_SIZE] = {0};
        gv_ff.av_strerror(code, text, sizeof text);
        snprintf(error, size, "%s: %s", what, text);
    } else {
        snprintf(error, size, "%s", what);
    }
}

void gv_quiet(void) { gv_ff.av_log_set_level(AV_LOG_QUIET); }

static int classify(enum AVPixelFormat f) {
    switch (f) {
    case AV_PIX_FMT_YUV420P: case AV_PIX_FMT_YUVJ420P: return GV_PIX_I420;
    case AV_PIX_FMT_NV12: return GV_PIX_NV12;
    case AV_PIX_FMT_P010LE: case AV_PIX_FMT_YUV420P10LE: return GV_PIX_P010;
    case AV_PIX_FMT_GRAY8: return GV_PIX_GRAY8;
    case AV_PIX_FMT_GRAY16LE: return GV_PIX_GRAY16;
    case AV_PIX_FMT_GRAYF32LE: return GV_PIX_GRAYF;
    default: return GV_PIX_OTHER;
    }
}

/* Whether frames of this format hold depth in their first component: a grey or luma (Y) plane
 * of integer samples. RGB, palette, Bayer and XYZ formats do not; of float formats only 32-bit
 * grey is read. */
static int carries_depth(enum AVPixelFormat f) {
    if (f == AV_PIX_FMT_GRAYF32LE) return 1;
    const AVPixFmtDescriptor *d = gv_ff.av_pix_fmt_desc_get(f);
    if (!d || d->nb_components < 1 || d->comp[0].depth > 16) return 0;
    uint64_t excluded = AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_HWACCEL
                      | AV_PIX_FMT_FLAG_FLOAT;
    return !(d->flags & excluded) && strncmp(d->name, "xyz", 3) != 0;
}

static void no_depth_error(enum AVPixelFormat f, char *error, size_t error_size) {
    const char *name = gv_ff.av_get_pix_fmt_name(f);
    snprintf(error, error_size,
             "the pixel format '%s' cannot carry depth: depth is read from grey samples (gray, gray10le, gray16le, "
             "grayf32le) or the luma plane of YUV (yuv420p, yuv444p, yuv420p10le, nv12, p010le, ...)",
             name ? name : "unknown");
}

/* What Swift gets: natives pass through; 10-bit becomes 8-bit I420; other grey becomes GRAY16;
 * any other colour format becomes I420 through libswscale. */
static int delivered(enum AVPixelFormat f) {
    int c = classify(f);
    if (c == GV_PIX_P010) return GV_PIX_I420;
    if (c != GV_PIX_OTHER) return c;
    const AVPixFmtDescriptor *d = gv_ff.av_pix_fmt_desc_get(f);
    if (d && d->nb_components <= 2 && !(d->flags & AV_PIX_FMT_FLAG_RGB)) return GV_PIX_GRAY16;
    return GV_PIX_I420;
}

int gv_reader_open(const char *path, int stream, int threads, int luma_only, gv_reader **out, gv_stream_info *info,
                   char *error, size_t error_size) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    if (gv_ffmpeg_load(error, error_size) < 0) return -1;
    gv_quiet();
    gv_reader *r = gv_ff.av_mallocz(sizeof *r);
    if (!r) { gv_error(error, error_size, "out of memory", 0); return -1; }
    r->converted_for = -1;
    int code = gv_ff.avformat_open_input(&r->format, path, NULL, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot open the file", code); gv_reader_close(r); return -1; }
    code = gv_ff.avformat_find_stream_info(r->format, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot read the stream information", code); gv_reader_close(r); return -1; }
    for (unsigned i = 0; i < r->format->nb_streams; i++) {
        enum AVMediaType type = r->format->streams[i]->codecpar->codec_type;
        if (type == AVMEDIA_TYPE_AUDIO) info->audio_streams++;
        if (type == AVMEDIA_TYPE_VIDEO && !(r->format->streams[i]->disposition & AV_DISPOSITION_ATTACHED_PIC)) info->video_streams++;
    }
    if (stream < 0) {
        stream = gv_ff.av_find_best_stream(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
        if (stream < 0) { gv_error(error, error_size, "the file has no video stream", 0); gv_reader_close(r); return -1; }
    } else if (stream >= (int)r->format->nb_streams || r->format->streams[stream]->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) {
        snprintf(error, error_size, "stream %d is not a video stream (the file has %u streams)", stream, r->format->nb_streams);
        gv_reader_close(r);
        return -1;
    }
    AVStream *st = r->format->streams[stream];
    enum AVPixelFormat declared = st->codecpar->format;
    if (luma_only && declared != AV_PIX_FMT_NONE && !carries_depth(declared)) {
        no_depth_error(declared, error, error_size);
        gv_reader_close(r);
        return -1;
    }
    const AVCodec *decoder = gv_ff.avcodec_find_decoder(st->codecpar->codec_id);
    if (!decoder) {
        snprintf(error, error_size, "no decoder for the codec '%s'", gv_ff.avcodec_get_name(st->codecpar->codec_id));
        gv_reader_close(r);
        return -1;
    }
    r->codec = gv_ff.avcodec_alloc_context3(decoder);
    if (!r->codec) { gv_error(error, error_size, "out of memory", 0); gv_reader_close(r); return -1; }
    gv_ff.avcodec_parameters_to_context(r->codec, st->codecpar);
    r->codec->thread_count = threads > 0 ? threads : 0;
    r->codec->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    code = gv_ff.avcodec_open2(r->codec, decoder, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot open the decoder", code); gv_reader_close(r); return -1; }
    r->packet = gv_ff.av_packet_alloc();
    r->frame = gv_ff.av_frame_alloc();
    if (!r->packet || !r->frame) { gv_error(error, error_size, "out of memory", 0); gv_reader_close(r); return -1; }
    r->stream = stream;
    r->luma_only = luma_only;
    r->time_base = st->time_base;
    r->start = st->start_time == AV_NOPTS_VALUE ? 0 : st->start_time;

    info->stream_index = stream;
    info->width = st->codecpar->width;
    info->height = st->codecpar->height;
    info->native_format = classify(st->codecpar->format);
    info->delivered_format = delivered(st->codecpar->format);
    const AVPixFmtDescriptor *described = gv_ff.av_pix_fmt_desc_get(declared);
    info->sample_bits = declared == AV_PIX_FMT_GRAYF32LE ? 32 : described ? described->comp[0].depth : 8;
    info->time_base_num = st->time_base.num;
    info->time_base_den = st->time_base.den;
    AVRational rate = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
    info->frame_rate_num = rate.num;
    info->frame_rate_den = rate.den;
    info->declared_frames = st->nb_frames;
    const int32_t *matrix = (const int32_t *)gv_ff.av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix) {
        double angle = -gv_ff.av_display_rotation_get(matrix); /* clockwise */
        int rounded = (int)lround(angle / 90.0) * 90;
        info->rotation = ((rounded % 360) + 360) % 360;
    }
    info->color_range = st->codecpar->color_range;
    info->color_primaries = st->codecpar->color_primaries;
    info->color_transfer = st->codecpar->color_trc;
    info->color_space = st->codecpar->color_space;
    info->chroma_location = st->codecpar->chroma_location;
    snprintf(info->codec_name, sizeof info->codec_name, "%s", gv_ff.avcodec_get_name(st->codecpar->codec_id));
    const char *pixel = gv_ff.av_get_pix_fmt_name(st->codecpar->format);
    snprintf(info->pixel_format_name, sizeof info->pixel_format_name, "%s", pixel ? pixel : "unknown");
    *out = r;
    return 0;
}

/* (Re)allocates the conversion buffers for frames of `format` and this size delivered as `to` (a
 * stream may change either mid-way): 0 when they were ready, 1 when made anew (the scaler too
 * must be), -1 on failure. */
static int prepare_converted(gv_reader *r, enum AVPixelFormat format, enum AVPixelFormat to, int width, int height,
                             char *error, size_t error_size) {
    if (r->converted_for == (int)format && r->converted_width == width && r->converted_height == height) return 0;
    gv_ff.av_freep(&r->converted[0]);
    r->converted_for = -1;
    int code = gv_ff.av_image_alloc(r->converted, r->converted_linesize, width, height, to, 64);
    if (code < 0) { gv_error(error, error_size, "out of memory", code); return -1; }
    r->converted_for = format;
    r->converted_width = width;
    r->converted_height = height;
    return 1;
}

/* The grey or luma samples of r->frame as stored: 8-bit planes and 16-bit little-endian ones
 * without a shift are passed through; any other layout (big-endian, p010's high bits, packed
 * YUYV, grey with alpha) is unpacked by av_read_image_line2 into 16-bit samples. */
static int deliver_luma(gv_reader *r, gv_frame *frame, char *error, size_t error_size) {
    AVFrame *f = r->frame;
    enum AVPixelFormat format = f->format;
    if (!carries_depth(format)) { no_depth_error(format, error, error_size); return -1; }
    if (format == AV_PIX_FMT_GRAYF32LE) {
        frame->data[0] = f->data[0];
        frame->linesize[0] = f->linesize[0];
        frame->format = GV_PIX_GRAYF;
        return 0;
    }
    const AVPixFmtDescriptor *d = gv_ff.av_pix_fmt_desc_get(format);
    const AVComponentDescriptor *y = &d->comp[0];
    int plain = y->offset == 0 && y->shift == 0 && !(d->flags & AV_PIX_FMT_FLAG_BE);
    if (plain && y->depth <= 8 && y->step == 1) {
        frame->data[0] = f->data[y->plane];
        frame->linesize[0] = f->linesize[y->plane];
        frame->format = GV_PIX_GRAY8;
        return 0;
    }
    if (plain && y->depth > 8 && y->step == 2) {
        frame->data[0] = f->data[y->plane];
        frame->linesize[0] = f->linesize[y->plane];
        frame->format = GV_PIX_GRAY16;
        return 0;
    }
    if (prepare_converted(r, format, AV_PIX_FMT_GRAY16LE, f->width, f->height, error, error_size) < 0) return -1;
    for (int row = 0; row < f->height; row++) {
        uint8_t *out = r->converted[0] + (ptrdiff_t)row * r->converted_linesize[0];
        gv_ff.av_read_image_line2(out, (const uint8_t **)f->data, f->linesize, d, 0, row, 0, f->width, 0, 2);
    }
    frame->data[0] = r->converted[0];
    frame->linesize[0] = r->converted_linesize[0];
    frame->format = GV_PIX_GRAY16;
    return 0;
}

/* Fills `frame` from r->frame, converting when the format is not read natively. */
static int deliver(gv_reader *r, gv_frame *frame, char *error, size_t error_size) {
    AVFrame *f = r->frame;
    enum AVPixelFormat format = f->format;
    int kind = classify(format);
    frame->width = f->width;
    frame->height = f->height;
    int64_t pts = f->best_effort_timestamp != AV_NOPTS_VALUE ? f->best_effort_timestamp : f->pts;
    frame->pts = pts;
    frame->seconds = pts == AV_NOPTS_VALUE ? NAN : (double)(pts - r->start) * av_q2d(r->time_base);
    frame->index = r->index++;
    if (r->luma_only) return deliver_luma(r, frame, error, error_size);
    if (kind != GV_PIX_OTHER && kind != GV_PIX_P010) {
        for (int i = 0; i < 3; i++) { frame->data[i] = f->data[i]; frame->linesize[i] = f->linesize[i]; }
        frame->format = kind;
        return 0;
    }
    if (format == AV_PIX_FMT_GRAY16BE) {
        /* PNG's 16-bit grey: swap to native order (no conversion needed). */
        if (prepare_converted(r, format, AV_PIX_FMT_GRAY16LE, f->width, f->height, error, error_size) < 0) return -1;
        for (int y = 0; y < f->height; y++) {
            const uint8_t *in = f->data[0] + (ptrdiff_t)y * f->linesize[0];
            uint8_t *out = r->converted[0] + (ptrdiff_t)y * r->converted_linesize[0];
            for (int x = 0; x < f->width; x++) { out[2 * x] = in[2 * x + 1]; out[2 * x + 1] = in[2 * x]; }
        }
        frame->data[0] = r->converted[0];
        frame->linesize[0] = r->converted_linesize[0];
        frame->format = GV_PIX_GRAY16;
        return 0;
    }
    int target = delivered(format);
    enum AVPixelFormat to = target == GV_PIX_GRAY16 ? AV_PIX_FMT_GRAY16LE : AV_PIX_FMT_YUV420P;
    int made = prepare_converted(r, format, to, f->width, f->height, error, error_size);
    if (made < 0) return -1;
    if (made || !r->sws) {
        gv_ff.sws_freeContext(r->sws);
        r->sws = gv_ff.sws_getContext(f->width, f->height, format, f->width, f->height, to, SWS_POINT, NULL, NULL, NULL);
        if (!r->sws) {
            snprintf(error, error_size, "cannot convert the pixel format '%s'", gv_ff.av_get_pix_fmt_name(format));
            return -1;
        }
    }
    gv_ff.sws_scale(r->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, r->converted, r->converted_linesize);
    for (int i = 0; i < 3; i++) { frame->data[i] = r->converted[i]; frame->linesize[i] = r->converted_linesize[i]; }
    frame->format = target;
    return 0;
}

int gv_reader_next(gv_reader *r, gv_frame *frame, char *error, size_t error_size) {
    memset(frame, 0, sizeof *frame);
    if (r->finished) return 0;
    for (;;) {
        int code = gv_ff.avcodec_receive_frame(r->codec, r->frame);
        if (code == 0) return deliver(r, frame, error, error_size) < 0 ? -1 : 1;
        if (code == AVERROR_EOF) { r->finished = 1; return 0; }
        if (code != AVERROR(EAGAIN)) { gv_error(error, error_size, "cannot decode a frame", code); return -1; }
        if (r->draining) { r->finished = 1; return 0; }
        /* Feed the decoder the next packet of our stream. */
        for (;;) {
            code = gv_ff.av_read_frame(r->format, r->packet);
            if (code == AVERROR_EOF) {
                r->draining = 1;
                code = gv_ff.avcodec_send_packet(r->codec, NULL);
                if (code < 0 && code != AVERROR_EOF) { gv_error(error, error_size, "cannot flush the decoder", code); return -1; }
                break;
            }
            if (code < 0) { gv_error(error, error_size, "cannot read a packet", code); return -1; }
            if (r->packet->stream_index != r->stream) { gv_ff.av_packet_unref(r->packet); continue; }
            code = gv_ff.avcodec_send_packet(r->codec, r->packet);
            gv_ff.av_packet_unref(r->packet);
            if (code < 0 && code != AVERROR(EAGAIN)) { gv_error(error, error_size, "cannot decode a packet", code); return -1; }
            break;
        }
    }
}

void gv_reader_close(gv_reader *r) {
    if (!r) return;
    gv_ff.sws_freeContext(r->sws);
    gv_ff.av_freep(&r->converted[0]);
    gv_ff.av_frame_free(&r->frame);
    gv_ff.av_packet_free(&r->packet);
    gv_ff.avcodec_free_context(&r->codec);
    gv_ff.avformat_close_input(&r->format);
    gv_ff.av_free(r);
}

int gv_probe_video_streams(const char *path, int *indices, int capacity, char *error, size_t error_size) {
    if (gv_ffmpeg_load(error, error_size) < 0) return -1;
    gv_quiet();
    AVFormatContext *format = NULL;
    int code = gv_ff.avformat_open_input(&format, path, NULL, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot open the file", code); return -1; }
    code = gv_ff.avformat_find_stream_info(format, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot read the stream information", code); gv_ff.avformat_close_input(&format); return -1; }
    int count = 0;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        AVStream *st = format->streams[i];
        if (st->codecpar->codec_type != AVMEDIA_TYPE_VIDEO || (st->disposition & AV_DISPOSITION_ATTACHED_PIC)) continue;
        if (count < capacity) indices[count] = (int)i;
        count++;
    }
    gv_ff.avformat_close_input(&format);
    return count;
}
