#ifndef KIOSK_CFREETYPE_SHIM_H
#define KIOSK_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SIZES_H

/* Helpers for FreeType macros that Swift cannot import (function-like
   macros) and for error strings, which Debian's FreeType build leaves out
   (FT_Error_String returns NULL there). */

/* FT_LOAD_TARGET_LIGHT: light hinting, vertical only (what cairo uses with
   hintstyle "slight"). */
static inline FT_Int32 kiosk_ft_load_target_light(void) {
    return FT_LOAD_TARGET_LIGHT;
}

/* FT_HAS_KERNING(face): the face has a 'kern' table usable by FT_Get_Kerning. */
static inline int kiosk_ft_has_kerning(FT_Face face) {
    return FT_HAS_KERNING(face) ? 1 : 0;
}

/* FreeType's message for an error code ("cannot open resource", ...), built
   from fterrors.h with the macro trick that header documents. Never NULL. */
static inline const char *kiosk_ft_error_string(FT_Error error) {
#undef FTERRORS_H_
#define FT_ERROR_START_LIST switch (error) {
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_END_LIST default: return "unknown error"; }
#include FT_ERRORS_H
}

#endif
