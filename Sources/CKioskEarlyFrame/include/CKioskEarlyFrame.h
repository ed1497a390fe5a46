// The early frame: `kiosk-hud show` puts the frame cache's picture on screen from a C
// constructor, before the Swift runtime starts, when an earlier run with the same arguments left
// one (CKioskFrameCache.h). Linked into kiosk-hud only. The Swift side (KioskDRM's EarlyFrame)
// takes over the card, the buffer and the saved CRTC state, or releases them.
#ifndef CKIOSKEARLYFRAME_H
#define CKIOSKEARLYFRAME_H

#include <stdint.h>
#include <libdrm/drm_mode.h>

enum kiosk_early_frame_state {
    KIOSK_EARLY_NONE = 0,     /* not `show`, turned off, or no cache file for these arguments */
    KIOSK_EARLY_SHOWN = 1,    /* on screen: fd, buffer and saved CRTC below belong to the taker */
    KIOSK_EARLY_FAILED = 2,   /* a cache file was there but could not be shown: `why` */
};

struct kiosk_early_frame {
    int state;
    char why[200];
    char cache_path[512];
    int fd;
    char card[64];
    uint32_t connector_id, crtc_id;
    struct drm_mode_modeinfo mode;
    uint32_t fourcc, bpp, width, height;
    uint32_t handle, fb_id, pitch;
    uint64_t size;             /* of the dumb buffer (its mapping's length) */
    void *map;
    struct drm_mode_crtc saved; /* what the CRTC showed before (GETCRTC) */
    uint64_t frame_hash;
    uint64_t shown_ns;         /* CLOCK_MONOTONIC after SETCRTC */
};

/// What the constructor did. The struct stays valid for the process's life.
struct kiosk_early_frame *kiosk_early_frame(void);

#endif
