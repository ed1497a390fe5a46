/*
 * kiosk-wl-app: the kiosk app stand-in of the Wayland tests (issue #38). One window of known
 * pixels that the compositor makes fullscreen (or maximizes: cage), and optionally a virtual pointer that gives the
 * compositor's seat a pointer, so that `swaymsg seat seat0 cursor …` clicks reach clients.
 *
 * Build (no libwayland-dev, no wayland-scanner: only Debian's libwayland-client0):
 *
 *     gcc -O2 -o kiosk-wl-app kiosk-wl-app.c -l:libwayland-client.so.0
 *
 * Run with WAYLAND_DISPLAY (and XDG_RUNTIME_DIR) set, as the compositor's user:
 *
 *     kiosk-wl-app [--virtual-pointer]
 *     kiosk-wl-app --virtual-pointer --click X Y WIDTH HEIGHT
 *
 * What it does:
 * - Maps an xdg_toplevel with app_id "kiosk-test-app" (title "kiosk test app"). The test's
 *   compositor config makes that app_id fullscreen.
 * - Fills each configured size with the picture below, in an XRGB8888 wl_shm buffer from a
 *   memfd, at the scale of the output the surface is on (wl_output.scale, integer; the buffer
 *   is `logical size × scale` pixels and `wl_surface.set_buffer_scale(scale)` is sent). Every
 *   configure is acked; a new size or scale gets a new buffer.
 * - Prints on stdout, one line each, flushed:
 *     `ready WxH scale S`   once, when a buffer of the fullscreen size at the output's scale
 *                           has been shown (its frame callback came): W×H in buffer pixels,
 *                           i.e. the output's mode in pixels.
 *     `resized WxH scale S` the same, for every later new size or scale that has been shown.
 *     `button pressed X Y` / `button released X Y`  a pointer button on this surface; X Y are
 *                           surface-local logical coordinates, rounded down.
 *     `pointer`             once, when the seat gained a pointer and this app asked for it.
 * - Hides the cursor while it is over this surface (wl_pointer.set_cursor with no surface at
 *   every enter): sway draws its (software) cursor into the frames that grim captures.
 * - Exits 0 on SIGTERM or SIGINT, and when the compositor goes away (EOF); 1 on a protocol
 *   error or anything else that goes wrong (the reason on stderr).
 *
 * The picture, for a buffer of W×H pixels (W, H ≥ 1), pixel (x, y) with 0 ≤ x < W, 0 ≤ y < H,
 * all integer arithmetic (`/` rounds down), opaque:
 *
 *     R = x * 255 / max(W - 1, 1)
 *     G = y * 255 / max(H - 1, 1)
 *     B = { 0x00, 0x55, 0xAA, 0xFF }[x * 4 / W]          (four vertical bands)
 *     pixel = 0xFF000000 | R << 16 | G << 8 | B          (XRGB8888: bytes B, G, R, 0xFF)
 *
 * `kiosk_pixel` below is that formula; a test reproduces it exactly.
 *
 * The interface tables are written here from the published protocol descriptions (libwayland's
 * wire format: `struct wl_message`/`wl_interface` as in wayland-util.h of libwayland 1.21):
 * - core (wl_registry … wl_output): wayland.xml of libwayland 1.21.0,
 *   https://gitlab.freedesktop.org/wayland/wayland/-/blob/1.21.0/protocol/wayland.xml
 * - xdg_wm_base, xdg_surface, xdg_toplevel: stable/xdg-shell/xdg-shell.xml of wayland-protocols,
 *   https://gitlab.freedesktop.org/wayland/wayland-protocols/-/blob/main/stable/xdg-shell/xdg-shell.xml
 *   (bound at version 1).
 * - zwlr_virtual_pointer_manager_v1, zwlr_virtual_pointer_v1: wlr-protocols,
 *   https://gitlab.freedesktop.org/wlroots/wlr-protocols/-/blob/master/unstable/wlr-virtual-pointer-unstable-v1.xml
 *   (bound at version 1).
 * Interfaces this app never creates (xdg_positioner, xdg_popup, wl_keyboard, …) are NULL in
 * the `types` arrays; libwayland then skips the type check of that argument.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* ---- libwayland-client's ABI (wayland-util.h, wayland-client-core.h of 1.21) ---- */

struct wl_interface;
struct wl_proxy;
struct wl_display;

struct wl_message {
    const char *name;
    const char *signature;
    const struct wl_interface **types;
};

struct wl_interface {
    const char *name;
    int version;
    int method_count;
    const struct wl_message *methods;
    int event_count;
    const struct wl_message *events;
};

struct wl_array {
    size_t size;
    size_t alloc;
    void *data;
};

typedef int32_t wl_fixed_t;

