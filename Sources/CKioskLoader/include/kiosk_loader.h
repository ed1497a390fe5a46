// One loader for the libraries kiosk-hud opens with dlopen instead of linking (libinput and
// libudev after the first frame; FreeType on a glyph cache miss; libpng at the first PNG): each
// group is opened once, on first need, its functions resolved into a table of slots, and the
// `kiosk_` wrappers call through the table. C only (CKioskInput, CKioskFreeType, CKioskPNG).
#ifndef KIOSK_LOADER_H
#define KIOSK_LOADER_H

#include <pthread.h>

/// A library to open and the functions to resolve from it, in order.
struct kiosk_library {
    const char *soname;
    /// The function names, NULL-terminated.
    const char *const *symbols;
    /// One slot per name, filled by kiosk_load.
    void **slots;
    /// dlopen's handle once open.
    void *handle;
};

/// The state of a group of libraries loaded together.
struct kiosk_loader {
    pthread_mutex_t lock;
    /// Set (release) once every slot of the group is filled; read (acquire) by the wrappers.
    int loaded;
    /// The loading function's name, for the message of a wrapper called too early.
    const char *name;
};
#define KIOSK_LOADER_INIT(name) { PTHREAD_MUTEX_INITIALIZER, 0, name }

/// Opens each library (dlopen, RTLD_NOW | RTLD_LOCAL) and fills its slots. NULL on success (and
/// on every later call); otherwise why, from dlerror's text (valid until this thread's next
/// failing load): for a library that cannot be opened it names the library, for a missing
/// function "<soname> has no <function>: …". Thread-safe; a failed load may be tried again.
/// Never unloaded: the libraries keep pointers into themselves, and we into them.
const char *kiosk_load(struct kiosk_loader *loader, struct kiosk_library *libraries, int count);

/// Aborts with "kiosk_<function> called before <loader name> succeeded": a bug in the caller.
__attribute__((noreturn, cold)) void kiosk_not_loaded(const struct kiosk_loader *loader, const char *function);

// For a list of functions written once as F(return type, name, (parameters), (arguments)):
/// An enumerator kiosk_index_<name>: the function's slot.
#define KIOSK_LOADER_INDEX(ret, name, params, args) kiosk_index_##name,
/// The function's name, for a `symbols` array.
#define KIOSK_LOADER_NAME(ret, name, params, args) #name,
/// `kiosk_<name>`, with the library's signature, calling through `slots` once `loader` is loaded.
#define KIOSK_LOADER_WRAP(loader, slots, ret, name, params, args) \
    ret kiosk_##name params { \
        if (__builtin_expect(!__atomic_load_n(&(loader).loaded, __ATOMIC_ACQUIRE), 0)) kiosk_not_loaded(&(loader), #name); \
        return ((ret(*) params)(slots)[kiosk_index_##name]) args; \
    }
/// The same for a function returning void.
#define KIOSK_LOADER_WRAP_VOID(loader, slots, ret, name, params, args) \
    ret kiosk_##name params { \
        if (__builtin_expect(!__atomic_load_n(&(loader).loaded, __ATOMIC_ACQUIRE), 0)) kiosk_not_loaded(&(loader), #name); \
        ((ret(*) params)(slots)[kiosk_index_##name]) args; \
    }

#endif
