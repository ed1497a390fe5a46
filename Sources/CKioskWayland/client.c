// The overlay's Wayland client: globals, outputs, layer surfaces with their shm buffers, the
// seat's pointer and touch, and the queue of events Swift reads (CKioskWayland.h). Every request
// goes through wl_proxy_marshal_array_flags, as wayland-scanner's inline stubs would.
//
// The buffers are memfd-backed shared memory the compositor maps: the pool's descriptor is the
// protocol's argument, made, sized and mapped here beside the request that passes it (the only
// system calls of this target), not through KioskSys's Kernel seam.
#define _GNU_SOURCE
#include "wayland_private.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { MAX_OUTPUTS = 16, MAX_SURFACES = 16, MAX_BUFFERS = 4, QUEUE = 512, TOUCH_SLOTS = 16 };

struct buffer {
    struct wl_proxy *proxy;
    uint32_t *pixels;
    size_t size;
    int32_t width, height;
    int busy;      // attached and not released yet
    int orphaned;  // of an old size: destroyed at its release
};

struct kiosk_wl_surface {
    struct kiosk_wl *wl;
    int tag;
    uint32_t output_id;
    struct wl_proxy *surface, *layer, *frame;
    struct wl_proxy *xdg_surface, *toplevel;  // without the layer shell: one toplevel instead
    int32_t width, height;
    int32_t pending_width, pending_height;    // the toplevel's configure, until its xdg_surface's
    struct buffer buffers[MAX_BUFFERS];
    int current;  // the buffer kiosk_wl_surface_buffer returned last (-1: none)
};

struct output {
    struct wl_proxy *proxy;
    struct kiosk_wl_output_info info;
};

struct kiosk_wl {
    struct wl_display *display;
    struct wl_proxy *registry, *compositor, *shm, *layer_shell, *wm_base, *seat, *pointer, *touch;
    uint32_t seat_id;
    uint32_t toplevel_manager_name, toplevel_manager_version;
    struct wl_proxy *toplevel_manager;
    struct output outputs[MAX_OUTPUTS];
    int output_count;
    struct kiosk_wl_surface *surfaces[MAX_SURFACES];
    struct kiosk_wl_surface *pointer_focus;
    struct kiosk_wl_surface *touch_focus[TOUCH_SLOTS];
    struct kiosk_wl_event queue[QUEUE];
    int head, count, overflowed;
    char error[256];
    char name[256];
};

static struct wl_proxy *request(struct wl_proxy *p, uint32_t opcode, const struct kiosk_wl_interface *iface,
                                uint32_t flags, union kiosk_wl_argument *args) {
    return kiosk_wl_proxy_marshal_array_flags(p, opcode, iface, kiosk_wl_proxy_get_version(p), flags, args);
}

static void push(struct kiosk_wl *wl, struct kiosk_wl_event e) {
    if (wl->count == QUEUE) { wl->overflowed = 1; return; }
    wl->queue[(wl->head + wl->count) % QUEUE] = e;
    wl->count++;
}

int kiosk_wl_next_event(struct kiosk_wl *wl, struct kiosk_wl_event *event) {
    if (wl->overflowed) {
        wl->overflowed = 0;
        *event = (struct kiosk_wl_event){ .kind = KIOSK_WL_OVERFLOW };
        return 1;
    }
    if (wl->count == 0) return 0;
    *event = wl->queue[wl->head];
    wl->head = (wl->head + 1) % QUEUE;
    wl->count--;
    return 1;
}

static double fixed(int32_t f) { return f / 256.0; }

// MARK: outputs

static struct output *output_by_proxy(struct kiosk_wl *wl, struct wl_proxy *p) {
    for (int i = 0; i < wl->output_count; i++) if (wl->outputs[i].proxy == p) return &wl->outputs[i];
    return NULL;
}

