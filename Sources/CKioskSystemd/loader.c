// kiosk_systemd_load and the kiosk_sd_bus_ wrappers, over CKioskLoader.
#include "CKioskSystemd.h"
#include "kiosk_loader.h"

enum { KIOSK_SYSTEMD_FUNCTIONS(KIOSK_LOADER_INDEX, KIOSK_LOADER_INDEX) kiosk_systemd_count };
static void *slots[kiosk_systemd_count];
static const char *const symbols[] = { KIOSK_SYSTEMD_FUNCTIONS(KIOSK_LOADER_NAME, KIOSK_LOADER_NAME) NULL };
static struct kiosk_library systemd = { "libsystemd.so.0", symbols, slots, NULL };
static struct kiosk_loader loader = KIOSK_LOADER_INIT("kiosk_systemd_load");

const char *kiosk_systemd_load(void) { return kiosk_load(&loader, &systemd, 1); }

#define WRAP(ret, name, params, args) KIOSK_LOADER_WRAP(loader, slots, ret, name, params, args)
#define WRAP_VOID(ret, name, params, args) KIOSK_LOADER_WRAP_VOID(loader, slots, ret, name, params, args)
KIOSK_SYSTEMD_FUNCTIONS(WRAP, WRAP_VOID)
