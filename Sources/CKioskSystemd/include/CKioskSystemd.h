// libsystemd's sd-bus, loaded with dlopen by `kiosk-hud ctl follow-boot` (the only code that
// needs it), to read the systemd manager's boot progress.
//
// Not linked, and declared here rather than taken from libsystemd-dev's <systemd/sd-bus.h>:
// kiosk-hud must start on boards without libsystemd (a psplash-style image with busybox init, a
// container), where a linked libsystemd.so.0 would stop every command before main; and the
// build needs no libsystemd-dev. These are the six functions follow-boot calls, with their
// ABI as libsystemd.so.0 exports them (stable since systemd 221); the types are opaque
// stand-ins of our own (`struct kiosk_sd_bus`) or copies of the public layout
// (`struct kiosk_sd_bus_error` is sd_bus_error). KioskDaemon's SystemdManager calls the
// `kiosk_`-prefixed wrappers, never libsystemd's functions.
#ifndef CKIOSKSYSTEMD_H
#define CKIOSKSYSTEMD_H

/// sd_bus: a bus connection (opaque).
struct kiosk_sd_bus;

/// sd_bus_error's layout: an error's D-Bus name and message, freed by sd_bus_error_free.
/// Start from all zeros (SD_BUS_ERROR_NULL).
struct kiosk_sd_bus_error {
    const char *name;
    const char *message;
    int _need_free;
};

/// Loads libsystemd.so.0 (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves every function below.
/// NULL on success (and on every later call); else why (dlerror's text, kiosk_load).
/// Thread-safe; a failed load may be tried again. Never unloaded.
const char *kiosk_systemd_load(void);

// F(return type, name, (parameters), (arguments)); V(...) for those returning void. Each
// becomes `kiosk_<name>` with libsystemd's signature; calling one before kiosk_systemd_load
// succeeded aborts with a message. The int results are libsystemd's: >= 0 success, a negative
// errno otherwise.
#define KIOSK_SYSTEMD_FUNCTIONS(F, V) \
    F(int, sd_bus_new, (struct kiosk_sd_bus **ret), (ret)) \
    F(int, sd_bus_set_address, (struct kiosk_sd_bus *bus, const char *address), (bus, address)) \
    F(int, sd_bus_start, (struct kiosk_sd_bus *bus), (bus)) \
    F(int, sd_bus_get_property_trivial, (struct kiosk_sd_bus *bus, const char *destination, const char *path, const char *interface, const char *member, struct kiosk_sd_bus_error *ret_error, char type, void *ret_ptr), (bus, destination, path, interface, member, ret_error, type, ret_ptr)) \
    V(void, sd_bus_error_free, (struct kiosk_sd_bus_error *e), (e)) \
    F(struct kiosk_sd_bus *, sd_bus_unref, (struct kiosk_sd_bus *bus), (bus))

#define KIOSK_SYSTEMD_DECLARE(ret, name, params, args) ret kiosk_##name params;
KIOSK_SYSTEMD_FUNCTIONS(KIOSK_SYSTEMD_DECLARE, KIOSK_SYSTEMD_DECLARE)
#undef KIOSK_SYSTEMD_DECLARE

#endif