static void output_geometry(void *data, struct wl_proxy *p, int32_t x, int32_t y, int32_t pw, int32_t ph, int32_t subpixel,
                            const char *make, const char *model, int32_t transform) {
    (void)x; (void)y; (void)pw; (void)ph; (void)subpixel;
    struct output *o = output_by_proxy(data, p);
    if (!o) return;
    snprintf(o->info.make, sizeof o->info.make, "%s", make ? make : "");
    snprintf(o->info.model, sizeof o->info.model, "%s", model ? model : "");
    o->info.transform = transform;
}
static void output_mode(void *data, struct wl_proxy *p, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {
    struct output *o = output_by_proxy(data, p);
    if (!o || !(flags & 1u)) return;  // WL_OUTPUT_MODE_CURRENT
    o->info.width = w; o->info.height = h; o->info.refresh_mhz = refresh;
}
static void output_done(void *data, struct wl_proxy *p) {
    struct output *o = output_by_proxy(data, p);
    if (!o) return;
    o->info.done = 1;
    push(data, (struct kiosk_wl_event){ .kind = KIOSK_WL_OUTPUT_DONE, .id = o->info.id });
}
static void output_scale(void *data, struct wl_proxy *p, int32_t scale) {
    struct output *o = output_by_proxy(data, p);
    if (o && scale > 0) o->info.scale = scale;
}
static const struct {
    void (*geometry)(void *, struct wl_proxy *, int32_t, int32_t, int32_t, int32_t, int32_t, const char *, const char *, int32_t);
    void (*mode)(void *, struct wl_proxy *, uint32_t, int32_t, int32_t, int32_t);
    void (*done)(void *, struct wl_proxy *);
    void (*scale)(void *, struct wl_proxy *, int32_t);
} output_listener = { output_geometry, output_mode, output_done, output_scale };

int kiosk_wl_output_count(struct kiosk_wl *wl) { return wl->output_count; }

int kiosk_wl_output_at(struct kiosk_wl *wl, int index, struct kiosk_wl_output_info *info) {
    if (index < 0 || index >= wl->output_count) return 0;
    *info = wl->outputs[index].info;
    return 1;
}

// MARK: seat

static struct kiosk_wl_surface *surface_by_proxy(struct kiosk_wl *wl, struct wl_proxy *p) {
    if (!p) return NULL;
    for (int i = 0; i < MAX_SURFACES; i++) if (wl->surfaces[i] && wl->surfaces[i]->surface == p) return wl->surfaces[i];
    return NULL;
}

static void pointer_enter(void *data, struct wl_proxy *p, uint32_t serial, struct wl_proxy *surface, int32_t x, int32_t y) {
    (void)p; (void)serial;
    struct kiosk_wl *wl = data;
    wl->pointer_focus = surface_by_proxy(wl, surface);
    if (wl->pointer_focus) push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_POINTER_ENTER, .tag = wl->pointer_focus->tag, .x = fixed(x), .y = fixed(y) });
}
static void pointer_leave(void *data, struct wl_proxy *p, uint32_t serial, struct wl_proxy *surface) {
    (void)p; (void)serial; (void)surface;
    struct kiosk_wl *wl = data;
    if (wl->pointer_focus) push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_POINTER_LEAVE, .tag = wl->pointer_focus->tag });
    wl->pointer_focus = NULL;
}
static void pointer_motion(void *data, struct wl_proxy *p, uint32_t time, int32_t x, int32_t y) {
    (void)p;
    struct kiosk_wl *wl = data;
    if (wl->pointer_focus) push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_POINTER_MOTION, .tag = wl->pointer_focus->tag, .time_ms = time, .x = fixed(x), .y = fixed(y) });
}
static void pointer_button(void *data, struct wl_proxy *p, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
    (void)p; (void)serial;
    struct kiosk_wl *wl = data;
    if (wl->pointer_focus) push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_POINTER_BUTTON, .tag = wl->pointer_focus->tag, .time_ms = time, .code = button, .pressed = state == 1 });
}
static void pointer_axis(void *d, struct wl_proxy *p, uint32_t t, uint32_t a, int32_t v) { (void)d; (void)p; (void)t; (void)a; (void)v; }
static void pointer_frame(void *d, struct wl_proxy *p) { (void)d; (void)p; }
static void pointer_axis_source(void *d, struct wl_proxy *p, uint32_t s) { (void)d; (void)p; (void)s; }
static void pointer_axis_stop(void *d, struct wl_proxy *p, uint32_t t, uint32_t a) { (void)d; (void)p; (void)t; (void)a; }
static void pointer_axis_discrete(void *d, struct wl_proxy *p, uint32_t a, int32_t v) { (void)d; (void)p; (void)a; (void)v; }
static const struct {
    void (*enter)(void *, struct wl_proxy *, uint32_t, struct wl_proxy *, int32_t, int32_t);
    void (*leave)(void *, struct wl_proxy *, uint32_t, struct wl_proxy *);
    void (*motion)(void *, struct wl_proxy *, uint32_t, int32_t, int32_t);
    void (*button)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t, uint32_t);
    void (*axis)(void *, struct wl_proxy *, uint32_t, uint32_t, int32_t);
    void (*frame)(void *, struct wl_proxy *);
    void (*axis_source)(void *, struct wl_proxy *, uint32_t);
    void (*axis_stop)(void *, struct wl_proxy *, uint32_t, uint32_t);
    void (*axis_discrete)(void *, struct wl_proxy *, uint32_t, int32_t);
} pointer_listener = { pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis, pointer_frame,
                       pointer_axis_source, pointer_axis_stop, pointer_axis_discrete };

static int slot_index(int32_t id) { return id >= 0 && id < TOUCH_SLOTS ? id : -1; }

