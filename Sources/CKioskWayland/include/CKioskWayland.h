// The Wayland client of the HUD's overlay screen (KioskWayland): libwayland-client loaded with
// dlopen on first use, as FreeType is, and the few protocol objects an overlay needs, each kept
// here so that Swift sees a connection, its outputs, its surfaces and a queue of plain events.
//
// Not linked, and not taken from libwayland-dev: kiosk-hud must start on boards with no Wayland at
// all (the boot splash, the initramfs), where a linked libwayland-client.so.0 would be loaded by
// every command before main (measured for FreeType: docs/measurements.md), and the build needs no
// -dev package. libwayland's ABI used here (wl_message, wl_interface, wl_argument,
// wl_proxy_marshal_array_flags, wl_proxy_add_listener) is stable since 1.20 (Debian 12 has 1.21).
//
// Written by hand where wayland-scanner would generate: the interface tables (wayland.c) are
// described from the published protocol specifications — the core protocol's wayland.xml
// (https://gitlab.freedesktop.org/wayland/wayland/-/blob/main/protocol/wayland.xml) and
// wlr-layer-shell-unstable-v1, version 4, and wlr-foreign-toplevel-management-unstable-v1, version
// 3 (https://gitlab.freedesktop.org/wlroots/wlr-protocols, unstable/), which no Debian 12 package
// ships, and xdg-shell's xdg_wm_base, xdg_surface and xdg_toplevel, version 1 (wayland-protocols,
// stable/xdg-shell), for compositors without the layer shell. The listeners are C because each protocol event is a C
// callback; what they learn is queued as `struct kiosk_wl_event`, read by Swift after a dispatch.
#ifndef CKIOSKWAYLAND_H
#define CKIOSKWAYLAND_H

#include <stdint.h>
#include <stddef.h>

/// Loads libwayland-client.so.0. NULL on success (and on every later call); else why.
const char *kiosk_wayland_load(void);

/// One connection to a compositor (opaque).
struct kiosk_wl;

/// Connects to `name` (a socket under $XDG_RUNTIME_DIR, or an absolute path; NULL:
/// $WAYLAND_DISPLAY), and nothing more: no message is read until kiosk_wl_start, so that the
/// caller can ask the kernel who the compositor is first (SO_PEERCRED on kiosk_wl_fd). NULL on
/// failure with `error` filled in. Call kiosk_wayland_load first.
struct kiosk_wl *kiosk_wl_connect(const char *name, char *error, size_t size);
/// Learns the compositor's globals and outputs (two round trips). 0, or -1 with `error` filled
/// in: the connection failed, or the compositor offers neither zwlr_layer_shell_v1 nor
/// xdg_wm_base, or no wl_shm or wl_compositor version 4.
int kiosk_wl_start(struct kiosk_wl *wl, char *error, size_t size);
/// 1 when the compositor offers the layer shell (surfaces on its overlay layer, one per output);
/// 0 when it offers only xdg_wm_base (cage, weston's kiosk-shell): a surface is then one
/// fullscreen toplevel, app id "kiosk-hud", stacked over the app's — make one only.
int kiosk_wl_has_layer_shell(struct kiosk_wl *wl);
/// Ends the connection and everything made on it.
void kiosk_wl_disconnect(struct kiosk_wl *wl);
/// The connection's descriptor, to poll for reading.
int kiosk_wl_fd(struct kiosk_wl *wl);
/// Reads what the compositor sent, without blocking, and runs the listeners (events queued).
/// `readable`: poll said the descriptor is readable. 0, or -1 when the connection failed (its
/// error: kiosk_wl_error).
int kiosk_wl_dispatch(struct kiosk_wl *wl, int readable);
/// Sends what is queued. 0 done, 1 more to send (poll for writing), -1 failed.
int kiosk_wl_flush(struct kiosk_wl *wl);
/// A round trip: everything sent so far answered and dispatched (blocks). 0, or -1.
int kiosk_wl_roundtrip(struct kiosk_wl *wl);
/// Why the connection failed ("" while it has not).
const char *kiosk_wl_error(struct kiosk_wl *wl);

/// An output as the compositor described it (wl_output; done once its `done` came).
struct kiosk_wl_output_info {
    /// The registry's name for it: the output's identity on this connection.
    uint32_t id;
    int32_t width, height;  /// The current mode, in pixels.
    int32_t refresh_mhz;
    int32_t scale;          /// The integer scale (wl_output.scale; 1 before one came).
    int32_t transform;      /// wl_output.transform.
    int done;
    char make[64], model[64];
};
/// The number of outputs, and each by index (0 … count-1); 0 when `index` is out of range.
int kiosk_wl_output_count(struct kiosk_wl *wl);
int kiosk_wl_output_at(struct kiosk_wl *wl, int index, struct kiosk_wl_output_info *info);