union wl_argument {
    int32_t i;
    uint32_t u;
    wl_fixed_t f;
    const char *s;
    struct wl_object *o;
    uint32_t n;
    struct wl_array *a;
    int32_t h;
};

#define WL_MARSHAL_FLAG_DESTROY (1 << 0)

extern struct wl_proxy *wl_proxy_marshal_array_flags(struct wl_proxy *proxy, uint32_t opcode,
        const struct wl_interface *interface, uint32_t version, uint32_t flags, union wl_argument *args);
extern int wl_proxy_add_listener(struct wl_proxy *proxy, void (**implementation)(void), void *data);
extern uint32_t wl_proxy_get_version(struct wl_proxy *proxy);
extern void wl_proxy_destroy(struct wl_proxy *proxy);
extern struct wl_display *wl_display_connect(const char *name);
extern void wl_display_disconnect(struct wl_display *display);
extern int wl_display_get_fd(struct wl_display *display);
extern int wl_display_roundtrip(struct wl_display *display);
extern int wl_display_prepare_read(struct wl_display *display);
extern int wl_display_read_events(struct wl_display *display);
extern void wl_display_cancel_read(struct wl_display *display);
extern int wl_display_dispatch_pending(struct wl_display *display);
extern int wl_display_flush(struct wl_display *display);
extern int wl_display_get_error(struct wl_display *display);

/* ---- Interface tables ---- */

static const struct wl_interface wl_registry_if, wl_callback_if, wl_compositor_if, wl_surface_if,
    wl_region_if, wl_shm_if, wl_shm_pool_if, wl_buffer_if, wl_seat_if, wl_pointer_if, wl_output_if,
    xdg_wm_base_if, xdg_surface_if, xdg_toplevel_if, vp_manager_if, vp_if;

static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };

/* wl_registry: request 0 bind(name u, id new_id of any interface: "usun") */
static const struct wl_message wl_registry_requests[] = { { "bind", "usun", no_types } };
static const struct wl_message wl_registry_events[] = {
    { "global", "usu", no_types },
    { "global_remove", "u", no_types },
};
static const struct wl_interface wl_registry_if = { "wl_registry", 1, 1, wl_registry_requests, 2, wl_registry_events };

static const struct wl_message wl_callback_events[] = { { "done", "u", no_types } };
static const struct wl_interface wl_callback_if = { "wl_callback", 1, 0, NULL, 1, wl_callback_events };

static const struct wl_interface *t_surface[] = { &wl_surface_if };
static const struct wl_interface *t_region[] = { &wl_region_if };
static const struct wl_message wl_compositor_requests[] = {
    { "create_surface", "n", t_surface },
    { "create_region", "n", t_region },
};
static const struct wl_interface wl_compositor_if = { "wl_compositor", 4, 2, wl_compositor_requests, 0, NULL };

static const struct wl_interface *t_buffer_ii[] = { &wl_buffer_if, NULL, NULL };
static const struct wl_interface *t_callback[] = { &wl_callback_if };
static const struct wl_interface *t_region1[] = { &wl_region_if };
static const struct wl_interface *t_output[] = { &wl_output_if };
static const struct wl_message wl_surface_requests[] = {
    { "destroy", "", no_types },
    { "attach", "?oii", t_buffer_ii },
    { "damage", "iiii", no_types },
    { "frame", "n", t_callback },
    { "set_opaque_region", "?o", t_region1 },
    { "set_input_region", "?o", t_region1 },
    { "commit", "", no_types },
    { "set_buffer_transform", "2i", no_types },
    { "set_buffer_scale", "3i", no_types },
    { "damage_buffer", "4iiii", no_types },
};
static const struct wl_message wl_surface_events[] = {
    { "enter", "o", t_output },
    { "leave", "o", t_output },
};
static const struct wl_interface wl_surface_if = { "wl_surface", 4, 10, wl_surface_requests, 2, wl_surface_events };

static const struct wl_message wl_region_requests[] = {
    { "destroy", "", no_types },
    { "add", "iiii", no_types },
    { "subtract", "iiii", no_types },
};
static const struct wl_interface wl_region_if = { "wl_region", 1, 3, wl_region_requests, 0, NULL };

static const struct wl_interface *t_pool_hi[] = { &wl_shm_pool_if, NULL, NULL };
static const struct wl_message wl_shm_requests[] = { { "create_pool", "nhi", t_pool_hi } };
static const struct wl_message wl_shm_events[] = { { "format", "u", no_types } };
static const struct wl_interface wl_shm_if = { "wl_shm", 1, 1, wl_shm_requests, 1, wl_shm_events };

static const struct wl_interface *t_buffer_iiiiu[] = { &wl_buffer_if, NULL, NULL, NULL, NULL, NULL };
static const struct wl_message wl_shm_pool_requests[] = {
    { "create_buffer", "niiiiu", t_buffer_iiiiu },
    { "destroy", "", no_types },
    { "resize", "i", no_types },
};
static const struct wl_interface wl_shm_pool_if = { "wl_shm_pool", 1, 3, wl_shm_pool_requests, 0, NULL };