static void touch_down(void *data, struct wl_proxy *p, uint32_t serial, uint32_t time, struct wl_proxy *surface, int32_t id, int32_t x, int32_t y) {
    (void)p; (void)serial;
    struct kiosk_wl *wl = data;
    struct kiosk_wl_surface *s = surface_by_proxy(wl, surface);
    int i = slot_index(id);
    if (!s || i < 0) return;
    wl->touch_focus[i] = s;
    push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_TOUCH_DOWN, .tag = s->tag, .slot = id, .time_ms = time, .x = fixed(x), .y = fixed(y) });
}
static void touch_up(void *data, struct wl_proxy *p, uint32_t serial, uint32_t time, int32_t id) {
    (void)p; (void)serial;
    struct kiosk_wl *wl = data;
    int i = slot_index(id);
    if (i < 0 || !wl->touch_focus[i]) return;
    push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_TOUCH_UP, .tag = wl->touch_focus[i]->tag, .slot = id, .time_ms = time });
    wl->touch_focus[i] = NULL;
}
static void touch_motion(void *data, struct wl_proxy *p, uint32_t time, int32_t id, int32_t x, int32_t y) {
    (void)p;
    struct kiosk_wl *wl = data;
    int i = slot_index(id);
    if (i < 0 || !wl->touch_focus[i]) return;
    push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_TOUCH_MOTION, .tag = wl->touch_focus[i]->tag, .slot = id, .time_ms = time, .x = fixed(x), .y = fixed(y) });
}
static void touch_frame(void *data, struct wl_proxy *p) { (void)p; push(data, (struct kiosk_wl_event){ .kind = KIOSK_WL_TOUCH_FRAME }); }
static void touch_cancel(void *data, struct wl_proxy *p) {
    (void)p;
    struct kiosk_wl *wl = data;
    memset(wl->touch_focus, 0, sizeof wl->touch_focus);
    push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_TOUCH_CANCEL });
}
static const struct {
    void (*down)(void *, struct wl_proxy *, uint32_t, uint32_t, struct wl_proxy *, int32_t, int32_t, int32_t);
    void (*up)(void *, struct wl_proxy *, uint32_t, uint32_t, int32_t);
    void (*motion)(void *, struct wl_proxy *, uint32_t, int32_t, int32_t, int32_t);
    void (*frame)(void *, struct wl_proxy *);
    void (*cancel)(void *, struct wl_proxy *);
} touch_listener = { touch_down, touch_up, touch_motion, touch_frame, touch_cancel };

/// Lets a pointer or touch object go: release (version 3 on) or destroy.
static void release_device(struct wl_proxy *p) {
    if (kiosk_wl_proxy_get_version(p) >= 3) request(p, 1, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
    else kiosk_wl_proxy_destroy(p);
}

static void seat_capabilities(void *data, struct wl_proxy *seat, uint32_t caps) {
    struct kiosk_wl *wl = data;
    // Asked for only once the seat has the capability: wlroots ends a client that asks before.
    if ((caps & 1u) && !wl->pointer) {
        union kiosk_wl_argument a[1] = { { .o = NULL } };
        wl->pointer = request(seat, 0, &kiosk_wl_pointer_interface, 0, a);
        if (wl->pointer) kiosk_wl_proxy_add_listener(wl->pointer, (void (**)(void))&pointer_listener, wl);
    } else if (!(caps & 1u) && wl->pointer) {
        release_device(wl->pointer);
        wl->pointer = NULL;
        wl->pointer_focus = NULL;
    }
    if ((caps & 4u) && !wl->touch) {
        union kiosk_wl_argument a[1] = { { .o = NULL } };
        wl->touch = request(seat, 2, &kiosk_wl_touch_interface, 0, a);
        if (wl->touch) kiosk_wl_proxy_add_listener(wl->touch, (void (**)(void))&touch_listener, wl);
    } else if (!(caps & 4u) && wl->touch) {
        release_device(wl->touch);
        wl->touch = NULL;
        memset(wl->touch_focus, 0, sizeof wl->touch_focus);
    }
}
static void seat_name(void *data, struct wl_proxy *p, const char *name) { (void)data; (void)p; (void)name; }
static const struct {
    void (*capabilities)(void *, struct wl_proxy *, uint32_t);
    void (*name)(void *, struct wl_proxy *, const char *);
} seat_listener = { seat_capabilities, seat_name };

// MARK: registry

static void wm_base_ping(void *data, struct wl_proxy *base, uint32_t serial) {
    (void)data;
    union kiosk_wl_argument a[1] = { { .u = serial } };
    request(base, 3, NULL, 0, a);  // pong: a client that does not answer is killed or marked hung
}
static const struct { void (*ping)(void *, struct wl_proxy *, uint32_t); } wm_base_listener = { wm_base_ping };

static struct wl_proxy *bind(struct kiosk_wl *wl, uint32_t name, const struct kiosk_wl_interface *iface, uint32_t offered) {
    uint32_t version = offered < (uint32_t)iface->version ? offered : (uint32_t)iface->version;
    union kiosk_wl_argument a[4] = { { .u = name }, { .s = iface->name }, { .u = version }, { .o = NULL } };
    return kiosk_wl_proxy_marshal_array_flags(wl->registry, 0, iface, version, 0, a);
}

static void registry_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry;
    struct kiosk_wl *wl = data;
    if (!strcmp(interface, "wl_compositor") && !wl->compositor && version >= 4) {
        wl->compositor = bind(wl, name, &kiosk_wl_compositor_interface, version);
    } else if (!strcmp(interface, "wl_shm") && !wl->shm) {
        wl->shm = bind(wl, name, &kiosk_wl_shm_interface, version);
    } else if (!strcmp(interface, "zwlr_layer_shell_v1") && !wl->layer_shell) {
        wl->layer_shell = bind(wl, name, &kiosk_zwlr_layer_shell_v1_interface, version);
    } else if (!strcmp(interface, "xdg_wm_base") && !wl->wm_base) {
        wl->wm_base = bind(wl, name, &kiosk_xdg_wm_base_interface, version);
        if (wl->wm_base) kiosk_wl_proxy_add_listener(wl->wm_base, (void (**)(void))&wm_base_listener, wl);
    } else if (!strcmp(interface, "wl_seat") && !wl->seat) {
        wl->seat = bind(wl, name, &kiosk_wl_seat_interface, version);
        wl->seat_id = name;
        if (wl->seat) kiosk_wl_proxy_add_listener(wl->seat, (void (**)(void))&seat_listener, wl);
    } else if (!strcmp(interface, "zwlr_foreign_toplevel_manager_v1") && !wl->toplevel_manager_name) {
        // Bound only when asked (kiosk_wl_watch_windows): binding brings every window.
        wl->toplevel_manager_name = name;
        wl->toplevel_manager_version = version;
    } else if (!strcmp(interface, "wl_output") && version >= 2 && wl->output_count < MAX_OUTPUTS) {
        struct output *o = &wl->outputs[wl->output_count];
        memset(o, 0, sizeof *o);
        o->info.id = name;
        o->info.scale = 1;
        o->proxy = bind(wl, name, &kiosk_wl_output_interface, version);
        if (!o->proxy) return;
        wl->output_count++;
        kiosk_wl_proxy_add_listener(o->proxy, (void (**)(void))&output_listener, wl);
    }
}

