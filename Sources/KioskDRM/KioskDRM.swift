// KioskDRM — the real display: DRM/KMS dumb buffers (fbdev fallback), the one module that talks to
// the kernel about the screen.
//
// DESIGN
//
// * Calls. `DRMCard` wraps each KMS call libdrm's drmMode* API makes as its ioctl (the structs are
//   libdrm-dev's copy of the kernel UAPI, via CKioskSys/CKioskDRM.h), through one call site that
//   retries EINTR/EAGAIN and names the call and errno (`SysError`). Everything goes through the
//   `Kernel` protocol: `LinuxKernel` forwards to KioskSys, KioskFakeKernel's `FakeKernel`
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
//   flight does not wait: the display owes the frame and flips to it when the event comes (a
//   later present replaces an owed frame: `coalesced`). The screen takes part in the event
//   loop (`attach`): the card's descriptor for flip events, the uevent socket, SIGUSR1/SIGUSR2
//   for VT switches, timers for lost flip events and master retries; `ScreenEvent.frameDone`
//   lets the session draw the next animation frame at vblank. A lost flip event counts as done
//   after 1 s. What is on screen, in flight and owed is one pure state machine per display
//   (FlipMachine: events and times in, what to do out, tested alone); DRMDisplay carries it out
//   with the ioctls and is the one place that adds to the screen's counts of flips and frames
//   coalesced. Drivers that refuse flips get SETCRTC per frame (logged
//   once); DIRTYFB with the damage (panel coordinates) follows every SETCRTC until the driver
//   says ENOSYS. `--check-scanout` asks GETCRTC before each copy that the target is not on screen.
// * Outputs come and go: kernel uevents (netlink, the ones udev listens to; HOTPLUG=1 or a card
//   "change") re-enumerate with a probe; a connector that went away loses its CRTC (turned off)
//   and output, the others keep flipping; a new one joins a clone group (SETCRTC with the current
//   frame) or becomes a new display (`ScreenEvent.displaysChanged`: the session gives it a HUD).
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
//   the fonts: size, modification time and the ELF build ID, not the inode, so that the
//   initramfs's copies match (`FrameCache`, CKioskFrameCache.h; the 4 newest files are kept). The next `show`
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
//   A run whose card appears after exec (the initramfs's daemon, started before udev) makes the
//   same call when the card opens (`EarlyFrame.show(arguments:on:ops:)`, for that card only).
// * Waiting for the display (`ScreenWait`, `--wait-display`): at early boot the card may not
//   exist yet. The run goes on on a `PendingScreen` (KioskSeams) while the kernel's uevent
//   socket (the same `Kernel.ueventDescriptor()` hotplug uses) is watched by the loop; each batch
//   of drm uevents makes one attempt to open the display (simpledrm passed over: it is replaced
//   when the board's driver loads), and the first success is adopted. No timer polls; after the
//   deadline one log line and the usual open (any card, then fbdev). Under QEMU TCG a
//   bochs-display hot-plugged while the daemon waited was on screen 1.3–6.5 s after `device_add`
//   (the kernel's probe, one uevent, 3 attempts in all, FreeType cold), with what requests had
//   set meanwhile (VMWaitDisplayTests).
// * fbdev (`FBDevScreen`, no DRM device or --fbdev): 16/32 bpp, a double-height virtual screen
//   asked for and pan-flipped when the driver pans (FBIOPAN_DISPLAY + FBIO_WAITFORVSYNC), else one
//   buffer drawn directly (logged); the VT goes to KD_GRAPHICS so the console does not draw over it.
//
//
// MEASUREMENTS (conclusions; the log with each round's numbers and method is docs/measurements.md)
//
// * Copy of a full 800x480 frame into a scanout-like buffer (release): 0.04 ms unrotated,
//   0.2–0.3 ms rotated; 0.2–0.6 ms converting XRGB8888 to RGB565.
// * exec → first frame, host, offscreen 800x480, text from the glyph cache: 3.7–4.8 ms median
//   (goal ≤ 10 ms). The big steps were: swift-argument-parser replaced by KioskCLI (56 % of the
//   instructions before the first frame), libinput/FreeType/libpng loaded with dlopen when
//   needed, lld with packed relocations, generic metadata by accessor, the link order, the glyph
//   cache.
// * exec → first frame under QEMU TCG, against Tests/VM/ref/modeset.c in the same boot: with the
//   frame cache (every start after the first with the same options) 1.08–1.23× (goal ≤ 1.5×);
//   drawn by Swift 3.0–3.8× — a static Swift "hello" needs 45–60 ms there to reach `main`, and
//   TCG translates every first-run block again in each process, so the cost follows the amount
//   of distinct code run.
// * RSS at 800x480 with two scanout buffers, input and tilt: 8.9–9.1 MB (goal ≤ 12 MB); the code
//   that runs is linked side by side (Sources/kiosk-hud/LinkOrder.md).
