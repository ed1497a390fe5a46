/*
 * kiosk-app.c — a stand-in kiosk app for the boot test (Tests/VM/boot, VMBootTests): what a real
 * kiosk app does first when kiosk-hud was the boot splash, with each step reported.
 *
 *   kiosk-app [-D /dev/dri/card0] [-w SECONDS] [-c 0xRRGGBB]
 *
 * 1. opens the card and becomes DRM master: it is master at open when nobody holds master (the
 *    daemon dropped it, and its --retain keeper holds the card without it), else drmSetMaster;
 *    prints "kiosk-app: master at_open=yes|no set=ok|-|ERROR t=SECONDS", else
 *    "kiosk-app: not master: ERROR" and exits 2;
 * 2. draws nothing yet: waits for SIGUSR1, or -w seconds (default 1) — the frame kiosk-hud left
 *    on screen must stay there meanwhile (the test takes a screendump now);
 * 3. one XRGB8888 dumb buffer of one colour (-c, default 0x2060a0) on the first connected
 *    connector's CRTC, in the mode it shows now (the splash's), else the preferred one;
 *    prints "kiosk-app: drawn t=SECONDS";
 * 4. holds the picture until SIGTERM or SIGINT (then exits 0, leaving the CRTC as it is).
 *
 * t= is CLOCK_MONOTONIC in seconds: the guest's boot clock (the journal's monotonic time). Each
 * line goes to stdout and to /dev/console as well (the serial console, which the host keeps).
 * Exit: 0 ok, 1 usage, 2 DRM failure.
 *
 * Build: gcc -O2 kiosk-app.c $(pkg-config --cflags --libs libdrm)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static volatile sig_atomic_t go, stop;
static void on_usr1(int sig) { (void)sig; go = 1; }
static void on_term(int sig) { (void)sig; stop = 1; }

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* One report line: stdout (flushed) and the console. */
static void report(const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("kiosk-app: %s\n", line);
    fflush(stdout);
    int c = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (c >= 0) {
        dprintf(c, "kiosk-app: %s\n", line);
        close(c);
    }
}

static void usage(void) {
    fprintf(stderr, "usage: kiosk-app [-D /dev/dri/card0] [-w SECONDS] [-c 0xRRGGBB]\n");
    exit(1);
}

int main(int argc, char **argv) {
    const char *dev = "/dev/dri/card0";
    double wait_s = 1;
    unsigned long rgb = 0x2060a0;
    int opt;
    while ((opt = getopt(argc, argv, "D:w:c:h")) != -1) {
        char *end;
        switch (opt) {
        case 'D': dev = optarg; break;
        case 'w': wait_s = atof(optarg); break;
        case 'c': rgb = strtoul(optarg, &end, 16); if (*end || rgb > 0xffffff) usage(); break;
        default: usage();
        }
    }
    if (optind != argc) usage();

    /* Signals first: SIGUSR1 may come as soon as "master" is out. No SA_RESTART, so nanosleep
       returns EINTR. */
    struct sigaction sa = { .sa_handler = on_usr1 };
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    /* 1. the card, and master. */
    int fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0) { report("cannot open %s: %s", dev, strerror(errno)); return 2; }
    int at_open = drmIsMaster(fd);
    const char *set = "-";
    if (!at_open) set = drmSetMaster(fd) == 0 ? "ok" : strerror(errno);
    if (!drmIsMaster(fd)) { report("not master on %s: %s", dev, set); return 2; }
    report("master at_open=%s set=%s dev=%s t=%.3f", at_open ? "yes" : "no", set, dev, now_s());

    /* 2. nothing drawn until told (or -w seconds). */
    struct timespec left = { (time_t)wait_s, (long)((wait_s - (time_t)wait_s) * 1e9) };
    while (!go && !stop && nanosleep(&left, &left) == -1 && errno == EINTR) {}

    /* 3. the first connected connector, its CRTC and mode. */
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) { report("drmModeGetResources: %s", strerror(errno)); return 2; }
    drmModeConnector *conn = NULL;
    for (int i = 0; i < res->count_connectors && !conn; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) conn = c;
        else drmModeFreeConnector(c);
    }
    if (!conn) { report("no connected connector"); return 2; }
    uint32_t crtc_id = 0;
    drmModeEncoder *enc = conn->encoder_id ? drmModeGetEncoder(fd, conn->encoder_id) : NULL;
    if (enc && enc->crtc_id) crtc_id = enc->crtc_id;
    for (int e = 0; !crtc_id && e < conn->count_encoders; e++) {
        drmModeEncoder *en = drmModeGetEncoder(fd, conn->encoders[e]);
        for (int c = 0; en && c < res->count_crtcs; c++)
            if (en->possible_crtcs & (1u << c)) { crtc_id = res->crtcs[c]; break; }
        drmModeFreeEncoder(en);
    }
    if (!crtc_id) { report("no CRTC"); return 2; }
    drmModeCrtc *shown = drmModeGetCrtc(fd, crtc_id);
    drmModeModeInfo *mode = shown && shown->mode_valid ? &shown->mode : NULL;
    for (int i = 0; !mode && i < conn->count_modes; i++)
        if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) mode = &conn->modes[i];
    if (!mode) mode = &conn->modes[0];

    struct drm_mode_create_dumb create = { .width = mode->hdisplay, .height = mode->vdisplay, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) { report("CREATE_DUMB: %s", strerror(errno)); return 2; }
    struct drm_mode_map_dumb map = { .handle = create.handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) { report("MAP_DUMB: %s", strerror(errno)); return 2; }
    uint8_t *px = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (px == MAP_FAILED) { report("mmap: %s", strerror(errno)); return 2; }
    for (uint32_t y = 0; y < create.height; y++) {
        uint32_t *row = (uint32_t *)(px + (size_t)y * create.pitch);
        for (uint32_t x = 0; x < create.width; x++) row[x] = 0xff000000u | (uint32_t)rgb;
    }
    uint32_t fb_id;
    if (drmModeAddFB(fd, create.width, create.height, 24, 32, create.pitch, create.handle, &fb_id)) {
        report("AddFB: %s", strerror(errno)); return 2;
    }
    if (drmModeSetCrtc(fd, crtc_id, fb_id, 0, 0, &conn->connector_id, 1, mode)) {
        report("SetCrtc: %s", strerror(errno)); return 2;
    }
    drmModeClip clip = { 0, 0, (uint16_t)create.width, (uint16_t)create.height };
    drmModeDirtyFB(fd, fb_id, &clip, 1); /* virtio-gpu needs it; bochs says ENOSYS */
    report("drawn mode=%ux%u crtc=%u fb=%u colour=0x%06lx t=%.3f", mode->hdisplay, mode->vdisplay, crtc_id, fb_id, rgb, now_s());

    /* 4. hold (SIGTERM blocked between the check and the wait: none is missed). */
    sigset_t term, old;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigaddset(&term, SIGINT);
    sigprocmask(SIG_BLOCK, &term, &old);
    while (!stop) sigsuspend(&old);
    return 0;
}
