// libwayland-client's ABI as this target uses it, declared here (no libwayland-dev): the layouts
// of wayland-util.h and the functions of wayland-client-core.h, as libwayland-client.so.0 exports
// them since 1.20. Private to CKioskWayland.
#ifndef KIOSK_WAYLAND_PRIVATE_H
#define KIOSK_WAYLAND_PRIVATE_H

#include "CKioskWayland.h"
#include <stdint.h>

struct wl_display;  // opaque; a wl_display is also a wl_proxy (the object with id 1)
struct wl_proxy;    // opaque

/// wl_message: a request's or an event's name, signature and argument interfaces.
struct kiosk_wl_message {
    const char *name;
    const char *signature;
    const struct kiosk_wl_interface **types;
};

/// wl_interface.
struct kiosk_wl_interface {
    const char *name;
    int version;
    int method_count;
    const struct kiosk_wl_message *methods;
    int event_count;
    const struct kiosk_wl_message *events;
};

/// wl_argument.
union kiosk_wl_argument {
    int32_t i;
    uint32_t u;
    int32_t f;  // wl_fixed_t, 24.8
    const char *s;
    void *o;
    uint32_t n;
    void *a;
    int32_t h;
};

/// WL_MARSHAL_FLAG_DESTROY: the request destroys the proxy.
#define KIOSK_WL_MARSHAL_DESTROY 1u

#define KIOSK_WAYLAND_FUNCTIONS(F, V) \
    F(struct wl_display *, wl_display_connect, (const char *name), (name)) \
    V(void, wl_display_disconnect, (struct wl_display *d), (d)) \
    F(int, wl_display_get_fd, (struct wl_display *d), (d)) \
    F(int, wl_display_dispatch_pending, (struct wl_display *d), (d)) \
    F(int, wl_display_flush, (struct wl_display *d), (d)) \
    F(int, wl_display_roundtrip, (struct wl_display *d), (d)) \
    F(int, wl_display_prepare_read, (struct wl_display *d), (d)) \
    F(int, wl_display_read_events, (struct wl_display *d), (d)) \
    V(void, wl_display_cancel_read, (struct wl_display *d), (d)) \
    F(int, wl_display_get_error, (struct wl_display *d), (d)) \
    F(uint32_t, wl_display_get_protocol_error, (struct wl_display *d, const struct kiosk_wl_interface **iface, uint32_t *id), (d, iface, id)) \
    F(struct wl_proxy *, wl_proxy_marshal_array_flags, (struct wl_proxy *p, uint32_t opcode, const struct kiosk_wl_interface *iface, uint32_t version, uint32_t flags, union kiosk_wl_argument *args), (p, opcode, iface, version, flags, args)) \
    F(int, wl_proxy_add_listener, (struct wl_proxy *p, void (**listener)(void), void *data), (p, listener, data)) \
    V(void, wl_proxy_destroy, (struct wl_proxy *p), (p)) \
    F(uint32_t, wl_proxy_get_version, (struct wl_proxy *p), (p))

#define KIOSK_WAYLAND_DECLARE(ret, name, params, args) ret kiosk_##name params;
KIOSK_WAYLAND_FUNCTIONS(KIOSK_WAYLAND_DECLARE, KIOSK_WAYLAND_DECLARE)
#undef KIOSK_WAYLAND_DECLARE

extern const struct kiosk_wl_interface kiosk_wl_registry_interface, kiosk_wl_callback_interface,
    kiosk_wl_buffer_interface, kiosk_wl_region_interface, kiosk_wl_output_interface, kiosk_wl_surface_interface,
    kiosk_wl_compositor_interface, kiosk_wl_shm_pool_interface, kiosk_wl_shm_interface, kiosk_wl_pointer_interface,
    kiosk_wl_touch_interface, kiosk_wl_seat_interface, kiosk_zwlr_layer_surface_v1_interface,
    kiosk_zwlr_layer_shell_v1_interface, kiosk_zwlr_foreign_toplevel_handle_v1_interface,
    kiosk_zwlr_foreign_toplevel_manager_v1_interface, kiosk_xdg_toplevel_interface, kiosk_xdg_surface_interface,
    kiosk_xdg_wm_base_interface;

#endif
