// KioskPresentation — how the HUD presents itself over time, as pure state machines (the module
// was called KioskBehavior before 0.2.0).
//
// Design
// ------
// * Pure Swift standard library: no Glibc, no Foundation, no Dispatch. The few
//   math functions needed (`exp`) are implemented in `Math.swift`.
// * Time is injected. Every API takes `Double` seconds on a monotonic clock
//   chosen by the caller; nothing here reads a clock or sleeps. Tests use a
//   "manual clock": they just pass numbers.
// * Value types with mutating methods. Each mutating entry point returns the
//   `PresentationAction`s that happened, in order; rendering state is a pure
//   function of the machine and a time (`appearance(at:)`, `value(at:)`,
//   `phase(at:)`), so the renderer can sample it at any frame time.
// * Scheduling is the caller's job: `nextDeadline` tells when `advance(to:)`
//   must be called next (a timer or the end of an animation); while
//   `isAnimating(at:)` is true the caller also renders frames at its own rate.
// * Nonsense is sanitised, never trapped on: NaN/±∞/negative durations become
//   0, non-finite times are replaced by the last known time, and time that goes
//   backwards is treated as "no time has passed" (nothing fires twice).
//
// Pieces
// ------
// * `TimingCurve`        – the critically damped spring of MBProgressHUD
//                          (UIKit spring, damping 1, velocity 0), ease-in-out, linear.
// * `AnimationKind`      – fade / zoom / zoomIn / zoomOut (MBProgressHUDAnimation).
// * `PresentationMachine`– show/hide with grace time, minimum show time,
//                          hide-after-delay and an activity counter
//                          (MBProgressHUD 1.2 + SVProgressHUD's activity count).
// * `ProgressAnimator`   – eased determinate progress.
// * `SpinnerClock`       – UIActivityIndicatorView-style 12-spoke phase and a continuous angle.
// * `MotionOffset`       – tilt → parallax offset (MBProgressHUD's motion effect).
