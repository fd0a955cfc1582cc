/* graphengine.h: the C ABI of GraphEngine (libGraphEngineC.so).
 *
 * Images are immutable, lazy recipes behind opaque handles: every function that makes one returns a
 * new handle the caller frees with ge_image_free (images derived from it keep what they need).
 * Functions return GE_OK (0) or a GE_ERROR_* code; when `error` is not NULL it then receives the
 * engine's message (malloc'd: free it with ge_string_free). Nothing is thrown across the boundary.
 * Coordinates are Core Image's: origin lower left, y up. All functions are thread-safe. */
#ifndef GRAPHENGINE_H
#define GRAPHENGINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    GE_OK = 0,
    GE_ERROR_INVALID_ARGUMENT = 1, /* NULL handle, bad size, format or colour space name */
    GE_ERROR_IO = 2,               /* a file could not be read, decoded or written */
    GE_ERROR_UNKNOWN_FILTER = 3,
    GE_ERROR_INVALID_PARAMETER = 4, /* unknown key, wrong type, out of range, missing input */
    GE_ERROR_RENDER = 5,
    GE_ERROR_RECIPE = 6,           /* message names the JSON path */
    GE_ERROR_CANCELLED = 7,        /* a progress callback returned non-zero */
    GE_ERROR_DEPTH = 8             /* a depth photo has no such auxiliary image, or it is unreadable */
};

enum { GE_UINT8 = 0, GE_UINT16 = 1, GE_FLOAT32 = 2 };                              /* sample types */
enum { GE_ALPHA_PREMULTIPLIED = 0, GE_ALPHA_STRAIGHT = 1, GE_ALPHA_OPAQUE = 2 };    /* alpha modes */

typedef struct ge_image ge_image;
typedef struct ge_params ge_params;
typedef struct ge_recipe ge_recipe;

/* Called once, on any thread, when the engine no longer reads borrowed memory. */
typedef void (*ge_release_fn)(void *user);
/* Called from another thread with the fraction done (0...1); return non-zero to cancel. */
typedef int32_t (*ge_progress_fn)(double fraction, void *user);

const char *ge_version(void);                 /* static string */
void ge_string_free(char *text);
void ge_image_free(ge_image *image);

/* Colour space names: "sRGB", "displayP3", "linearSRGB", or "data" (values never converted). */

/* A PNG, JPEG or HEIF file, lazily; color_space NULL: the file's profile. */
int32_t ge_image_open(const char *path, const char *color_space, ge_image **out, char **error);
/* Caller memory: rows row_bytes apart, top first; channels 1, 2, 3 or 4 (float32: 1, 3, 4).
 * release NULL: copied now. Otherwise read in place until release(user) is called; on failure it is not. */
int32_t ge_image_from_memory(const void *data, int64_t width, int64_t height, int64_t row_bytes,
                             int32_t channels, int32_t sample_type, int32_t alpha_mode,
                             const char *color_space, ge_release_fn release, void *user,
                             ge_image **out, char **error);
int32_t ge_image_extent(const ge_image *image, double extent[4], char **error);  /* x, y, w, h */
int32_t ge_image_crop(const ge_image *image, double x, double y, double width, double height,
                      ge_image **out, char **error);
int32_t ge_image_clamped(const ge_image *image, ge_image **out, char **error);
int32_t ge_image_transformed(const ge_image *image, const double matrix[6], ge_image **out, char **error);
/* "sRGB", "displayP3", ... the space the sources share; "data"; or "mixed". */
int32_t ge_image_color_space(const ge_image *image, char **name, char **error);

/* Filters by Core Image name with typed parameters. */
ge_params *ge_params_new(void);
void ge_params_free(ge_params *params);
int32_t ge_params_set_number(ge_params *params, const char *key, double value, char **error);
int32_t ge_params_set_vector(ge_params *params, const char *key, const double *values, int64_t count, char **error);
int32_t ge_params_set_color(ge_params *params, const char *key, const double *values, int64_t count,
                            const char *color_space, char **error);
int32_t ge_params_set_image(ge_params *params, const char *key, const ge_image *image, char **error);
int32_t ge_params_set_rect(ge_params *params, const char *key, double x, double y, double width, double height,
                           char **error);
int32_t ge_params_set_transform(ge_params *params, const char *key, const double matrix[6], char **error);
int32_t ge_params_set_bool(ge_params *params, const char *key, int32_t value, char **error);
int32_t ge_params_set_string(ge_params *params, const char *key, const char *value, char **error);
int32_t ge_params_set_data(ge_params *params, const char *key, const void *bytes, int64_t count, char **error);
/* input (may be NULL) is inputImage unless params sets one. */
int32_t ge_image_apply(const ge_image *input, const char *filter, const ge_params *params, ge_image **out,
                       char **error);
/* JSON array: name, categories, summary, inputs (key, type, default, minimum, maximum, ...). */
int32_t ge_filters_json(char **json, char **error);

/* Render rect (NULL: the extent) into caller memory, premultiplied; channels 1, 2, 3, 4 (float32: 1, 3, 4).
 * A rect off whole pixels is rounded outward; a render larger than destination_bytes is refused.
 * color_space NULL: the sources' shared space, else sRGB. progress may be NULL. */
int32_t ge_render(const ge_image *image, const double rect[4], void *destination, int64_t destination_bytes,
                  int64_t row_bytes,
                  int32_t channels, int32_t sample_type, const char *color_space,
                  ge_progress_fn progress, void *user, char **error);
/* PNG, JPEG or HEIC by extension; quality 0: 90; bit_depth 0: 8. With depth_photo and original (the
 * photo's image that `image` edits): EXIF, XMP, depth data and matte carried (JPEG). */
int32_t ge_image_write(const ge_image *image, const char *path, int32_t quality, int32_t bit_depth,
                       const char *color_space, const char *depth_photo, const ge_image *original,
                       ge_progress_fn progress, void *user, char **warnings, char **error);

/* Depth photos: kind "disparity", "depth", "matte", "skinMatte", "hairMatte", "teethMatte",
 * "glassesMatte", "skyMatte", "gainMap", "confidence", "original". */
int32_t ge_image_open_auxiliary(const char *path, const char *kind, ge_image **out, char **error);
int32_t ge_photo_info_json(const char *path, char **json, char **error);   /* graph info --format json */
int32_t ge_depth_data_json(const char *path, char **json, char **error);   /* kind, ranges, calibration */

/* Recipes: overrides as graph run --set takes them ("IMAGE.KEY=JSON"). */
int32_t ge_recipe_load(const char *path, const char *const *overrides, int64_t count, ge_recipe **out,
                       char **error);
void ge_recipe_free(ge_recipe *recipe);
int32_t ge_recipe_outputs_json(const ge_recipe *recipe, char **json, char **error);
int32_t ge_recipe_output_image(const ge_recipe *recipe, int64_t index, ge_image **out, char **error);
int32_t ge_recipe_image(const ge_recipe *recipe, const char *name, ge_image **out, char **error);
int32_t ge_recipe_write(const ge_recipe *recipe, char **error);

#ifdef __cplusplus
}
#endif

#endif