static void registry_global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    (void)registry;
    struct kiosk_wl *wl = data;
    for (int i = 0; i < wl->output_count; i++) {
        if (wl->outputs[i].info.id != name) continue;
        struct wl_proxy *p = wl->outputs[i].proxy;
        if (kiosk_wl_proxy_get_version(p) >= 3) request(p, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
        else kiosk_wl_proxy_destroy(p);
        memmove(&wl->outputs[i], &wl->outputs[i + 1], (size_t)(wl->output_count - i - 1) * sizeof wl->outputs[0]);
        wl->output_count--;
        push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_OUTPUT_GONE, .id = name });
        return;
    }
}
static const struct {
    void (*global)(void *, struct wl_proxy *, uint32_t, const char *, uint32_t);
    void (*global_remove)(void *, struct wl_proxy *, uint32_t);
} registry_listener = { registry_global, registry_global_remove };

// MARK: other programs' windows

/// One window being described: its app id until its first `done`.
struct toplevel {
    struct kiosk_wl *wl;
    char app_id[128];
    int told;
};

static void toplevel_title(void *d, struct wl_proxy *p, const char *t) { (void)d; (void)p; (void)t; }
static void toplevel_app_id(void *data, struct wl_proxy *p, const char *app_id) {
    (void)p;
    struct toplevel *t = data;
    snprintf(t->app_id, sizeof t->app_id, "%s", app_id ? app_id : "");
}
static void toplevel_output(void *d, struct wl_proxy *p, struct wl_proxy *o) { (void)d; (void)p; (void)o; }
static void toplevel_state(void *d, struct wl_proxy *p, void *a) { (void)d; (void)p; (void)a; }
static void toplevel_done(void *data, struct wl_proxy *p) {
    (void)p;
    struct toplevel *t = data;
    if (t->told) return;
    t->told = 1;
    struct kiosk_wl_event e = { .kind = KIOSK_WL_WINDOW };
    snprintf(e.text, sizeof e.text, "%s", t->app_id);
    push(t->wl, e);
}
static void toplevel_closed(void *data, struct wl_proxy *p) {
    request(p, 7, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);  // destroy
    free(data);
}
static void toplevel_parent(void *d, struct wl_proxy *p, struct wl_proxy *parent) { (void)d; (void)p; (void)parent; }
static const struct {
    void (*title)(void *, struct wl_proxy *, const char *);
    void (*app_id)(void *, struct wl_proxy *, const char *);
    void (*output_enter)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*output_leave)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*state)(void *, struct wl_proxy *, void *);
    void (*done)(void *, struct wl_proxy *);
    void (*closed)(void *, struct wl_proxy *);
    void (*parent)(void *, struct wl_proxy *, struct wl_proxy *);
} toplevel_listener = { toplevel_title, toplevel_app_id, toplevel_output, toplevel_output, toplevel_state, toplevel_done,
                        toplevel_closed, toplevel_parent };

