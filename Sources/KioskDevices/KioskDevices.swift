// KioskDevices — deprecated: the seams' module is KioskSeams now (it holds protocols — Screen,
// Display, EventLoop, InputSource, MotionSource, Clock — not devices). This module only
// re-exports it, so that `import KioskDevices` keeps building; it goes away in 0.3.0 at the
// earliest. Write `import KioskSeams`.
@_exported import KioskSeams