static const struct wl_message wl_buffer_requests[] = { { "destroy", "", no_types } };
static const struct wl_message wl_buffer_events[] = { { "release", "", no_types } };
static const struct wl_interface wl_buffer_if = { "wl_buffer", 1, 1, wl_buffer_requests, 1, wl_buffer_events };

/* wl_seat bound at version 1: get_keyboard/get_touch are never sent (NULL types). */
static const struct wl_interface *t_pointer[] = { &wl_pointer_if };
static const struct wl_message wl_seat_requests[] = {
    { "get_pointer", "n", t_pointer },
    { "get_keyboard", "n", no_types },
    { "get_touch", "n", no_types },
};
static const struct wl_message wl_seat_events[] = {
    { "capabilities", "u", no_types },
    { "name", "2s", no_types },
};
static const struct wl_interface wl_seat_if = { "wl_seat", 1, 3, wl_seat_requests, 2, wl_seat_events };

/* wl_pointer at version 1: events 0–4 only (frame, axis_source … are version 5+). */
static const struct wl_interface *t_pointer_set_cursor[] = { NULL, &wl_surface_if, NULL, NULL };
static const struct wl_interface *t_u_surface_ff[] = { NULL, &wl_surface_if, NULL, NULL };
static const struct wl_interface *t_u_surface[] = { NULL, &wl_surface_if };
static const struct wl_message wl_pointer_requests[] = { { "set_cursor", "u?oii", t_pointer_set_cursor } };
static const struct wl_message wl_pointer_events[] = {
    { "enter", "uoff", t_u_surface_ff },
    { "leave", "uo", t_u_surface },
    { "motion", "uff", no_types },
    { "button", "uuuu", no_types },
    { "axis", "uuf", no_types },
};
static const struct wl_interface wl_pointer_if = { "wl_pointer", 1, 1, wl_pointer_requests, 5, wl_pointer_events };

/* wl_output bound at version 2 (scale, done). */
static const struct wl_message wl_output_events[] = {
    { "geometry", "iiiiissi", no_types },
    { "mode", "uiii", no_types },
    { "done", "2", no_types },
    { "scale", "2i", no_types },
};
static const struct wl_interface wl_output_if = { "wl_output", 2, 0, NULL, 4, wl_output_events };

/* xdg-shell, version 1 requests and events. */
static const struct wl_interface *t_xdg_surface_surface[] = { &xdg_surface_if, &wl_surface_if };
static const struct wl_message xdg_wm_base_requests[] = {
    { "destroy", "", no_types },
    { "create_positioner", "n", no_types },
    { "get_xdg_surface", "no", t_xdg_surface_surface },
    { "pong", "u", no_types },
};
static const struct wl_message xdg_wm_base_events[] = { { "ping", "u", no_types } };
static const struct wl_interface xdg_wm_base_if = { "xdg_wm_base", 1, 4, xdg_wm_base_requests, 1, xdg_wm_base_events };

static const struct wl_interface *t_toplevel[] = { &xdg_toplevel_if };
static const struct wl_message xdg_surface_requests[] = {
    { "destroy", "", no_types },
    { "get_toplevel", "n", t_toplevel },
    { "get_popup", "n?oo", no_types },
    { "set_window_geometry", "iiii", no_types },
    { "ack_configure", "u", no_types },
};
static const struct wl_message xdg_surface_events[] = { { "configure", "u", no_types } };
static const struct wl_interface xdg_surface_if = { "xdg_surface", 1, 5, xdg_surface_requests, 1, xdg_surface_events };

static const struct wl_interface *t_toplevel1[] = { &xdg_toplevel_if };
static const struct wl_interface *t_seat_uii[] = { &wl_seat_if, NULL, NULL, NULL };
static const struct wl_interface *t_seat_u[] = { &wl_seat_if, NULL };
static const struct wl_interface *t_seat_uu[] = { &wl_seat_if, NULL, NULL };
static const struct wl_message xdg_toplevel_requests[] = {
    { "destroy", "", no_types },
    { "set_parent", "?o", t_toplevel1 },
    { "set_title", "s", no_types },
    { "set_app_id", "s", no_types },
    { "show_window_menu", "ouii", t_seat_uii },
    { "move", "ou", t_seat_u },
    { "resize", "ouu", t_seat_uu },
    { "set_max_size", "ii", no_types },
    { "set_min_size", "ii", no_types },
    { "set_maximized", "", no_types },
    { "unset_maximized", "", no_types },
    { "set_fullscreen", "?o", t_output },
    { "unset_fullscreen", "", no_types },
    { "set_minimized", "", no_types },
};
static const struct wl_message xdg_toplevel_events[] = {
    { "configure", "iia", no_types },
    { "close", "", no_types },
};
static const struct wl_interface xdg_toplevel_if = { "xdg_toplevel", 1, 14, xdg_toplevel_requests, 2, xdg_toplevel_events };

