// KioskBehavior — deprecated: the module is KioskPresentation now (how the HUD presents itself
// over time: show/hide, animations, easing, the spinner, the button's press, the tilt's motion).
// This module only re-exports it, so that `import KioskBehavior` keeps building; it goes away in
// 0.3.0 at the earliest. Write `import KioskPresentation`.
@_exported import KioskPresentation
