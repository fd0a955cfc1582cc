/* Encoding through libavcodec/libavformat, with the source's audio streams copied unchanged. */
#include "CVideoShims.h"
#include "video_internal.h"
#include "ffmpeg_functions.h"

#include <stdio.h>
#include <string.h>

#define GV_MAX_AUDIO 16

struct gv_writer {
    AVFormatContext *format;
    AVCodecContext *codec;
    AVStream *stream;
    AVFrame *frame;
    AVPacket *packet;
    /* RGBA input: converted by gv_rgba_to_i420 for a yuv420p encoder, by libswscale otherwise. */
    struct SwsContext *sws;
    int color_space, full_range;
    int input_format;
    int opened_io;
    int header_written;
    int finished;
    /* Audio copy: a second demuxer over the source, its audio streams mapped to ours. */
    AVFormatContext *audio;
    int audio_map[64];
    AVPacket *audio_packet;
    int audio_pending; /* audio_packet holds a packet not yet written */
    int audio_done;
};

static enum AVPixelFormat encoder_format(const AVCodec *codec, int input_format) {
    int grey = input_format == GV_PIX_GRAY8 || input_format == GV_PIX_GRAY16;
    enum AVPixelFormat wanted = input_format == GV_PIX_GRAY16 ? AV_PIX_FMT_GRAY16LE
                              : input_format == GV_PIX_GRAY8 ? AV_PIX_FMT_GRAY8 : AV_PIX_FMT_YUV420P;
    if (!codec->pix_fmts) return wanted;
    for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++) if (*p == wanted) return wanted;
    /* Big-endian 16-bit grey (the PNG encoder's): samples are swapped when copied. */
    if (wanted == AV_PIX_FMT_GRAY16LE)
        for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++) if (*p == AV_PIX_FMT_GRAY16BE) return *p;
    return grey ? AV_PIX_FMT_NONE : codec->pix_fmts[0];
}

int gv_encoder_available(const char *name) {
    return gv_ffmpeg_load(NULL, 0) == 0 && gv_ff.avcodec_find_encoder_by_name(name) != NULL;
}