/* wlr-virtual-pointer-unstable-v1, version 1. */
static const struct wl_interface *t_seat_vp[] = { &wl_seat_if, &vp_if };
static const struct wl_message vp_manager_requests[] = {
    { "create_virtual_pointer", "?on", t_seat_vp },
    { "destroy", "", no_types },
};
static const struct wl_interface vp_manager_if = { "zwlr_virtual_pointer_manager_v1", 1, 2, vp_manager_requests, 0, NULL };

static const struct wl_message vp_requests[] = {
    { "motion", "uff", no_types },
    { "motion_absolute", "uuuuu", no_types },
    { "button", "uuu", no_types },
    { "axis", "uuf", no_types },
    { "frame", "", no_types },
    { "axis_source", "u", no_types },
    { "axis_stop", "uu", no_types },
    { "axis_discrete", "uufi", no_types },
    { "destroy", "", no_types },
};
static const struct wl_interface vp_if = { "zwlr_virtual_pointer_v1", 1, 9, vp_requests, 0, NULL };

/* ---- Requests ---- */

static struct wl_proxy *request(struct wl_proxy *p, uint32_t opcode, const struct wl_interface *creates,
                                union wl_argument *args) {
    return wl_proxy_marshal_array_flags(p, opcode, creates, wl_proxy_get_version(p), 0, args);
}

/* ---- State ---- */

#define MAX_OUTPUTS 8

struct output {
    struct wl_proxy *proxy;
    uint32_t name;
    int32_t scale;
    int entered;
};

struct buffer {
    struct wl_proxy *proxy;
    void *data;
    size_t size;
    int width, height;
};

static struct {
    struct wl_display *display;
    struct wl_proxy *registry, *compositor, *shm, *wm_base, *seat, *vp_manager, *vp, *pointer;
    struct wl_proxy *surface, *xdg_surface, *toplevel;
    struct output outputs[MAX_OUTPUTS];
    int output_count;
    /* The last toplevel configure (logical size, fullscreen state) and whether it is acked. */
    int32_t conf_width, conf_height;
    int conf_fullscreen;
    /* What is attached: buffer pixels and scale, and whether its frame callback came. */
    struct buffer current, retired[4];
    int retired_count;
    int shown_width, shown_height, shown_scale, shown_fullscreen;
    int frame_pending, frame_done;
    int reported_width, reported_height, reported_scale, ready;
    int32_t pointer_x, pointer_y;
    int want_virtual_pointer, told_pointer;
    int failed;
} app;

static void fail(const char *what) {
    fprintf(stderr, "kiosk-wl-app: %s\n", what);
    app.failed = 1;
}

/* ---- The picture ---- */

static uint32_t kiosk_pixel(int x, int y, int w, int h) {
    static const uint32_t bands[4] = { 0x00, 0x55, 0xAA, 0xFF };
    uint32_t r = (uint32_t)x * 255 / (uint32_t)(w > 1 ? w - 1 : 1);
    uint32_t g = (uint32_t)y * 255 / (uint32_t)(h > 1 ? h - 1 : 1);
    uint32_t b = bands[(uint32_t)x * 4 / (uint32_t)w];
    return 0xFF000000u | r << 16 | g << 8 | b;
}

/* ---- Buffers ---- */

static void buffer_release(void *data, struct wl_proxy *proxy) {
    (void)data;
    for (int i = 0; i < app.retired_count; i++) {
        if (app.retired[i].proxy != proxy) continue;
        union wl_argument none[1];
        wl_proxy_marshal_array_flags(proxy, 0, NULL, wl_proxy_get_version(proxy), WL_MARSHAL_FLAG_DESTROY, none);
        munmap(app.retired[i].data, app.retired[i].size);
        app.retired[i] = app.retired[--app.retired_count];
        return;
    }
}
static void (*buffer_listener[])(void) = { (void (*)(void))buffer_release };

