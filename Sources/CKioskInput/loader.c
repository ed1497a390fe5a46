// kiosk_input_load and the kiosk_ wrappers: one function pointer per entry of
// KIOSK_LIBINPUT_FUNCTIONS / KIOSK_UDEV_FUNCTIONS, set by dlsym. glibc ≥ 2.34 has dlopen in
// libc itself (no -ldl).
#include "CKioskInput.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const libinput_soname = "libinput.so.10";
static const char *const udev_soname = "libudev.so.1";

#define KIOSK_POINTER(ret, name, params, args) static ret (*kiosk_p_##name) params;
KIOSK_LIBINPUT_FUNCTIONS(KIOSK_POINTER, KIOSK_POINTER)
KIOSK_UDEV_FUNCTIONS(KIOSK_POINTER, KIOSK_POINTER)
#undef KIOSK_POINTER

/// Set (release) once every pointer is; read (acquire) by each wrapper.
static int loaded;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

/// Writes "<prefix><dlerror's text>" into error (when there is room for anything).
static void fail(char *error, unsigned long size, const char *prefix) {
    const char *why = dlerror();
    if (error && size) snprintf(error, size, "%s%s", prefix, why ? why : "no reason given by dlerror");
}

static void *open_library(const char *soname, char *error, unsigned long size) {
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    // dlerror's text names the library: "libinput.so.10: cannot open shared object file: …".
    if (!lib) fail(error, size, "");
    return lib;
}

static void *resolve(void *lib, const char *soname, const char *symbol, char *error, unsigned long size) {
    dlerror();
    void *p = dlsym(lib, symbol);
    if (!p) {
        char prefix[160];
        snprintf(prefix, sizeof prefix, "%s has no %s: ", soname, symbol);
        fail(error, size, prefix);
    }
    return p;
}

/// Sets every pointer; -1 (error filled in) at the first missing symbol. Called with load_lock
/// held.
static int resolve_all(void *input, void *udev, char *error, unsigned long size) {
    void *p;
#define KIOSK_RESOLVE(lib, soname, name) \
    if (!(p = resolve(lib, soname, #name, error, size))) return -1; \
    *(void **)&kiosk_p_##name = p; /* POSIX's way to store dlsym's result in a function pointer */
#define KIOSK_RESOLVE_INPUT(ret, name, params, args) KIOSK_RESOLVE(input, libinput_soname, name)
#define KIOSK_RESOLVE_UDEV(ret, name, params, args) KIOSK_RESOLVE(udev, udev_soname, name)
    KIOSK_LIBINPUT_FUNCTIONS(KIOSK_RESOLVE_INPUT, KIOSK_RESOLVE_INPUT)
    KIOSK_UDEV_FUNCTIONS(KIOSK_RESOLVE_UDEV, KIOSK_RESOLVE_UDEV)
#undef KIOSK_RESOLVE_UDEV
#undef KIOSK_RESOLVE_INPUT
#undef KIOSK_RESOLVE
    return 0;
}

int kiosk_input_load(char *error, unsigned long error_size) {
    if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(&load_lock);
    int result = 0;
    if (!loaded) {
        // Never dlclose'd: libinput keeps pointers into itself (and ours into it) for good. A
        // second attempt after a failure just takes another reference.
        void *input = open_library(libinput_soname, error, error_size);
        void *udev = input ? open_library(udev_soname, error, error_size) : NULL;
        if (udev && resolve_all(input, udev, error, error_size) == 0) {
            __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
        } else {
            result = -1;
        }
    }
    pthread_mutex_unlock(&load_lock);
    return result;
}

__attribute__((noreturn, cold)) static void not_loaded(const char *name) {
    fprintf(stderr, "kiosk_%s called before kiosk_input_load succeeded (a bug in the caller)\n", name);
    abort();
}

#define KIOSK_CHECK(name) \
    if (__builtin_expect(!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE), 0)) not_loaded(#name);
#define KIOSK_WRAP(ret, name, params, args) \
    ret kiosk_##name params { KIOSK_CHECK(name) return kiosk_p_##name args; }
#define KIOSK_WRAP_VOID(ret, name, params, args) \
    ret kiosk_##name params { KIOSK_CHECK(name) kiosk_p_##name args; }
KIOSK_LIBINPUT_FUNCTIONS(KIOSK_WRAP, KIOSK_WRAP_VOID)
KIOSK_UDEV_FUNCTIONS(KIOSK_WRAP, KIOSK_WRAP_VOID)