static void manager_toplevel(void *data, struct wl_proxy *manager, struct wl_proxy *handle) {
    (void)manager;
    struct toplevel *t = calloc(1, sizeof *t);
    if (!t) { kiosk_wl_proxy_destroy(handle); return; }
    t->wl = data;
    kiosk_wl_proxy_add_listener(handle, (void (**)(void))&toplevel_listener, t);
}
static void manager_finished(void *data, struct wl_proxy *manager) {
    struct kiosk_wl *wl = data;
    kiosk_wl_proxy_destroy(manager);
    if (wl->toplevel_manager == manager) wl->toplevel_manager = NULL;
    push(wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_WINDOWS_ENDED });
}
static const struct {
    void (*toplevel)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*finished)(void *, struct wl_proxy *);
} manager_listener = { manager_toplevel, manager_finished };

int kiosk_wl_watch_windows(struct kiosk_wl *wl) {
    if (wl->toplevel_manager) return 0;
    if (!wl->toplevel_manager_name) return -1;
    wl->toplevel_manager = bind(wl, wl->toplevel_manager_name, &kiosk_zwlr_foreign_toplevel_manager_v1_interface, wl->toplevel_manager_version);
    if (!wl->toplevel_manager) return -1;
    kiosk_wl_proxy_add_listener(wl->toplevel_manager, (void (**)(void))&manager_listener, wl);
    return 0;
}

// MARK: connection

static void connection_error(struct kiosk_wl *wl) {
    if (wl->error[0]) return;
    const struct kiosk_wl_interface *iface = NULL;
    uint32_t id = 0;
    int err = kiosk_wl_display_get_error(wl->display);
    if (err == EPROTO) {
        uint32_t code = kiosk_wl_display_get_protocol_error(wl->display, &iface, &id);
        snprintf(wl->error, sizeof wl->error, "the compositor ended the connection: protocol error %u on %s@%u",
                 code, iface ? iface->name : "an unknown object", id);
    } else {
        snprintf(wl->error, sizeof wl->error, "the connection to the compositor failed: %s", strerror(err ? err : EPIPE));
    }
}

const char *kiosk_wl_error(struct kiosk_wl *wl) { return wl->error; }

struct kiosk_wl *kiosk_wl_connect(const char *name, char *error, size_t size) {
    struct kiosk_wl *wl = calloc(1, sizeof *wl);
    if (!wl) { snprintf(error, size, "out of memory"); return NULL; }
    wl->display = kiosk_wl_display_connect(name);
    if (!wl->display) {
        snprintf(error, size, "no Wayland compositor answers at %s (%s)", name ? name : "$WAYLAND_DISPLAY", strerror(errno));
        free(wl);
        return NULL;
    }
    snprintf(wl->name, sizeof wl->name, "%s", name ? name : "$WAYLAND_DISPLAY");
    return wl;
}

int kiosk_wl_start(struct kiosk_wl *wl, char *error, size_t size) {
    union kiosk_wl_argument a[1] = { { .o = NULL } };
    wl->registry = kiosk_wl_proxy_marshal_array_flags((struct wl_proxy *)wl->display, 1, &kiosk_wl_registry_interface, 1, 0, a);
    if (wl->registry) kiosk_wl_proxy_add_listener(wl->registry, (void (**)(void))&registry_listener, wl);
    // The first round trip brings the globals (bound as they come), the second the outputs' and
    // the seat's descriptions.
    if (!wl->registry || kiosk_wl_display_roundtrip(wl->display) < 0 || kiosk_wl_display_roundtrip(wl->display) < 0) {
        connection_error(wl);
        snprintf(error, size, "%s", wl->error[0] ? wl->error : "the compositor did not answer");
        return -1;
    }
    const char *missing = !wl->layer_shell && !wl->wm_base ? "zwlr_layer_shell_v1 (the layer shell: sway, labwc, wayfire) nor xdg_wm_base"
        : !wl->compositor ? "wl_compositor version 4" : !wl->shm ? "wl_shm" : NULL;
    if (missing) {
        snprintf(error, size, "the compositor at %s offers no %s", wl->name, missing);
        return -1;
    }
    return 0;
}