static int make_buffer(int w, int h, struct buffer *out) {
    size_t stride = (size_t)w * 4, size = stride * (size_t)h;
    int fd = memfd_create("kiosk-wl-app", MFD_CLOEXEC);
    if (fd < 0) { fail("memfd_create failed"); return -1; }
    if (ftruncate(fd, (off_t)size) != 0) { close(fd); fail("ftruncate failed"); return -1; }
    void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) { close(fd); fail("mmap failed"); return -1; }
    uint32_t *px = data;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            px[(size_t)y * (size_t)w + (size_t)x] = kiosk_pixel(x, y, w, h);
    union wl_argument pa[3] = { { .n = 0 }, { .h = fd }, { .i = (int32_t)size } };
    struct wl_proxy *pool = request(app.shm, 0, &wl_shm_pool_if, pa);
    close(fd); /* libwayland sent a dup */
    union wl_argument ba[6] = { { .n = 0 }, { .i = 0 }, { .i = w }, { .i = h }, { .i = (int32_t)stride }, { .u = 1 /* xrgb8888 */ } };
    struct wl_proxy *buffer = request(pool, 0, &wl_buffer_if, ba);
    union wl_argument none[1];
    wl_proxy_marshal_array_flags(pool, 1, NULL, wl_proxy_get_version(pool), WL_MARSHAL_FLAG_DESTROY, none);
    if (!buffer) { munmap(data, size); fail("create_buffer failed"); return -1; }
    wl_proxy_add_listener(buffer, buffer_listener, NULL);
    *out = (struct buffer){ buffer, data, size, w, h };
    return 0;
}

static int wanted_scale(void) {
    int scale = 0;
    for (int i = 0; i < app.output_count; i++)
        if (app.outputs[i].entered && app.outputs[i].scale > scale) scale = app.outputs[i].scale;
    return scale > 0 ? scale : 1;
}

static void frame_done(void *data, struct wl_proxy *callback, uint32_t time) {
    (void)data; (void)time;
    union wl_argument none[1];
    /* wl_callback has no requests: the proxy is only destroyed here (client side). */
    extern void wl_proxy_destroy(struct wl_proxy *proxy);
    wl_proxy_destroy(callback);
    app.frame_pending = 0;
    app.frame_done = 1;
    (void)none;
}
static void (*frame_listener[])(void) = { (void (*)(void))frame_done };

/* Attaches a new picture when the configured size or the scale changed; commits either way
 * (the commit that goes with an ack_configure). */
static void draw_and_commit(void) {
    int32_t lw = app.conf_width > 0 ? app.conf_width : 320;
    int32_t lh = app.conf_height > 0 ? app.conf_height : 240;
    int scale = wanted_scale();
    int w = lw * scale, h = lh * scale;
    if (app.current.proxy == NULL || app.current.width != w || app.current.height != h || app.shown_scale != scale) {
        struct buffer b;
        if (make_buffer(w, h, &b) != 0) return;
        if (app.current.proxy) {
            if (app.retired_count < 4) app.retired[app.retired_count++] = app.current;
            /* else: leak it (cannot happen unless the compositor never releases). */
        }
        app.current = b;
        union wl_argument sc[1] = { { .i = scale } };
        request(app.surface, 8, NULL, sc);
        union wl_argument at[3] = { { .o = (struct wl_object *)b.proxy }, { .i = 0 }, { .i = 0 } };
        request(app.surface, 1, NULL, at);
        union wl_argument dm[4] = { { .i = 0 }, { .i = 0 }, { .i = lw }, { .i = lh } };
        request(app.surface, 2, NULL, dm);
        union wl_argument fr[1] = { { .n = 0 } };
        struct wl_proxy *cb = request(app.surface, 3, &wl_callback_if, fr);
        if (cb) wl_proxy_add_listener(cb, frame_listener, NULL);
        app.frame_pending = 1;
        app.frame_done = 0;
        app.shown_width = w;
        app.shown_height = h;
        app.shown_scale = scale;
    }
    app.shown_fullscreen = app.conf_fullscreen;
    union wl_argument none[1];
    request(app.surface, 6, NULL, none);
}

/* Prints `ready`/`resized` once the fullscreen picture at the output's scale is on screen. */
static void report(void) {
    if (!app.frame_done || !app.shown_fullscreen || app.shown_scale != wanted_scale()) return;
    int entered = 0;
    for (int i = 0; i < app.output_count; i++) entered |= app.outputs[i].entered;
    if (!entered) return;
    if (app.ready && app.reported_width == app.shown_width && app.reported_height == app.shown_height
        && app.reported_scale == app.shown_scale) return;
    printf("%s %dx%d scale %d\n", app.ready ? "resized" : "ready", app.shown_width, app.shown_height, app.shown_scale);
    fflush(stdout);
    app.ready = 1;
    app.reported_width = app.shown_width;
    app.reported_height = app.shown_height;
    app.reported_scale = app.shown_scale;
}

/* ---- Events ---- */

static struct output *find_output(struct wl_proxy *proxy) {
    for (int i = 0; i < app.output_count; i++)
        if (app.outputs[i].proxy == proxy) return &app.outputs[i];
    return NULL;
}

