// kiosk_freetype_load and the kiosk_FT_ wrappers, over CKioskLoader.
#define _GNU_SOURCE
#include "CKioskFreeType.h"
#include "kiosk_loader.h"
#include <dlfcn.h>
#include <link.h>

enum { KIOSK_FREETYPE_FUNCTIONS(KIOSK_LOADER_INDEX, KIOSK_LOADER_INDEX) kiosk_freetype_count };
static void *slots[kiosk_freetype_count];
static const char *const symbols[] = { KIOSK_FREETYPE_FUNCTIONS(KIOSK_LOADER_NAME, KIOSK_LOADER_NAME) NULL };
static struct kiosk_library freetype = { "libfreetype.so.6", symbols, slots, NULL };
static struct kiosk_loader loader = KIOSK_LOADER_INIT("kiosk_freetype_load");

const char *kiosk_freetype_load(void) {
    return kiosk_load(&loader, &freetype, 1);
}

const char *kiosk_freetype_path(void) {
    struct link_map *map = NULL;
    if (!__atomic_load_n(&loader.loaded, __ATOMIC_ACQUIRE) || dlinfo(freetype.handle, RTLD_DI_LINKMAP, &map) != 0 || !map) return NULL;
    return map->l_name;
}

#define WRAP(ret, name, params, args) KIOSK_LOADER_WRAP(loader, slots, ret, name, params, args)
#define WRAP_VOID(ret, name, params, args) KIOSK_LOADER_WRAP_VOID(loader, slots, ret, name, params, args)
KIOSK_FREETYPE_FUNCTIONS(WRAP, WRAP_VOID)
