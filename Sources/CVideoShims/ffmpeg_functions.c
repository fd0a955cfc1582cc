/* FFmpeg loaded on first use: see ffmpeg_functions.h. */
#include "ffmpeg_functions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct gv_ffmpeg gv_ff;

#define GV_STRING2(x) #x
#define GV_STRING(x) GV_STRING2(x)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int load_status = -1;

static void *open_library(const char *name) {
    void *handle = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!handle && !load_error[0]) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error,
                 "cannot load %s (FFmpeg's libraries: install libavformat, libavcodec, libavutil and libswscale): %s",
                 name, reason ? reason : "not found");
    }
    return handle;
}

static void load(void) {
    /* avutil first: the others need it. */
    void *avutil = open_library("libavutil.so." GV_STRING(LIBAVUTIL_VERSION_MAJOR));
    void *avcodec = avutil ? open_library("libavcodec.so." GV_STRING(LIBAVCODEC_VERSION_MAJOR)) : NULL;
    void *avformat = avcodec ? open_library("libavformat.so." GV_STRING(LIBAVFORMAT_VERSION_MAJOR)) : NULL;
    void *swscale = avformat ? open_library("libswscale.so." GV_STRING(LIBSWSCALE_VERSION_MAJOR)) : NULL;
    if (!swscale) return;
#define GV_RESOLVE(library, name) \
    *(void **)(&gv_ff.name) = dlsym(library, #name); \
    if (!gv_ff.name) { \
        snprintf(load_error, sizeof load_error, "FFmpeg's lib%s has no function %s", #library, #name); \
        return; \
    }
    GV_FFMPEG_FUNCTIONS(GV_RESOLVE)
#undef GV_RESOLVE
    load_status = 0;
}

int gv_ffmpeg_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (load_status != 0 && error && error_size > 0) snprintf(error, error_size, "%s", load_error);
    return load_status;
}
