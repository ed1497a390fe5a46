/* The frame cache file's checks (CKioskFrameCache.h). Plain libc: it runs in a constructor,
   before the Swift runtime, in CKioskEarlyFrame. */
#include "CKioskFrameCache.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char kiosk_frame_magic[8] = "KHFRAME";

static uint64_t kiosk_fnv(uint64_t h, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    do { h = (h ^ *p) * 0x100000001b3ull; } while (*p++);
    return h;
}

uint64_t kiosk_frame_cache_key(int argc, char *const *argv) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 1; i < argc; i++) h = kiosk_fnv(h, argv[i]);
    /* The locale the HUD's own words follow (run's Cancel is in the first frame): another
       language, another file. Set ones only, so that the key without them is the arguments'. */
    static const char *const names[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) { h = kiosk_fnv(h, names[i]); h = kiosk_fnv(h, v); }
    }
    return h;
}

uint64_t kiosk_frame_hash(const void *bytes, size_t size) {
    const unsigned char *p = bytes;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ size;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    for (; i < size; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h ^ (h >> 32);
}

/* The ELF build ID, by hand: a page of code over pread, where libelf would be one more library
   loaded before the first frame (this runs in the constructor). Only the program headers' notes
   are read: the linker puts .note.gnu.build-id in a PT_NOTE segment, which strip keeps. */
static uint64_t elf_word(const unsigned char *p, int size, int big) {
    uint64_t v = 0;
    for (int i = 0; i < size; i++) v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
    return v;
}

uint64_t kiosk_elf_build_id(int fd) {
    unsigned char e[64];
    if (kiosk_read_full(fd, e, 52, 0) != 0 || memcmp(e, "\177ELF", 4) != 0) return 0;
    int wide = e[4] == 2, big = e[5] == 2;
    if ((e[4] != 1 && e[4] != 2) || (e[5] != 1 && e[5] != 2)) return 0;
    if (wide && kiosk_read_full(fd, e, 64, 0) != 0) return 0;
    uint64_t phoff = wide ? elf_word(e + 32, 8, big) : elf_word(e + 28, 4, big);
    uint64_t phentsize = elf_word(e + (wide ? 54 : 42), 2, big), phnum = elf_word(e + (wide ? 56 : 44), 2, big);
    if (phentsize < (wide ? 56u : 32u) || phnum > 64) return 0;
    for (uint64_t i = 0; i < phnum; i++) {
        unsigned char ph[56];
        if (kiosk_read_full(fd, ph, wide ? 56 : 32, (off_t)(phoff + i * phentsize)) != 0) return 0;
        if (elf_word(ph, 4, big) != 4) continue;   /* PT_NOTE */
        uint64_t off = wide ? elf_word(ph + 8, 8, big) : elf_word(ph + 4, 4, big);
        uint64_t size = wide ? elf_word(ph + 32, 8, big) : elf_word(ph + 16, 4, big);
        unsigned char notes[1024];
        if (size > sizeof notes) size = sizeof notes;
        if (kiosk_read_full(fd, notes, (size_t)size, (off_t)off) != 0) continue;
        for (uint64_t at = 0; at + 12 <= size;) {
            uint64_t namesz = elf_word(notes + at, 4, big), descsz = elf_word(notes + at + 4, 4, big);
            uint64_t type = elf_word(notes + at + 8, 4, big);
            uint64_t name = at + 12, desc = name + ((namesz + 3) & ~3ull), end = desc + ((descsz + 3) & ~3ull);
            if (end > size || desc + descsz > size) break;
            if (type == 3 && namesz == 4 && memcmp(notes + name, "GNU", 4) == 0 && descsz > 0) {   /* NT_GNU_BUILD_ID */
                uint64_t h = 0xcbf29ce484222325ull;
                for (uint64_t k = 0; k < descsz; k++) h = (h ^ notes[desc + k]) * 0x100000001b3ull;
                return h ? h : 1;
            }
            at = end;
        }
    }
    return 0;
}

int kiosk_file_identity_of(const char *path, struct kiosk_file_identity *out) {
    struct stat st;
    size_t n = strlen(path);
    if (n >= sizeof out->path || stat(path, &st) != 0) return -1;
    memset(out, 0, sizeof *out);
    out->size = (uint64_t)st.st_size;
    out->modified_s = (uint64_t)st.st_mtim.tv_sec;
    out->modified_ns = (uint64_t)st.st_mtim.tv_nsec;
    if (S_ISREG(st.st_mode)) {
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) { out->build_id = kiosk_elf_build_id(fd); close(fd); }
    }
    memcpy(out->path, path, n + 1);
    return 0;
}

