// The frame cache: the first frame `kiosk-hud show` put on screen, in scanout format, with what
// it was drawn from. The next `show` with the same arguments shows it from a C constructor,
// before the Swift runtime starts (CKioskEarlyFrame), and the Swift side continues it from its buffer.
// This header is the file format and its checks, shared by the writer (KioskDRM), that reader
// and the tests.
//
// File: struct kiosk_frame_cache_header, then the arguments (args_size bytes: argv[1...], each
// NUL-terminated), then the frame: height rows of pitch bytes (frame_size).
#ifndef CKIOSKFRAMECACHE_H
#define CKIOSKFRAMECACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <libdrm/drm_mode.h>

#define KIOSK_FRAME_CACHE_VERSION 2u
#define KIOSK_FRAME_CACHE_MAX_FILES 12
#define KIOSK_FRAME_CACHE_PATH_MAX 256
#define KIOSK_FRAME_CACHE_ARGS_MAX 16384u
/* Frames larger than this (e.g. 4K at 4 bytes a pixel is 33 MB) are not cached. */
#define KIOSK_FRAME_CACHE_FRAME_MAX (16u << 20)

/// A file the frame was drawn from (the binary, the board profile, fonts …), symbolic links
/// followed: its size and modification time, and for a program its ELF build ID. Not its device
/// and inode (version 1 had them): the initramfs's copies of the same files (the hook copies
/// with their times, `cp -p`) are other inodes on another filesystem, and must match.
/// A cpio archive keeps whole seconds, so the nanoseconds count only when both sides have them.
struct kiosk_file_identity {
    uint64_t size;
    uint64_t modified_s, modified_ns; /* st_mtim: seconds, and the nanoseconds within them */
    uint64_t build_id;                /* FNV-1a of the NT_GNU_BUILD_ID note's bytes; 0 when none (not ELF) */
    char path[KIOSK_FRAME_CACHE_PATH_MAX];
};

struct kiosk_frame_cache_header {
    char magic[8];                 /* "KHFRAME\0" */
    uint32_t version;              /* KIOSK_FRAME_CACHE_VERSION */
    uint32_t header_size;          /* sizeof(struct kiosk_frame_cache_header) */
    uint64_t key;                  /* kiosk_frame_cache_key of the arguments */
    uint32_t args_size;
    uint32_t file_count;
    struct kiosk_file_identity files[KIOSK_FRAME_CACHE_MAX_FILES];
    char card[64];                 /* e.g. /dev/dri/card0 */
    uint32_t connector_id, crtc_id;
    struct drm_mode_modeinfo mode;
    uint32_t fourcc, bpp;          /* DRM_FORMAT_XRGB8888 / RGB565; 32 / 16 */
    uint32_t width, height, pitch; /* the mode's size; the dumb buffer's pitch */
    uint32_t rotation;             /* the display's rotation, degrees clockwise (0, 90, 180, 270) */
    uint64_t frame_size;           /* pitch * height */
    uint64_t frame_hash;           /* kiosk_frame_hash of the frame */
    double scale;                  /* the HUD's scale on the display */
    /* The rotation and the scale, with the mode and format, are what a new program needs to draw
       the same picture again (`kiosk-hud frame-cache renew`, after a package upgrade). */
};

/// FNV-1a (64 bit) of argv[1 ..< argc], each with its NUL, then of each of LC_ALL, LC_MESSAGES
/// and LANG that is set (name and value: the language of the HUD's own words): the cache file's
/// name and key.
uint64_t kiosk_frame_cache_key(int argc, char *const *argv);

/// A fast 64-bit hash of `size` bytes (8 at a time): tells whether a drawn frame equals the cached one.
uint64_t kiosk_frame_hash(const void *bytes, size_t size);

/// pread(2) of exactly `size` bytes at `offset` (EINTR retried, short reads continued): 0, or -1
/// with errno set (0 when the file ended first).
int kiosk_read_full(int fd, void *buffer, size_t size, off_t offset);

/// Fills `out` with the identity of `path` (`out->path` too); -1 when it cannot be stat'ed.
int kiosk_file_identity_of(const char *path, struct kiosk_file_identity *out);

/// Whether a file's identity now (`now`) is the one recorded (`then`): the same size, build ID
/// and modification second, and the same nanoseconds unless either side has none (a file
/// unpacked from a cpio archive). 1 or 0.
int kiosk_file_identity_same(const struct kiosk_file_identity *then, const struct kiosk_file_identity *now);

/// FNV-1a (64 bit, never 0) of the GNU build ID note of the ELF file open at `fd` (64- or 32-bit,
/// either byte order as the file says); 0 when it is not ELF or has no such note. Reads the
/// header, the program headers and the notes (a few hundred bytes).
uint64_t kiosk_elf_build_id(int fd);

/// The directory for the glyph and frame caches when no --glyph-cache is given: /var/cache/kiosk-hud
/// when it (or /var/cache) can be written, else $XDG_CACHE_HOME/kiosk-hud, else
/// $HOME/.cache/kiosk-hud. 0, or -1 (no place, or `size` too small).
int kiosk_default_cache_directory(char *out, size_t size);

/// The cache directory for this command line — glyphs and frames alike: --glyph-cache DIR (or
/// =DIR, before any "--"), else the default. -1 for 'none' or an empty DIR, or when there is no
/// place. The one rule, for the C constructor and for Swift (which calls this).
int kiosk_cache_directory(int argc, char *const *argv, char *out, size_t size);

