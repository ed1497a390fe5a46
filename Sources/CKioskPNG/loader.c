// kiosk_png_load and the kiosk_png_ wrappers, over CKioskLoader.
#include "CKioskPNG.h"
#include "kiosk_loader.h"

enum { KIOSK_PNG_FUNCTIONS(KIOSK_LOADER_INDEX, KIOSK_LOADER_INDEX) kiosk_png_count };
static void *slots[kiosk_png_count];
static const char *const symbols[] = { KIOSK_PNG_FUNCTIONS(KIOSK_LOADER_NAME, KIOSK_LOADER_NAME) NULL };
static struct kiosk_library png = { "libpng16.so.16", symbols, slots, NULL };
static struct kiosk_loader loader = KIOSK_LOADER_INIT("kiosk_png_load");

const char *kiosk_png_load(void) { return kiosk_load(&loader, &png, 1); }

#define WRAP(ret, name, params, args) KIOSK_LOADER_WRAP(loader, slots, ret, name, params, args)
#define WRAP_VOID(ret, name, params, args) KIOSK_LOADER_WRAP_VOID(loader, slots, ret, name, params, args)
KIOSK_PNG_FUNCTIONS(WRAP, WRAP_VOID)
