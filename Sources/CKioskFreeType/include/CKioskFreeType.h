// FreeType, loaded with dlopen the first time a glyph must be rendered (not linked: see the
// design notes at the top of Sources/KioskText/KioskText.swift). FreeType's own headers are
// libfreetype-dev's, reached through the two symbolic links beside this file (ft2build.h and
// freetype/ -> /usr/include/freetype2): a pkg-config system library would also put -lfreetype
// on the executable's link line, and libfreetype back into its DT_NEEDED. KioskText calls the
// `kiosk_`-prefixed wrappers declared here, never FreeType's functions, so the executable does
// not load libfreetype (nor the libpng, zlib and brotli it pulls in) when every glyph comes from
// the glyph cache.
#ifndef CKIOSKFREETYPE_H
#define CKIOSKFREETYPE_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SIZES_H

/* FT_LOAD_TARGET_LIGHT: light hinting, vertical only (what cairo uses with
   hintstyle "slight"); a function-like macro, which Swift cannot import. */
static inline FT_Int32 kiosk_ft_load_target_light(void) {
    return FT_LOAD_TARGET_LIGHT;
}

/* FT_HAS_KERNING(face): the face has a 'kern' table usable by FT_Get_Kerning. */
static inline int kiosk_ft_has_kerning(FT_Face face) {
    return FT_HAS_KERNING(face) ? 1 : 0;
}

/* FreeType's message for an error code ("cannot open resource", ...), built
   from fterrors.h with the macro trick that header documents (Debian's
   FreeType build leaves FT_Error_String out: it returns NULL there). Never NULL. */
static inline const char *kiosk_ft_error_string(FT_Error error) {
#undef FTERRORS_H_
#define FT_ERROR_START_LIST switch (error) {
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_END_LIST default: return "unknown error"; }
#include FT_ERRORS_H
}

/// Loads libfreetype.so.6 (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves every function below.
/// NULL on success (and on every later call); else why (dlerror's text, kiosk_load).
/// Thread-safe; a failed load may be tried again. Never unloaded.
const char *kiosk_freetype_load(void);

/// The path the dynamic loader opened for libfreetype.so.6 (NULL before a successful load):
/// the glyph cache records it, so a FreeType upgrade starts a fresh cache.
const char *kiosk_freetype_path(void);

// The functions KioskText calls, each written once: F(return type, name, (parameters),
// (arguments)); V(...) for those returning void. Each becomes `kiosk_<name>` with FreeType's
// exact signature. Calling one before kiosk_freetype_load succeeded aborts with a message.
#define KIOSK_FREETYPE_FUNCTIONS(F, V) \
    F(FT_Error, FT_Init_FreeType, (FT_Library *alibrary), (alibrary)) \
    F(FT_Error, FT_Done_FreeType, (FT_Library library), (library)) \
    V(void, FT_Library_Version, (FT_Library library, FT_Int *amajor, FT_Int *aminor, FT_Int *apatch), (library, amajor, aminor, apatch)) \
    F(FT_Error, FT_New_Face, (FT_Library library, const char *filepathname, FT_Long face_index, FT_Face *aface), (library, filepathname, face_index, aface)) \
    F(FT_Error, FT_Done_Face, (FT_Face face), (face)) \
    F(FT_Error, FT_New_Size, (FT_Face face, FT_Size *size), (face, size)) \
    F(FT_Error, FT_Done_Size, (FT_Size size), (size)) \
    F(FT_Error, FT_Activate_Size, (FT_Size size), (size)) \
    F(FT_Error, FT_Set_Pixel_Sizes, (FT_Face face, FT_UInt pixel_width, FT_UInt pixel_height), (face, pixel_width, pixel_height)) \
    F(FT_UInt, FT_Get_Char_Index, (FT_Face face, FT_ULong charcode), (face, charcode)) \
    F(FT_Error, FT_Load_Glyph, (FT_Face face, FT_UInt glyph_index, FT_Int32 load_flags), (face, glyph_index, load_flags)) \
    F(FT_Error, FT_Render_Glyph, (FT_GlyphSlot slot, FT_Render_Mode render_mode), (slot, render_mode)) \
    F(FT_Error, FT_Get_Kerning, (FT_Face face, FT_UInt left_glyph, FT_UInt right_glyph, FT_UInt kern_mode, FT_Vector *akerning), (face, left_glyph, right_glyph, kern_mode, akerning))

#define KIOSK_FREETYPE_DECLARE(ret, name, params, args) ret kiosk_##name params;
KIOSK_FREETYPE_FUNCTIONS(KIOSK_FREETYPE_DECLARE, KIOSK_FREETYPE_DECLARE)
#undef KIOSK_FREETYPE_DECLARE

#endif
