#ifndef GV_VIDEO_INTERNAL_H
#define GV_VIDEO_INTERNAL_H
#include <stddef.h>
/* "what: FFmpeg's message for code" (code < 0) or just "what" into error. */
void gv_error(char *error, size_t size, const char *what, int code);
/* FFmpeg prints nothing. */
void gv_quiet(void);
#endif
