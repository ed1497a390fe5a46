// kiosk_load: dlopen and dlsym for the kiosk_ wrappers (kiosk_loader.h). glibc ≥ 2.34 has
// dlopen in libc itself (no -ldl).
#include "kiosk_loader.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/// Writes "<prefix><dlerror's text>" into error (when there is room for anything).
static void fail(char *error, unsigned long size, const char *prefix) {
    const char *why = dlerror();
    if (error && size) snprintf(error, size, "%s%s", prefix, why ? why : "no reason given by dlerror");
}

/// Opens `library` and fills its slots; -1 (error filled in) at the first failure.
static int open_one(struct kiosk_library *library, char *error, unsigned long size) {
    if (!library->handle) {
        // dlerror's text names the library: "libinput.so.10: cannot open shared object file: …".
        library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (!library->handle) { fail(error, size, ""); return -1; }
    }
    for (int i = 0; library->symbols[i]; i++) {
        dlerror();
        void *p = dlsym(library->handle, library->symbols[i]);
        if (!p) {
            char prefix[160];
            snprintf(prefix, sizeof prefix, "%s has no %s: ", library->soname, library->symbols[i]);
            fail(error, size, prefix);
            return -1;
        }
        library->slots[i] = p;
    }
    return 0;
}

/* The last failure's text, per thread (what kiosk_load returns). */
static __thread char kiosk_load_error[512];

const char *kiosk_load(struct kiosk_loader *loader, struct kiosk_library *libraries, int count) {
    if (__atomic_load_n(&loader->loaded, __ATOMIC_ACQUIRE)) return NULL;
    pthread_mutex_lock(&loader->lock);
    int result = 0;
    if (!loader->loaded) {
        for (int i = 0; i < count && result == 0; i++)
            result = open_one(&libraries[i], kiosk_load_error, sizeof kiosk_load_error);
        if (result == 0) __atomic_store_n(&loader->loaded, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&loader->lock);
    return result == 0 ? NULL : kiosk_load_error;
}

void kiosk_not_loaded(const struct kiosk_loader *loader, const char *function) {
    fprintf(stderr, "kiosk_%s called before %s succeeded (a bug in the caller)\n", function, loader->name);
    abort();
}