static void output_geometry(void *d, struct wl_proxy *p, int32_t x, int32_t y, int32_t pw, int32_t ph,
                            int32_t sub, const char *make, const char *model, int32_t transform) {
    (void)d; (void)p; (void)x; (void)y; (void)pw; (void)ph; (void)sub; (void)make; (void)model; (void)transform;
}
static void output_mode(void *d, struct wl_proxy *p, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {
    (void)d; (void)p; (void)flags; (void)w; (void)h; (void)refresh;
}
static void output_done(void *d, struct wl_proxy *p) {
    (void)d;
    struct output *o = find_output(p);
    if (o && o->entered && app.current.proxy && app.shown_scale != wanted_scale()) draw_and_commit();
}
static void output_scale(void *d, struct wl_proxy *p, int32_t scale) {
    (void)d;
    struct output *o = find_output(p);
    if (o) o->scale = scale;
}
static void (*output_listener[])(void) = {
    (void (*)(void))output_geometry, (void (*)(void))output_mode,
    (void (*)(void))output_done, (void (*)(void))output_scale,
};

static void surface_enter(void *d, struct wl_proxy *p, struct wl_proxy *output) {
    (void)d; (void)p;
    struct output *o = find_output(output);
    if (!o) return;
    o->entered = 1;
    if (app.current.proxy && app.shown_scale != wanted_scale()) draw_and_commit();
}
static void surface_leave(void *d, struct wl_proxy *p, struct wl_proxy *output) {
    (void)d; (void)p;
    struct output *o = find_output(output);
    if (!o) return;
    o->entered = 0;
    if (app.current.proxy && app.shown_scale != wanted_scale()) draw_and_commit();
}
static void (*surface_listener[])(void) = { (void (*)(void))surface_enter, (void (*)(void))surface_leave };

static void wm_base_ping(void *d, struct wl_proxy *p, uint32_t serial) {
    (void)d;
    union wl_argument a[1] = { { .u = serial } };
    request(p, 3, NULL, a);
}
static void (*wm_base_listener[])(void) = { (void (*)(void))wm_base_ping };

static void toplevel_configure(void *d, struct wl_proxy *p, int32_t w, int32_t h, struct wl_array *states) {
    (void)d; (void)p;
    app.conf_width = w;
    app.conf_height = h;
    app.conf_fullscreen = 0;
    uint32_t *s = states->data;
    for (size_t i = 0; i < states->size / sizeof(uint32_t); i++)
        /* fullscreen (sway's rule for the app), or maximized to the output (cage's way) */
        if (s[i] == 2 /* xdg_toplevel.state.fullscreen */ || s[i] == 1 /* maximized */) app.conf_fullscreen = 1;
}
static void toplevel_close(void *d, struct wl_proxy *p) { (void)d; (void)p; }
static void (*toplevel_listener[])(void) = { (void (*)(void))toplevel_configure, (void (*)(void))toplevel_close };

static void xdg_surface_configure(void *d, struct wl_proxy *p, uint32_t serial) {
    (void)d;
    union wl_argument a[1] = { { .u = serial } };
    request(p, 4, NULL, a);
    draw_and_commit();
}
static void (*xdg_surface_listener[])(void) = { (void (*)(void))xdg_surface_configure };

static void pointer_enter(void *d, struct wl_proxy *p, uint32_t serial, struct wl_proxy *surface, wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)surface;
    app.pointer_x = x;
    app.pointer_y = y;
    /* No cursor image over this app (a kiosk app's usual choice): with a pointer on the seat,
     * sway draws its cursor into the output's frames, and so into every screenshot. */
    union wl_argument a[4] = { { .u = serial }, { .o = NULL }, { .i = 0 }, { .i = 0 } };
    request(p, 0, NULL, a);
}
static void pointer_leave(void *d, struct wl_proxy *p, uint32_t serial, struct wl_proxy *surface) {
    (void)d; (void)p; (void)serial; (void)surface;
}
static void pointer_motion(void *d, struct wl_proxy *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)d; (void)p; (void)time;
    app.pointer_x = x;
    app.pointer_y = y;
}
static void pointer_button(void *d, struct wl_proxy *p, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
    (void)d; (void)p; (void)serial; (void)time; (void)button;
    printf("button %s %d %d\n", state ? "pressed" : "released", app.pointer_x >> 8, app.pointer_y >> 8);
    fflush(stdout);
}
static void pointer_axis(void *d, struct wl_proxy *p, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)d; (void)p; (void)time; (void)axis; (void)value;
}
static void (*pointer_listener[])(void) = {
    (void (*)(void))pointer_enter, (void (*)(void))pointer_leave, (void (*)(void))pointer_motion,
    (void (*)(void))pointer_button, (void (*)(void))pointer_axis,
};

