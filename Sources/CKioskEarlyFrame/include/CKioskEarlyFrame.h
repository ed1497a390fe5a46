// The early frame: `kiosk-hud show` puts the frame cache's picture on screen from a C
// constructor, before the Swift runtime starts, when an earlier run with the same arguments left
// one (CKioskFrameCache.h, kiosk_early_frame_show). Linked into kiosk-hud only. The Swift side
// (KioskDRM's EarlyFrame) continues it — takes the card, the buffer and the saved CRTC state — or
// releases them.
#ifndef CKIOSKEARLYFRAME_H
#define CKIOSKEARLYFRAME_H

#include "CKioskFrameCache.h"

/// What the constructor did. The struct stays valid for the process's life.
struct kiosk_early_frame *kiosk_early_frame(void);

#endif