int kiosk_file_identity_same(const struct kiosk_file_identity *then, const struct kiosk_file_identity *now) {
    return then->size == now->size && then->build_id == now->build_id && then->modified_s == now->modified_s &&
           (then->modified_ns == now->modified_ns || then->modified_ns == 0 || now->modified_ns == 0);
}

static int kiosk_writable_directory(const char *path) { return access(path, W_OK | X_OK) == 0; }

int kiosk_default_cache_directory(char *out, size_t size) {
    const char *x, *h;
    int n;
    if (kiosk_writable_directory("/var/cache/kiosk-hud") || kiosk_writable_directory("/var/cache"))
        n = snprintf(out, size, "/var/cache/kiosk-hud");
    else if ((x = getenv("XDG_CACHE_HOME")) && *x)
        n = snprintf(out, size, "%s/kiosk-hud", x);
    else if ((h = getenv("HOME")) && *h)
        n = snprintf(out, size, "%s/.cache/kiosk-hud", h);
    else
        return -1;
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int kiosk_cache_directory(int argc, char *const *argv, char *out, size_t size) {
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) break;
        if (strcmp(a, "--glyph-cache") == 0 && i + 1 < argc) dir = argv[++i];
        else if (strncmp(a, "--glyph-cache=", 14) == 0) dir = a + 14;
    }
    if (!dir) return kiosk_default_cache_directory(out, size);
    if (*dir == 0 || strcmp(dir, "none") == 0) return -1;
    int n = snprintf(out, size, "%s", dir);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int kiosk_handover_mark_path(int argc, char *const *argv, char *out, size_t size) {
    const char *socket = "/run/kiosk-hud/control.sock";
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) break;
        if (strcmp(a, "--socket") == 0 && i + 1 < argc) socket = argv[++i];
        else if (strncmp(a, "--socket=", 9) == 0) socket = a + 9;
    }
    int n = snprintf(out, size, "%s.handed-over", socket);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int kiosk_daemon_after_handover(int argc, char *const *argv) {
    if (argc < 2 || strcmp(argv[1], "daemon") != 0) return 0;
    const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
    if (!pid || !fds || atoi(fds) <= 0 || strtol(pid, NULL, 10) != (long)getpid()) return 0;
    char mark[KIOSK_FRAME_CACHE_PATH_MAX];
    if (kiosk_handover_mark_path(argc, argv, mark, sizeof mark) != 0) return 0;
    return access(mark, F_OK) == 0;
}

int kiosk_frame_cache_locate(int argc, char *const *argv, struct kiosk_frame_cache_location *out) {
    if (argc < 2) return -1;
    /* Run through a link named plymouth, kiosk-hud is `kiosk-hud plymouth`: a client, never a display. */
    const char *slash = strrchr(argv[0], '/');
    if (strcmp(slash ? slash + 1 : argv[0], "plymouth") == 0) return -1;
    /* A daemon carried over from a previous image of this process (the initramfs's): the screen
       is already its own, carried over in $KIOSK_HUD_RESUME (KioskCommands' InitramfsDaemon.swift). */
    if (getenv("KIOSK_HUD_RESUME")) return -1;
    const char *command = argv[1];
    if (strcmp(command, "show") != 0 && strcmp(command, "daemon") != 0 && strcmp(command, "run") != 0) return -1;
    /* Socket-activated after the boot's handover: the daemon starts hidden, nothing goes on screen. */
    if (kiosk_daemon_after_handover(argc, argv)) return -1;
    int n = argc;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) { n = i; break; }
        /* The displays the cache never holds, help, and the cache turned off. */
        if (strncmp(a, "--offscreen", 11) == 0 || strncmp(a, "--fbdev", 7) == 0 || strcmp(a, "--help") == 0 ||
            strcmp(a, "-h") == 0 || strcmp(a, "--no-frame-cache") == 0) return -1;
    }
    char dir[KIOSK_FRAME_CACHE_PATH_MAX];
    if (kiosk_cache_directory(n, argv, dir, sizeof dir) != 0) return -1;
    out->argc = n;
    out->key = kiosk_frame_cache_key(n, argv);
    int w = snprintf(out->path, sizeof out->path, "%s/frame-%016llx.bin", dir, (unsigned long long)out->key);
    return w > 0 && (size_t)w < sizeof out->path ? 0 : -1;
}

