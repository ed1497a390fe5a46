/*
 * modeset.c — minimal libdrm reference program for the KioskHUD VM harness.
 *
 * Opens a DRM card, picks the Nth connected connector (default first) and its
 * preferred mode (else the CRTC's current mode, else the first), creates ONE XRGB8888 dumb buffer, fills it with a solid
 * colour, adds an FB, sets the CRTC, calls drmModeDirtyFB (ENOSYS ignored),
 * prints timings, optionally holds the picture for N seconds (SIGTERM/SIGINT
 * end the wait early) and restores the previous CRTC.
 *
 *   modeset [-D /dev/dri/card0] [-o N] [-m WxH] [-s SECONDS] 0xRRGGBB
 *     -o N   Nth connected connector (0 = first)     -m WxH  force that mode
 *
 * Output (stdout, one "key=value ..." line each, flushed):
 *   modeset: driver=bochs-drm connector=Virtual-1 mode=1024x768 ...
 *   modeset: t_main_ms=... t_exec_ms=... t_fill_ms=... dirtyfb=ok|ENOSYS|err
 *   modeset: ready            (picture is on screen; screendump now)
 *   modeset: restored
 * t_main_ms: CLOCK_MONOTONIC from main() start to the CRTC set (incl. DirtyFB).
 * t_exec_ms: since exec incl. dynamic loading: CLOCK_MONOTONIC minus KIOSK_EXEC_T0_NS when set
 *            (ref/stamp-exec.c sets it just before execv), else CLOCK_BOOTTIME minus
 *            /proc/self/stat starttime (10 ms resolution; counts the parent's fork too).
 * Exit: 0 ok, 1 usage, 2 DRM failure.
 *
 * Build: gcc -O2 modeset.c $(pkg-config --cflags --libs libdrm)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static volatile sig_atomic_t stop_requested;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static double ms_since(const struct timespec *t0, clockid_t clk) {
    struct timespec t;
    clock_gettime(clk, &t);
    return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Milliseconds since this process was exec'd: KIOSK_EXEC_T0_NS (CLOCK_MONOTONIC ns taken just
   before execv) when set, else /proc/self/stat's starttime (clock ticks since boot). */
static double ms_since_exec(void) {
    const char *t0 = getenv("KIOSK_EXEC_T0_NS");
    if (t0 && *t0) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return ((double)t.tv_sec * 1e9 + (double)t.tv_nsec - strtod(t0, NULL)) / 1e6;
    }
    char buf[4096];
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* comm may contain spaces */
    if (!p) return -1;
    unsigned long long start = 0;
    /* after ')': field 3 (state) ... field 22 (starttime) */
    int field = 2;
    for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " ")) {
        if (++field == 22) { start = strtoull(tok, NULL, 10); break; }
    }
    if (field != 22) return -1;
    struct timespec now;
    clock_gettime(CLOCK_BOOTTIME, &now);
    double now_ms = now.tv_sec * 1e3 + now.tv_nsec / 1e6;
    return now_ms - (double)start * 1e3 / (double)sysconf(_SC_CLK_TCK);
}

static void usage(void) {
    fprintf(stderr, "usage: modeset [-D /dev/dri/card0] [-o N] [-m WxH] [-s SECONDS] 0xRRGGBB\n");
    exit(1);
}

