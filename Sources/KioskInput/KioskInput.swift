// KioskInput — touch, pointer and keys from libinput as a KioskSeams.InputSource, in the
// picture's coordinates, so a finger lands on the HUD's "Cancel" button where it is drawn.
//
// Design
// ------
// * One libinput context (`LibinputSource`): the udev backend on a seat (default "seat0",
//   hotplug through libinput's udev monitor) or the path backend for named nodes
//   (`--input /dev/input/eventN`, repeatable, no hotplug). libinput only takes devices udev has
//   tagged ID_INPUT_*, so both want udev's database (on a kiosk: systemd-udevd or eudev).
// * Devices are opened and closed by libinput through `libinput_interface`: open_restricted /
//   close_restricted call the `Kernel` seam (`LibinputOptions.kernel`: the real one unless a
//   test passes a fake) to open and close, returning −errno on failure.
//   Swift 6 @convention(c) closures cannot capture, so they reach their `CallbackContext` via
//   libinput's user_data pointer; the interface struct lives at a fixed address for the process
//   (libinput keeps the pointer). libinput's log is formatted in C (CKioskInput: Swift never takes
//   its va_list, a struct on aarch64) and handed to us as text.
// * No threads, no busy loop: `fileDescriptor` (libinput_get_fd, an epoll fd) goes into the
//   caller's poll(2) beside DRM's page-flip events; `dispatch()` runs libinput_dispatch and
//   drains every event into a queue; `events(until:)` dispatches too (one non-blocking
//   epoll_wait) and hands out what is due.
// * Coordinates: touch → libinput_event_touch_get_{x,y}_transformed(panel width/height) →
//   `DisplayTransform.toPicture` (rotation). Absolute pointer (virtio-tablet) the same;
//   relative pointer motion (a mouse) accumulates in picture pixels, clamped to the picture.
//   Slots are libinput's seat slots (unique across devices). Left button → pointerButton; keys
//   pass through as Linux key codes. Times: the events' CLOCK_MONOTONIC microseconds → seconds
//   (+ `timeOffset`, see `align(to:)`).
// * Calibration (`CalibrationMatrix`): the caller's six floats (board profile,
//   `--touch-matrix`) set with libinput_device_config_calibration_set_matrix on each touch
//   device as it is added. With none given nothing is set, and libinput's default matrix is
//   udev's LIBINPUT_CALIBRATION_MATRIX (hwdb or a udev rule) — libinput applies it by itself;
//   the real-kernel test checks this (Tests/KioskInputTests/VMTouchTests.swift). Presets for a
//   sensor mounted 90/180/270° clockwise are libinput.h's documented matrices.
// * Several connectors: the source serves one (`LibinputOptions.connector`); a touch device
//   bound to another (`TouchBinding`, `--bind-touch DEVICE=OUTPUT`, DEVICE = sysname or name
//   substring; else udev's WL_OUTPUT) is ignored, unbound devices count for every connector.
// * `InputTranslator` is the pure part (tested without devices): rotation, pointer
//   accumulation, slot ownership; a device removed mid-touch gets its touches cancelled if
//   libinput did not release them itself.
// * Loading: the executable does not link libinput or libudev. `kiosk_input_load` (CKioskInput)
//   dlopens libinput.so.10 and libudev.so.1 when the first context is made, and KioskInput calls
//   them through CKioskInput's `kiosk_` wrappers (one X-macro list). Linked, they made the loader
//   map ten libraries at every start (libinput, libudev, libevdev, libmtdev, libwacom, libgudev,
//   gobject, glib, pcre2, ffi) and run glib's constructors, all before the first frame: ~50 ms of
//   a ~450 ms start under QEMU TCG. `kiosk-hud show` starts input after its first frame, so that
//   cost now comes after it. On the host (release, `show --offscreen - --duration 0 --no-input`,
//   500 alternated runs): ldd 22 → 12 lines, relocations 2921 → 2105, page faults 1354 → 1273,
//   exec → exit median 11.7 → 10.4 ms. Without libinput on the board the context's init throws
//   "libinput is not available: …" and show goes on without input. Tests/KioskInputTests/
//   LinkageTests.swift checks the binary's DT_NEEDED.
// * Life cycle: `close()` (and deinit) — libinput_unref (closes every device through
//   close_restricted), then udev_unref; a failing init releases what it made before throwing
//   a `LibinputError` naming the call (and path or seat).
