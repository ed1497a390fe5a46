// libwayland-client through CKioskLoader, and the protocol's interface tables, written from the
// published specifications (CKioskWayland.h says where). Each table lists every request and event
// of the version bound (a missing event would be a fatal error in libwayland's dispatch); a
// message's `types` has one entry per argument, the interface for an object or a new object and
// NULL otherwise. libwayland compares interfaces by name, so these private tables stand for the
// library's own: nothing here reads libwayland's data symbols.
#include "wayland_private.h"
#include "kiosk_loader.h"

enum { KIOSK_WAYLAND_FUNCTIONS(KIOSK_LOADER_INDEX, KIOSK_LOADER_INDEX) kiosk_wayland_count };
static void *slots[kiosk_wayland_count];
static const char *const symbols[] = { KIOSK_WAYLAND_FUNCTIONS(KIOSK_LOADER_NAME, KIOSK_LOADER_NAME) NULL };
static struct kiosk_library wayland = { "libwayland-client.so.0", symbols, slots, NULL };
static struct kiosk_loader loader = KIOSK_LOADER_INIT("kiosk_wayland_load");

const char *kiosk_wayland_load(void) { return kiosk_load(&loader, &wayland, 1); }

#define WRAP(ret, name, params, args) KIOSK_LOADER_WRAP(loader, slots, ret, name, params, args)
#define WRAP_VOID(ret, name, params, args) KIOSK_LOADER_WRAP_VOID(loader, slots, ret, name, params, args)
KIOSK_WAYLAND_FUNCTIONS(WRAP, WRAP_VOID)

static const struct kiosk_wl_interface *none[8];

#define IFACE(var, iname, ver, methods, events) \
    const struct kiosk_wl_interface var = { iname, ver, \
        (int)(sizeof methods / sizeof methods[0]), methods, (int)(sizeof events / sizeof events[0]), events };

// wl_registry (version 1)
static const struct kiosk_wl_message registry_requests[] = { { "bind", "usun", none } };
static const struct kiosk_wl_message registry_events[] = { { "global", "usu", none }, { "global_remove", "u", none } };
IFACE(kiosk_wl_registry_interface, "wl_registry", 1, registry_requests, registry_events)

// wl_callback (version 1): no requests.
static const struct kiosk_wl_message callback_events[] = { { "done", "u", none } };
const struct kiosk_wl_interface kiosk_wl_callback_interface = { "wl_callback", 1, 0, NULL, 1, callback_events };

// wl_buffer (version 1)
static const struct kiosk_wl_message buffer_requests[] = { { "destroy", "", none } };
static const struct kiosk_wl_message buffer_events[] = { { "release", "", none } };
IFACE(kiosk_wl_buffer_interface, "wl_buffer", 1, buffer_requests, buffer_events)

// wl_region (version 1): no events.
static const struct kiosk_wl_message region_requests[] = {
    { "destroy", "", none }, { "add", "iiii", none }, { "subtract", "iiii", none } };
const struct kiosk_wl_interface kiosk_wl_region_interface = { "wl_region", 1, 3, region_requests, 0, NULL };

// wl_output (version 3)
static const struct kiosk_wl_message output_requests[] = { { "release", "3", none } };
static const struct kiosk_wl_message output_events[] = {
    { "geometry", "iiiiissi", none }, { "mode", "uiii", none }, { "done", "2", none }, { "scale", "2i", none } };
IFACE(kiosk_wl_output_interface, "wl_output", 3, output_requests, output_events)

// wl_surface (version 4)
static const struct kiosk_wl_interface *surface_attach_types[] = { &kiosk_wl_buffer_interface, NULL, NULL };
static const struct kiosk_wl_interface *surface_frame_types[] = { &kiosk_wl_callback_interface };
static const struct kiosk_wl_interface *surface_region_types[] = { &kiosk_wl_region_interface };
static const struct kiosk_wl_interface *surface_output_types[] = { &kiosk_wl_output_interface };
static const struct kiosk_wl_message surface_requests[] = {
    { "destroy", "", none }, { "attach", "?oii", surface_attach_types }, { "damage", "iiii", none },
    { "frame", "n", surface_frame_types }, { "set_opaque_region", "?o", surface_region_types },
    { "set_input_region", "?o", surface_region_types }, { "commit", "", none },
    { "set_buffer_transform", "2i", none }, { "set_buffer_scale", "3i", none }, { "damage_buffer", "4iiii", none } };
static const struct kiosk_wl_message surface_events[] = { { "enter", "o", surface_output_types }, { "leave", "o", surface_output_types } };
IFACE(kiosk_wl_surface_interface, "wl_surface", 4, surface_requests, surface_events)

// wl_compositor (version 4): no events.
static const struct kiosk_wl_interface *compositor_surface_types[] = { &kiosk_wl_surface_interface };
static const struct kiosk_wl_interface *compositor_region_types[] = { &kiosk_wl_region_interface };
static const struct kiosk_wl_message compositor_requests[] = {
    { "create_surface", "n", compositor_surface_types }, { "create_region", "n", compositor_region_types } };