/// One layer-shell surface (opaque): the HUD's picture on one output.
struct kiosk_wl_surface;
/// A surface on the overlay layer of output `output_id`, anchored to all four edges, size left to
/// the compositor, exclusive zone -1, no keyboard, namespace "kiosk-hud"; committed without a
/// buffer (its configure comes as an event). `tag` is echoed in its events. NULL on failure.
struct kiosk_wl_surface *kiosk_wl_surface_create(struct kiosk_wl *wl, uint32_t output_id, int tag);
void kiosk_wl_surface_destroy(struct kiosk_wl_surface *s);
/// 1 for a window (an xdg toplevel: no layer shell), 0 for a layer surface.
int kiosk_wl_surface_is_window(struct kiosk_wl_surface *s);
/// A window only: unmaps it (a null buffer committed), so that the compositor gives the keyboard
/// back to the app; kiosk_wl_surface_map asks for it again (a commit without a buffer), after
/// which a buffer may be attached only once its configure came (KIOSK_WL_CONFIGURED).
void kiosk_wl_surface_unmap(struct kiosk_wl_surface *s);
void kiosk_wl_surface_map(struct kiosk_wl_surface *s);
/// The size the compositor gave (logical units); 0 before the first configure.
void kiosk_wl_surface_size(struct kiosk_wl_surface *s, int32_t *width, int32_t *height);
/// A buffer of `width`×`height` pixels (premultiplied ARGB8888, stride width×4) the compositor is
/// not reading now, and in `*index_out` which of the surface's buffers it is (0…3), with 0x100
/// added when it is new (its pixels all to be written). Up to four are kept per surface (those
/// of another size let go); NULL when all are busy or memory fails.
uint32_t *kiosk_wl_surface_buffer(struct kiosk_wl_surface *s, int32_t width, int32_t height, int *index_out);
/// Shows the buffer kiosk_wl_surface_buffer returned last: attach, the damaged rectangles
/// (x, y, width, height quads in buffer pixels), the buffer scale, a frame callback, commit.
void kiosk_wl_surface_commit(struct kiosk_wl_surface *s, const int32_t *rects, int count, int32_t scale);
/// The input region (logical units): `count` rectangles (x, y, w, h quads); count 0 with
/// `rects` NULL: the whole surface (the default).
void kiosk_wl_surface_set_input(struct kiosk_wl_surface *s, const int32_t *rects, int count);

/// What happened, in the order it did.
enum kiosk_wl_event_kind {
    KIOSK_WL_OUTPUT_DONE = 1,   /// an output appeared or changed (id)
    KIOSK_WL_OUTPUT_GONE,       /// an output went away (id)
    KIOSK_WL_CONFIGURED,        /// a surface got its size (tag, x = width, y = height)
    KIOSK_WL_CLOSED,            /// the compositor closed a surface (tag)
    KIOSK_WL_FRAME_DONE,        /// a surface's last frame is on screen: draw the next (tag)
    KIOSK_WL_POINTER_ENTER,     /// (tag, x, y) surface-local logical
    KIOSK_WL_POINTER_LEAVE,     /// (tag)
    KIOSK_WL_POINTER_MOTION,    /// (tag, x, y)
    KIOSK_WL_POINTER_BUTTON,    /// (tag, code = the button's Linux code, pressed)
    KIOSK_WL_TOUCH_DOWN,        /// (tag, slot, x, y)
    KIOSK_WL_TOUCH_UP,          /// (tag, slot)
    KIOSK_WL_TOUCH_MOTION,      /// (tag, slot, x, y)
    KIOSK_WL_TOUCH_FRAME,
    KIOSK_WL_TOUCH_CANCEL,
    KIOSK_WL_OVERFLOW,          /// events were lost (more than the queue holds between two reads)
    KIOSK_WL_WINDOW,            /// another program's window is mapped, or was at the start (text = its app id)
    KIOSK_WL_WINDOWS_ENDED,     /// the compositor stopped telling its windows
};
struct kiosk_wl_event {
    int kind;
    int tag;
    uint32_t id;
    int32_t slot;
    uint32_t code;
    int pressed;
    uint32_t time_ms;
    double x, y;
    char text[128];
};
/// Asks the compositor for its windows (wlr-foreign-toplevel-management): each comes as a
/// KIOSK_WL_WINDOW event once described, those already mapped first. 0, or -1 when the
/// compositor does not offer it.
int kiosk_wl_watch_windows(struct kiosk_wl *wl);

/// The next queued event: 1 and `event` filled, or 0 when none is waiting.
int kiosk_wl_next_event(struct kiosk_wl *wl, struct kiosk_wl_event *event);

#endif