static void seat_capabilities(void *d, struct wl_proxy *p, uint32_t caps) {
    (void)d;
    /* Ask for the pointer only once the seat has one: wlroots ends the connection otherwise. */
    if ((caps & 1) && app.pointer == NULL) {
        union wl_argument a[1] = { { .n = 0 } };
        app.pointer = request(p, 0, &wl_pointer_if, a);
        if (app.pointer) wl_proxy_add_listener(app.pointer, pointer_listener, NULL);
        if (!app.told_pointer) { printf("pointer\n"); fflush(stdout); app.told_pointer = 1; }
    }
}
static void seat_name(void *d, struct wl_proxy *p, const char *name) { (void)d; (void)p; (void)name; }
static void (*seat_listener[])(void) = { (void (*)(void))seat_capabilities, (void (*)(void))seat_name };

static struct wl_proxy *bind_global(uint32_t name, const struct wl_interface *iface, uint32_t version) {
    union wl_argument a[4] = { { .u = name }, { .s = iface->name }, { .u = version }, { .n = 0 } };
    return wl_proxy_marshal_array_flags(app.registry, 0, iface, version, 0, a);
}

static void registry_global(void *d, struct wl_proxy *p, uint32_t name, const char *iface, uint32_t version) {
    (void)d; (void)p;
    if (strcmp(iface, "wl_compositor") == 0 && version >= 3 && !app.compositor) {
        app.compositor = bind_global(name, &wl_compositor_if, version >= 4 ? 4 : 3);
    } else if (strcmp(iface, "wl_shm") == 0 && !app.shm) {
        app.shm = bind_global(name, &wl_shm_if, 1);
    } else if (strcmp(iface, "xdg_wm_base") == 0 && !app.wm_base) {
        app.wm_base = bind_global(name, &xdg_wm_base_if, 1);
        wl_proxy_add_listener(app.wm_base, wm_base_listener, NULL);
    } else if (strcmp(iface, "wl_seat") == 0 && !app.seat) {
        app.seat = bind_global(name, &wl_seat_if, 1);
        wl_proxy_add_listener(app.seat, seat_listener, NULL);
    } else if (strcmp(iface, "zwlr_virtual_pointer_manager_v1") == 0 && !app.vp_manager) {
        app.vp_manager = bind_global(name, &vp_manager_if, 1);
    } else if (strcmp(iface, "wl_output") == 0 && version >= 2 && app.output_count < MAX_OUTPUTS) {
        struct output *o = &app.outputs[app.output_count++];
        *o = (struct output){ bind_global(name, &wl_output_if, 2), name, 1, 0 };
        wl_proxy_add_listener(o->proxy, output_listener, NULL);
    }
}
static void registry_global_remove(void *d, struct wl_proxy *p, uint32_t name) {
    (void)d; (void)p;
    for (int i = 0; i < app.output_count; i++) {
        if (app.outputs[i].name != name) continue;
        /* The proxy stays (the compositor may still name it in events); it no longer counts. */
        app.outputs[i].entered = 0;
        app.outputs[i].scale = 0;
    }
}
static void (*registry_listener[])(void) = { (void (*)(void))registry_global, (void (*)(void))registry_global_remove };

/* ---- Main ---- */

static union wl_argument none_args[1];