const struct kiosk_wl_interface kiosk_wl_compositor_interface = { "wl_compositor", 4, 2, compositor_requests, 0, NULL };

// wl_shm_pool (version 1): no events.
static const struct kiosk_wl_interface *pool_buffer_types[] = { &kiosk_wl_buffer_interface, NULL, NULL, NULL, NULL, NULL };
static const struct kiosk_wl_message pool_requests[] = {
    { "create_buffer", "niiiiu", pool_buffer_types }, { "destroy", "", none }, { "resize", "i", none } };
const struct kiosk_wl_interface kiosk_wl_shm_pool_interface = { "wl_shm_pool", 1, 3, pool_requests, 0, NULL };

// wl_shm (version 1)
static const struct kiosk_wl_interface *shm_pool_types[] = { &kiosk_wl_shm_pool_interface, NULL, NULL };
static const struct kiosk_wl_message shm_requests[] = { { "create_pool", "nhi", shm_pool_types } };
static const struct kiosk_wl_message shm_events[] = { { "format", "u", none } };
IFACE(kiosk_wl_shm_interface, "wl_shm", 1, shm_requests, shm_events)

// wl_pointer (version 5)
static const struct kiosk_wl_interface *pointer_cursor_types[] = { NULL, &kiosk_wl_surface_interface, NULL, NULL };
static const struct kiosk_wl_interface *pointer_enter_types[] = { NULL, &kiosk_wl_surface_interface, NULL, NULL };
static const struct kiosk_wl_message pointer_requests[] = { { "set_cursor", "u?oii", pointer_cursor_types }, { "release", "3", none } };
static const struct kiosk_wl_message pointer_events[] = {
    { "enter", "uoff", pointer_enter_types }, { "leave", "uo", pointer_enter_types }, { "motion", "uff", none },
    { "button", "uuuu", none }, { "axis", "uuf", none }, { "frame", "5", none }, { "axis_source", "5u", none },
    { "axis_stop", "5uu", none }, { "axis_discrete", "5ui", none } };
IFACE(kiosk_wl_pointer_interface, "wl_pointer", 5, pointer_requests, pointer_events)

// wl_touch (version 5)
static const struct kiosk_wl_interface *touch_down_types[] = { NULL, NULL, &kiosk_wl_surface_interface, NULL, NULL, NULL };
static const struct kiosk_wl_message touch_requests[] = { { "release", "3", none } };
static const struct kiosk_wl_message touch_events[] = {
    { "down", "uuoiff", touch_down_types }, { "up", "uui", none }, { "motion", "uiff", none },
    { "frame", "", none }, { "cancel", "", none } };
IFACE(kiosk_wl_touch_interface, "wl_touch", 5, touch_requests, touch_events)

// wl_seat (version 5); get_keyboard is never sent (the HUD takes no keyboard focus).
static const struct kiosk_wl_interface *seat_pointer_types[] = { &kiosk_wl_pointer_interface };
static const struct kiosk_wl_interface *seat_touch_types[] = { &kiosk_wl_touch_interface };
static const struct kiosk_wl_message seat_requests[] = {
    { "get_pointer", "n", seat_pointer_types }, { "get_keyboard", "n", none }, { "get_touch", "n", seat_touch_types },
    { "release", "5", none } };
static const struct kiosk_wl_message seat_events[] = { { "capabilities", "u", none }, { "name", "2s", none } };
IFACE(kiosk_wl_seat_interface, "wl_seat", 5, seat_requests, seat_events)

// zwlr_layer_surface_v1 (version 4). get_popup's xdg_popup is never sent: NULL in its types.
static const struct kiosk_wl_message layer_surface_requests[] = {
    { "set_size", "uu", none }, { "set_anchor", "u", none }, { "set_exclusive_zone", "i", none },
    { "set_margin", "iiii", none }, { "set_keyboard_interactivity", "u", none }, { "get_popup", "o", none },
    { "ack_configure", "u", none }, { "destroy", "", none }, { "set_layer", "2u", none } };
static const struct kiosk_wl_message layer_surface_events[] = { { "configure", "uuu", none }, { "closed", "", none } };
IFACE(kiosk_zwlr_layer_surface_v1_interface, "zwlr_layer_surface_v1", 4, layer_surface_requests, layer_surface_events)

// zwlr_layer_shell_v1 (version 4): no events.
static const struct kiosk_wl_interface *layer_shell_get_types[] = {
    &kiosk_zwlr_layer_surface_v1_interface, &kiosk_wl_surface_interface, &kiosk_wl_output_interface, NULL, NULL };
static const struct kiosk_wl_message layer_shell_requests[] = {
    { "get_layer_surface", "no?ous", layer_shell_get_types }, { "destroy", "3", none } };
