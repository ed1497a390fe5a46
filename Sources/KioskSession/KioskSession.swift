// KioskSession — a HUD on a screen, run by an event loop: what `kiosk-hud show` does, as a
// library type that the daemon and `run` use too.
//
// DESIGN
//
// * One `HUD` per display of the screen (clones share one), made and dropped as displays come
//   and go (hotplug). Touch, pointer and keys go to the first display's HUD (its picture is what
//   libinput maps onto); the tilt moves every HUD's bezel.
// * Frames are paced by the loop, never by a loop of our own: a timer at the time the HUDs say
//   the next frame is due (an animation: 1/60 s; a spinner: its next phase; a static HUD: none
//   at all), a frame at once when something changes (an update, input, a tilt sample), and —
//   on a screen with page flips — the next animation frame right after the last flip landed
//   when it is due within a frame interval (vblank pacing, `ScreenEvent.frameDone`). A present
//   never waits for a flip: the screen owes the frame and shows it when the flip lands.
// * The button and a tap outside do what the session was told (`SessionAction`): end with an
//   exit code, hide (and end once hidden), or call the owner (a daemon tells its subscribers,
//   `run` signals its child). Observers hear every HUD and screen event.
// * The tilt: a `MotionSource` wakes the loop when it has samples; a `TiltTracker` filters them;
//   frames are drawn while the bezel moves, and a sensor that goes quiet is noticed by a timer
//   that each sample pushes back (so a steady sensor costs no extra wake-ups).
// * Ending: the quit signals (SIGINT, SIGTERM, SIGHUP for `show`) through the loop's signalfd,
//   an action, or a failure; `onEnd` hears why once, and the owner closes the screen (restore or
//   retain) and stops the loop.
// * Everything here runs on the loop's thread. No Glibc, no Foundation: tests run it with
//   KioskTestDoubles's loop, offscreen screen, scripted input and motion, and a manual clock.
