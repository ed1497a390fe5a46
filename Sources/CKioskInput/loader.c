// kiosk_input_load and the kiosk_ wrappers for KIOSK_LIBINPUT_FUNCTIONS and
// KIOSK_UDEV_FUNCTIONS, over CKioskLoader: one table of slots, libinput's first, then libudev's.
#include "CKioskInput.h"
#include "kiosk_loader.h"
#include <stdarg.h>
#include <stdio.h>

enum { KIOSK_LIBINPUT_FUNCTIONS(KIOSK_LOADER_INDEX, KIOSK_LOADER_INDEX) kiosk_libinput_count };
enum { kiosk_before_udev = kiosk_libinput_count - 1, KIOSK_UDEV_FUNCTIONS(KIOSK_LOADER_INDEX, KIOSK_LOADER_INDEX) kiosk_slot_count };
static void *slots[kiosk_slot_count];
static const char *const input_symbols[] = { KIOSK_LIBINPUT_FUNCTIONS(KIOSK_LOADER_NAME, KIOSK_LOADER_NAME) NULL };
static const char *const udev_symbols[] = { KIOSK_UDEV_FUNCTIONS(KIOSK_LOADER_NAME, KIOSK_LOADER_NAME) NULL };
static struct kiosk_library libraries[] = {
    { "libinput.so.10", input_symbols, slots, NULL },
    { "libudev.so.1", udev_symbols, slots + kiosk_libinput_count, NULL },
};
static struct kiosk_loader loader = KIOSK_LOADER_INIT("kiosk_input_load");

const char *kiosk_input_load(void) {
    return kiosk_load(&loader, libraries, 2);
}

#define WRAP(ret, name, params, args) KIOSK_LOADER_WRAP(loader, slots, ret, name, params, args)
#define WRAP_VOID(ret, name, params, args) KIOSK_LOADER_WRAP_VOID(loader, slots, ret, name, params, args)
KIOSK_LIBINPUT_FUNCTIONS(WRAP, WRAP_VOID)
KIOSK_UDEV_FUNCTIONS(WRAP, WRAP_VOID)

static kiosk_libinput_text_log_handler text_log_handler;

static void format_log(struct libinput *libinput, enum libinput_log_priority priority, const char *format, va_list args) {
    char text[1024];
    vsnprintf(text, sizeof text, format, args);
    if (text_log_handler) text_log_handler(libinput, priority, text);
}

void kiosk_libinput_log_set_text_handler(struct libinput *libinput, kiosk_libinput_text_log_handler handler) {
    text_log_handler = handler;
    kiosk_libinput_log_set_handler(libinput, format_log);
}
