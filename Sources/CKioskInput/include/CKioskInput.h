// libinput and libudev, loaded with dlopen when input starts (not linked: see the design notes at
// the top of Sources/KioskInput/KioskInput.swift). The system headers stay included so Swift
// sees libinput's types and enum constants; KioskInput calls the `kiosk_`-prefixed wrappers
// declared here, never the libraries' own functions (the executable does not link them).
#ifndef CKIOSKINPUT_H
#define CKIOSKINPUT_H

#include <libinput.h>
#include <libudev.h>

/// Loads libinput.so.10 and libudev.so.1 (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves every
/// function below. NULL on success (and on every later call); else why: the library or symbol
/// and dlerror's text (kiosk_load). Thread-safe; a failed load may be tried again. The
/// libraries are never unloaded.
const char *kiosk_input_load(void);

// The functions KioskInput calls, each written once:
// F(return type, name, (parameters), (arguments)); V(...) for those returning void.
// Each becomes `kiosk_<name>` with the library's exact signature. Calling one before
// kiosk_input_load succeeded aborts the process with a message.
#define KIOSK_LIBINPUT_FUNCTIONS(F, V) \
    F(struct libinput *, libinput_udev_create_context, (const struct libinput_interface *interface, void *user_data, struct udev *udev), (interface, user_data, udev)) \
    F(int, libinput_udev_assign_seat, (struct libinput *libinput, const char *seat_id), (libinput, seat_id)) \
    F(struct libinput *, libinput_path_create_context, (const struct libinput_interface *interface, void *user_data), (interface, user_data)) \
    F(struct libinput_device *, libinput_path_add_device, (struct libinput *libinput, const char *path), (libinput, path)) \
    F(struct libinput *, libinput_unref, (struct libinput *libinput), (libinput)) \
    F(int, libinput_get_fd, (struct libinput *libinput), (libinput)) \
    F(int, libinput_dispatch, (struct libinput *libinput), (libinput)) \
    F(struct libinput_event *, libinput_get_event, (struct libinput *libinput), (libinput)) \
    F(void *, libinput_get_user_data, (struct libinput *libinput), (libinput)) \
    V(void, libinput_log_set_handler, (struct libinput *libinput, libinput_log_handler log_handler), (libinput, log_handler)) \
    \
    F(enum libinput_event_type, libinput_event_get_type, (struct libinput_event *event), (event)) \
    F(struct libinput_device *, libinput_event_get_device, (struct libinput_event *event), (event)) \
    V(void, libinput_event_destroy, (struct libinput_event *event), (event)) \
    F(struct libinput_event_touch *, libinput_event_get_touch_event, (struct libinput_event *event), (event)) \
    F(struct libinput_event_pointer *, libinput_event_get_pointer_event, (struct libinput_event *event), (event)) \
    F(struct libinput_event_keyboard *, libinput_event_get_keyboard_event, (struct libinput_event *event), (event)) \
    \
    F(uint64_t, libinput_event_touch_get_time_usec, (struct libinput_event_touch *event), (event)) \
    F(int32_t, libinput_event_touch_get_seat_slot, (struct libinput_event_touch *event), (event)) \
    F(double, libinput_event_touch_get_x_transformed, (struct libinput_event_touch *event, uint32_t width), (event, width)) \
    F(double, libinput_event_touch_get_y_transformed, (struct libinput_event_touch *event, uint32_t height), (event, height)) \
    \
    F(uint64_t, libinput_event_pointer_get_time_usec, (struct libinput_event_pointer *event), (event)) \
    F(double, libinput_event_pointer_get_dx, (struct libinput_event_pointer *event), (event)) \
    F(double, libinput_event_pointer_get_dy, (struct libinput_event_pointer *event), (event)) \
    F(double, libinput_event_pointer_get_absolute_x_transformed, (struct libinput_event_pointer *event, uint32_t width), (event, width)) \
    F(double, libinput_event_pointer_get_absolute_y_transformed, (struct libinput_event_pointer *event, uint32_t height), (event, height)) \
    F(uint32_t, libinput_event_pointer_get_button, (struct libinput_event_pointer *event), (event)) \
    F(enum libinput_button_state, libinput_event_pointer_get_button_state, (struct libinput_event_pointer *event), (event)) \
    \
    F(uint64_t, libinput_event_keyboard_get_time_usec, (struct libinput_event_keyboard *event), (event)) \
    F(uint32_t, libinput_event_keyboard_get_key, (struct libinput_event_keyboard *event), (event)) \
    F(enum libinput_key_state, libinput_event_keyboard_get_key_state, (struct libinput_event_keyboard *event), (event)) \
    \
    F(const char *, libinput_device_get_name, (struct libinput_device *device), (device)) \
    F(const char *, libinput_device_get_sysname, (struct libinput_device *device), (device)) \
    F(const char *, libinput_device_get_output_name, (struct libinput_device *device), (device)) \
    F(int, libinput_device_has_capability, (struct libinput_device *device, enum libinput_device_capability capability), (device, capability)) \
    F(int, libinput_device_config_calibration_has_matrix, (struct libinput_device *device), (device)) \
    F(enum libinput_config_status, libinput_device_config_calibration_set_matrix, (struct libinput_device *device, const float matrix[6]), (device, matrix)) \
    F(int, libinput_device_config_calibration_get_matrix, (struct libinput_device *device, float matrix[6]), (device, matrix)) \
    F(int, libinput_device_config_calibration_get_default_matrix, (struct libinput_device *device, float matrix[6]), (device, matrix)) \
    F(const char *, libinput_config_status_to_str, (enum libinput_config_status status), (status))

#define KIOSK_UDEV_FUNCTIONS(F, V) \
    F(struct udev *, udev_new, (void), ()) \
    F(struct udev *, udev_unref, (struct udev *udev), (udev))

/// libinput's log lines as text: the message is formatted here (vsnprintf into 1 kB, as much as
/// one line needs), then `handler(libinput, priority, text)`. Swift never sees the va_list: on
/// aarch64 it is a struct, and Debian 13's swiftlang 6.0.3 crashes lowering a Swift closure that
/// takes one. One handler for the whole process.
typedef void (*kiosk_libinput_text_log_handler)(struct libinput *libinput, enum libinput_log_priority priority, const char *text);
void kiosk_libinput_log_set_text_handler(struct libinput *libinput, kiosk_libinput_text_log_handler handler);

#define KIOSK_INPUT_DECLARE(ret, name, params, args) ret kiosk_##name params;
KIOSK_LIBINPUT_FUNCTIONS(KIOSK_INPUT_DECLARE, KIOSK_INPUT_DECLARE)
KIOSK_UDEV_FUNCTIONS(KIOSK_INPUT_DECLARE, KIOSK_INPUT_DECLARE)
#undef KIOSK_INPUT_DECLARE

#endif
