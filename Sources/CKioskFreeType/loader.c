// kiosk_freetype_load and the kiosk_FT_ wrappers: one function pointer per entry of
// KIOSK_FREETYPE_FUNCTIONS, set by dlsym (the same shape as CKioskInput's loader).
#define _GNU_SOURCE
#include "CKioskFreeType.h"
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const freetype_soname = "libfreetype.so.6";

#define KIOSK_POINTER(ret, name, params, args) static ret (*kiosk_p_##name) params;
KIOSK_FREETYPE_FUNCTIONS(KIOSK_POINTER, KIOSK_POINTER)
#undef KIOSK_POINTER

/// Set (release) once every pointer is; read (acquire) by each wrapper.
static int loaded;
static const char *loaded_path;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(char *error, unsigned long size, const char *prefix) {
    const char *why = dlerror();
    if (error && size) snprintf(error, size, "%s%s", prefix, why ? why : "no reason given by dlerror");
}

static int resolve_all(void *lib, char *error, unsigned long size) {
    void *p;
#define KIOSK_RESOLVE(ret, name, params, args) \
    dlerror(); \
    if (!(p = dlsym(lib, #name))) { fail(error, size, "libfreetype.so.6 has no " #name ": "); return -1; } \
    *(void **)&kiosk_p_##name = p; /* POSIX's way to store dlsym's result in a function pointer */
    KIOSK_FREETYPE_FUNCTIONS(KIOSK_RESOLVE, KIOSK_RESOLVE)
#undef KIOSK_RESOLVE
    return 0;
}

int kiosk_freetype_load(char *error, unsigned long error_size) {
    if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(&load_lock);
    int result = 0;
    if (!loaded) {
        void *lib = dlopen(freetype_soname, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            fail(error, error_size, "");
            result = -1;
        } else if (resolve_all(lib, error, error_size) != 0) {
            result = -1;
        } else {
            struct link_map *map = NULL;
            if (dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) loaded_path = map->l_name;
            __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&load_lock);
    return result;
}

const char *kiosk_freetype_path(void) {
    return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE) ? loaded_path : NULL;
}

__attribute__((noreturn, cold)) static void not_loaded(const char *name) {
    fprintf(stderr, "kiosk_%s called before kiosk_freetype_load succeeded (a bug in the caller)\n", name);
    abort();
}

#define KIOSK_CHECK(name) \
    if (__builtin_expect(!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE), 0)) not_loaded(#name);
#define KIOSK_WRAP(ret, name, params, args) \
    ret kiosk_##name params { KIOSK_CHECK(name) return kiosk_p_##name args; }
#define KIOSK_WRAP_VOID(ret, name, params, args) \
    ret kiosk_##name params { KIOSK_CHECK(name) kiosk_p_##name args; }
KIOSK_FREETYPE_FUNCTIONS(KIOSK_WRAP, KIOSK_WRAP_VOID)