const struct kiosk_wl_interface kiosk_zwlr_layer_shell_v1_interface = { "zwlr_layer_shell_v1", 4, 2, layer_shell_requests, 0, NULL };

// zwlr_foreign_toplevel_handle_v1 (version 3), from wlr-foreign-toplevel-management-unstable-v1
// (https://gitlab.freedesktop.org/wlroots/wlr-protocols/-/blob/master/unstable/wlr-foreign-toplevel-management-unstable-v1.xml).
// Only listened to: its requests are never sent (their object arguments' types left NULL).
static const struct kiosk_wl_message toplevel_requests[] = {
    { "set_maximized", "", none }, { "unset_maximized", "", none }, { "set_minimized", "", none },
    { "unset_minimized", "", none }, { "activate", "o", none }, { "close", "", none },
    { "set_rectangle", "oiiii", none }, { "destroy", "", none }, { "set_fullscreen", "2?o", none },
    { "unset_fullscreen", "2", none } };
extern const struct kiosk_wl_interface kiosk_zwlr_foreign_toplevel_handle_v1_interface;
static const struct kiosk_wl_interface *toplevel_output_types[] = { &kiosk_wl_output_interface };
static const struct kiosk_wl_interface *toplevel_parent_types[] = { &kiosk_zwlr_foreign_toplevel_handle_v1_interface };
static const struct kiosk_wl_message toplevel_events[] = {
    { "title", "s", none }, { "app_id", "s", none }, { "output_enter", "o", toplevel_output_types },
    { "output_leave", "o", toplevel_output_types }, { "state", "a", none }, { "done", "", none },
    { "closed", "", none }, { "parent", "3?o", toplevel_parent_types } };
IFACE(kiosk_zwlr_foreign_toplevel_handle_v1_interface, "zwlr_foreign_toplevel_handle_v1", 3, toplevel_requests, toplevel_events)

// zwlr_foreign_toplevel_manager_v1 (version 3)
static const struct kiosk_wl_interface *manager_toplevel_types[] = { &kiosk_zwlr_foreign_toplevel_handle_v1_interface };
static const struct kiosk_wl_message manager_requests[] = { { "stop", "", none } };
static const struct kiosk_wl_message manager_events[] = { { "toplevel", "n", manager_toplevel_types }, { "finished", "", none } };
IFACE(kiosk_zwlr_foreign_toplevel_manager_v1_interface, "zwlr_foreign_toplevel_manager_v1", 3, manager_requests, manager_events)

// xdg_wm_base, xdg_surface, xdg_toplevel (version 1 each), from xdg-shell
// (https://gitlab.freedesktop.org/wayland/wayland-protocols/-/blob/main/stable/xdg-shell/xdg-shell.xml):
// the way onto a compositor without the layer shell (cage, weston's kiosk-shell): one toplevel.
// create_positioner and get_popup are never sent (their new objects' types left NULL).
static const struct kiosk_wl_message xdg_toplevel_requests[] = {
    { "destroy", "", none }, { "set_parent", "?o", none }, { "set_title", "s", none }, { "set_app_id", "s", none },
    { "show_window_menu", "ouii", none }, { "move", "ou", none }, { "resize", "ouu", none }, { "set_max_size", "ii", none },
    { "set_min_size", "ii", none }, { "set_maximized", "", none }, { "unset_maximized", "", none },
    { "set_fullscreen", "?o", none }, { "unset_fullscreen", "", none }, { "set_minimized", "", none } };
static const struct kiosk_wl_message xdg_toplevel_events[] = { { "configure", "iia", none }, { "close", "", none } };
IFACE(kiosk_xdg_toplevel_interface, "xdg_toplevel", 1, xdg_toplevel_requests, xdg_toplevel_events)

static const struct kiosk_wl_interface *xdg_surface_toplevel_types[] = { &kiosk_xdg_toplevel_interface };
static const struct kiosk_wl_message xdg_surface_requests[] = {
    { "destroy", "", none }, { "get_toplevel", "n", xdg_surface_toplevel_types }, { "get_popup", "n?oo", none },
    { "set_window_geometry", "iiii", none }, { "ack_configure", "u", none } };
static const struct kiosk_wl_message xdg_surface_events[] = { { "configure", "u", none } };
IFACE(kiosk_xdg_surface_interface, "xdg_surface", 1, xdg_surface_requests, xdg_surface_events)

static const struct kiosk_wl_interface *xdg_wm_base_surface_types[] = { &kiosk_xdg_surface_interface, &kiosk_wl_surface_interface };
static const struct kiosk_wl_message xdg_wm_base_requests[] = {
    { "destroy", "", none }, { "create_positioner", "n", none }, { "get_xdg_surface", "no", xdg_wm_base_surface_types },
    { "pong", "u", none } };
static const struct kiosk_wl_message xdg_wm_base_events[] = { { "ping", "u", none } };
IFACE(kiosk_xdg_wm_base_interface, "xdg_wm_base", 1, xdg_wm_base_requests, xdg_wm_base_events)
