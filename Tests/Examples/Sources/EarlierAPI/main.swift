// A caller of the API before addObserver: it still builds, with a deprecation warning for each
// closure (CHANGELOG.md: deprecated in 0.1.0, removed in 0.2.0 at the earliest), and through the
// test doubles' module by its earlier name (KioskEmbedded, which re-exports KioskTestDoubles),
// and the seams' and the presentation's by theirs (KioskDevices, KioskBehavior: deprecated in
// 0.2.0, re-exporting KioskSeams and KioskPresentation).
import KioskBehavior
import KioskDevices
import KioskEmbedded
import KioskHUD
import KioskText

let rotation: Rotation = .half   // KioskSeams' type through KioskDevices
let animation: AnimationKind = .zoom   // KioskPresentation's through KioskBehavior
_ = (rotation, animation)

let display = try OffscreenDisplay(width: 320, height: 240)
let hud = try HUD(display: display, clock: ManualClock(0), fonts: FontLibrary(),
                  content: HUDContent(mode: .indeterminate, label: "Working"))
hud.onCompletion = { print("hidden") }
hud.onButton = { print("pressed") }
hud.onTapOutside = { print("tapped outside") }
hud.show(animated: false)
hud.hide(animated: false)
