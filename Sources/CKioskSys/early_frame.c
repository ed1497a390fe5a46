/* The early frame (CKioskFrameCache.h): the frame cache's picture put on screen the way
   modeset.c would, for kiosk-hud's constructor (CKioskEarlyFrame), before the Swift runtime starts.

   Why C, before the runtime: under QEMU's TCG every first-run block of code is translated again
   in each process, so the Swift runtime's start-up and our first layout cost ~150 ms more than a
   C program's whole modeset (KioskDRM's MEASUREMENTS); this is a page of C over libc, and shows
   the frame ~1.1x as late as that C program does. It only replays decisions the Swift side made
   and recorded (card, connector, CRTC, mode, format, the rotated frame): nothing is chosen here.
   Any check failing means the normal start, with nothing left behind: each step that succeeded
   is undone. The card calls go through `kiosk_card_ops`, so that the tests' fake kernel can
   answer them and fail any of them. */
#include "CKioskFrameCache.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <libdrm/drm.h>

static int linux_open(void *context, const char *path, int flags) { (void)context; return open(path, flags); }
static void linux_close(void *context, int fd) { (void)context; close(fd); }
static int linux_ioctl(void *context, int fd, unsigned long request, void *arg) { (void)context; return ioctl(fd, request, arg); }
static void *linux_mmap(void *context, int fd, size_t length, uint64_t offset) {
    (void)context;
    return mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
}
static void linux_munmap(void *context, void *address, size_t length) { (void)context; munmap(address, length); }
static ssize_t linux_pread(void *context, int fd, void *buffer, size_t size, off_t offset) {
    (void)context;
    return pread(fd, buffer, size, offset);
}

const struct kiosk_card_ops kiosk_linux_card_ops = {
    NULL, linux_open, linux_close, linux_ioctl, linux_mmap, linux_munmap, linux_pread,
};

/* Exactly `size` bytes of the file at `offset` (EINTR retried, short reads continued): 0, or -1
   with errno set (0 when the file ended first). */
static int read_full(const struct kiosk_card_ops *ops, int fd, void *buffer, size_t size, off_t offset) {
    size_t done = 0;
    while (done < size) {
        ssize_t r = ops->pread(ops->context, fd, (char *)buffer + done, size - done, offset + (off_t)done);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) { errno = 0; return -1; }
        done += (size_t)r;
    }
    return 0;
}

/* `size` bytes of the file at `offset` into the card's mapping: straight in (one copy) when the
   filesystem can. 9p, NFS and FUSE may not (they can read into the destination's own pages,
   which a dumb buffer's PFN mapping does not have: EFAULT); then, and for the rest of this frame
   (`*bounce`), through an ordinary buffer. */
static int read_into_mapping(const struct kiosk_card_ops *ops, int fd, void *map, size_t size, off_t offset, int *bounce) {
    if (!*bounce) {
        if (read_full(ops, fd, map, size, offset) == 0) return 0;
        if (errno != EFAULT) return -1;
        *bounce = 1;
    }
    char buffer[16384];
    for (size_t done = 0; done < size;) {
        size_t n = size - done < sizeof buffer ? size - done : sizeof buffer;
        if (read_full(ops, fd, buffer, n, offset + (off_t)done) != 0) return -1;
        memcpy((char *)map + done, buffer, n);
        done += n;
    }
    return 0;
}

/* The one ioctl call site: EINTR and EAGAIN are retried (as drmIoctl does). */
static int xioctl(const struct kiosk_card_ops *ops, int fd, unsigned long request, void *arg) {
    int r;
    do { r = ops->ioctl(ops->context, fd, request, arg); } while (r == -1 && (errno == EINTR || errno == EAGAIN));
    return r;
}

#define FAIL(...) do { snprintf(early->why, sizeof early->why, __VA_ARGS__); goto undo; } while (0)

int kiosk_early_frame_show(int argc, char *const *argv, const struct kiosk_card_ops *ops, struct kiosk_early_frame *early) {
    return kiosk_early_frame_show_on(argc, argv, NULL, ops, early);
}