static void buffer_free(struct buffer *b) {
    if (b->proxy) request(b->proxy, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
    if (b->pixels) munmap(b->pixels, b->size);
    memset(b, 0, sizeof *b);
}

void kiosk_wl_disconnect(struct kiosk_wl *wl) {
    if (!wl) return;
    for (int i = 0; i < MAX_SURFACES; i++) if (wl->surfaces[i]) kiosk_wl_surface_destroy(wl->surfaces[i]);
    if (wl->display) {
        kiosk_wl_display_flush(wl->display);
        kiosk_wl_display_disconnect(wl->display);  // frees every proxy with it
    }
    free(wl);
}

int kiosk_wl_fd(struct kiosk_wl *wl) { return kiosk_wl_display_get_fd(wl->display); }

int kiosk_wl_dispatch(struct kiosk_wl *wl, int readable) {
    if (wl->error[0]) return -1;
    while (kiosk_wl_display_prepare_read(wl->display) != 0) {
        if (kiosk_wl_display_dispatch_pending(wl->display) < 0) { connection_error(wl); return -1; }
    }
    if (readable) {
        struct pollfd p = { kiosk_wl_display_get_fd(wl->display), POLLIN, 0 };
        if (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
            if (kiosk_wl_display_read_events(wl->display) < 0) { connection_error(wl); return -1; }
        } else {
            kiosk_wl_display_cancel_read(wl->display);
            if (p.revents & (POLLHUP | POLLERR)) { snprintf(wl->error, sizeof wl->error, "the compositor closed the connection"); return -1; }
        }
    } else {
        kiosk_wl_display_cancel_read(wl->display);
    }
    if (kiosk_wl_display_dispatch_pending(wl->display) < 0) { connection_error(wl); return -1; }
    return 0;
}

int kiosk_wl_flush(struct kiosk_wl *wl) {
    if (wl->error[0]) return -1;
    if (kiosk_wl_display_flush(wl->display) >= 0) return 0;
    if (errno == EAGAIN) return 1;
    connection_error(wl);
    return -1;
}

int kiosk_wl_roundtrip(struct kiosk_wl *wl) {
    if (wl->error[0]) return -1;
    if (kiosk_wl_display_roundtrip(wl->display) < 0) { connection_error(wl); return -1; }
    return 0;
}

// MARK: surfaces

static void layer_configure(void *data, struct wl_proxy *layer, uint32_t serial, uint32_t w, uint32_t h) {
    struct kiosk_wl_surface *s = data;
    union kiosk_wl_argument a[1] = { { .u = serial } };
    request(layer, 6, NULL, 0, a);  // ack_configure
    s->width = (int32_t)w; s->height = (int32_t)h;
    push(s->wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_CONFIGURED, .tag = s->tag, .x = w, .y = h });
}
static void layer_closed(void *data, struct wl_proxy *layer) {
    (void)layer;
    struct kiosk_wl_surface *s = data;
    push(s->wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_CLOSED, .tag = s->tag });
}
static const struct {
    void (*configure)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t);
    void (*closed)(void *, struct wl_proxy *);
} layer_listener = { layer_configure, layer_closed };

// Without the layer shell: the toplevel's configure says the size (0: ours to choose — the
// output's), its xdg_surface's configure ends the sequence, acknowledged as the layer's is.
static void xdg_toplevel_configure(void *data, struct wl_proxy *toplevel, int32_t w, int32_t h, void *states) {
    (void)toplevel; (void)states;
    struct kiosk_wl_surface *s = data;
    s->pending_width = w; s->pending_height = h;
}
static void xdg_toplevel_close(void *data, struct wl_proxy *toplevel) {
    (void)toplevel;
    struct kiosk_wl_surface *s = data;
    push(s->wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_CLOSED, .tag = s->tag });
}
static const struct {
    void (*configure)(void *, struct wl_proxy *, int32_t, int32_t, void *);
    void (*close)(void *, struct wl_proxy *);
} xdg_toplevel_listener = { xdg_toplevel_configure, xdg_toplevel_close };

static void xdg_surface_configure(void *data, struct wl_proxy *xdg_surface, uint32_t serial) {
    struct kiosk_wl_surface *s = data;
    union kiosk_wl_argument a[1] = { { .u = serial } };
    request(xdg_surface, 4, NULL, 0, a);  // ack_configure
    int32_t w = s->pending_width, h = s->pending_height;
    if (w <= 0 || h <= 0) {
        for (int i = 0; i < s->wl->output_count; i++) {
            struct kiosk_wl_output_info *o = &s->wl->outputs[i].info;
            if (o->id != s->output_id) continue;
            int32_t scale = o->scale > 0 ? o->scale : 1;
            w = o->width / scale; h = o->height / scale;
        }
    }
    s->width = w; s->height = h;
    push(s->wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_CONFIGURED, .tag = s->tag, .x = w, .y = h });
}
static const struct { void (*configure)(void *, struct wl_proxy *, uint32_t); } xdg_surface_listener = { xdg_surface_configure };

int kiosk_wl_has_layer_shell(struct kiosk_wl *wl) { return wl->layer_shell != NULL; }

static void frame_done(void *data, struct wl_proxy *callback, uint32_t time) {
    (void)time;
    struct kiosk_wl_surface *s = data;
    kiosk_wl_proxy_destroy(callback);
    if (s->frame == callback) s->frame = NULL;
    push(s->wl, (struct kiosk_wl_event){ .kind = KIOSK_WL_FRAME_DONE, .tag = s->tag });
}
static const struct { void (*done)(void *, struct wl_proxy *, uint32_t); } frame_listener = { frame_done };

static void buffer_release(void *data, struct wl_proxy *proxy) {
    struct buffer *b = data;
    (void)proxy;
    b->busy = 0;
    if (b->orphaned) buffer_free(b);
}
static const struct { void (*release)(void *, struct wl_proxy *); } buffer_listener = { buffer_release };

