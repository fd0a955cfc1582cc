// Text rendering for the text generators: fontconfig finds a font by name, HarfBuzz shapes the
// text, FreeType rasterises the glyphs.
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>
#include <fontconfig/fontconfig.h>
