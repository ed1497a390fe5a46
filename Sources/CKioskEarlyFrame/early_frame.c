/* kiosk-hud's early frame: for `kiosk-hud show`, the frame cache's picture on screen before the
   Swift runtime's constructors run (CKioskSys's kiosk_early_frame_show does the work). */
#include "CKioskEarlyFrame.h"

static struct kiosk_early_frame early = { .fd = -1 };

struct kiosk_early_frame *kiosk_early_frame(void) { return &early; }

/* Priority 101: before the constructors without a priority (the Swift runtime's). */
__attribute__((constructor(101))) static void kiosk_show_early_frame(int argc, char **argv) {
    kiosk_early_frame_show(argc, argv, &kiosk_linux_card_ops, &early);
}