int kiosk_early_frame_show_on(int argc, char *const *argv, const char *only, const struct kiosk_card_ops *ops,
                              struct kiosk_early_frame *early) {
    memset(early, 0, sizeof *early);
    early->fd = -1;
    struct kiosk_frame_cache_location where;
    if (kiosk_frame_cache_locate(argc, argv, &where) != 0) return early->state;
    /* From here on only the arguments that decide the picture count (up to "--"). */
    argc = where.argc;
    snprintf(early->cache_path, sizeof early->cache_path, "%s", where.path);
    int file = open(early->cache_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (file < 0) return early->state;   /* no frame for these arguments yet */

    struct kiosk_frame_cache_header h;
    int card = -1, have_dumb = 0, have_fb = 0, bounce = 0;
    void *map = MAP_FAILED;
    struct drm_mode_create_dumb create = {0};
    uint32_t fb_id = 0;
    early->state = KIOSK_EARLY_FAILED;
    if (kiosk_frame_cache_check(file, argc, argv, &h, early->why, sizeof early->why) != 0) goto undo;
    if (only && strcmp(h.card, only) != 0) FAIL("the frame is for %s, not %s", h.card, only);

    card = ops->open(ops->context, h.card, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (card < 0) FAIL("open %s: %s", h.card, strerror(errno));
    if (xioctl(ops, card, DRM_IOCTL_SET_MASTER, NULL) != 0) FAIL("SET_MASTER: %s", strerror(errno));

    /* The connector still connected with the mode (its current state: no probe, like
       drmModeGetConnectorCurrent, because count_modes is not 0). */
    struct drm_mode_modeinfo modes[64];
    struct drm_mode_get_connector conn = {0};
    conn.connector_id = h.connector_id;
    conn.count_modes = 64;
    conn.modes_ptr = (uint64_t)(uintptr_t)modes;
    if (xioctl(ops, card, DRM_IOCTL_MODE_GETCONNECTOR, &conn) != 0) FAIL("GETCONNECTOR %u: %s", h.connector_id, strerror(errno));
    if (conn.connection != 1) FAIL("connector %u not connected", h.connector_id);
    /* More modes than the array holds: the kernel copied none (the Swift side will look). */
    if (conn.count_modes > 64) FAIL("connector %u: %u modes", h.connector_id, conn.count_modes);
    int found = 0;
    for (uint32_t i = 0; i < conn.count_modes; i++)
        if (memcmp(&modes[i], &h.mode, sizeof h.mode) == 0) found = 1;
    if (!found) FAIL("connector %u: mode %ux%u gone", h.connector_id, h.width, h.height);

    struct drm_mode_crtc saved = {0};
    saved.crtc_id = h.crtc_id;
    if (xioctl(ops, card, DRM_IOCTL_MODE_GETCRTC, &saved) != 0) FAIL("GETCRTC %u: %s", h.crtc_id, strerror(errno));

    create.width = h.width;
    create.height = h.height;
    create.bpp = h.bpp;
    if (xioctl(ops, card, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0) FAIL("CREATE_DUMB: %s", strerror(errno));
    have_dumb = 1;
    struct drm_mode_map_dumb mapreq = { .handle = create.handle };
    if (xioctl(ops, card, DRM_IOCTL_MODE_MAP_DUMB, &mapreq) != 0) FAIL("MAP_DUMB: %s", strerror(errno));
    map = ops->mmap(ops->context, card, create.size, mapreq.offset);
    if (map == MAP_FAILED) FAIL("mmap: %s", strerror(errno));

    /* The frame, straight from the file into the buffer (written, never read) where the
       filesystem allows it. */
    off_t at = (off_t)h.header_size + h.args_size;
    uint32_t row = h.width * (h.bpp / 8);
    if (create.pitch == h.pitch) {
        if (read_into_mapping(ops, file, map, h.frame_size, at, &bounce) != 0)
            FAIL("reading the frame: %s", errno ? strerror(errno) : "short file");
    } else {
        for (uint32_t y = 0; y < h.height; y++)
            if (read_into_mapping(ops, file, (char *)map + (size_t)y * create.pitch, row, at + (off_t)y * h.pitch, &bounce) != 0)
                FAIL("reading the frame: %s", errno ? strerror(errno) : "short file");
    }

    struct drm_mode_fb_cmd2 fb = {0};
    fb.width = h.width;
    fb.height = h.height;
    fb.pixel_format = h.fourcc;
    fb.handles[0] = create.handle;
    fb.pitches[0] = create.pitch;
    if (xioctl(ops, card, DRM_IOCTL_MODE_ADDFB2, &fb) != 0) FAIL("ADDFB2: %s", strerror(errno));
    have_fb = 1;
    fb_id = fb.fb_id;

    uint32_t connector = h.connector_id;
    struct drm_mode_crtc set = {0};
    set.crtc_id = h.crtc_id;
    set.fb_id = fb_id;
    set.set_connectors_ptr = (uint64_t)(uintptr_t)&connector;
    set.count_connectors = 1;
    set.mode = h.mode;
    set.mode_valid = 1;
    if (xioctl(ops, card, DRM_IOCTL_MODE_SETCRTC, &set) != 0) FAIL("SETCRTC %u: %s", h.crtc_id, strerror(errno));
    /* Drivers that copy from the buffer (virtio-gpu, SPI/USB panels) need to be told; the others
       say ENOSYS, which is fine. */
    struct drm_clip_rect clip = { 0, 0, (unsigned short)h.width, (unsigned short)h.height };
    struct drm_mode_fb_dirty_cmd dirty = { .fb_id = fb_id, .num_clips = 1, .clips_ptr = (uint64_t)(uintptr_t)&clip };
    (void)xioctl(ops, card, DRM_IOCTL_MODE_DIRTYFB, &dirty);

    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    early->shown_ns = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
    close(file);
    early->state = KIOSK_EARLY_SHOWN;
    early->why[0] = 0;
    early->fd = card;
    memcpy(early->card, h.card, sizeof early->card);
    early->connector_id = h.connector_id;
    early->crtc_id = h.crtc_id;
    early->mode = h.mode;
    early->fourcc = h.fourcc;
    early->bpp = h.bpp;
    early->width = h.width;
    early->height = h.height;
    early->handle = create.handle;
    early->fb_id = fb_id;
    early->pitch = create.pitch;
    early->size = create.size;
    early->map = map;
    early->saved = saved;
    early->frame_hash = h.frame_hash;
    return early->state;

undo:
    if (have_fb) xioctl(ops, card, DRM_IOCTL_MODE_RMFB, &fb_id);
    if (map != MAP_FAILED) ops->munmap(ops->context, map, create.size);
    if (have_dumb) {
        struct drm_mode_destroy_dumb d = { .handle = create.handle };
        xioctl(ops, card, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
    }
    if (card >= 0) {
        xioctl(ops, card, DRM_IOCTL_DROP_MASTER, NULL);
        ops->close(ops->context, card);
    }
    close(file);
    return early->state;
}