/// Where a command line's first frame is kept.
struct kiosk_frame_cache_location {
    /// The arguments that decide the picture: argv[1] (the command) up to "--" or the end; the
    /// key and the file's stored arguments cover exactly these. `run -- CMD` keeps one frame
    /// whatever CMD is.
    int argc;
    uint64_t key;
    char path[KIOSK_FRAME_CACHE_PATH_MAX + 32];   /* DIR/frame-<key>.bin */
};

/// The boot's handover mark for this command line's control socket: --socket PATH (or =PATH,
/// before any "--"), else /run/kiosk-hud/control.sock, with ".handed-over" after it. A daemon's
/// `quit` (the boot's handover to the app; psplash's and Plymouth's quit too) leaves it; /run
/// forgets it at the next boot. 0 and `out` filled, or -1 (too long).
int kiosk_handover_mark_path(int argc, char *const *argv, char *out, size_t size);

/// Whether this is `kiosk-hud daemon` started on systemd's socket (LISTEN_PID is this process,
/// LISTEN_FDS set) once the boot has handed over (the mark exists): socket activation by a
/// later client (`ctl status`, a monitoring script). Such a daemon starts hidden, and the
/// early frame stays off the screen. 1 or 0; the one rule, for the C constructor and for Swift.
int kiosk_daemon_after_handover(int argc, char *const *argv);

/// Whether this command line has a cached first frame, and where: the commands that own a
/// display (show, daemon, run) on DRM (not --offscreen or --fbdev), not asking for help, the
/// frame cache on (no --no-frame-cache, a cache directory). 0 and `out` filled, or -1. The one
/// place that decides, for the C constructor (CKioskEarlyFrame) and the Swift writer.
int kiosk_frame_cache_locate(int argc, char *const *argv, struct kiosk_frame_cache_location *out);

/// Reads and checks the header and arguments of an open cache file: format, key, arguments
/// byte for byte, every file identity, the frame's size against the file's. 0 when usable (the
/// frame is at offset header_size + args_size); else -1 with the reason in `why`.
int kiosk_frame_cache_check(int fd, int argc, char *const *argv, struct kiosk_frame_cache_header *out,
                            char *why, size_t why_size);

/// What the early frame's reader did (`kiosk_early_frame_show`).
enum kiosk_early_frame_state {
    KIOSK_EARLY_NONE = 0,     /* no display of ours, turned off, or no cache file for these arguments */
    KIOSK_EARLY_SHOWN = 1,    /* on screen: fd, buffer and saved CRTC below belong to the taker */
    KIOSK_EARLY_FAILED = 2,   /* a cache file was there but could not be shown: `why` */
};

/// The early frame on screen, for the Swift side to continue (KioskDRM's `EarlyFrame`).
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
    uint64_t size;              /* of the dumb buffer (its mapping's length) */
    void *map;
    struct drm_mode_crtc saved; /* what the CRTC showed before (GETCRTC) */
    uint64_t frame_hash;
    uint64_t shown_ns;          /* CLOCK_MONOTONIC after SETCRTC */
};

/// The calls the early frame makes on the card, so that tests can play the kernel. Each returns
/// what the libc call returns and sets errno on failure; `kiosk_linux_card_ops` calls libc.
struct kiosk_card_ops {
    void *context;
    int (*open)(void *context, const char *path, int flags);
    void (*close)(void *context, int fd);
    int (*ioctl)(void *context, int fd, unsigned long request, void *arg);
    void *(*mmap)(void *context, int fd, size_t length, uint64_t offset);   /* MAP_FAILED on failure */
    void (*munmap)(void *context, void *address, size_t length);
    /// pread(2) of the cache file, here because the frame is read straight into the card's
    /// mapping, which some filesystems refuse (EFAULT: 9p, NFS, FUSE).
    ssize_t (*pread)(void *context, int fd, void *buffer, size_t size, off_t offset);
};
extern const struct kiosk_card_ops kiosk_linux_card_ops;

/// For a command that owns a display (`kiosk_frame_cache_locate`): finds the frame cache file
/// for these arguments and, when it checks out and
/// every call succeeds, puts its frame on screen (SET_MASTER, GETCONNECTOR, GETCRTC, CREATE_DUMB,
/// MAP_DUMB, mmap, the frame read into the mapping, ADDFB2, SETCRTC, DIRTYFB), leaving the
/// result in `out` (KIOSK_EARLY_SHOWN). Otherwise every step that succeeded is undone and
/// `out->state` says NONE or FAILED (with `why`, naming the call). Returns `out->state`.
int kiosk_early_frame_show(int argc, char *const *argv, const struct kiosk_card_ops *ops, struct kiosk_early_frame *out);

/// `kiosk_early_frame_show` when the file's frame is for `card` (a path, e.g. /dev/dri/card0)
/// only: a frame for another card is FAILED before that card is opened. NULL: any card. The
/// Swift side calls it when a card a display waited for has appeared (the initramfs, where the
/// constructor ran before any card was there).
int kiosk_early_frame_show_on(int argc, char *const *argv, const char *card, const struct kiosk_card_ops *ops,
                              struct kiosk_early_frame *out);

#endif