int main(int argc, char **argv) {
    struct timespec t_main;
    clock_gettime(CLOCK_MONOTONIC, &t_main);

    const char *dev = "/dev/dri/card0";
    int want_output = 0;
    double hold = 0;
    int opt;
    unsigned want_w = 0, want_h = 0;
    while ((opt = getopt(argc, argv, "D:o:s:m:h")) != -1) {
        switch (opt) {
        case 'D': dev = optarg; break;
        case 'm': if (sscanf(optarg, "%ux%u", &want_w, &want_h) != 2) usage(); break;
        case 'o': want_output = atoi(optarg); break;
        case 's': hold = atof(optarg); break;
        default: usage();
        }
    }
    if (optind != argc - 1) usage();
    char *end;
    unsigned long rgb = strtoul(argv[optind], &end, 16);
    if (*end || rgb > 0xffffff) usage();
    uint32_t pixel = 0xff000000u | (uint32_t)rgb; /* XRGB8888 */

    int fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0) { fprintf(stderr, "modeset: open %s: %s\n", dev, strerror(errno)); return 2; }
    drmVersionPtr ver = drmGetVersion(fd);
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) { fprintf(stderr, "modeset: drmModeGetResources: %s\n", strerror(errno)); return 2; }

    drmModeConnector *conn = NULL;
    int seen = 0;
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0 && seen++ == want_output) {
            conn = c;
            break;
        }
        drmModeFreeConnector(c);
    }
    if (!conn) { fprintf(stderr, "modeset: no connected connector #%d\n", want_output); return 2; }

    /* CRTC: the encoder's current one, else the first the encoder can drive. */
    uint32_t crtc_id = 0;
    drmModeEncoder *enc = conn->encoder_id ? drmModeGetEncoder(fd, conn->encoder_id) : NULL;
    if (enc && enc->crtc_id) crtc_id = enc->crtc_id;
    for (int e = 0; !crtc_id && e < conn->count_encoders; e++) {
        drmModeEncoder *en = drmModeGetEncoder(fd, conn->encoders[e]);
        for (int c = 0; en && c < res->count_crtcs; c++)
            if (en->possible_crtcs & (1u << c)) { crtc_id = res->crtcs[c]; break; }
        drmModeFreeEncoder(en);
    }
    if (!crtc_id) { fprintf(stderr, "modeset: no CRTC\n"); return 2; }
    drmModeCrtc *saved = drmModeGetCrtc(fd, crtc_id);

    /* Mode: -m WxH if given, else the preferred one, else the one the CRTC
     * shows now (e.g. a head forced on with video=...e has no preferred mode),
     * else the first. */
    drmModeModeInfo *mode = NULL;
    for (int i = 0; want_w && !mode && i < conn->count_modes; i++)
        if (conn->modes[i].hdisplay == want_w && conn->modes[i].vdisplay == want_h) mode = &conn->modes[i];
    if (want_w && !mode) { fprintf(stderr, "modeset: no %ux%u mode\n", want_w, want_h); return 2; }
    for (int i = 0; !mode && i < conn->count_modes; i++)
        if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) mode = &conn->modes[i];
    if (!mode && saved && saved->mode_valid) mode = &saved->mode;
    if (!mode) mode = &conn->modes[0];

    struct drm_mode_create_dumb create = { .width = mode->hdisplay, .height = mode->vdisplay, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
        fprintf(stderr, "modeset: CREATE_DUMB: %s\n", strerror(errno)); return 2;
    }
    struct drm_mode_map_dumb map = { .handle = create.handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
        fprintf(stderr, "modeset: MAP_DUMB: %s\n", strerror(errno)); return 2;
    }
    uint8_t *px = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (px == MAP_FAILED) { fprintf(stderr, "modeset: mmap: %s\n", strerror(errno)); return 2; }

    struct timespec t_fill;
    clock_gettime(CLOCK_MONOTONIC, &t_fill);
    for (uint32_t y = 0; y < create.height; y++) {
        uint32_t *row = (uint32_t *)(px + (size_t)y * create.pitch);
        for (uint32_t x = 0; x < create.width; x++) row[x] = pixel;
    }
    double fill_ms = ms_since(&t_fill, CLOCK_MONOTONIC);

    uint32_t fb_id;
    if (drmModeAddFB(fd, create.width, create.height, 24, 32, create.pitch, create.handle, &fb_id)) {
        fprintf(stderr, "modeset: AddFB: %s\n", strerror(errno)); return 2;
    }
    if (drmModeSetCrtc(fd, crtc_id, fb_id, 0, 0, &conn->connector_id, 1, mode)) {
        fprintf(stderr, "modeset: SetCrtc: %s\n", strerror(errno)); return 2;
    }
    drmModeClip clip = { 0, 0, (uint16_t)create.width, (uint16_t)create.height };
    const char *dirty = "ok";
    if (drmModeDirtyFB(fd, fb_id, &clip, 1)) dirty = (errno == ENOSYS) ? "ENOSYS" : strerror(errno);
    double main_ms = ms_since(&t_main, CLOCK_MONOTONIC);
    double exec_ms = ms_since_exec();

    printf("modeset: driver=%s connector_id=%u connector_type=%u mode=%ux%u@%u crtc=%u fb=%u pitch=%u\n",
           ver ? ver->name : "?", conn->connector_id, conn->connector_type, mode->hdisplay,
           mode->vdisplay, mode->vrefresh, crtc_id, fb_id, create.pitch);
    printf("modeset: t_main_ms=%.3f t_exec_ms=%.2f t_fill_ms=%.3f dirtyfb=%s\n", main_ms, exec_ms,
           fill_ms, dirty);
    printf("modeset: ready\n");
    fflush(stdout);

    if (hold > 0) {
        struct sigaction sa = { .sa_handler = on_signal }; /* no SA_RESTART: nanosleep returns EINTR */
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
        struct timespec left = { (time_t)hold, (long)((hold - (time_t)hold) * 1e9) };
        while (!stop_requested && nanosleep(&left, &left) == -1 && errno == EINTR) {}
    }

    if (saved && saved->mode_valid)
        drmModeSetCrtc(fd, saved->crtc_id, saved->buffer_id, saved->x, saved->y, &conn->connector_id, 1,
                       &saved->mode);
    else
        drmModeSetCrtc(fd, crtc_id, 0, 0, 0, NULL, 0, NULL);
    drmModeRmFB(fd, fb_id);
    munmap(px, create.size);
    struct drm_mode_destroy_dumb destroy = { .handle = create.handle };
    drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    printf("modeset: restored\n");
    drmModeFreeCrtc(saved);
    drmModeFreeEncoder(enc);
    drmModeFreeConnector(conn);
    drmModeFreeResources(res);
    drmFreeVersion(ver);
    close(fd);
    return 0;
}
