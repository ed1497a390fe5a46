// KioskDRM — the real display: DRM/KMS dumb buffers (fbdev fallback), the one module that talks to
// the kernel about the screen.
//
// DESIGN
//
// * Calls. `DRMCard` wraps each KMS call libdrm's drmMode* API makes as its ioctl (the structs are
//   libdrm-dev's copy of the kernel UAPI, via CKioskSys/CKioskDRM.h), through one call site that
//   retries EINTR/EAGAIN and names the call and errno (`SysError`). Everything goes through the
//   `Kernel` protocol: `LinuxKernel` forwards to KioskSys, the tests' `FakeKernel`
//   plays a card (objects, dumb buffers, flips and their events, master) and injects failures
//   and EINTR at any call. No libdrm function is called, so libdrm's event dispatch (and its
//   @convention(c) handlers) is replaced by parsing `drm_event_vblank` records ourselves.
// * Opening (`DRMScreen.init`): the first /dev/dri/card* with DRM_CAP_DUMB_BUFFER and connectors
//   (or --card); SET_MASTER; GETRESOURCES; GETCONNECTOR without a probe (drmModeGetConnectorCurrent:
//   no EDID re-read at start; a probe only when the state is unknown, and on hotplug); connected,
//   non-"non-desktop" connectors; CRTCs by a small backtracking search (the one the encoder drives
//   now first); mode = --video-mode WxH[@Hz], else preferred, else the CRTC's current, else the
//   first; rotation = --rotate, else "panel orientation" (Left Side Up → 270, Right Side Up → 90,
//   Upside Down → 180); scale = --scale, else from the physical size (Plymouth's rule, ~135 DPI
//   target, 2× from 1.75× the target, never above 2× automatically). Heads with the same mode and
//   rotation form one `DRMDisplay` (clones share buffers, flip on every CRTC). Nothing is lit
//   until the first frame exists, so there is never a black buffer on screen first.
// * Buffers: two XRGB8888 (RGB565 when the board asks) dumb buffers per output: CREATE_DUMB →
//   MAP_DUMB → mmap → ADDFB2, each step undone if a later one fails. The second one is created
//   after the first frame is on screen (it does not delay it).
// * Presenting: the HUD draws into its shadow buffer (ordinary memory) and presents the damage.
//   Each scanout buffer keeps the picture rectangles it has not received yet (a buffer is written
//   every other frame, so that is the union of the last two frames' damage, or more after skipped
//   frames); only those are copied — rotated, into the buffer not on screen, honouring its pitch,
//   never reading scanout memory — then PAGE_FLIP with an event. A present while a flip is in
//   flight waits for its event: frames are paced by flip completions (vblank), `wait` returns
//   early once flips are done and the next frame is due within a frame interval. A lost flip
//   event counts as done after 1 s. Drivers that refuse flips get SETCRTC per frame (logged
//   once); DIRTYFB with the damage (panel coordinates) follows every SETCRTC until the driver
//   says ENOSYS. `--check-scanout` asks GETCRTC before each copy that the target is not on screen.
// * Outputs come and go: kernel uevents (netlink, the ones udev listens to; HOTPLUG=1 or a card
//   "change") re-enumerate with a probe; a connector that went away loses its CRTC (turned off)
//   and output, the others keep flipping; a new one joins a clone group (SETCRTC with the current
//   frame) or becomes a new output (`ScreenEvents.outputsChanged`: the show loop gives it a HUD).
// * Master: held only while showing. VT_PROCESS on the active VT: on SIGUSR1 (switch away) stop
//   drawing, DROP_MASTER, VT_RELDISP; on SIGUSR2 SET_MASTER and put the last frame back. Without a
//   VT, EACCES from a KMS call means master was taken: stop drawing, try SET_MASTER every 0.5 s.
// * Quitting: default — every CRTC gets back what it showed before (the console), buffers are
//   released, master dropped. --retain — the kernel removes a closed file's framebuffers and turns
//   off CRTCs showing them, so the file must stay open: the back buffers are released, master is
//   dropped (the next program can take it), and a forked keeper holds the descriptor until
//   another program has put its own framebuffer on every CRTC (checked every 100 ms).
// * The frame cache and the early frame: after its first frame, `show` writes that frame as the
//   scanout buffer holds it (rotated, in the buffer's format and pitch) to the cache directory,
//   one file per argument list, with the card, connector, CRTC and mode it used and the
//   identities of the files it was drawn from — the binary, the board profile, the underlay,
//   the fonts (`FrameCache`, CKioskFrameCache.h; the 4 newest files are kept). The next `show`
//   with the same arguments finds it from a C constructor that runs before the Swift runtime's
//   (CKioskEarlyFrame, in kiosk-hud only). If the arguments match byte for byte, each file is
//   unchanged, the connector is connected with that mode and the calls succeed, that constructor
//   puts the frame on screen the way modeset.c does: GETCRTC (saved for the restore),
//   CREATE_DUMB, MAP_DUMB, pread straight into the mapping, ADDFB2, SETCRTC, DIRTYFB. Anything
//   else undoes what it did and the start is the usual one. `DRMScreen` takes the descriptor,
//   the buffer (as buffer 0, on screen, owing the whole picture) and the saved CRTC state over
//   (`EarlyFrame`), so its own first frame goes to buffer 1 by a page flip, with no gap; when its
//   plan has no such head (another connector, another mode), it puts the saved state back and
//   releases everything. `show` then hashes its own first frame the same way: a picture that
//   differs from the cached one (an input the checks do not see) is logged and rewritten, so it
//   is on screen for one frame at most. Only decisions the Swift side made are replayed: the C
//   side chooses nothing. Its card calls go through `kiosk_card_ops`, so FrameCacheTests plays
//   the kernel for it too (each call failing in turn, EINTR), and Tests/VM runs it on real KMS.
// * fbdev (`FBDevScreen`, no DRM device or --fbdev): 16/32 bpp, a double-height virtual screen
//   asked for and pan-flipped when the driver pans (FBIOPAN_DISPLAY + FBIO_WAITFORVSYNC), else one
//   buffer drawn directly (logged); the VT goes to KD_GRAPHICS so the console does not draw over it.
//
// MEASUREMENTS (Debian 12, 2 shared cores; VM = Tests/VM under TCG, 800x480; release = swift
// build -c release, kiosk-hud linked with -static-stdlib)
//
//   Copy of a full 800x480 frame into a padded scanout-like buffer (`kiosk-hud show --bench-copy`,
//   release, hot caches; median of 60):
//     XRGB8888:  0° 0.04 ms   90° 0.21 ms   180° 0.28 ms   270° 0.22 ms
//     RGB565:    0° 0.02 ms   90° 0.21 ms   180° 0.26 ms   270° 0.20 ms
//     8888→565:  0° 0.20 ms   90° 0.58 ms   180° 0.55 ms   270° 0.52 ms
//   (the debug build prints its own numbers in ScanoutCopyTests: 0.07 / 11 / 5 / 7 ms).
//   exec → first frame presented, host, offscreen display 800x480 (HostStartupTests with
//     KIOSK_HUD_BINARY=<release build>; the test takes CLOCK_MONOTONIC before posix_spawn):
//     goal ≤ 10 ms. History: 10.6 ms median at first (Swift runtime linked statically; 21.7 ms
//     linked dynamically); 8.6 ms without TOMLKit's Foundation; 6.2–6.4 ms without
//     swift-argument-parser; 5.0–5.7 ms with link order and no concurrency runtime
//     (Sources/kiosk-hud/LinkOrder.md); 4.0–4.6 ms median, 3.6–3.9 ms min, main → frame
//     2.3–2.4 ms with the text from the glyph cache (KioskText); this round 3.7–4.8 ms median
//     (3.4 min, main → frame 2.1–2.9 ms), with the old and the new link order alike (noise). `show` logs the split when
//     KIOSK_EXEC_T0_NS is given: start_ms (exec → our C constructor: kernel exec, loader,
//     libraries), parse_ms (Swift runtime + options), main_ms, the page faults, where the text
//     came from (text=glyph-cache|freetype), and a `first-frame phases` line (StartMarks).
//     What moved it: swift-argument-parser spent 21.1 M of the 37.5 M instructions before the
//     first frame (callgrind) and linked FoundationEssentials — replaced by KioskCLI (parse
//     ≈ 0.5 ms, total 15.9 M instructions); libinput/libudev (and glib, gobject, libwacom …)
//     loaded with dlopen after the first frame (KioskInput); lld with packed relative
//     relocations (DT_RELR: the 640 kB relocation table became 5 kB); then 8.9 M → 5.5 M
//     instructions: generic metadata by accessor instead of by mangled name (Package.swift),
//     the glyph cache, the built-in profile as a value.
//   exec → first frame on screen in the VM, ratio to Tests/VM/ref/modeset.c in the same boot
//     (goal ≤ 1.5×; release; both started through Tests/VM/ref/stamp-exec.c, so the times are
//     exact and leave out the shell's fork; medians of 12 alternated runs per boot, both GPUs'
//     VMs running at once on 2 cores). Met with the frame cache (every start after the first with
//     the same options, the boot splash case): 1.08–1.12× on bochs-drm (e.g. 72 ms vs 66 ms),
//     1.10–1.23× on virtio-gpu (84 vs 68–76 ms), over four boots. The constructor starts ~45–60 ms after exec
//     (the kernel's exec and the loader: a C "hello" needs 35–55 ms to reach `main` there) and
//     then takes about what modeset.c takes for its own calls.
//     Without it (--no-frame-cache, or the first start with new options) the Swift side draws the
//     first frame: 3.0–3.8× (e.g. 218 vs 66 ms, 280 vs 76 ms), as before the cache: 3.2–3.5× on
//     bochs-drm and 3.7–3.9× on virtio-gpu over two boots, 4.2× and 4.4–4.8× before the glyph
//     cache round. The host says the same without emulation: a C "hello" reaches `main` in
//     0.7–0.8 ms, a static Swift one in 1.1–1.5 ms, and `show` draws its first frame at 3.6–4.6 ms.
//     Why the drawn start cannot get near 1.5× under TCG is below; one experiment shows how much
//     of it is translation: linked without PIE (fixed addresses, so QEMU reuses the previous
//     run's translations) the drawn start took 88–134 ms against modeset.c's 67–90 ms — not done,
//     because it only helps the emulator and gives up ASLR for a program that runs as root.
//     Until this round each program's output went through a pipe to sed or grep, which started
//     at the same moment and shared the one vCPU with the program being timed: it added about
//     80 ms to modeset.c's ~60 ms and 100–180 ms to kiosk-hud's, so the ratios read then
//     (2.4–3.1×; 3.7× and 4.4× with /proc/self/stat's 10 ms starttime) were too low. Now each
//     writes to a file that is read after it exits (Tests/VM/drm/guest.sh).
//     What this means: modeset.c does everything in ~55–85 ms under TCG; a static Swift "hello"
//     takes 45–60 ms just to reach `main` (the runtime's constructors: image registration,
//     backtracer set-up, /proc/self/maps read by its CommandLine.cpp). 1.5× is 80–130 ms, so
//     it leaves 20–70 ms after `main` for everything a HUD does — under TCG, where every
//     first-run block of code is translated again in each process (the code sits at a new
//     address each time), so the cost follows the amount of distinct code run rather than the
//     instructions.
//     Counted with callgrind on the host (distinct instructions executed to the first frame):
//     90 k before this round, 70 k now — the binary 51 k (the Swift runtime's metadata
//     machinery 15 k of it, paid by whichever phase first instantiates a generic type), the
//     loader 10 k, libc 7 k; FreeType's 13 k are gone when the glyph cache has the text. What
//     went: loading FreeType, libpng, zlib and brotli before `main` (now dlopen, only on a
//     glyph cache miss) and libgcc_s (linked statically), FreeType's hinting and rasterizing
//     for known text, the board profile's TOML (20–28 → 3–5 ms: `BoardProfile.generic` is a
//     value), building every command's options (only the invoked command's now).
//     Where it goes now (`first-frame phases`, medians, virtio-gpu): exec → our constructor
//     ~60 ms, the runtime's constructors and the first generic metadata 40–50 ms (runtime +
//     cli), the display 30–45 ms, the HUD's layout 50–57 ms, drawing and the first SETCRTC
//     30–40 ms. The machine is shared and noisy: the same binary moves ±20 % between boots.
//     Debug build (what `swift test` runs): 7.5–8.1× (4.4–5.1× read through the pipes).
//   RSS at 800x480, two scanout buffers, in the VM (release, input and tilt running): goal
//     ≤ 12 MB, met: 8.7–8.9 MB on virtio-gpu, 8.9–9.1 MB on bochs-drm (2.3 MB anonymous: the
//     shadow buffer is 1.5 MB; the dumb-buffer mappings are PFN maps, not in RSS); with the
//     frame cache code 9.4–9.8 MB until the link order was re-made, 8.9–9.0 MB since; 10.1 and
//     10.8 MB before FreeType and libpng were loaded only when needed. It was
//     13.7–14.0 MB: 5.5 MB of it the binary's own pages, because the kernel maps code 64 kB
//     around each first touch and the code that runs was spread over 6 MB (MADV_RANDOM does not
//     stop fault-around on Debian's 6.1 kernel — it was tried). Now the functions that run are
//     linked side by side, the concurrency runtime, libdispatch and the regex engine are gone,
//     libstdc++ is linked statically and no dynamic symbol table is exported: the binary holds
//     2.5–3 MB; libc 1.4, glib + gobject 0.9 (libinput's, loaded after the first frame), libm
//     0.4 (freetype's 0.7 only when a glyph is not in the glyph cache). Sources/kiosk-hud/
//     LinkOrder.md has each step's numbers.