static int open_audio(gv_writer *w, const char *source, char *error, size_t error_size) {
    int code = gv_ff.avformat_open_input(&w->audio, source, NULL, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot open the audio source", code); return -1; }
    code = gv_ff.avformat_find_stream_info(w->audio, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot read the audio source's streams", code); return -1; }
    int any = 0;
    for (unsigned i = 0; i < w->audio->nb_streams && i < 64; i++) {
        w->audio_map[i] = -1;
        AVStream *in = w->audio->streams[i];
        if (in->codecpar->codec_type != AVMEDIA_TYPE_AUDIO) continue;
        if (gv_ff.avformat_query_codec(w->format->oformat, in->codecpar->codec_id, FF_COMPLIANCE_NORMAL) != 1) {
            snprintf(error, error_size, "the audio codec '%s' of stream %u cannot be copied into a %s file",
                     gv_ff.avcodec_get_name(in->codecpar->codec_id), i, w->format->oformat->name);
            return -1;
        }
        AVStream *out = gv_ff.avformat_new_stream(w->format, NULL);
        if (!out) { gv_error(error, error_size, "out of memory", 0); return -1; }
        code = gv_ff.avcodec_parameters_copy(out->codecpar, in->codecpar);
        if (code < 0) { gv_error(error, error_size, "cannot copy the audio parameters", code); return -1; }
        out->codecpar->codec_tag = 0;
        out->time_base = in->time_base;
        gv_ff.av_dict_copy(&out->metadata, in->metadata, 0);
        out->disposition = in->disposition;
        w->audio_map[i] = out->index;
        any = 1;
    }
    if (!any) { gv_ff.avformat_close_input(&w->audio); return 0; }
    w->audio_packet = gv_ff.av_packet_alloc();
    if (!w->audio_packet) { gv_error(error, error_size, "out of memory", 0); return -1; }
    return 0;
}

/* Writes audio packets up to `until` (seconds; infinity: all). */
static int copy_audio(gv_writer *w, double until, char *error, size_t error_size) {
    if (!w->audio || w->audio_done) return 0;
    for (;;) {
        if (!w->audio_pending) {
            int code = gv_ff.av_read_frame(w->audio, w->audio_packet);
            if (code == AVERROR_EOF) { w->audio_done = 1; return 0; }
            if (code < 0) { gv_error(error, error_size, "cannot read the source's audio", code); return -1; }
            int index = w->audio_packet->stream_index;
            if (index >= 64 || w->audio_map[index] < 0) { gv_ff.av_packet_unref(w->audio_packet); continue; }
            w->audio_pending = 1;
        }
        AVPacket *p = w->audio_packet;
        AVStream *in = w->audio->streams[p->stream_index];
        int64_t ts = p->dts != AV_NOPTS_VALUE ? p->dts : p->pts;
        int64_t start = in->start_time == AV_NOPTS_VALUE ? 0 : in->start_time;
        double at = ts == AV_NOPTS_VALUE ? 0 : (double)(ts - start) * av_q2d(in->time_base);
        if (at > until) return 0;
        AVStream *out = w->format->streams[w->audio_map[p->stream_index]];
        gv_ff.av_packet_rescale_ts(p, in->time_base, out->time_base);
        p->stream_index = out->index;
        p->pos = -1;
        int code = gv_ff.av_interleaved_write_frame(w->format, p);
        w->audio_pending = 0;
        if (code < 0) { gv_error(error, error_size, "cannot write an audio packet", code); return -1; }
    }
}

int gv_writer_open(const char *path, const char *format_from, const gv_writer_config *c, gv_writer **out,
                   char *error, size_t error_size) {
    *out = NULL;
    if (gv_ffmpeg_load(error, error_size) < 0) return -1;
    gv_quiet();
    gv_writer *w = gv_ff.av_mallocz(sizeof *w);
    if (!w) { gv_error(error, error_size, "out of memory", 0); return -1; }
    w->input_format = c->input_format;
    const AVOutputFormat *container = gv_ff.av_guess_format(NULL, format_from, NULL);
    if (!container) {
        snprintf(error, error_size, "no container format for the name '%s' (use .mp4, .mov or .mkv)", format_from);
        gv_writer_free(w);
        return -1;
    }
    int code = gv_ff.avformat_alloc_output_context2(&w->format, container, NULL, path);
    if (code < 0) { gv_error(error, error_size, "cannot create the output", code); gv_writer_free(w); return -1; }
    const AVCodec *encoder = gv_ff.avcodec_find_encoder_by_name(c->codec);
    if (!encoder) {
        snprintf(error, error_size, "no encoder named '%s' in this FFmpeg", c->codec);
        gv_writer_free(w);
        return -1;
    }
    if (gv_ff.avformat_query_codec(container, encoder->id, FF_COMPLIANCE_NORMAL) == 0) {
        snprintf(error, error_size, "a %s file cannot hold %s video", container->name, c->codec);
        gv_writer_free(w);
        return -1;
    }
    enum AVPixelFormat pixel = encoder_format(encoder, c->input_format);
    if (pixel == AV_PIX_FMT_NONE) {
        snprintf(error, error_size, "the encoder '%s' cannot encode grey frames", c->codec);
        gv_writer_free(w);
        return -1;
    }
    w->stream = gv_ff.avformat_new_stream(w->format, NULL);
    w->codec = gv_ff.avcodec_alloc_context3(encoder);
    w->frame = gv_ff.av_frame_alloc();
    w->packet = gv_ff.av_packet_alloc();
    if (!w->stream || !w->codec || !w->frame || !w->packet) { gv_error(error, error_size, "out of memory", 0); gv_writer_free(w); return -1; }
    AVCodecContext *cc = w->codec;
    cc->width = c->width;
    cc->height = c->height;
    cc->pix_fmt = pixel;
    cc->time_base = (AVRational){c->time_base_num, c->time_base_den};
    cc->framerate = (AVRational){c->frame_rate_num, c->frame_rate_den};
    cc->color_range = c->color_range;
    cc->color_primaries = c->color_primaries;
    cc->color_trc = c->color_transfer;
    cc->colorspace = c->color_space;
    cc->thread_count = c->threads > 0 ? c->threads : 0;
    if (container->flags & AVFMT_GLOBALHEADER) cc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *options = NULL;
    if (c->preset && c->preset[0]) gv_ff.av_dict_set(&options, "preset", c->preset, 0);
    if (c->crf >= 0) gv_ff.av_dict_set_int(&options, "crf", c->crf, 0);
    if (strcmp(c->codec, "libx265") == 0) gv_ff.av_dict_set(&options, "x265-params", "log-level=none", 0);
    code = gv_ff.avcodec_open2(cc, encoder, &options);
    gv_ff.av_dict_free(&options);
    if (code < 0) { gv_error(error, error_size, "cannot open the encoder", code); gv_writer_free(w); return -1; }
    code = gv_ff.avcodec_parameters_from_context(w->stream->codecpar, cc);
    if (code < 0) { gv_error(error, error_size, "cannot set the stream parameters", code); gv_writer_free(w); return -1; }
    w->stream->time_base = cc->time_base;
    w->stream->avg_frame_rate = cc->framerate;
    if (c->rotation % 360 != 0) {
        uint8_t *matrix = gv_ff.av_stream_new_side_data(w->stream, AV_PKT_DATA_DISPLAYMATRIX, sizeof(int32_t) * 9);
        /* av_display_rotation_set takes a clockwise angle (av_display_rotation_get answers counterclockwise). */
        if (matrix) gv_ff.av_display_rotation_set((int32_t *)matrix, (double)c->rotation);
    }
    if (c->audio_source && open_audio(w, c->audio_source, error, error_size) < 0) { gv_writer_free(w); return -1; }
    if (!(container->flags & AVFMT_NOFILE)) {
        code = gv_ff.avio_open(&w->format->pb, path, AVIO_FLAG_WRITE);
        if (code < 0) { gv_error(error, error_size, "cannot create the file", code); gv_writer_free(w); return -1; }
        w->opened_io = 1;
    }
    code = gv_ff.avformat_write_header(w->format, NULL);
    if (code < 0) { gv_error(error, error_size, "cannot write the header", code); gv_writer_free(w); return -1; }
    w->header_written = 1;
    /* The frame the encoder reads (RGBA input is converted into it). */
    w->frame->format = pixel;
    w->frame->width = c->width;
    w->frame->height = c->height;
    w->frame->color_range = c->color_range;
    w->frame->colorspace = c->color_space;
    code = gv_ff.av_frame_get_buffer(w->frame, 64);
    if (code < 0) { gv_error(error, error_size, "out of memory", code); gv_writer_free(w); return -1; }
    w->color_space = c->color_space;
    w->full_range = c->color_range == AVCOL_RANGE_JPEG;
    if (c->input_format == GV_PIX_RGBA && pixel != AV_PIX_FMT_YUV420P) {
        w->sws = gv_ff.sws_getContext(c->width, c->height, AV_PIX_FMT_RGBA, c->width, c->height, pixel,
                                SWS_BILINEAR, NULL, NULL, NULL);
        if (!w->sws) { gv_error(error, error_size, "cannot set up the RGB to YCbCr conversion", 0); gv_writer_free(w); return -1; }
        int full = c->color_range == AVCOL_RANGE_JPEG;
        int space = c->color_space == AVCOL_SPC_BT470BG || c->color_space == AVCOL_SPC_SMPTE170M ? SWS_CS_ITU601
                  : c->color_space == AVCOL_SPC_BT2020_NCL ? SWS_CS_BT2020 : SWS_CS_ITU709;
        const int *coefficients = gv_ff.sws_getCoefficients(space);
        gv_ff.sws_setColorspaceDetails(w->sws, coefficients, 1, coefficients, full, 0, 1 << 16, 1 << 16);
    }
    *out = w;
    return 0;
}

static int drain(gv_writer *w, char *error, size_t error_size) {
    for (;;) {
        int code = gv_ff.avcodec_receive_packet(w->codec, w->packet);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return 0;
        if (code < 0) { gv_error(error, error_size, "cannot encode", code); return -1; }
        gv_ff.av_packet_rescale_ts(w->packet, w->codec->time_base, w->stream->time_base);
        w->packet->stream_index = w->stream->index;
        double at = w->packet->dts == AV_NOPTS_VALUE ? 0 : w->packet->dts * av_q2d(w->stream->time_base);
        if (copy_audio(w, at, error, error_size) < 0) { gv_ff.av_packet_unref(w->packet); return -1; }
        code = gv_ff.av_interleaved_write_frame(w->format, w->packet);
        if (code < 0) { gv_error(error, error_size, "cannot write a video packet", code); return -1; }
    }
}

int gv_writer_write(gv_writer *w, const uint8_t *const planes[3], const int linesizes[3], int64_t pts,
                    char *error, size_t error_size) {
    int code = gv_ff.av_frame_make_writable(w->frame);
    if (code < 0) { gv_error(error, error_size, "out of memory", code); return -1; }
    AVFrame *f = w->frame;
    if (w->input_format == GV_PIX_RGBA && !w->sws) {
        gv_rgba_to_i420(planes[0], linesizes[0], f->width, f->height, w->color_space, w->full_range, f->data, f->linesize);
    } else if (w->input_format == GV_PIX_RGBA) {
        gv_ff.sws_scale(w->sws, planes, linesizes, 0, f->height, f->data, f->linesize);
    } else {
        int planes_count = w->input_format == GV_PIX_I420 ? 3 : 1;
        int bytes = w->input_format == GV_PIX_GRAY16 ? 2 : 1;
        for (int p = 0; p < planes_count; p++) {
            int width = p == 0 ? f->width : (f->width + 1) / 2;
            int height = p == 0 ? f->height : (f->height + 1) / 2;
            gv_ff.av_image_copy_plane(f->data[p], f->linesize[p], planes[p], linesizes[p], width * bytes, height);
        }
        if (f->format == AV_PIX_FMT_GRAY16BE) {
            for (int y = 0; y < f->height; y++) {
                uint8_t *row = f->data[0] + (ptrdiff_t)y * f->linesize[0];
                for (int x = 0; x < f->width; x++) { uint8_t t = row[2 * x]; row[2 * x] = row[2 * x + 1]; row[2 * x + 1] = t; }
            }
        }
    }
    f->pts = pts;
    code = gv_ff.avcodec_send_frame(w->codec, f);
    if (code < 0) { gv_error(error, error_size, "cannot encode a frame", code); return -1; }
    return drain(w, error, error_size);
}

int gv_writer_finish(gv_writer *w, double audio_until, char *error, size_t error_size) {
    int code = gv_ff.avcodec_send_frame(w->codec, NULL);
    if (code < 0 && code != AVERROR_EOF) { gv_error(error, error_size, "cannot flush the encoder", code); return -1; }
    if (drain(w, error, error_size) < 0) return -1;
    if (copy_audio(w, audio_until, error, error_size) < 0) return -1;
    code = gv_ff.av_write_trailer(w->format);
    if (code < 0) { gv_error(error, error_size, "cannot finish the file", code); return -1; }
    w->finished = 1;
    if (w->opened_io) {
        code = gv_ff.avio_closep(&w->format->pb);
        w->opened_io = 0;
        if (code < 0) { gv_error(error, error_size, "cannot close the file", code); return -1; }
    }
    return 0;
}

void gv_writer_free(gv_writer *w) {
    if (!w) return;
    if (w->opened_io && w->format) gv_ff.avio_closep(&w->format->pb);
    gv_ff.sws_freeContext(w->sws);
    gv_ff.av_frame_free(&w->frame);
    gv_ff.av_packet_free(&w->packet);
    gv_ff.av_packet_free(&w->audio_packet);
    gv_ff.avformat_close_input(&w->audio);
    gv_ff.avcodec_free_context(&w->codec);
    gv_ff.avformat_free_context(w->format);
    gv_ff.av_free(w);
}
