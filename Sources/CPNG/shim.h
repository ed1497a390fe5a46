#ifndef KIOSK_CPNG_SHIM_H
#define KIOSK_CPNG_SHIM_H

#include <png.h>

/* PNG_FORMAT_RGBA is a parenthesized macro expression that Swift does not
   import; expose the simplified-API formats KioskPNG uses as constants. */
static const png_uint_32 kiosk_png_format_rgb = PNG_FORMAT_RGB;
static const png_uint_32 kiosk_png_format_rgba = PNG_FORMAT_RGBA;

#endif