int main(int argc, char **argv) {
    int click = 0;
    uint32_t click_at[4] = { 0 };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--virtual-pointer") == 0) app.want_virtual_pointer = 1;
        else if (strcmp(argv[i], "--click") == 0 && i + 4 < argc) {
            click = 1;
            for (int k = 0; k < 4; k++) click_at[k] = (uint32_t)strtoul(argv[i + 1 + k], NULL, 10);
            i += 4;
        } else { fprintf(stderr, "usage: kiosk-wl-app [--virtual-pointer] [--click X Y WIDTH HEIGHT]\n"); return 2; }
    }
    signal(SIGPIPE, SIG_IGN);
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC);
    if (sfd < 0) { perror("kiosk-wl-app: signalfd"); return 1; }

    app.display = wl_display_connect(NULL);
    if (!app.display) { fprintf(stderr, "kiosk-wl-app: cannot connect to the compositor (WAYLAND_DISPLAY)\n"); return 1; }
    union wl_argument ra[1] = { { .n = 0 } };
    app.registry = wl_proxy_marshal_array_flags((struct wl_proxy *)app.display, 1 /* get_registry */, &wl_registry_if,
                                                wl_proxy_get_version((struct wl_proxy *)app.display), 0, ra);
    wl_proxy_add_listener(app.registry, registry_listener, NULL);
    if (wl_display_roundtrip(app.display) < 0 || wl_display_roundtrip(app.display) < 0) {
        fprintf(stderr, "kiosk-wl-app: roundtrip failed\n");
        return 1;
    }
    if (!app.compositor || !app.shm || !app.wm_base) {
        fprintf(stderr, "kiosk-wl-app: the compositor lacks wl_compositor v3, wl_shm or xdg_wm_base\n");
        return 1;
    }
    if (app.want_virtual_pointer) {
        if (!app.vp_manager || !app.seat) {
            fprintf(stderr, "kiosk-wl-app: the compositor offers no zwlr_virtual_pointer_manager_v1 or wl_seat\n");
            return 1;
        }
        union wl_argument va[2] = { { .o = (struct wl_object *)app.seat }, { .n = 0 } };
        app.vp = request(app.vp_manager, 0, &vp_if, va);
    }
    if (click) {
        /* --click: a left click at X Y of an output WIDTH×HEIGHT, through a virtual pointer of
         * its own (for a compositor without seat commands: cage), then exit. */
        if (!app.vp) {
            fprintf(stderr, "kiosk-wl-app: --click goes with --virtual-pointer\n");
            return 2;
        }
        /* The device is the compositor's once created: a round trip, then the motion. */
        if (wl_display_roundtrip(app.display) < 0) { fprintf(stderr, "kiosk-wl-app: roundtrip failed\n"); return 1; }
        union wl_argument m[5] = { { .u = 0 }, { .u = click_at[0] }, { .u = click_at[1] }, { .u = click_at[2] }, { .u = click_at[3] } };
        request(app.vp, 1, NULL, m);
        request(app.vp, 4, NULL, none_args);
        if (wl_display_roundtrip(app.display) < 0) { fprintf(stderr, "kiosk-wl-app: roundtrip failed\n"); return 1; }
        union wl_argument down[3] = { { .u = 1 }, { .u = 0x110 }, { .u = 1 } };
        request(app.vp, 2, NULL, down);
        request(app.vp, 4, NULL, none_args);
        union wl_argument up[3] = { { .u = 2 }, { .u = 0x110 }, { .u = 0 } };
        request(app.vp, 2, NULL, up);
        request(app.vp, 4, NULL, none_args);
        request(app.vp, 8, NULL, none_args);
        if (wl_display_roundtrip(app.display) < 0) { fprintf(stderr, "kiosk-wl-app: roundtrip failed\n"); return 1; }
        printf("clicked %u %u\n", click_at[0], click_at[1]);
        wl_display_disconnect(app.display);
        return 0;
    }

    union wl_argument sa[1] = { { .n = 0 } };
    app.surface = request(app.compositor, 0, &wl_surface_if, sa);
    wl_proxy_add_listener(app.surface, surface_listener, NULL);
    union wl_argument xa[2] = { { .n = 0 }, { .o = (struct wl_object *)app.surface } };
    app.xdg_surface = request(app.wm_base, 2, &xdg_surface_if, xa);
    wl_proxy_add_listener(app.xdg_surface, xdg_surface_listener, NULL);
    union wl_argument ta[1] = { { .n = 0 } };
    app.toplevel = request(app.xdg_surface, 1, &xdg_toplevel_if, ta);
    wl_proxy_add_listener(app.toplevel, toplevel_listener, NULL);
    union wl_argument id[1] = { { .s = "kiosk-test-app" } };
    request(app.toplevel, 3, NULL, id);
    union wl_argument ti[1] = { { .s = "kiosk test app" } };
    request(app.toplevel, 2, NULL, ti);
    union wl_argument none[1];
    request(app.surface, 6, NULL, none); /* the first commit, without a buffer: asks for a configure */

    int fd = wl_display_get_fd(app.display);
    int status = 0;
    for (;;) {
        while (wl_display_prepare_read(app.display) != 0) {
            if (wl_display_dispatch_pending(app.display) < 0) goto gone;
            report();
        }
        if (wl_display_flush(app.display) < 0 && errno != EAGAIN) { wl_display_cancel_read(app.display); goto gone; }
        struct pollfd fds[2] = { { fd, POLLIN, 0 }, { sfd, POLLIN, 0 } };
        if (poll(fds, 2, -1) < 0) {
            wl_display_cancel_read(app.display);
            if (errno == EINTR) continue;
            perror("kiosk-wl-app: poll");
            status = 1;
            break;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (wl_display_read_events(app.display) < 0) goto gone;
        } else {
            wl_display_cancel_read(app.display);
        }
        if (wl_display_dispatch_pending(app.display) < 0) goto gone;
        report();
        if (app.failed) { status = 1; break; }
        if (fds[1].revents & POLLIN) break; /* SIGTERM or SIGINT */
    }
    wl_display_disconnect(app.display);
    return status;
gone:;
    int err = wl_display_get_error(app.display);
    if (err == EPROTO) {
        fprintf(stderr, "kiosk-wl-app: protocol error (see WAYLAND_DEBUG=1)\n");
        status = 1;
    } else {
        fprintf(stderr, "kiosk-wl-app: the compositor went away\n");
    }
    wl_display_disconnect(app.display);
    return status;
}