struct kiosk_wl_surface *kiosk_wl_surface_create(struct kiosk_wl *wl, uint32_t output_id, int tag) {
    struct wl_proxy *output = NULL;
    for (int i = 0; i < wl->output_count; i++) if (wl->outputs[i].info.id == output_id) output = wl->outputs[i].proxy;
    int slot = -1;
    for (int i = 0; i < MAX_SURFACES && slot < 0; i++) if (!wl->surfaces[i]) slot = i;
    if (!output || slot < 0) return NULL;
    struct kiosk_wl_surface *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->wl = wl; s->tag = tag; s->output_id = output_id; s->current = -1;
    union kiosk_wl_argument n[1] = { { .o = NULL } };
    s->surface = request(wl->compositor, 0, &kiosk_wl_surface_interface, 0, n);
    if (!s->surface) { free(s); return NULL; }
    if (!wl->layer_shell) {
        // One fullscreen toplevel, app id kiosk-hud: the compositor stacks it over the app's.
        union kiosk_wl_argument x[2] = { { .o = NULL }, { .o = s->surface } };
        s->xdg_surface = request(wl->wm_base, 2, &kiosk_xdg_surface_interface, 0, x);
        union kiosk_wl_argument t[1] = { { .o = NULL } };
        s->toplevel = s->xdg_surface ? request(s->xdg_surface, 1, &kiosk_xdg_toplevel_interface, 0, t) : NULL;
        if (!s->toplevel) {
            if (s->xdg_surface) request(s->xdg_surface, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
            request(s->surface, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
            free(s);
            return NULL;
        }
        kiosk_wl_proxy_add_listener(s->xdg_surface, (void (**)(void))&xdg_surface_listener, s);
        kiosk_wl_proxy_add_listener(s->toplevel, (void (**)(void))&xdg_toplevel_listener, s);
        union kiosk_wl_argument id[1] = { { .s = "kiosk-hud" } };
        request(s->toplevel, 3, NULL, 0, id);             // set_app_id
        request(s->toplevel, 2, NULL, 0, id);             // set_title
        union kiosk_wl_argument fs[1] = { { .o = output } };
        request(s->toplevel, 11, NULL, 0, fs);            // set_fullscreen on the output
        request(s->surface, 6, NULL, 0, NULL);            // commit without a buffer: configure comes
        wl->surfaces[slot] = s;
        return s;
    }
    union kiosk_wl_argument g[5] = { { .o = NULL }, { .o = s->surface }, { .o = output }, { .u = 3 /* overlay */ }, { .s = "kiosk-hud" } };
    s->layer = request(wl->layer_shell, 0, &kiosk_zwlr_layer_surface_v1_interface, 0, g);
    if (!s->layer) { request(s->surface, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL); free(s); return NULL; }
    kiosk_wl_proxy_add_listener(s->layer, (void (**)(void))&layer_listener, s);
    union kiosk_wl_argument size[2] = { { .u = 0 }, { .u = 0 } };
    request(s->layer, 0, NULL, 0, size);                 // set_size 0×0: the compositor's, all four edges
    union kiosk_wl_argument anchor[1] = { { .u = 15 } };
    request(s->layer, 1, NULL, 0, anchor);               // anchored top, bottom, left and right
    union kiosk_wl_argument zone[1] = { { .i = -1 } };
    request(s->layer, 2, NULL, 0, zone);                 // over others' exclusive zones, pushing nothing
    union kiosk_wl_argument keyboard[1] = { { .u = 0 } };
    request(s->layer, 4, NULL, 0, keyboard);             // no keyboard focus: the app keeps its keys
    request(s->surface, 6, NULL, 0, NULL);               // commit without a buffer: configure comes
    wl->surfaces[slot] = s;
    return s;
}

void kiosk_wl_surface_destroy(struct kiosk_wl_surface *s) {
    if (!s) return;
    struct kiosk_wl *wl = s->wl;
    for (int i = 0; i < MAX_SURFACES; i++) if (wl->surfaces[i] == s) wl->surfaces[i] = NULL;
    if (wl->pointer_focus == s) wl->pointer_focus = NULL;
    for (int i = 0; i < TOUCH_SLOTS; i++) if (wl->touch_focus[i] == s) wl->touch_focus[i] = NULL;
    if (s->frame) kiosk_wl_proxy_destroy(s->frame);
    if (s->layer) request(s->layer, 7, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
    if (s->toplevel) request(s->toplevel, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
    if (s->xdg_surface) request(s->xdg_surface, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
    request(s->surface, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
    for (int i = 0; i < MAX_BUFFERS; i++) buffer_free(&s->buffers[i]);
    kiosk_wl_display_flush(wl->display);
    free(s);
}

void kiosk_wl_surface_size(struct kiosk_wl_surface *s, int32_t *width, int32_t *height) {
    *width = s->width; *height = s->height;
}

/// A new shm buffer in `b`: a memfd of its size, mapped here and by the compositor.
static int buffer_make(struct kiosk_wl *wl, struct buffer *b, int32_t width, int32_t height) {
    size_t size = (size_t)width * (size_t)height * 4;
    int fd = memfd_create("kiosk-hud-wayland", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) { close(fd); return -1; }
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) { close(fd); return -1; }
    union kiosk_wl_argument p[3] = { { .o = NULL }, { .h = fd }, { .i = (int32_t)size } };
    struct wl_proxy *pool = request(wl->shm, 0, &kiosk_wl_shm_pool_interface, 0, p);
    close(fd);  // libwayland sent a duplicate
    if (!pool) { munmap(pixels, size); return -1; }
    union kiosk_wl_argument c[6] = { { .o = NULL }, { .i = 0 }, { .i = width }, { .i = height }, { .i = width * 4 }, { .u = 0 /* argb8888 */ } };
    struct wl_proxy *buffer = request(pool, 0, &kiosk_wl_buffer_interface, 0, c);
    request(pool, 1, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);  // the buffer keeps the memory
    if (!buffer) { munmap(pixels, size); return -1; }
    *b = (struct buffer){ buffer, pixels, size, width, height, 0, 0 };
    kiosk_wl_proxy_add_listener(buffer, (void (**)(void))&buffer_listener, b);
    return 0;
}

uint32_t *kiosk_wl_surface_buffer(struct kiosk_wl_surface *s, int32_t width, int32_t height, int *index_out) {
    if (width <= 0 || height <= 0) return NULL;
    int free_slot = -1, found = -1;
    for (int i = 0; i < MAX_BUFFERS; i++) {
        struct buffer *b = &s->buffers[i];
        if (b->proxy && !b->orphaned && (b->width != width || b->height != height)) {
            if (b->busy) b->orphaned = 1; else buffer_free(b);
        }
        if (b->proxy && !b->busy && !b->orphaned && found < 0) found = i;
        if (!b->proxy && !b->orphaned && free_slot < 0) free_slot = i;
    }
    if (found < 0 && free_slot >= 0) {
        if (buffer_make(s->wl, &s->buffers[free_slot], width, height) != 0) return NULL;
        found = free_slot;
        *index_out = found | 0x100;  // new: its pixels are all to be written
    } else if (found >= 0) {
        *index_out = found;
    } else {
        return NULL;
    }
    s->current = found;
    return s->buffers[found].pixels;
}

void kiosk_wl_surface_commit(struct kiosk_wl_surface *s, const int32_t *rects, int count, int32_t scale) {
    if (s->current < 0) return;
    struct buffer *b = &s->buffers[s->current];
    union kiosk_wl_argument attach[3] = { { .o = b->proxy }, { .i = 0 }, { .i = 0 } };
    request(s->surface, 1, NULL, 0, attach);
    b->busy = 1;
    for (int i = 0; i < count; i++) {
        union kiosk_wl_argument d[4] = { { .i = rects[4 * i] }, { .i = rects[4 * i + 1] }, { .i = rects[4 * i + 2] }, { .i = rects[4 * i + 3] } };
        request(s->surface, 9, NULL, 0, d);  // damage_buffer
    }
    union kiosk_wl_argument sc[1] = { { .i = scale > 0 ? scale : 1 } };
    request(s->surface, 8, NULL, 0, sc);     // set_buffer_scale
    if (!s->frame) {
        union kiosk_wl_argument f[1] = { { .o = NULL } };
        s->frame = request(s->surface, 3, &kiosk_wl_callback_interface, 0, f);
        if (s->frame) kiosk_wl_proxy_add_listener(s->frame, (void (**)(void))&frame_listener, s);
    }
    request(s->surface, 6, NULL, 0, NULL);   // commit
    s->current = -1;
}

int kiosk_wl_surface_is_window(struct kiosk_wl_surface *s) { return s->toplevel != NULL; }

void kiosk_wl_surface_unmap(struct kiosk_wl_surface *s) {
    // A frame callback of an unmapped surface may never come: forgotten, not waited for.
    if (s->frame) { kiosk_wl_proxy_destroy(s->frame); s->frame = NULL; }
    union kiosk_wl_argument a[3] = { { .o = NULL }, { .i = 0 }, { .i = 0 } };
    request(s->surface, 1, NULL, 0, a);     // attach nothing
    request(s->surface, 6, NULL, 0, NULL);  // commit: unmapped
}

void kiosk_wl_surface_map(struct kiosk_wl_surface *s) {
    request(s->surface, 6, NULL, 0, NULL);  // the initial commit again, without a buffer: a configure comes
}

void kiosk_wl_surface_set_input(struct kiosk_wl_surface *s, const int32_t *rects, int count) {
    if (!rects) {
        union kiosk_wl_argument none_region[1] = { { .o = NULL } };
        request(s->surface, 5, NULL, 0, none_region);
        return;
    }
    union kiosk_wl_argument n[1] = { { .o = NULL } };
    struct wl_proxy *region = request(s->wl->compositor, 1, &kiosk_wl_region_interface, 0, n);
    if (!region) return;
    for (int i = 0; i < count; i++) {
        union kiosk_wl_argument r[4] = { { .i = rects[4 * i] }, { .i = rects[4 * i + 1] }, { .i = rects[4 * i + 2] }, { .i = rects[4 * i + 3] } };
        request(region, 1, NULL, 0, r);
    }
    union kiosk_wl_argument set[1] = { { .o = region } };
    request(s->surface, 5, NULL, 0, set);
    request(region, 0, NULL, KIOSK_WL_MARSHAL_DESTROY, NULL);
}
