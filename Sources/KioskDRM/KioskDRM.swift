// KioskDRM — the real display: DRM/KMS dumb buffers (fbdev fallback), the one module that talks to
// the kernel about the screen.
//
// DESIGN
//
// * Calls. `DRMCard` wraps each KMS call libdrm's drmMode* API makes as its ioctl (the structs are
//   libdrm-dev's copy of the kernel UAPI, via CKioskSys/CKioskDRM.h), through one call site that
//   retries EINTR/EAGAIN and names the call and errno (`SysError`). Everything goes through the
//   `DisplayKernel` protocol: `LinuxDisplayKernel` forwards to KioskSys, the tests' `FakeKernel`
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
//   rotation form one `DRMOutput` (clones share buffers, flip on every CRTC). Nothing is lit
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
//     release 10.6 ms median, 10.2 ms min (goal ≤ 10 ms; a static Swift hello costs ~2 ms of it),
//     main → frame 4.3 ms; the same objects linked dynamically: 21.7 ms. Debug build: ~50 ms.
//     After board profiles stopped linking Foundation (TOMLKit) and the renderer stopped keeping
//     plain-colour underlay/backdrop bitmaps: 8.6 ms median, 8.3 ms min on a quiet machine
//     (10–12 ms while other builds run); main → frame 2.3–2.9 ms.
//     perf: ArgumentParser's parse (before `run`) ≈ 1/3 of the time after exec, the renderer's
//     three zero-filled full-frame bitmaps ≈ 1/4.
//   exec → first frame on screen in the VM, ratio to Tests/VM/ref/modeset.c in the same boot
//     (goal ≤ 1.5×; release): bochs-drm ≈ 3.7× (600–730 ms vs 167–169 ms), virtio-gpu ≈ 4.4×
//     (770–860 ms vs 162–183 ms). main → frame is ~200 ms of it; the rest is exec → `run`: under
//     TCG every first-executed code path is translated, and `kiosk-hud render --help` (Swift
//     runtime + ArgumentParser, nothing drawn) alone takes ~0.5 s. Static linking saved ~200 ms.
//     Debug build (what `swift test` runs): ≈ 13–15×.
//   RSS at 800x480, two scanout buffers, in the VM (release): 19.7 MB = 5.9 MB anonymous (the
//     renderer's shadow, underlay and backdrop: 4.6 MB) + 13.9 MB file-backed code (the static
//     Swift runtime, libinput/glib; Foundation via TOMLKit then, since replaced by our own TOML reader); the dumb-buffer mappings are not in
//     RSS (PFN maps). Goal ≤ 12 MB: missed by the binary's code, not by the display. After the
//     changes above: 18.9 MB in the VM with the debug build (anonymous 3.2 MB, file-backed
//     15.7 MB); on the host, release, offscreen: 17.8 MB, of which 8.0 MB the binary's own
//     pages, 3.3 MB anonymous, and libc, libstdc++, freetype, glib/gobject (libwacom) the rest.