int kiosk_read_full(int fd, void *buffer, size_t size, off_t offset) {
    size_t done = 0;
    while (done < size) {
        ssize_t r = pread(fd, (char *)buffer + done, size - done, offset + (off_t)done);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) { errno = 0; return -1; }
        done += (size_t)r;
    }
    return 0;
}

#define WHY(...) do { snprintf(why, why_size, __VA_ARGS__); return -1; } while (0)

int kiosk_frame_cache_check(int fd, int argc, char *const *argv, struct kiosk_frame_cache_header *h,
                            char *why, size_t why_size) {
    struct stat st;
    if (fstat(fd, &st) != 0) WHY("fstat: %s", strerror(errno));
    if (!S_ISREG(st.st_mode)) WHY("not a regular file");
    if ((uint64_t)st.st_size < sizeof *h || kiosk_read_full(fd, h, sizeof *h, 0) != 0) WHY("short file");
    if (memcmp(h->magic, kiosk_frame_magic, 8) != 0 || h->version != KIOSK_FRAME_CACHE_VERSION ||
        h->header_size != sizeof *h)
        WHY("not a frame cache file of this version");
    if (h->key != kiosk_frame_cache_key(argc, argv)) WHY("other arguments");
    /* The arguments, byte for byte (the key is only a hash). */
    size_t args = 0;
    for (int i = 1; i < argc; i++) args += strlen(argv[i]) + 1;
    if (h->args_size != args || args > KIOSK_FRAME_CACHE_ARGS_MAX) WHY("other arguments");
    char stored[KIOSK_FRAME_CACHE_ARGS_MAX];
    if (kiosk_read_full(fd, stored, args, sizeof *h) != 0) WHY("short file");
    size_t at = 0;
    for (int i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]) + 1;
        if (memcmp(stored + at, argv[i], n) != 0) WHY("other arguments");
        at += n;
    }
    if (h->file_count > KIOSK_FRAME_CACHE_MAX_FILES) WHY("bad file count");
    for (uint32_t i = 0; i < h->file_count; i++) {
        struct kiosk_file_identity now;
        h->files[i].path[KIOSK_FRAME_CACHE_PATH_MAX - 1] = 0;
        if (kiosk_file_identity_of(h->files[i].path, &now) != 0) WHY("%s: gone", h->files[i].path);
        if (!kiosk_file_identity_same(&h->files[i], &now)) WHY("%s: changed", h->files[i].path);
    }
    h->card[sizeof h->card - 1] = 0;
    /* The only path the reader opens (read/write, as root at boot): a DRM card, nothing else. */
    if (strncmp(h->card, "/dev/dri/card", 13) != 0 || strstr(h->card, "..") != NULL) WHY("bad card path");
    uint32_t row = h->width * (h->bpp / 8);
    if ((h->bpp != 32 && h->bpp != 16) || h->width == 0 || h->height == 0 || h->pitch < row ||
        h->frame_size != (uint64_t)h->pitch * h->height || h->frame_size > KIOSK_FRAME_CACHE_FRAME_MAX ||
        h->mode.hdisplay != h->width || h->mode.vdisplay != h->height)
        WHY("bad frame geometry");
    if ((uint64_t)st.st_size != sizeof *h + args + h->frame_size) WHY("truncated");
    return 0;
}
