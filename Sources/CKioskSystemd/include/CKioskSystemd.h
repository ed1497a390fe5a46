// libsystemd's sd-bus, loaded with dlopen by `kiosk-hud ctl follow-boot` (the systemd manager's
// boot progress) and by `kiosk-hud daemon --rauc` (RAUC's installer on the system bus), the only
// code that needs it.
//
// Not linked, and declared here rather than taken from libsystemd-dev's <systemd/sd-bus.h>:
// kiosk-hud must start on boards without libsystemd (a psplash-style image with busybox init, a
// container), where a linked libsystemd.so.0 would stop every command before main; and the
// build needs no libsystemd-dev. These are the functions follow-boot and the RAUC follower call
// (none variadic), with their ABI as libsystemd.so.0 exports them (stable since systemd 221;
// sd_bus_add_match_async since 237); the types are opaque
// stand-ins of our own (`struct kiosk_sd_bus`) or copies of the public layout
// (`struct kiosk_sd_bus_error` is sd_bus_error). KioskDaemon's SystemdManager calls the
// `kiosk_`-prefixed wrappers, never libsystemd's functions.
#ifndef CKIOSKSYSTEMD_H
#define CKIOSKSYSTEMD_H

#include <stdint.h>

/// sd_bus: a bus connection (opaque).
struct kiosk_sd_bus;

/// sd_bus_message: a message (opaque).
struct kiosk_sd_bus_message;
/// sd_bus_slot: a match or a pending call (opaque; passed as NULL here: floating, freed with the bus).
struct kiosk_sd_bus_slot;

/// sd_bus_error's layout: an error's D-Bus name and message, freed by sd_bus_error_free.
/// Start from all zeros (SD_BUS_ERROR_NULL).
struct kiosk_sd_bus_error {
    const char *name;
    const char *message;
    int _need_free;
};

/// sd_bus_message_handler_t: a signal's or a reply's callback; `userdata` is what was given
/// with the match or the call.
typedef int (*kiosk_sd_bus_message_handler)(struct kiosk_sd_bus_message *m, void *userdata, struct kiosk_sd_bus_error *ret_error);

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
    F(struct kiosk_sd_bus *, sd_bus_unref, (struct kiosk_sd_bus *bus), (bus)) \
    F(int, sd_bus_set_bus_client, (struct kiosk_sd_bus *bus, int b), (bus, b)) \
    F(int, sd_bus_get_fd, (struct kiosk_sd_bus *bus), (bus)) \
    F(int, sd_bus_get_events, (struct kiosk_sd_bus *bus), (bus)) \
    F(int, sd_bus_get_timeout, (struct kiosk_sd_bus *bus, uint64_t *timeout_usec), (bus, timeout_usec)) \
    F(int, sd_bus_process, (struct kiosk_sd_bus *bus, struct kiosk_sd_bus_message **r), (bus, r)) \
    V(void, sd_bus_close, (struct kiosk_sd_bus *bus), (bus)) \
    F(int, sd_bus_add_match_async, (struct kiosk_sd_bus *bus, struct kiosk_sd_bus_slot **slot, const char *match, kiosk_sd_bus_message_handler callback, kiosk_sd_bus_message_handler install_callback, void *userdata), (bus, slot, match, callback, install_callback, userdata)) \
    F(int, sd_bus_message_new_method_call, (struct kiosk_sd_bus *bus, struct kiosk_sd_bus_message **m, const char *destination, const char *path, const char *interface, const char *member), (bus, m, destination, path, interface, member)) \
    F(int, sd_bus_message_set_auto_start, (struct kiosk_sd_bus_message *m, int b), (m, b)) \
    F(int, sd_bus_message_append_basic, (struct kiosk_sd_bus_message *m, char type, const void *p), (m, type, p)) \
    F(int, sd_bus_call_async, (struct kiosk_sd_bus *bus, struct kiosk_sd_bus_slot **slot, struct kiosk_sd_bus_message *m, kiosk_sd_bus_message_handler callback, void *userdata, uint64_t usec), (bus, slot, m, callback, userdata, usec)) \
    F(struct kiosk_sd_bus_message *, sd_bus_message_unref, (struct kiosk_sd_bus_message *m), (m)) \
    F(const struct kiosk_sd_bus_error *, sd_bus_message_get_error, (struct kiosk_sd_bus_message *m), (m)) \
    F(const char *, sd_bus_message_get_sender, (struct kiosk_sd_bus_message *m), (m)) \
    F(int, sd_bus_message_peek_type, (struct kiosk_sd_bus_message *m, char *type, const char **contents), (m, type, contents)) \
    F(int, sd_bus_message_read_basic, (struct kiosk_sd_bus_message *m, char type, void *p), (m, type, p)) \
    F(int, sd_bus_message_enter_container, (struct kiosk_sd_bus_message *m, char type, const char *contents), (m, type, contents)) \
    F(int, sd_bus_message_exit_container, (struct kiosk_sd_bus_message *m), (m))

#define KIOSK_SYSTEMD_DECLARE(ret, name, params, args) ret kiosk_##name params;
KIOSK_SYSTEMD_FUNCTIONS(KIOSK_SYSTEMD_DECLARE, KIOSK_SYSTEMD_DECLARE)
#undef KIOSK_SYSTEMD_DECLARE

#endif
